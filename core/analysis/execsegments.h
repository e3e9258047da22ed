#pragma once

#include "profile.h"

#include <algorithm>

namespace runlane {

// Walks the exec segments of a track (semantics.md §3): the spans during
// which a measurement was the innermost running one, i.e. each interval minus
// its children. Exec time, the range rank and the event-loop usage are all
// sums over these segments, so they agree with each other by construction.
//
// Per depth, the intervals overlapping the range are one contiguous run
// (Profile::overlapping) and their children are the matching run one depth
// below, walked with a second cursor: O(log n + k) per depth.
class ExecSegments
{
public:
    // Calls fn(measurement, interval, start, end) for every non-empty
    // segment inside [from, to), clipped to it.
    template<typename Fn>
    static void forEach(const Profile& profile, TrackId track, Time from, Time to, Fn&& fn)
    {
        const int depthCount = profile.track(track).depthCount();
        const auto all = profile.intervals();
        for (int depth = 0; depth < depthCount; ++depth) {
            const auto [first, last] = profile.overlapping(track, depth, from, to);
            if (first == last)
                continue;
            const auto children = profile.depthSlice(track, depth + 1);
            const Interval* child = children.data();
            const Interval* childEnd = children.data() + children.size();
            if (!children.empty()) {
                const Time firstStart = all[first].start;
                child = std::partition_point(child, childEnd,
                                             [firstStart](const Interval& iv) { return iv.start < firstStart; });
            }
            for (IntervalId id = first; id < last; ++id) {
                const Interval& iv = all[id];
                Time cursor = iv.start;
                auto emit = [&](Time s, Time e) {
                    s = std::max(s, from);
                    e = std::min(e, to);
                    if (s < e)
                        fn(iv.measurement, id, s, e);
                };
                while (child != childEnd && child->start < iv.start)
                    ++child;
                while (child != childEnd && child->parent == id) {
                    const Time childStart = std::max(child->start, cursor);
                    if (childStart > cursor)
                        emit(cursor, std::min(childStart, iv.end));
                    cursor = std::max(cursor, std::min(child->end, iv.end));
                    ++child;
                }
                if (cursor < iv.end)
                    emit(cursor, iv.end);
            }
        }
    }
};

} // namespace runlane
