#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace runlane {

// A fast 64-bit hash of short strings (event names, ids), eight bytes at a
// step. Loaders compute it where they read a name (on the parsing thread in
// the fast path), so the thread building the model only looks it up.
inline std::uint64_t hashText(std::string_view text)
{
    std::uint64_t h = 0x9E3779B97F4A7C15ull ^ text.size();
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
    std::uint64_t tail = 0;
    if (n > 0) // an empty view may have no data at all: memcpy(…, nullptr, 0) is undefined
        std::memcpy(&tail, p, n);
    // A full avalanche at the end: tables use the low bits, and names that
    // differ only in later characters ("n1234567", "n1234568") must not
    // crowd into neighbouring slots.
    h ^= tail;
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    return h ^ (h >> 33);
}

} // namespace runlane
