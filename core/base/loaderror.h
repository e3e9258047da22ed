#pragma once

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace runlane {

// Why a file could not be loaded, precise enough to find the spot in it.
struct LoadError {
    std::string file;
    std::int64_t byteOffset = -1; // -1 = not known
    std::int64_t line = -1; // 1-based line and column of byteOffset, -1 = not known
    std::int64_t column = -1;
    std::int64_t eventIndex = -1; // 0-based index in the event array, -1 = n/a
    std::string message; // what was expected or what went wrong
    bool cancelled = false;
    // The file is gzip-compressed: offsets, lines and columns are those of
    // the decompressed text.
    bool compressed = false;
    // The variant asked for (LoadControl::variant) is not in the file: a
    // mistake of the caller's, not of the file (runlane-cli calls it a
    // usage error). `variants` are those the file has, perhaps none.
    bool unknownVariant = false;
    std::vector<std::string> variants;

    // "trace.json: line 3, column 7 (byte 1234), event #56: expected ..."
    std::string toString() const;
};

// Thrown by format code for input it cannot interpret; the reader that drives
// it adds the file name and byte offset.
class FormatError : public std::runtime_error
{
public:
    explicit FormatError(const std::string& message, std::int64_t eventIndex = -1, std::int64_t byteOffset = -1)
        : std::runtime_error(message), m_eventIndex(eventIndex), m_byteOffset(byteOffset)
    {
    }
    std::int64_t eventIndex() const { return m_eventIndex; }
    // -1: the position where reading stopped is the best guess.
    std::int64_t byteOffset() const { return m_byteOffset; }

private:
    std::int64_t m_eventIndex;
    std::int64_t m_byteOffset;
};

// Thrown by a format whose file lacks the variant LoadControl::variant
// names; `variants` are those it has (the loader puts them in LoadError).
class UnknownVariantError : public FormatError
{
public:
    UnknownVariantError(const std::string& message, std::vector<std::string> variants, std::int64_t byteOffset = -1)
        : FormatError(message, -1, byteOffset), m_variants(std::move(variants))
    {
    }
    const std::vector<std::string>& variants() const { return m_variants; }

private:
    std::vector<std::string> m_variants;
};

// Thrown when the caller's cancel flag is seen; never escapes the loader.
class LoadCancelled : public std::exception
{
public:
    const char* what() const noexcept override { return "loading was cancelled"; }
};

// Throws LoadCancelled once `cancel` (if given) is set.
inline void throwIfCancelled(const std::atomic<bool>* cancel)
{
    if (cancel && cancel->load(std::memory_order_relaxed))
        throw LoadCancelled();
}

} // namespace runlane
