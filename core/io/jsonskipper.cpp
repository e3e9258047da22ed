#include "jsonskipper.h"

#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace runlane {

namespace {

// Bit i of each mask says what byte p[i] of a 64-byte block is.
struct BlockMasks {
    std::uint64_t quote = 0;
    std::uint64_t backslash = 0;
    std::uint64_t open = 0; // '{' or '['
    std::uint64_t close = 0; // '}' or ']'
};

BlockMasks masksOf(const char* p)
{
    BlockMasks m;
#if defined(__SSE2__)
    // SSE2 is part of every x86-64 CPU. '[' and ']' differ from '{' and '}'
    // only in bit 0x20: one compare finds both kinds.
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i open = _mm_set1_epi8('{');
    const __m128i close = _mm_set1_epi8('}');
    const __m128i fold = _mm_set1_epi8(0x20);
    for (int k = 0; k < 4; ++k) {
        const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
        const __m128i folded = _mm_or_si128(chunk, fold);
        const int shift = 16 * k;
        m.quote |= std::uint64_t(std::uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, quote)))) << shift;
        m.backslash |= std::uint64_t(std::uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, backslash)))) << shift;
        m.open |= std::uint64_t(std::uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(folded, open)))) << shift;
        m.close |= std::uint64_t(std::uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(folded, close)))) << shift;
    }
#else
    for (int i = 0; i < 64; ++i) {
        const std::uint64_t bit = std::uint64_t(1) << i;
        const char c = p[i];
        m.quote |= c == '"' ? bit : 0;
        m.backslash |= c == '\\' ? bit : 0;
        m.open |= c == '{' || c == '[' ? bit : 0;
        m.close |= c == '}' || c == ']' ? bit : 0;
    }
#endif
    return m;
}

// Bit i set if an odd number of bits are set in [0, i].
std::uint64_t prefixXor(std::uint64_t x)
{
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

} // namespace

void JsonSkipper::start(char first)
{
    m_first = first;
    m_depth = 0;
    m_inString = false;
    m_escape = false;
    m_scalar = false;
    m_begun = false;
}

const char* JsonSkipper::feed(const char* p, const char* end)
{
    if (!m_begun && p < end) {
        m_begun = true;
        if (*p == '{' || *p == '[') {
            m_depth = 1;
            ++p;
        } else if (*p == '"') {
            m_inString = true;
            ++p;
        } else {
            m_scalar = true;
        }
    }
    if (m_scalar) {
        for (; p < end; ++p) {
            const char c = *p;
            if (c == ',' || c == ']' || c == '}' || c == ' ' || c == '\n' || c == '\r' || c == '\t')
                return p;
        }
        return nullptr;
    }
    while (p < end) {
        // Whole 64-byte blocks without escapes: where strings are and which
        // brackets count come from bit masks, as in simdjson's first stage.
        // (A string value on its own ends at its closing quote: that the
        // byte loop below sees.)
        if (end - p >= 64 && !m_escape && m_depth > 0) {
            const BlockMasks m = masksOf(p);
            if (m.backslash == 0) {
                // Bit i: byte i is an opening quote or inside a string.
                const std::uint64_t inString = prefixXor(m.quote) ^ (m_inString ? ~std::uint64_t(0) : 0);
                std::uint64_t brackets = (m.open | m.close) & ~inString;
                while (brackets != 0) {
                    const int i = __builtin_ctzll(brackets);
                    brackets &= brackets - 1;
                    if ((m.open >> i) & 1) {
                        ++m_depth;
                    } else if (--m_depth == 0) {
                        m_inString = false;
                        return p + i + 1;
                    }
                }
                m_inString = (inString >> 63) & 1;
                p += 64;
                continue;
            }
        }
        // Escapes, or the last bytes: one at a time.
        const char* stop = end - p > 64 ? p + 64 : end;
        while (p < stop) {
            if (m_inString) {
                if (m_escape) {
                    m_escape = false;
                } else if (*p == '\\') {
                    m_escape = true;
                } else if (*p == '"') {
                    m_inString = false;
                    if (m_depth == 0)
                        return p + 1; // a string value
                }
                ++p;
                continue;
            }
            const char c = *p++;
            if (c == '"')
                m_inString = true;
            else if (c == '{' || c == '[')
                ++m_depth;
            else if ((c == '}' || c == ']') && --m_depth == 0)
                return p;
        }
    }
    return nullptr;
}

} // namespace runlane
