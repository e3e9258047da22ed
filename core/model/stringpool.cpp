#include "stringpool.h"

#include "texthash.h"

#include <cstring>
#include <functional>

namespace runlane {

namespace {
constexpr std::size_t kArenaBlock = 64 * 1024;
constexpr std::size_t kInitialSlots = 1024; // power of two

std::uint32_t hashOf(std::string_view text)
{
    const std::uint64_t h = hashText(text);
    return static_cast<std::uint32_t>(h ^ (h >> 32));
}
} // namespace

StringPool::StringPool()
{
    m_slots.assign(kInitialSlots, 0);
    intern(std::string_view()); // kEmptyString
}

std::size_t StringPool::slotFor(std::string_view text, std::size_t hash) const
{
    const std::size_t mask = m_slots.size() - 1;
    std::size_t slot = hash & mask;
    for (;;) {
        const std::uint32_t entry = m_slots[slot];
        if (entry == 0)
            return slot;
        const std::uint32_t id = entry - 1;
        if (m_hashes[id] == hash && m_views[id] == text)
            return slot;
        slot = (slot + 1) & mask;
    }
}

StringId StringPool::find(std::string_view text) const
{
    const std::uint32_t entry = m_slots[slotFor(text, hashOf(text))];
    return entry == 0 ? kNone : entry - 1;
}

StringId StringPool::intern(std::string_view text)
{
    return intern(text, hashText(text));
}

StringId StringPool::intern(std::string_view text, std::uint64_t textHash)
{
    const std::uint32_t hash = static_cast<std::uint32_t>(textHash ^ (textHash >> 32));
    std::size_t slot = slotFor(text, hash);
    if (m_slots[slot] != 0)
        return m_slots[slot] - 1;

    const auto id = static_cast<StringId>(m_views.size());
    m_views.push_back(store(text));
    m_hashes.push_back(hash);
    m_slots[slot] = id + 1;
    // Keep the load factor under one half so probe runs stay short.
    if (m_views.size() * 2 > m_slots.size())
        grow();
    return id;
}

void StringPool::grow()
{
    std::vector<std::uint32_t> slots(m_slots.size() * 2, 0);
    const std::size_t mask = slots.size() - 1;
    for (std::uint32_t id = 0; id < m_views.size(); ++id) {
        std::size_t slot = m_hashes[id] & mask;
        while (slots[slot] != 0)
            slot = (slot + 1) & mask;
        slots[slot] = id + 1;
    }
    m_slots.swap(slots);
}

std::string_view StringPool::store(std::string_view text)
{
    if (text.empty())
        return std::string_view();
    // Long strings get a block of their own so they do not waste arena space.
    if (text.size() > kArenaBlock / 4) {
        auto block = std::make_unique<char[]>(text.size());
        m_bytes += text.size();
        std::memcpy(block.get(), text.data(), text.size());
        const std::string_view stored(block.get(), text.size());
        // Insert before the current arena block so that one keeps filling up.
        m_blocks.insert(m_blocks.empty() ? m_blocks.end() : m_blocks.end() - 1, std::move(block));
        return stored;
    }
    if (m_blocks.empty() || m_blockUsed + text.size() > m_blockSize) {
        m_blocks.push_back(std::make_unique<char[]>(kArenaBlock));
        m_bytes += kArenaBlock;
        m_blockSize = kArenaBlock;
        m_blockUsed = 0;
    }
    char* dest = m_blocks.back().get() + m_blockUsed;
    std::memcpy(dest, text.data(), text.size());
    m_blockUsed += text.size();
    return std::string_view(dest, text.size());
}

std::size_t StringPool::memoryUsage() const
{
    return m_views.capacity() * sizeof(std::string_view) + m_hashes.capacity() * sizeof(std::uint32_t)
        + m_slots.capacity() * sizeof(std::uint32_t) + m_blocks.capacity() * sizeof(void*) + m_bytes;
}

} // namespace runlane
