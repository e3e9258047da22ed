#pragma once

#include "profile.h"

#include <algorithm>
#include <vector>

namespace runlane {

// A track's exec segments (ExecSegments, semantics.md §3) with their labels,
// in one flat array sorted by start: what the event-loop usage sums for
// every zoom, built once per track. Walking ExecSegments for each zoom
// reads each segment's measurement from the profile's measurement array at
// random, which at 5 M events cost 100 ms a zoom; here a range is a binary
// search and a sequential run over what it overlaps.
class TrackExecIndex
{
public:
    struct Segment {
        Time start;
        Time end;
        LabelId label;
    };

    TrackExecIndex(const Profile& profile, TrackId track);

    TrackId track() const { return m_track; }
    std::size_t size() const { return m_segments.size(); }
    const std::vector<Segment>& segments() const { return m_segments; }

    // Calls fn(label, start, end) for every segment overlapping [from, to),
    // clipped to it, in order of start.
    template<typename Fn>
    void forEach(Time from, Time to, Fn&& fn) const
    {
        // The first segment that may end after `from`: segments of a
        // well-nested track are disjoint, so ends rise with starts, but a
        // running maximum keeps the search right for any input.
        const auto first = std::partition_point(m_maxEnd.begin(), m_maxEnd.end(), [from](Time e) { return e <= from; });
        for (auto i = std::size_t(first - m_maxEnd.begin()); i < m_segments.size(); ++i) {
            const Segment& s = m_segments[i];
            if (s.start >= to)
                break;
            const Time a = std::max(s.start, from);
            const Time b = std::min(s.end, to);
            if (a < b)
                fn(s.label, a, b);
        }
    }

private:
    TrackId m_track;
    std::vector<Segment> m_segments;
    std::vector<Time> m_maxEnd; // m_maxEnd[i]: the latest end of segments 0..i
};

} // namespace runlane
