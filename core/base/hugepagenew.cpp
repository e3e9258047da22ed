// Every big allocation of the process backed by huge pages (issue 45).
//
// A new 4 KiB page costs a fault the first time it is touched. On the
// reference machine, a virtual machine whose page tables the host keeps,
// each such fault is an exit to the host: 400 MB of fresh memory took
// 1.6-1.7 s to fill page by page, 0.6-0.9 s after MADV_POPULATE_WRITE,
// and 47 ms in 2 MiB pages (or 0.2-1.0 s when the host had taken those
// pages back: still faster). A load allocates gigabytes this way: the
// builder's arrays as they grow, the finisher's at each step, the views'
// indexes. glibc can advise huge pages for what it maps itself
// (GLIBC_TUNABLES=glibc.malloc.hugetlb=1), but only from the environment
// the process starts with; so the replaceable `operator new` below asks for
// them, for the whole 2 MiB pages of every block of kHugeAllocation or
// more, before anything touches the block. libstdc++'s other forms of new
// (arrays, nothrow) call this one; delete is the default (free).
//
// The memory used does not change: only whole pages inside a block are
// advised, and a page is backed when touched, as before. Where
// transparent huge pages are off, or on another system, nothing changes.
// Where memory is fragmented, the kernel may compact it before it gives
// a huge page (the default "defrag" setting, madvise, does for advised
// memory) or falls back to 4 KiB pages: a first touch can wait, never
// fail.
// Not under AddressSanitizer, which brings its own operator new.

#include "hugepagenew.h"

#include "freshmemory.h"

#include <cstdlib>
#include <new>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RUNLANE_OWN_NEW 0
#endif
#endif
#if !defined(RUNLANE_OWN_NEW) && defined(__SANITIZE_ADDRESS__)
#define RUNLANE_OWN_NEW 0
#endif
#if !defined(RUNLANE_OWN_NEW)
#define RUNLANE_OWN_NEW 1
#endif

namespace runlane {

bool bigAllocationsAdviseHugePages()
{
#if RUNLANE_OWN_NEW && defined(__linux__)
    return true;
#else
    return false;
#endif
}

} // namespace runlane

#if RUNLANE_OWN_NEW

void* operator new(std::size_t size)
{
    for (;;) {
        if (void* block = std::malloc(size == 0 ? 1 : size)) {
#if defined(__linux__)
            constexpr int kHugePage = 14; // MADV_HUGEPAGE
            if (size >= runlane::kHugeAllocation)
                runlane::adviseWholePages(block, size, runlane::kHugePageBytes, kHugePage);
#endif
            return block;
        }
        const std::new_handler handler = std::get_new_handler();
        if (!handler)
            throw std::bad_alloc();
        handler();
    }
}

#endif
