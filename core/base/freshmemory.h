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

#include "hugepagenew.h"
#include "parallel.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace runlane {

// The huge page of x86-64 and arm64 (4 KiB base pages).
inline constexpr std::uintptr_t kHugePageBytes = std::uintptr_t(2) << 20;
// MADV_POPULATE_WRITE (Linux 5.14), which older headers lack.
inline constexpr int kAdvicePopulateWrite = 23;

// madvise(advice) on the whole `page`-sized pages of [data, data + bytes).
// False if the call failed (an older kernel, another system): that changes
// nothing, and the memory stays as it was. True if there were no whole
// pages.
inline bool adviseWholePages(const void* data, std::size_t bytes, std::uintptr_t page, int advice)
{
#if defined(__linux__)
    const auto from = (reinterpret_cast<std::uintptr_t>(data) + page - 1) & ~(page - 1);
    const auto to = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(page - 1);
    return to <= from || madvise(reinterpret_cast<void*>(from), to - from, advice) == 0;
#else
    (void)data;
    (void)bytes;
    (void)page;
    (void)advice;
    return false;
#endif
}

// Makes the whole pages of [data, data + bytes) resident and writable now.
// A big array's pieces on every core: memory the process never had costs
// most (the host backs it then), and two cores filled 400 MB of it in
// 150-360 ms, one in 480-670 ms; a gigabyte takes a second or more.
// `populated(done)`, if given, is called after each piece of a big array
// on the core that filled it, `done` the bytes filled so far on all
// cores: how far it is, for a progress report.
inline void populateForWrite(void* data, std::size_t bytes, const std::function<void(std::size_t)>& populated = {})
{
    constexpr std::size_t kWorthIt = std::size_t(1) << 20; // below this, the faults are few
    constexpr std::size_t kPiece = 16 * kHugePageBytes;
    if (bytes < kWorthIt)
        return;
    if (bytes < 2 * kPiece) { // one call: a thread is not worth starting
        adviseWholePages(data, bytes, 4096, kAdvicePopulateWrite); // a failure leaves the pages to fault
        return;
    }
    auto* const bytesAt = static_cast<std::byte*>(data);
    // Pieces start on kPiece boundaries, so that none splits a huge page.
    const auto address = reinterpret_cast<std::uintptr_t>(data);
    const std::size_t head = ((address + kPiece - 1) & ~(kPiece - 1)) - address; // < kPiece < bytes
    const std::size_t pieces = 1 + (bytes - head + kPiece - 1) / kPiece;
    std::atomic<std::size_t> done{0};
    parallelFor(pieces, [&](std::size_t k) {
        const std::size_t from = k == 0 ? 0 : head + (k - 1) * kPiece;
        const std::size_t to = k == 0 ? head : std::min(bytes, from + kPiece);
        adviseWholePages(bytesAt + from, to - from, 4096, kAdvicePopulateWrite); // a failure leaves the pages to fault
        const std::size_t filled = done += to - from;
        if (populated)
            populated(filled);
    });
}

// v.assign(n, value) into memory made resident in one call (above);
// `populated` as there.
template<typename T>
void assignFresh(std::vector<T>& v, std::size_t n, const std::type_identity_t<T>& value = T(),
                 const std::function<void(std::size_t)>& populated = {})
{
    if (v.capacity() < n) {
        std::vector<T>().swap(v); // the old buffer goes first: it never adds to the peak
        v.reserve(n);
    }
    populateForWrite(v.data(), n * sizeof(T), populated);
    v.assign(n, value);
}

// assignFresh on the pages of `donor`, an array the caller is done with:
// as many of its pages as `v` needs are moved to `v` where the system
// allows (movePages), the rest is fresh. `donor` is emptied either way.
template<typename T, typename U>
void assignReusing(std::vector<T>& v, std::size_t n, const std::type_identity_t<T>& value, std::vector<U>& donor,
                   const std::function<void(std::size_t)>& populated = {})
{
    std::vector<T>().swap(v);
    v.reserve(n);
    if (n != 0 && donor.capacity() != 0)
        movePages(v.data(), donor.data(), std::min(n * sizeof(T), donor.capacity() * sizeof(U)));
    std::vector<U>().swap(donor); // its moved range is unmapped with it
    // The moved pages are resident: asking for them again walks their
    // page tables, it does not fault.
    assignFresh(v, n, value, populated);
}

} // namespace runlane
