#pragma once

// A stable least-significant-digit radix sort of ids by a 64-bit key, on
// every core: the finisher numbers a load's measurements in creation order
// with it (issue 45). A comparison sort of a million keys of four fields
// took 20-30 ms on two cores and a merge after it; this takes a pass per
// digit of the key that is not the same in all items (three at a million
// events), each a read and a scatter of 12 bytes per item.

#include "parallel.h"

#include <algorithm>
#include <bit>
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

// radixSort's `cores` when it may use all of them (at most eight).
inline constexpr std::size_t kRadixEveryCore = 8;

// Sorts `items` by key, equal keys in their order (stable), using `buffer`
// (as long as `items`) as the other array of each pass. Returns the array
// that holds the result: `items` or `buffer`. `check(passesDone, passes)`
// is called before each pass (a cancel, how far it is), on this thread.
// `cores`: at most this many (1: all on this thread, for a caller that
// sorts several arrays side by side on the cores already).
//
// A pass per digit of up to kMaxDigitBits bits: the bits that differ among
// the keys are cut into as few digits as that allows, of equal widths, and
// a digit in which no key differs from the first needs no pass. A
// measurement's creation key at a million events differs in its low 36
// bits: three passes of 12 bits where bytes took five (20-23 ms of a 1 M
// load's build, then 11-16); a bucket count of 4,096 keeps each part's
// counts in L1 and the lines it scatters to in L2.
template<typename Check>
std::span<RadixItem> radixSort(std::span<RadixItem> items, std::span<RadixItem> buffer, Check&& check,
                               std::size_t cores = kRadixEveryCore)
{
    constexpr int kMaxDigitBits = 12;
    const std::size_t n = items.size();
    std::uint64_t differing = 0;
    if (n > 0) {
        const std::uint64_t first = items[0].key();
        const auto differingIn = [&](std::size_t from, std::size_t to) {
            std::uint64_t bits = 0;
            for (std::size_t i = from; i < to; ++i)
                bits |= items[i].key() ^ first;
            return bits;
        };
        if (cores <= 1) {
            differing = differingIn(0, n);
        } else {
            for (const std::uint64_t bits : parallelSlices(n, differingIn))
                differing |= bits;
        }
    }
    // The digits: [shift, shift + width) for each shift, over the differing
    // bits' span.
    const int low = differing == 0 ? 0 : std::countr_zero(differing);
    const int span = differing == 0 ? 0 : std::bit_width(differing) - low;
    const int digitCount = (span + kMaxDigitBits - 1) / kMaxDigitBits;
    const int width = digitCount == 0 ? 1 : (span + digitCount - 1) / digitCount;
    const std::uint64_t mask = (std::uint64_t(1) << width) - 1;
    std::vector<int> shifts;
    for (int d = 0; d < digitCount; ++d) {
        if ((differing >> (low + d * width)) & mask)
            shifts.push_back(low + d * width);
    }
    const std::size_t buckets = std::size_t(1) << width;
    const auto digitOf = [mask](const RadixItem& item, int shift) { return std::size_t((item.key() >> shift) & mask); };
    // Each part of the array is counted and scattered by one core; parts
    // in order, each scattered in its order, keep the sort stable.
    const std::size_t machine = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, kRadixEveryCore);
    const std::size_t parts = std::clamp<std::size_t>(n / kParallelSlice, 1, std::clamp<std::size_t>(cores, 1, machine));
    const auto partBegin = [n, parts](std::size_t p) { return n * p / parts; };
    std::vector<std::vector<std::size_t>> counts(parts, std::vector<std::size_t>(buckets));
    std::span<RadixItem> from = items;
    std::span<RadixItem> to = buffer;
    for (std::size_t k = 0; k < shifts.size(); ++k) {
        check(k, shifts.size());
        const int shift = shifts[k];
        parallelFor(parts, [&](std::size_t p) {
            std::vector<std::size_t>& count = counts[p];
            std::fill(count.begin(), count.end(), 0);
            for (std::size_t i = partBegin(p); i < partBegin(p + 1); ++i)
                ++count[digitOf(from[i], shift)];
        });
        // Bucket by bucket, part by part: each part's first slot in each bucket.
        std::size_t next = 0;
        for (std::size_t b = 0; b < buckets; ++b) {
            for (std::vector<std::size_t>& count : counts)
                next += std::exchange(count[b], next);
        }
        parallelFor(parts, [&](std::size_t p) {
            std::size_t* const slot = counts[p].data();
            for (std::size_t i = partBegin(p); i < partBegin(p + 1); ++i)
                to[slot[digitOf(from[i], shift)]++] = from[i];
        });
        std::swap(from, to);
    }
    check(shifts.size(), shifts.size());
    return from;
}

} // namespace runlane
