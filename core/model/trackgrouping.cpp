#include "trackgrouping.h"

#include "parallel.h"

#include <algorithm>
#include <atomic>
#include <new>

namespace runlane {

TrackGrouping::TrackGrouping(std::span<const Interval> intervals, std::span<const Measurement> measurements,
                             std::size_t trackCount)
    : m_intervals(intervals), m_measurements(measurements)
{
    const std::size_t n = intervals.size();
    // The counts per slice, slices x tracks, stay below a sixteenth of an
    // item per interval; otherwise one slice.
    const std::size_t slices = (n + kParallelSlice - 1) / kParallelSlice;
    const bool split = slices > 1 && slices * trackCount <= n / 16;
    m_slice = split ? kParallelSlice : std::max<std::size_t>(n, 1);
    m_slices = split ? slices : 1;
    m_begin.assign(trackCount + 1, 0);
    m_cursor.assign(m_slices * trackCount, 0);
    std::vector<IntervalId> first(m_slices * trackCount, kNone);
    // Runs of one track start where the track changes: the intervals are
    // grouped if there are no more runs than tracks that have intervals.
    std::vector<std::size_t> changes(m_slices, 0);
    parallelFor(m_slices, [&](std::size_t s) {
        const auto [from, to] = sliceOf(s);
        IntervalId* const count = m_cursor.data() + s * trackCount;
        IntervalId* const firstOf = first.data() + s * trackCount;
        TrackId previous = from == 0 ? kNone : trackOf(from - 1);
        std::size_t changed = 0;
        for (std::size_t i = from; i < to; ++i) {
            const TrackId t = trackOf(i);
            if (count[t]++ == 0)
                firstOf[t] = IntervalId(i);
            changed += t != previous ? 1 : 0;
            previous = t;
        }
        changes[s] = changed;
    });

    m_run.assign(trackCount, kNone);
    std::size_t runs = 0;
    for (std::size_t s = 0; s < m_slices; ++s)
        runs += changes[s];
    std::size_t tracksWithIntervals = 0;
    for (std::size_t t = 0; t < trackCount; ++t) {
        // Each slice's cursor: where its first interval of the track goes.
        IntervalId at = 0;
        for (std::size_t s = 0; s < m_slices; ++s) {
            IntervalId& cell = m_cursor[s * trackCount + t];
            const IntervalId count = cell;
            cell = at;
            at += count;
            if (m_run[t] == kNone)
                m_run[t] = first[s * trackCount + t];
        }
        m_begin[t + 1] = m_begin[t] + at;
        tracksWithIntervals += at > 0 ? 1 : 0;
    }
    for (std::size_t s = 0; s < m_slices; ++s) {
        for (std::size_t t = 0; t < trackCount; ++t)
            m_cursor[s * trackCount + t] += m_begin[t];
    }
    m_grouped = runs <= tracksWithIntervals;
}

void TrackGrouping::group(Interval* out, const std::function<void(std::size_t)>& copied) const
{
    const std::size_t trackCount = tracks();
    std::atomic<std::size_t> done{0};
    parallelFor(m_slices, [&](std::size_t s) {
        const auto [from, to] = sliceOf(s);
        std::vector<IntervalId> cursor(m_cursor.begin() + std::ptrdiff_t(s * trackCount),
                                       m_cursor.begin() + std::ptrdiff_t((s + 1) * trackCount));
        for (std::size_t i = from; i < to; ++i)
            ::new (out + cursor[trackOf(i)]++) Interval(m_intervals[i]);
        const std::size_t all = done += to - from;
        if (copied)
            copied(all);
    });
}

std::pair<std::size_t, std::size_t> TrackGrouping::sliceOf(std::size_t s) const
{
    const std::size_t from = s * m_slice;
    return {from, std::min(m_intervals.size(), from + m_slice)};
}

} // namespace runlane
