#include "iciclesource.h"

#include <algorithm>
#include <unordered_set>
#include <vector>

namespace runlane {

std::pair<std::uint32_t, std::uint32_t> IcicleSource::overlapping(TrackId track, int depth, Time from, Time to) const
{
    const auto slice = depthSlice(track, depth);
    if (slice.empty())
        return {0, 0};
    // Disjoint and start-sorted, hence end-sorted: two binary searches.
    const auto lo = std::partition_point(slice.begin(), slice.end(), [from](const Interval& iv) {
        return iv.end < from || (iv.end == from && iv.start < from);
    });
    const auto hi = std::partition_point(lo, slice.end(), [to](const Interval& iv) { return iv.start <= to; });
    const std::uint32_t base = idOf(slice.front());
    return {base + std::uint32_t(lo - slice.begin()), base + std::uint32_t(hi - slice.begin())};
}

std::uint32_t IcicleSource::at(TrackId track, int depth, Time t) const
{
    const auto slice = depthSlice(track, depth);
    const auto it = std::partition_point(slice.begin(), slice.end(), [t](const Interval& iv) { return iv.end <= t; });
    if (it == slice.end() || it->start > t)
        return kNone;
    return idOf(*it);
}

bool IcicleSource::hasChildren(std::uint32_t id) const
{
    const Interval& self = span(id);
    const auto children = depthSlice(trackOf(id), depthOf(id) + 1);
    const auto it = std::partition_point(children.begin(), children.end(),
                                         [&self](const Interval& c) { return c.start < self.start; });
    for (auto c = it; c != children.end() && c->start < std::max(self.end, self.start + 1); ++c) {
        if (c->parent == id)
            return true;
    }
    return false;
}

std::size_t IcicleSource::descendantCount(std::uint32_t id) const
{
    // Walk down depth by depth, keeping the ids found one level up.
    const TrackId track = trackOf(id);
    const Interval& top = span(id);
    std::vector<std::uint32_t> level{id};
    std::size_t count = 0;
    for (int d = depthOf(id) + 1; d < depthCount(track) && !level.empty(); ++d) {
        const auto slice = depthSlice(track, d);
        std::vector<std::uint32_t> next;
        auto it = std::partition_point(slice.begin(), slice.end(), [&top](const Interval& c) { return c.start < top.start; });
        std::unordered_set<std::uint32_t> parents(level.begin(), level.end());
        for (; it != slice.end() && it->start < std::max(top.end, top.start + 1); ++it) {
            if (parents.count(it->parent))
                next.push_back(idOf(*it));
        }
        count += next.size();
        level.swap(next);
    }
    return count;
}

} // namespace runlane
