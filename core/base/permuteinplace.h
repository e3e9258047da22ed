#pragma once

// Reordering big arrays without a copy of them beside: the finisher puts
// a load's measurements in creation order, and a copy in the new order was
// the load's peak memory (issue 45).

#include <cstddef>
#include <span>
#include <tuple>
#include <vector>

namespace runlane {

// Afterwards position i of every array holds what was at order[i] (`order`
// a permutation of 0..n-1, each array at least n long), as a copy into
// new arrays would leave them. Cycle by cycle, with a bit per position to
// mark those placed: n bits instead of the arrays again. Data nearly in
// order already (a trace written in time order) has cycles of one, and
// the walk is close to a sequential pass. `check` is called every 2^20
// positions (a cancel).
template<typename Index, typename Check, typename... Arrays>
void permuteInPlace(std::span<const Index> order, Check&& check, Arrays&... arrays)
{
    const std::size_t count = order.size();
    std::vector<bool> placed(count, false);
    for (std::size_t start = 0; start < count; ++start) {
        if ((start & 0xFFFFF) == 0)
            check();
        if (placed[start] || order[start] == start)
            continue;
        const auto held = std::make_tuple(arrays[start]...);
        std::size_t i = start;
        for (;;) {
            placed[i] = true;
            const std::size_t from = order[i];
            if (from == start) {
                std::tie(arrays[i]...) = held;
                break;
            }
            ((arrays[i] = arrays[from]), ...);
            i = from;
        }
    }
}

} // namespace runlane
