#pragma once

// Reordering big arrays without a copy of them beside: the finisher puts
// a load's measurements in creation order, and a copy in the new order was
// the load's peak memory (issue 45).

#include "parallel.h"

#include <algorithm>
#include <cstddef>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace runlane {

// How many positions permuteInPlace gathers into one bucket, for arrays of
// `bytesPerPosition` together (the destinations' included): the largest
// power of two whose bucket fits in 512 KiB, half of this machine's L2.
constexpr std::size_t permuteBucketSize(std::size_t bytesPerPosition)
{
    std::size_t size = 1;
    while (size * 2 * bytesPerPosition <= (std::size_t(512) << 10))
        size *= 2;
    return size;
}

// How many positions one core places at a time in permuteInPlace's second
// pass: whole buckets, at least 65,536 positions, so that an array of a
// million is shared between cores.
constexpr std::size_t permutePieceSize(std::size_t bytesPerPosition)
{
    return std::max(permuteBucketSize(bytesPerPosition), std::size_t(1) << 16);
}

// Moves what is at position i of every array to position destination[i]
// (`destination` a permutation of 0..n-1, each array at least n long), as
// a copy into new arrays would place it, and leaves `destination` as the
// identity. No memory beside the arrays but a word per bucket and a
// bucket's copy per core.
//
// Following the permutation's cycles directly is a chain of dependent
// reads at random over the whole arrays: at 50 M measurements (2 GB) that
// took 12 s, a cache miss per step. So, in two passes, each sequential or
// within the cache:
// 1. every position goes into its bucket (its destination divided by
//    permuteBucketSize), in place (an American flag sort: each bucket's
//    size is known, a permutation fills each exactly). The writes go to
//    one slot per bucket, each bucket's next: a few thousand lines, held
//    in L2, each asked for a few slots before it is reached;
// 2. each bucket, now in the cache, is copied aside and each position
//    written back at its destination.
// `check(done)` is called before each 2^20 positions the first pass puts
// in their buckets and each piece (permutePieceSize) of the second (a
// cancel, how far it is), there from every core at once; `done` counts
// both passes' positions behind it, out of 2n: the first pass's, then n
// plus the second's (the pieces are taken in order). The first pass is
// skipped when the arrays fit in one bucket.
template<typename Index, typename Check, typename... Arrays>
void permuteInPlace(std::span<Index> destination, Check&& check, Arrays&... arrays)
{
    constexpr std::size_t kBytes = (sizeof(Index) + ... + sizeof(std::remove_reference_t<decltype(arrays[0])>));
    constexpr std::size_t kBucket = permuteBucketSize(kBytes);
    constexpr std::size_t kCheckEvery = std::size_t(1) << 20;
    constexpr std::size_t kSlotsAhead = 8; // a bucket's slots ahead: 16 and 32 did no better on 1 M and 4 M shuffled
    const std::size_t count = destination.size();
    auto swapAt = [&](std::size_t a, std::size_t b) {
        using std::swap;
        swap(destination[a], destination[b]);
        (swap(arrays[a], arrays[b]), ...);
    };
    if (count > kBucket) {
        const std::size_t buckets = (count + kBucket - 1) / kBucket;
        std::vector<std::size_t> next(buckets); // each bucket's first slot not yet filled
        for (std::size_t b = 0; b < buckets; ++b)
            next[b] = b * kBucket;
        // Each step of the loop below puts one position in its bucket for
        // good, n in all; most are put while the first buckets fill (what
        // is swapped into them belongs anywhere), so how far the pass is
        // is counted in these steps, not in buckets.
        std::size_t placed = 0;
        for (std::size_t b = 0; b < buckets; ++b) {
            const std::size_t end = std::min(count, (b + 1) * kBucket);
            // What is swapped into slot p is looked at again: it may
            // belong to another bucket too.
            for (std::size_t& p = next[b]; p < end;) {
                if (placed++ % kCheckEvery == 0)
                    check(placed - 1);
                const std::size_t home = std::size_t(destination[p]) / kBucket;
                if (home == b) {
                    ++p;
                    continue;
                }
                const std::size_t slot = next[home]++;
                // Each bucket's slots are filled in order, but hundreds
                // of buckets at once: no hardware prefetcher follows so
                // many streams, and each swap waited for its slot's lines.
                if (slot + kSlotsAhead < count) {
                    __builtin_prefetch(&destination[slot + kSlotsAhead], 1);
                    (__builtin_prefetch(&arrays[slot + kSlotsAhead], 1), ...);
                }
                swapAt(p, slot);
            }
        }
    }
    // After the first pass every bucket holds its own positions, so the
    // buckets are independent: pieces of whole buckets on every core.
    constexpr std::size_t kPiece = permutePieceSize(kBytes);
    static_assert(kPiece % kBucket == 0, "pieces are whole buckets");
    // Each bucket is moved aside, one array at a time, and each position
    // written from there to its place: writes that do not wait on each
    // other. Following the cycles with swaps made each step wait for the
    // one before, and took most of the time of moving a million
    // measurements.
    const auto placeWithin = [&](std::size_t piece) {
        check(count + piece * kPiece);
        const std::size_t end = std::min(count, (piece + 1) * kPiece);
        std::tuple<std::vector<std::remove_cvref_t<decltype(arrays[0])>>...> aside;
        std::apply([&](auto&... buffer) { (buffer.reserve(std::min(kBucket, end - piece * kPiece)), ...); }, aside);
        const auto through = [&](auto& buffer, auto& array, std::size_t from, std::size_t to) {
            buffer.clear();
            for (std::size_t p = from; p < to; ++p)
                buffer.push_back(std::move(array[p]));
            for (std::size_t p = from; p < to; ++p)
                array[std::size_t(destination[p])] = std::move(buffer[p - from]);
        };
        for (std::size_t from = piece * kPiece; from < end; from += kBucket) {
            const std::size_t to = std::min(end, from + kBucket);
            [&]<std::size_t... I>(std::index_sequence<I...>) {
                (through(std::get<I>(aside), arrays, from, to), ...);
            }(std::index_sequence_for<Arrays...>{});
            for (std::size_t p = from; p < to; ++p)
                destination[p] = Index(p);
        }
    };
    // Arrays of one piece are placed here.
    parallelFor((count + kPiece - 1) / kPiece, placeWithin);
}

} // namespace runlane
