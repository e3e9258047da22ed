#include "backoff.h"

#include <algorithm>

namespace runlane {

Backoff::Backoff(std::chrono::milliseconds base, std::chrono::milliseconds max)
    : m_base(std::max(base, std::chrono::milliseconds(1))), m_max(std::max(max, m_base))
{
}

std::chrono::milliseconds Backoff::fail()
{
    ++m_failures;
    // Doubling stops at the cap long before the shift could overflow.
    std::chrono::milliseconds wait = m_base;
    for (int i = 1; i < m_failures && wait < m_max; ++i)
        wait *= 2;
    return std::min(wait, m_max);
}

} // namespace runlane
