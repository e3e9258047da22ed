#include "labelindex.h"

#include <algorithm>

namespace runlane {

LabelIndex::LabelIndex(const Profile& profile) : m_offsets(profile.labelCount() + 1, 0)
{
    // Counting sort by label: ids come out in id order within each label.
    const std::size_t count = profile.intervalCount();
    for (IntervalId id = 0; id < count; ++id)
        ++m_offsets[profile.labelOf(profile.interval(id).measurement) + 1];
    for (std::size_t l = 1; l < m_offsets.size(); ++l)
        m_offsets[l] += m_offsets[l - 1];
    m_ids.resize(count);
    std::vector<std::uint32_t> next(m_offsets.begin(), m_offsets.end() - 1);
    for (IntervalId id = 0; id < count; ++id)
        m_ids[next[profile.labelOf(profile.interval(id).measurement)]++] = id;
}

std::span<const IntervalId> LabelIndex::inRow(LabelId label, IntervalId rowFirst, IntervalId rowLast) const
{
    const auto all = intervalsOf(label);
    const auto first = std::lower_bound(all.begin(), all.end(), rowFirst);
    const auto last = std::lower_bound(first, all.end(), rowLast);
    return {first, last};
}

IntervalId LabelIndex::step(const Profile& profile, std::span<const LabelId> labels, Time t, IntervalId after,
                            bool forward) const
{
    // (start, id) order; `after` = kNone means "just before (t, 0)" going
    // forward and "just after (t, max)" going back.
    auto later = [&profile](IntervalId a, IntervalId b) {
        const Time sa = profile.interval(a).start;
        const Time sb = profile.interval(b).start;
        return sa != sb ? sa > sb : a > b;
    };
    auto beyond = [&](IntervalId id) {
        const Time s = profile.interval(id).start;
        if (after == kNone)
            return forward ? s >= t : s <= t;
        if (s != t)
            return forward ? s > t : s < t;
        return forward ? id > after : id < after;
    };
    IntervalId best = kNone;
    for (const LabelId label : labels) {
        // Each row of each track is start-sorted: one binary search per row.
        for (TrackId track = 0; track < profile.trackCount(); ++track) {
            const Track& tr = profile.track(track);
            for (int d = 0; d < tr.depthCount(); ++d) {
                const auto row = inRow(label, tr.depthOffsets[d], tr.depthOffsets[d + 1]);
                if (row.empty())
                    continue;
                // First id in the row beyond the position going forward;
                // last one before it going back.
                const auto it = std::partition_point(row.begin(), row.end(), [&](IntervalId id) {
                    return forward ? !beyond(id) : beyond(id);
                });
                IntervalId candidate = kNone;
                if (forward && it != row.end())
                    candidate = *it;
                else if (!forward && it != row.begin())
                    candidate = *(it - 1);
                if (candidate != kNone && (best == kNone || (forward ? later(best, candidate) : later(candidate, best))))
                    best = candidate;
            }
        }
    }
    return best;
}

std::size_t LabelIndex::countBefore(const Profile& profile, std::span<const LabelId> labels, Time t, IntervalId id) const
{
    std::size_t count = 0;
    for (const LabelId label : labels) {
        // As in step(): each row of each track is start-sorted.
        for (TrackId track = 0; track < profile.trackCount(); ++track) {
            const Track& tr = profile.track(track);
            for (int d = 0; d < tr.depthCount(); ++d) {
                const auto row = inRow(label, tr.depthOffsets[d], tr.depthOffsets[d + 1]);
                count += std::size_t(std::partition_point(row.begin(), row.end(), [&](IntervalId other) {
                                         const Time s = profile.interval(other).start;
                                         return s != t ? s < t : other < id;
                                     }) - row.begin());
            }
        }
    }
    return count;
}

} // namespace runlane
