#pragma once

#include "profile.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace runlane {

// A track's exec segments (ExecSegments, semantics.md §3) with their labels,
// in one flat array sorted by start: what the event-loop usage sums for
// every zoom, built once per track. Walking ExecSegments for each zoom
// reads each segment's measurement from the profile's measurement array at
// random, which at 5 M events cost 100 ms a zoom; here a range is a binary
// search and a sequential run over what it overlaps.
//
// When the segments are disjoint (a well-nested track: every Thread track
// the readers build; an async track's tasks may overlap), it also sums
// them: the exec of the whole track, and of each label, before any time,
// in O(log n). A bin's usage is then two such
// sums rather than a run over its segments, so that the usage of a whole
// 50 M-event profile does not cost a pass over its tens of millions of
// segments on every zoom (issue 45: 100 ms a notch on the other core, which
// the window's repaint and the X server share).
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
    // Whether busy() and exec() answer: no two segments overlap (each ends
    // before the next starts), and the track's span fits in a Time.
    bool summed() const { return m_summed; }
    // The labels with a segment, in order of id.
    const std::vector<LabelId>& labels() const { return m_labels; }
    // Exec of every segment inside [from, to) (summed() only).
    Time busy(Time from, Time to) const { return busyBefore(to) - busyBefore(from); }
    // Exec of `label`'s segments inside [from, to) (summed() only); 0 for a
    // label without segments.
    Time exec(LabelId label, Time from, Time to) const { return execBefore(label, to) - execBefore(label, from); }
    // The same before `t`: exec in (-inf, t). With a `cursor` (0 at
    // first, then kept), successive calls for rising times search onward
    // from the last answer rather than over all the segments.
    Time busyBefore(Time t, std::size_t* cursor = nullptr) const;
    Time execBefore(LabelId label, Time t, std::size_t* cursor = nullptr) const;

    // Calls fn(label, start, end) for every segment overlapping [from, to),
    // clipped to it, in order of start.
    template<typename Fn>
    void forEach(Time from, Time to, Fn&& fn) const
    {
        // The first segment that may end after `from`: segments of a
        // well-nested track are disjoint, so ends rise with starts, but a
        // running maximum (kept only when they overlap) keeps the search
        // right for any input.
        const std::size_t first = m_maxEnd.empty()
            ? std::size_t(std::partition_point(m_segments.begin(), m_segments.end(), [from](const Segment& s) { return s.end <= from; })
                          - m_segments.begin())
            : std::size_t(std::partition_point(m_maxEnd.begin(), m_maxEnd.end(), [from](Time e) { return e <= from; })
                          - m_maxEnd.begin());
        for (std::size_t i = first; i < m_segments.size(); ++i) {
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
    void sum();

    TrackId m_track;
    std::vector<Segment> m_segments;
    std::vector<Time> m_maxEnd; // m_maxEnd[i]: the latest end of segments 0..i; empty when they are disjoint
    bool m_summed = false;
    // summed() only. Exec of segments 0..i, for the whole track:
    std::vector<Time> m_busyThrough;
    // and per label: its segments' starts from m_labelBegin[label] to
    // m_labelBegin[label + 1], with the exec of its segments through each.
    std::vector<std::uint32_t> m_labelBegin;
    std::vector<Time> m_labelStarts;
    std::vector<Time> m_labelThrough;
    std::vector<LabelId> m_labels;
};

} // namespace runlane
