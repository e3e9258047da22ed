#pragma once

#include "loaderror.h"

#include <atomic>
#include <cstdint>

namespace runlane {

// A sort of millions of items takes long enough that Cancel must reach into
// it: the comparison looks at the flag every 64 Ki calls (a counter and a
// rarely taken branch) and throws LoadCancelled, which leaves the range
// permuted but valid, and it is thrown away anyway.
template<typename Less>
class CancellableLess
{
public:
    CancellableLess(const std::atomic<bool>* cancel, Less less) : m_cancel(cancel), m_less(less) {}
    template<typename T>
    bool operator()(const T& a, const T& b) const
    {
        if ((++t_calls & 0xFFFF) == 0 && m_cancel && m_cancel->load(std::memory_order_relaxed))
            throw LoadCancelled();
        return m_less(a, b);
    }

private:
    const std::atomic<bool>* m_cancel;
    Less m_less;
    // The calls on this thread, whichever copy of the comparison made them
    // (std::sort copies it into nearly every helper it calls): a count
    // shared through a shared_ptr cost two atomic operations a copy,
    // millions of them in a sort.
    static thread_local std::uint32_t t_calls;
};

template<typename Less>
thread_local std::uint32_t CancellableLess<Less>::t_calls = 0;

} // namespace runlane
