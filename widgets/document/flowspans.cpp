#include "flowspans.h"

#include <bit>

namespace runlane {

std::pair<Time, Time> FlowSpans::arrowSpan(const Profile& profile, const Flow& flow)
{
    const Interval& source = profile.interval(flow.from);
    const Time target = profile.interval(flow.to).start;
    const Time from = std::clamp(target, source.start, std::max(source.start, source.end));
    return {std::min(from, target), std::max(from, target)};
}

FlowSpans::FlowSpans(const Profile& profile)
{
    // Group g holds the arrows whose length has bit width g (0: length 0).
    std::vector<Group> groups(65);
    const std::vector<Flow>& flows = profile.flows();
    for (std::uint32_t k = 0; k < flows.size(); ++k) {
        if (flows[k].from >= profile.intervalCount() || flows[k].to >= profile.intervalCount())
            continue;
        const auto [from, to] = arrowSpan(profile, flows[k]);
        Group& group = groups[std::size_t(std::bit_width(std::uint64_t(to - from)))];
        group.longest = std::max(group.longest, to - from);
        group.arrows.push_back(Arrow{from, to, k});
    }
    for (Group& group : groups) {
        if (group.arrows.empty())
            continue;
        std::sort(group.arrows.begin(), group.arrows.end(),
                  [](const Arrow& a, const Arrow& b) { return a.from < b.from; });
        m_groups.push_back(std::move(group));
    }
}

} // namespace runlane
