#pragma once

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

namespace runlane {

// Copies of short texts that must outlast the buffer they were read from,
// handed out as views that stay valid until clear(). A tokenizer fills
// events with views (ChromeEvent); most point into the text it was given,
// which lasts long enough, and only the others (an unescaped string, a
// message written on the spot) are copied here: a copy into a std::string
// per field was a tenth of the Chrome tokenizer's time.
class TextArena
{
public:
    // Copies are made in blocks of this size.
    static constexpr std::size_t kBlockSize = 16 << 10;

    // A view of a copy of `text`, valid until clear().
    std::string_view keep(std::string_view text);
    // Forgets every copy; the blocks of the usual size are kept for reuse.
    void clear();
    // The bytes held in blocks, for tests.
    std::size_t capacity() const;

private:
    std::vector<std::unique_ptr<char[]>> m_blocks; // of kBlockSize bytes
    std::size_t m_next = 0; // the block to fill when this one is full
    char* m_free = nullptr; // where the next copy goes in this block
    std::size_t m_left = 0; // bytes left in it
    // Texts over a quarter block, each in its own block.
    std::vector<std::unique_ptr<char[]>> m_large;
    std::size_t m_largeBytes = 0;
};

} // namespace runlane
