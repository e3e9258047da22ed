#include "rangeextrema.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace runlane {

namespace {

constexpr std::pair<double, double> kNothing{std::numeric_limits<double>::infinity(),
                                             -std::numeric_limits<double>::infinity()};

void widen(std::pair<double, double>& range, std::pair<double, double> other)
{
    range.first = std::min(range.first, other.first);
    range.second = std::max(range.second, other.second);
}

std::pair<double, double> scan(std::span<const double> values)
{
    std::pair<double, double> range = kNothing;
    for (const double v : values) {
        if (std::isfinite(v))
            widen(range, {v, v});
    }
    return range;
}

} // namespace

RangeExtrema::RangeExtrema(std::span<const double> values) : m_values(values)
{
    m_blocks = (values.size() + kBlock - 1) / kBlock;
    m_tree.assign(2 * m_blocks, kNothing);
    for (std::size_t b = 0; b < m_blocks; ++b)
        m_tree[m_blocks + b] = scan(values.subspan(b * kBlock, std::min(kBlock, values.size() - b * kBlock)));
    for (std::size_t i = m_blocks; i-- > 1;) {
        m_tree[i] = m_tree[2 * i];
        widen(m_tree[i], m_tree[2 * i + 1]);
    }
}

std::pair<double, double> RangeExtrema::extrema(std::size_t first, std::size_t last) const
{
    last = std::min(last, m_values.size());
    if (first >= last)
        return kNothing;
    // Blocks wholly inside the range: [firstBlock, lastBlock).
    const std::size_t firstBlock = (first + kBlock - 1) / kBlock;
    const std::size_t lastBlock = last / kBlock;
    if (firstBlock >= lastBlock)
        return scan(m_values.subspan(first, last - first));
    std::pair<double, double> range = scan(m_values.subspan(first, firstBlock * kBlock - first));
    widen(range, scan(m_values.subspan(lastBlock * kBlock, last - lastBlock * kBlock)));
    for (std::size_t l = firstBlock + m_blocks, r = lastBlock + m_blocks; l < r; l /= 2, r /= 2) {
        if (l & 1)
            widen(range, m_tree[l++]);
        if (r & 1)
            widen(range, m_tree[--r]);
    }
    return range;
}

} // namespace runlane
