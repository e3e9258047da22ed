#pragma once

// Fresh memory for the big arrays a load fills at once. A new page costs a
// fault the first time it is written; on a virtual machine whose page
// tables the host keeps (the reference machine's), each such fault is an
// exit to the host, and a load of a million events spent a fifth of its
// time there. Asking the kernel for all of a new array's pages in one call
// (MADV_POPULATE_WRITE, Linux 5.14) costs about half as much: 26 MB took
// 120 ms page by page and 72 ms in one call there. Elsewhere, or on an
// older kernel, the call does nothing and the pages come one by one as
// before.

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace runlane {

// madvise(advice) on the whole `page`-sized pages of [data, data + bytes);
// a failure (an older kernel, another system) changes nothing, and the
// memory stays as it was.
inline void adviseWholePages(const void* data, std::size_t bytes, std::uintptr_t page, int advice)
{
#if defined(__linux__)
    const auto from = (reinterpret_cast<std::uintptr_t>(data) + page - 1) & ~(page - 1);
    const auto to = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(page - 1);
    if (to > from)
        madvise(reinterpret_cast<void*>(from), to - from, advice);
#else
    (void)data;
    (void)bytes;
    (void)page;
    (void)advice;
#endif
}

// Makes the whole pages of [data, data + bytes) resident and writable now.
inline void populateForWrite(void* data, std::size_t bytes)
{
    constexpr std::size_t kWorthIt = std::size_t(1) << 20; // below this, the faults are few
    constexpr int kPopulateWrite = 23; // MADV_POPULATE_WRITE, which older headers lack
    if (bytes >= kWorthIt)
        adviseWholePages(data, bytes, 4096, kPopulateWrite); // a failure leaves the pages to fault
}

// v.assign(n, value) into memory made resident in one call (above).
template<typename T>
void assignFresh(std::vector<T>& v, std::size_t n, const std::type_identity_t<T>& value = T())
{
    if (v.capacity() < n) {
        std::vector<T>().swap(v); // the old buffer goes first: it never adds to the peak
        v.reserve(n);
    }
    populateForWrite(v.data(), n * sizeof(T));
    v.assign(n, value);
}

} // namespace runlane
