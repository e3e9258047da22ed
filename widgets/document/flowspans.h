#pragma once

#include "profile.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace runlane {

// The stretch of time each flow's arrow covers (FlowPainter::arrowLine: from
// the source box at the target's start, or at the source's nearer end, to
// the target's start), indexed to find the arrows that cross a whole time
// range: those the icicle draws though neither of their ends is in view.
// The arrows are grouped by the length of their stretch, in powers of two,
// each group sorted by start; for a range, a group is searched only from its
// longest length before the range, so a query costs O(groups × log n +
// arrows met), not a look at every flow. Built once per profile
// (LoadedProfile::prepare).
class FlowSpans
{
public:
    explicit FlowSpans(const Profile& profile);

    // The times the arrow of `flow` runs between, earlier first.
    static std::pair<Time, Time> arrowSpan(const Profile& profile, const Flow& flow);

    // Calls visit(k) for each index k into Profile::flows() of a flow whose
    // arrow starts before `from` and ends at or after `to`, until visit
    // returns false; returns false if it was stopped.
    template <typename Visit>
    bool forEachCrossing(Time from, Time to, Visit&& visit) const
    {
        for (const Group& group : m_groups) {
            if (group.longest <= to - from)
                continue;
            auto it = std::lower_bound(group.arrows.begin(), group.arrows.end(), to - group.longest,
                                       [](const Arrow& a, Time t) { return a.from < t; });
            for (; it != group.arrows.end() && it->from < from; ++it) {
                if (it->to >= to && !visit(it->flow))
                    return false;
            }
        }
        return true;
    }

private:
    struct Arrow {
        Time from;
        Time to;
        std::uint32_t flow;
    };
    struct Group {
        Time longest = 0;
        std::vector<Arrow> arrows; // by start
    };
    std::vector<Group> m_groups; // non-empty ones only
};

} // namespace runlane
