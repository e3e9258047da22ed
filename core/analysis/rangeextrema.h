#pragma once

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

namespace runlane {

// Minimum and maximum of any slice of a series of values in O(log n), for
// views that draw far more samples than they have pixel columns (a counter
// track merges every column's samples into one min..max bar): a frame then
// costs O(columns × log n) whatever the number of samples.
//
// Values are summarised per block of kBlock; a segment tree over the blocks
// answers the whole blocks of a query, the partial blocks at its two ends are
// read directly. The summary takes about n / 8 doubles besides the values,
// which it does not own: they must outlive it, unchanged.
//
// Non-finite values (NaN, ±inf) are left out: a range of only such values
// has no extrema.
class RangeExtrema
{
public:
    static constexpr std::size_t kBlock = 32;

    RangeExtrema() = default;
    explicit RangeExtrema(std::span<const double> values);

    std::size_t size() const { return m_values.size(); }
    // {min, max} of the finite values of [first, last); {+inf, -inf} if
    // there are none (also for an empty or reversed range).
    std::pair<double, double> extrema(std::size_t first, std::size_t last) const;

private:
    std::span<const double> m_values;
    std::size_t m_blocks = 0;
    // Segment tree over the blocks: leaves at m_blocks + b, node i covers
    // nodes 2i and 2i + 1 (the iterative layout; any number of leaves).
    std::vector<std::pair<double, double>> m_tree;
};

} // namespace runlane
