#pragma once

#include "profiletypes.h"

#include <atomic>
#include <cstddef>
#include <span>

namespace runlane {

// A track's intervals in the order the layout nests them (ProfileFinisher,
// step 3): by start, a longer one first on a tie, then as the loader
// recorded them (its order is in `parent` until the nesting sets it).
//
// Loaders record an interval when it ends, a call after the calls it
// made, so the starts come in runs that fall as often as they rise. A
// comparison sort spends 33-48 ns an interval on them, and a 1 M load's
// tracks (82 K intervals each) took a fifth of its build's CPU time so.
// Up to kRadixMost intervals, this sorts the starts by radix (radixSort, a
// pass per 12 bits in which they differ: two or three) and the rare equal
// starts by comparison, then moves the intervals once: 17-22 ns an
// interval, for 28 bytes an interval while it runs. A bigger track is
// sorted by comparison in place: the scratch of two tracks laid out at
// once stays in the heap after them, and raised the peak of a 5 M load
// (tracks of 410 K intervals) by 25 MiB and of a 20 M load (1.6 M) by
// 107 MiB, with no time gained there that the runs could tell.
class IntervalOrder
{
public:
    static constexpr std::size_t kRadixMost = std::size_t(1) << 18;

    static bool before(const Interval& a, const Interval& b)
    {
        if (a.start != b.start)
            return a.start < b.start;
        if (a.end != b.end)
            return a.end > b.end;
        return a.parent < b.parent;
    }

    // Sorts `intervals` so that `before` holds between neighbours, on this
    // thread. Throws LoadCancelled once `cancel` (if given) is set, with
    // the intervals all there, in some order.
    static void sort(std::span<Interval> intervals, const std::atomic<bool>* cancel);

private:
    static void byRadix(std::span<Interval> intervals, const std::atomic<bool>* cancel);
};

} // namespace runlane
