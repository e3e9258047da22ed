#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace runlane {

// The nearest-rank q-quantile of n sorted values is the k-th smallest,
// k = ceil(q n) (semantics.md §5): its index, for every percentile the
// analyses give (the rank's, scheduling delays', round trips').
inline std::size_t nearestRank(std::size_t n, double q)
{
    const std::size_t rank = std::size_t(std::ceil(q * double(n)));
    return std::clamp<std::size_t>(rank, 1, n) - 1;
}

} // namespace runlane
