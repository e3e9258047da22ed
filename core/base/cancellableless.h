#pragma once

#include "loaderror.h"

#include <atomic>
#include <cstdint>
#include <functional>

namespace runlane {

// How many comparisons a CancellableLess makes on a thread between two
// looks at its flag (and two ticks).
inline constexpr std::uint32_t kComparisonsPerCheck = 1 << 16;

// A sort of millions of items takes long enough that Cancel must reach into
// it: the comparison looks at the flag every 64 Ki calls (a counter and a
// rarely taken branch) and throws LoadCancelled, which leaves the range
// permuted but valid, and it is thrown away anyway. At the same calls it
// ticks, if given a tick: the only way to tell how far a sort of seconds
// is (BuildProgress::Share) without sorting in more pieces.
template<typename Less>
class CancellableLess
{
public:
    // `tick`, if not null, is called on every thread that compares, once
    // per kComparisonsPerCheck of its calls; it must outlive the sort.
    CancellableLess(const std::atomic<bool>* cancel, Less less, const std::function<void()>* tick = nullptr)
        : m_cancel(cancel), m_less(less), m_tick(tick)
    {
    }
    template<typename T>
    bool operator()(const T& a, const T& b) const
    {
        if ((++t_calls & (kComparisonsPerCheck - 1)) == 0) [[unlikely]] {
            throwIfCancelled(m_cancel);
            if (m_tick)
                (*m_tick)();
        }
        return m_less(a, b);
    }

private:
    const std::atomic<bool>* m_cancel;
    Less m_less;
    const std::function<void()>* m_tick;
    // The calls on this thread, whichever copy of the comparison made them
    // (std::sort copies it into nearly every helper it calls): a count
    // shared through a shared_ptr cost two atomic operations a copy,
    // millions of them in a sort.
    static thread_local std::uint32_t t_calls;
};

template<typename Less>
thread_local std::uint32_t CancellableLess<Less>::t_calls = 0;

} // namespace runlane
