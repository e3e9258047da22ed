#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace runlane {

// The last `n` bytes of `text` (n < 8, n <= its size) as a little-endian
// number, read in whole words: a copy of n bytes into a word, then read as
// one, stalled on the bytes just stored (a quarter of the fast Chrome
// tokenizer's time in the name's field).
inline std::uint64_t lastBytes(std::string_view text, std::size_t n)
{
    const char* const end = text.data() + text.size();
    if (n == 0)
        return 0; // an empty view may have no data at all
    if (text.size() >= 8) {
        // The 8 bytes that end with the text's, less those before the tail.
        std::uint64_t last;
        std::memcpy(&last, end - 8, 8);
        return last >> (8 * (8 - n));
    }
    const char* const p = end - n;
    if (n >= 4) {
        // Two 4-byte words that overlap, the same bytes where they do.
        std::uint32_t low;
        std::uint32_t high;
        std::memcpy(&low, p, 4);
        std::memcpy(&high, end - 4, 4);
        return low | std::uint64_t(high) << (8 * (n - 4));
    }
    // The first, middle and last of 1 to 3 bytes.
    const auto byte = [p](std::size_t i) { return std::uint64_t(static_cast<unsigned char>(p[i])); };
    return byte(0) | byte(n / 2) << (8 * (n / 2)) | byte(n - 1) << (8 * (n - 1));
}

// A fast 64-bit hash of short strings (event names, ids), eight bytes at a
// step. Loaders compute it where they read a name (on the parsing thread in
// the fast path), so the thread building the model only looks it up.
inline std::uint64_t hashText(std::string_view text)
{
    // The length multiplied in first: XORed in as it is, it met the tail's
    // low bits, and "j" and "i\0" hashed the same.
    std::uint64_t h = (0x9E3779B97F4A7C15ull ^ text.size()) * 0xBF58476D1CE4E5B9ull;
    const char* p = text.data();
    std::size_t n = text.size();
    while (n >= 8) {
        std::uint64_t word;
        std::memcpy(&word, p, 8);
        h = (h ^ word) * 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
        p += 8;
        n -= 8;
    }
    h ^= lastBytes(text, n);
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    return h ^ (h >> 33);
}

} // namespace runlane
