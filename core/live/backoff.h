#pragma once

#include <chrono>

namespace runlane {

// How long a live source waits before it tries again after a failure:
// doubling from `base` up to `max` (1 s, 2 s, 4 s … 30 s), so a program
// that went away is not hammered and one that comes back is found soon. A
// success resets it.
class Backoff
{
public:
    Backoff(std::chrono::milliseconds base, std::chrono::milliseconds max);

    // Counts a failure; the wait before the next attempt.
    std::chrono::milliseconds fail();
    void reset() { m_failures = 0; }
    int failures() const { return m_failures; }

private:
    std::chrono::milliseconds m_base;
    std::chrono::milliseconds m_max;
    int m_failures = 0;
};

} // namespace runlane
