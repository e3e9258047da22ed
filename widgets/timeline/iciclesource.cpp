#include "iciclesource.h"

#include <algorithm>

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

} // namespace runlane
