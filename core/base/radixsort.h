#pragma once

// A stable least-significant-digit radix sort of ids by a 64-bit key, on
// every core: the finisher numbers a load's measurements in creation order
// with it (issue 45). A comparison sort of a million keys of four fields
// took 20-30 ms on two cores and a merge after it; this takes a pass per
// byte of the key that is not the same in all items (four or five at a
// million events), each a read and a scatter of 12 bytes per item.

#include "parallel.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <thread>
#include <utility>
#include <vector>

namespace runlane {

// 12 bytes, not 16: the key in two halves keeps the item's alignment to
// 4, so that the sort's two arrays take no more than the 24-byte keys of
// the comparison sort they replace.
struct RadixItem {
    std::uint32_t low = 0;
    std::uint32_t high = 0;
    std::uint32_t id = 0;

    static RadixItem of(std::uint64_t key, std::uint32_t id)
    {
        return {std::uint32_t(key), std::uint32_t(key >> 32), id};
    }
    std::uint64_t key() const { return std::uint64_t(high) << 32 | low; }
};
static_assert(sizeof(RadixItem) == 12);

// Sorts `items` by key, equal keys in their order (stable), using `buffer`
// (as long as `items`) as the other array of each pass. Returns the array
// that holds the result: `items` or `buffer`. `check(passesDone, passes)`
// is called before each pass (a cancel, how far it is), on this thread.
template<typename Check>
std::span<RadixItem> radixSort(std::span<RadixItem> items, std::span<RadixItem> buffer, Check&& check)
{
    constexpr std::size_t kDigits = 8;
    constexpr std::size_t kBuckets = 256;
    using Histogram = std::array<std::size_t, kBuckets>;
    const std::size_t n = items.size();
    const auto digitOf = [](const RadixItem& item, std::size_t d) { return (item.key() >> (8 * d)) & 0xFF; };
    // A digit every item shares needs no pass: found from the bits that
    // differ from the first item's key in any item.
    std::uint64_t differing = 0;
    if (n > 0) {
        const std::uint64_t first = items[0].key();
        const std::vector<std::uint64_t> parts = parallelSlices(n, [&](std::size_t from, std::size_t to) {
            std::uint64_t bits = 0;
            for (std::size_t i = from; i < to; ++i)
                bits |= items[i].key() ^ first;
            return bits;
        });
        for (const std::uint64_t bits : parts)
            differing |= bits;
    }
    std::vector<std::size_t> digits;
    for (std::size_t d = 0; d < kDigits; ++d) {
        if ((differing >> (8 * d)) & 0xFF)
            digits.push_back(d);
    }
    // Each part of the array is counted and scattered by one core; parts
    // in order, each scattered in its order, keep the sort stable.
    const std::size_t cores = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 8);
    const std::size_t parts = std::clamp<std::size_t>(n / kParallelSlice, 1, cores);
    const auto partBegin = [n, parts](std::size_t p) { return n * p / parts; };
    std::vector<Histogram> counts(parts);
    std::span<RadixItem> from = items;
    std::span<RadixItem> to = buffer;
    for (std::size_t k = 0; k < digits.size(); ++k) {
        check(k, digits.size());
        const std::size_t d = digits[k];
        parallelFor(parts, [&](std::size_t p) {
            Histogram& count = counts[p];
            count.fill(0);
            for (std::size_t i = partBegin(p); i < partBegin(p + 1); ++i)
                ++count[digitOf(from[i], d)];
        });
        // Bucket by bucket, part by part: each part's first slot in each bucket.
        std::size_t next = 0;
        for (std::size_t b = 0; b < kBuckets; ++b) {
            for (Histogram& count : counts)
                next += std::exchange(count[b], next);
        }
        parallelFor(parts, [&](std::size_t p) {
            Histogram& slot = counts[p];
            for (std::size_t i = partBegin(p); i < partBegin(p + 1); ++i)
                to[slot[digitOf(from[i], d)]++] = from[i];
        });
        std::swap(from, to);
    }
    check(digits.size(), digits.size());
    return from;
}

} // namespace runlane
