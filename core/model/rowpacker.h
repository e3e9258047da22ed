#pragma once

#include "profiletypes.h"

#include <cstdint>
#include <queue>
#include <utility>
#include <vector>

namespace runlane {

// Stacks groups of rows first-fit: each group, taken in order of its start,
// goes to the lowest run of `height` consecutive rows that are all free at
// that start (the rows' earlier occupants have ended). A segment tree of
// free runs answers that in O(log rows) and a heap of occupied rows frees
// them as time passes, so a million tasks alive at once are packed in
// O(n log n), not by scanning every row for every task.
class RowPacker
{
public:
    // The first row of the run for a group on [start, end) of `height`
    // rows; starts must not decrease from call to call.
    std::uint32_t place(Time start, Time end, std::uint32_t height);

private:
    struct Node {
        std::uint32_t prefix = 0; // free rows at the left end
        std::uint32_t suffix = 0; // free rows at the right end
        std::uint32_t best = 0; // the longest free run inside
    };
    void grow(std::size_t rows);
    void set(std::size_t row, bool free);
    Node combine(const Node& left, const Node& right, std::uint32_t halfLength) const;
    std::size_t leftmostRun(std::uint32_t height) const;

    std::size_t m_capacity = 0; // leaves, a power of two
    std::vector<Node> m_tree; // heap order: node k has children 2k and 2k+1
    std::vector<bool> m_free;
    using Busy = std::pair<Time, std::uint32_t>; // until, row
    std::priority_queue<Busy, std::vector<Busy>, std::greater<>> m_busy;
};

} // namespace runlane
