#pragma once

// An append-only sequence kept in blocks that double in size up to a
// limit (issue 45). Nothing already in it moves as it grows (a vector's
// doubling copies every element again, into fresh memory), and its memory
// comes in few allocations that grow with it: std::deque's 512-byte nodes,
// which the Chrome reader kept its B and E events in, made the window's
// loading thread grow its heap 4 KiB at a time, 9,000 to 13,500 times in
// a 20 M load, each time with a call that takes the address space's lock
// for writing while every other thread's page faults wait.

#include <algorithm>
#include <cstddef>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

namespace runlane {

template<typename T, std::size_t kFirstBlock = 256, std::size_t kLargestBlock = 65536>
class BlockList
{
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
    static_assert(kFirstBlock > 0 && kFirstBlock <= kLargestBlock);

public:
    void push_back(const T& value)
    {
        if (m_used == m_capacity)
            grow();
        m_blocks.back()[m_used++] = value;
        ++m_size;
    }
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }

    // fn(std::span<const T>) for each block's elements, in order.
    template<typename Fn>
    void forEachBlock(Fn&& fn) const
    {
        std::size_t left = m_size;
        std::size_t capacity = kFirstBlock;
        for (const std::unique_ptr<T[]>& block : m_blocks) {
            const std::size_t count = std::min(left, capacity);
            fn(std::span<const T>(block.get(), count));
            left -= count;
            capacity = std::min(capacity * 2, kLargestBlock);
        }
    }
    // Every element in one array, in order; the list is left empty, its
    // blocks given back.
    std::vector<T> take()
    {
        std::vector<T> all;
        all.reserve(m_size);
        forEachBlock([&all](std::span<const T> block) { all.insert(all.end(), block.begin(), block.end()); });
        clear();
        return all;
    }
    // Empty, its memory given back.
    void clear()
    {
        std::vector<std::unique_ptr<T[]>>().swap(m_blocks);
        m_used = m_capacity = m_size = 0;
    }

private:
    void grow()
    {
        m_capacity = m_blocks.empty() ? kFirstBlock : std::min(m_capacity * 2, kLargestBlock);
        m_blocks.push_back(std::make_unique_for_overwrite<T[]>(m_capacity));
        m_used = 0;
    }

    std::vector<std::unique_ptr<T[]>> m_blocks;
    std::size_t m_used = 0; // in the last block
    std::size_t m_capacity = 0; // of the last block
    std::size_t m_size = 0;
};

} // namespace runlane
