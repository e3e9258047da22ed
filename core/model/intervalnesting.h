#pragma once

#include "profiletypes.h"

#include <cstdint>
#include <span>
#include <vector>

namespace runlane {

// Nests the intervals of one track for ProfileBuilder's layout: a parent (an
// index into the slice, or kNone) and a depth for each. The slice comes
// sorted by (start, end descending, order). Runs on any thread: it touches
// only the one track's slice and what it is given.
class IntervalNesting
{
public:
    // An interval that starts inside another but ends after it. `cut`: a
    // call, cut at the other's end; otherwise kept whole.
    struct Overlap {
        Interval child;
        Interval parent;
        bool cut;
    };
    // The first few overlaps as examples, all of them counted.
    struct Log {
        std::vector<Overlap> examples;
        std::uint64_t count[2] = {0, 0}; // kept, cut
        void add(const Interval& child, const Interval& parent, bool cut);
    };

    // `measurements` as the loader stated them (flags, creators); `parent`
    // and `depth` have one entry per interval of the slice.
    IntervalNesting(const std::vector<Measurement>& measurements, std::vector<std::uint32_t>& parent,
                    std::vector<std::uint32_t>& depth, Log& log);

    // A thread: one running stack. May cut calls (see the definition).
    void thread(std::span<Interval> slice);
    // An async track: concurrent tasks, packed into rows.
    void async(std::span<const Interval> slice);
    // An async track of a worker pool (TrackInfo::workerPool): nothing
    // nests, each interval takes the first row free at its start.
    void pool(std::span<const Interval> slice);

private:
    const std::vector<Measurement>& m_measurements;
    std::vector<std::uint32_t>& m_parent;
    std::vector<std::uint32_t>& m_depth;
    Log& m_log;
};

} // namespace runlane
