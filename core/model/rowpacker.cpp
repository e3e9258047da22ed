#include "rowpacker.h"

#include <algorithm>

namespace runlane {

RowPacker::Node RowPacker::combine(const Node& left, const Node& right, std::uint32_t halfLength) const
{
    Node node;
    node.prefix = left.prefix == halfLength ? halfLength + right.prefix : left.prefix;
    node.suffix = right.suffix == halfLength ? halfLength + left.suffix : right.suffix;
    node.best = std::max({left.best, right.best, left.suffix + right.prefix});
    return node;
}

// Rows past the end are free: a bigger tree starts with the old rows as
// they were and the new ones free.
void RowPacker::grow(std::size_t rows)
{
    std::size_t capacity = std::max<std::size_t>(m_capacity, 64);
    while (capacity < rows)
        capacity *= 2;
    if (capacity == m_capacity)
        return;
    m_free.resize(capacity, true);
    m_capacity = capacity;
    m_tree.assign(2 * capacity, Node{});
    for (std::size_t row = 0; row < capacity; ++row) {
        const std::uint32_t f = m_free[row] ? 1 : 0;
        m_tree[capacity + row] = Node{f, f, f};
    }
    std::uint32_t length = 1;
    for (std::size_t first = capacity / 2; first >= 1; first /= 2, length *= 2) {
        for (std::size_t k = first; k < 2 * first; ++k)
            m_tree[k] = combine(m_tree[2 * k], m_tree[2 * k + 1], length);
    }
}

void RowPacker::set(std::size_t row, bool free)
{
    m_free[row] = free;
    const std::uint32_t f = free ? 1 : 0;
    std::size_t k = m_capacity + row;
    m_tree[k] = Node{f, f, f};
    for (std::uint32_t length = 1; k > 1; length *= 2) {
        k /= 2;
        m_tree[k] = combine(m_tree[2 * k], m_tree[2 * k + 1], length);
    }
}

std::size_t RowPacker::leftmostRun(std::uint32_t height) const
{
    if (m_tree[1].best < height)
        return m_capacity - m_tree[1].suffix; // starts in the free tail; the tree grows
    std::size_t k = 1;
    std::size_t first = 0;
    std::size_t length = m_capacity;
    while (k < m_capacity) {
        const std::size_t half = length / 2;
        const Node& left = m_tree[2 * k];
        const Node& right = m_tree[2 * k + 1];
        if (left.best >= height) {
            k = 2 * k;
        } else if (left.suffix + right.prefix >= height) {
            return first + half - left.suffix;
        } else {
            k = 2 * k + 1;
            first += half;
        }
        length = half;
    }
    return first;
}

std::uint32_t RowPacker::place(Time start, Time end, std::uint32_t height)
{
    if (m_capacity == 0)
        grow(std::max<std::size_t>(height, 1));
    while (!m_busy.empty() && m_busy.top().first <= start) {
        set(m_busy.top().second, true);
        m_busy.pop();
    }
    std::size_t base = leftmostRun(height);
    if (base + height > m_capacity) {
        grow(base + height);
        base = leftmostRun(height);
    }
    for (std::size_t row = base; row < base + height; ++row) {
        set(row, false);
        m_busy.emplace(end, std::uint32_t(row));
    }
    return std::uint32_t(base);
}

} // namespace runlane
