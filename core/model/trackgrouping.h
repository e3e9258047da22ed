#pragma once

#include "profiletypes.h"

#include <cstddef>
#include <functional>
#include <span>
#include <utility>
#include <vector>

namespace runlane {

// The recorded intervals grouped by track, as the finisher lays them out
// (ProfileFinisher, step 3): where each track's intervals begin once
// grouped, whether they are grouped already (a loader that adds one
// thread after another), and the grouping itself, each track's intervals
// in the order they were recorded.
//
// Both passes run on every core, each core over its own slices of the
// intervals: the count of each slice's intervals per track says where a
// slice writes each track's, so that the slices write at once and the
// result is the one pass's. At 1 M events the two passes were 11 ms on
// one core of a 1 M load's build, and about a second at 50 M. With many
// tracks the counts per slice would cost more than they save: then one
// slice takes them all, on one core, as before.
class TrackGrouping
{
public:
    // Counts `intervals` by track; an interval's track is that of its
    // measurement, each below `trackCount`. Both must outlast this.
    TrackGrouping(std::span<const Interval> intervals, std::span<const Measurement> measurements, std::size_t trackCount);

    // Where track t's intervals begin once grouped, t in [0, trackCount];
    // begin(trackCount) is the number of intervals.
    IntervalId begin(std::size_t t) const { return m_begin[t]; }
    // How many intervals track t has.
    IntervalId count(std::size_t t) const { return m_begin[t + 1] - m_begin[t]; }
    // Whether each track's intervals already lie in one run; then run(t)
    // is where it starts (for a track with intervals).
    bool grouped() const { return m_grouped; }
    IntervalId run(std::size_t t) const { return m_run[t]; }

    // Copies the intervals counted into out[0, n), grouped by track. After
    // each slice, on the core that copied it, `copied(done)` says how many
    // intervals all cores have copied so far (for a progress report).
    void group(Interval* out, const std::function<void(std::size_t)>& copied = {}) const;

private:
    std::size_t tracks() const { return m_begin.size() - 1; }
    // Slice s's intervals, [first, second).
    std::pair<std::size_t, std::size_t> sliceOf(std::size_t s) const;
    TrackId trackOf(std::size_t i) const { return m_measurements[m_intervals[i].measurement].track; }

    std::span<const Interval> m_intervals;
    std::span<const Measurement> m_measurements;
    std::size_t m_slice = 0; // intervals per slice; the last may have fewer
    std::size_t m_slices = 0;
    // Slice s's count of track t's intervals at [s * m_tracks + t]; after
    // the counts, where slice s writes track t's first one.
    std::vector<IntervalId> m_cursor;
    std::vector<IntervalId> m_begin;
    std::vector<IntervalId> m_run;
    bool m_grouped = true;
};

} // namespace runlane
