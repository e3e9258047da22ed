#pragma once

#include "profile.h"

#include <span>
#include <vector>

namespace runlane {

// Every interval of each label, for highlighting all occurrences of a label
// and stepping through them in time. A label's ids are kept in id order,
// which the profile's layout makes (track, depth, start) order: within one
// row of one track they are sorted by start, so a view finds a label's
// visible intervals in a row with two binary searches.
class LabelIndex
{
public:
    explicit LabelIndex(const Profile& profile);

    std::span<const IntervalId> intervalsOf(LabelId label) const
    {
        return {m_ids.data() + m_offsets[label], m_offsets[label + 1] - m_offsets[label]};
    }
    // The label's intervals in one row: ids in [rowFirst, rowLast).
    std::span<const IntervalId> inRow(LabelId label, IntervalId rowFirst, IntervalId rowLast) const;

    // The next occurrence of any of `labels` after (t, after) in (start, id)
    // order, or the previous one before it; kNone if there is none. Pass
    // after = kNone to include intervals starting exactly at t.
    IntervalId step(const Profile& profile, std::span<const LabelId> labels, Time t, IntervalId after,
                    bool forward) const;

    // How many intervals of `labels` come before (t, id) in (start, id)
    // order: the position of an occurrence among all of them ("k of N").
    std::size_t countBefore(const Profile& profile, std::span<const LabelId> labels, Time t, IntervalId id) const;

private:
    std::vector<std::uint32_t> m_offsets; // per label, into m_ids; labelCount + 1
    std::vector<IntervalId> m_ids;
};

} // namespace runlane
