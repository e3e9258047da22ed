#include "intervalmatch.h"

#include <algorithm>

namespace runlane {

IntervalId IntervalMatch::find(const Profile& from, IntervalId id, const Profile& to)
{
    if (id >= from.intervalCount())
        return kNone;
    const Interval& wanted = from.interval(id);
    const Track& wantedTrack = from.track(from.trackOf(id));
    const int depth = from.depthOf(id);
    const std::string_view trackName = from.string(wantedTrack.name);
    const std::string_view label = from.labelName(from.labelOf(wanted.measurement));
    for (TrackId t = 0; t < to.trackCount(); ++t) {
        const Track& track = to.track(t);
        if (track.kind != wantedTrack.kind || depth >= track.depthCount() || to.string(track.name) != trackName)
            continue;
        // A depth's intervals are sorted by start; those starting together
        // (zero-length calls, async tasks) are told apart by end and label.
        const std::span<const Interval> slice = to.depthSlice(t, depth);
        auto it = std::partition_point(slice.begin(), slice.end(), [&](const Interval& c) { return c.start < wanted.start; });
        for (; it != slice.end() && it->start == wanted.start; ++it) {
            if (it->end == wanted.end && to.labelName(to.labelOf(it->measurement)) == label)
                return IntervalId(&*it - to.intervals().data());
        }
    }
    return kNone;
}

} // namespace runlane
