#include "textarena.h"

#include <cstring>

namespace runlane {

std::string_view TextArena::keep(std::string_view text)
{
    if (text.empty())
        return {};
    char* at = nullptr;
    if (text.size() > kBlockSize / 4) {
        m_large.push_back(std::make_unique_for_overwrite<char[]>(text.size()));
        m_largeBytes += text.size();
        at = m_large.back().get();
    } else {
        if (text.size() > m_left) {
            if (m_next == m_blocks.size())
                m_blocks.push_back(std::make_unique_for_overwrite<char[]>(kBlockSize));
            m_free = m_blocks[m_next++].get();
            m_left = kBlockSize;
        }
        at = m_free;
        m_free += text.size();
        m_left -= text.size();
    }
    std::memcpy(at, text.data(), text.size());
    return {at, text.size()};
}

void TextArena::clear()
{
    m_next = 0;
    m_free = nullptr;
    m_left = 0;
    m_large.clear();
    m_largeBytes = 0;
}

std::size_t TextArena::capacity() const
{
    return m_blocks.size() * kBlockSize + m_largeBytes;
}

} // namespace runlane
