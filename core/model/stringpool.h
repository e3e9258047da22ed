#pragma once

#include "profiletypes.h"

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

namespace runlane {

// Interns strings: every distinct string is stored once and named by a dense
// StringId. Loaders intern each event name as it streams past, so lookup is an
// open-addressing hash table over ids (no node allocation per entry), and the
// bytes live in large arena blocks that never move, which keeps the
// string_views handed out valid for the pool's lifetime, even across moves.
class StringPool
{
public:
    StringPool();
    StringPool(StringPool&&) noexcept = default;
    StringPool& operator=(StringPool&&) noexcept = default;
    StringPool(const StringPool&) = delete;
    StringPool& operator=(const StringPool&) = delete;

    StringId intern(std::string_view text);
    // With hashText(text) already computed.
    StringId intern(std::string_view text, std::uint64_t textHash);
    // kNone if the string was never interned.
    StringId find(std::string_view text) const;

    std::string_view view(StringId id) const { return m_views[id]; }
    std::size_t size() const { return m_views.size(); }
    // Bytes held, for the memory figures of the benchmarks.
    std::size_t memoryUsage() const;

private:
    std::size_t slotFor(std::string_view text, std::size_t hash) const;
    void grow();
    std::string_view store(std::string_view text);

    std::vector<std::string_view> m_views;
    std::vector<std::uint32_t> m_hashes;
    std::vector<std::uint32_t> m_slots; // id + 1, 0 = empty
    std::vector<std::unique_ptr<char[]>> m_blocks;
    std::size_t m_blockUsed = 0;
    std::size_t m_blockSize = 0;
    std::size_t m_bytes = 0; // allocated for string bytes
};

} // namespace runlane
