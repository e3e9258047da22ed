// Every big allocation of the process backed by huge pages (issue 45).
//
// A new 4 KiB page costs a fault the first time it is touched. On the
// reference machine, a virtual machine whose page tables the host keeps,
// each such fault is an exit to the host, about 12 us: 400 MB of fresh
// memory took 1.6-1.7 s to fill page by page, 0.6-0.9 s after
// MADV_POPULATE_WRITE, and 47 ms in 2 MiB pages (or 0.2-1.0 s when the
// host had taken those pages back: still faster). A load allocates
// gigabytes this way: the builder's arrays as they grow, the finisher's at
// each step, the views' indexes. glibc can advise huge pages for what it
// maps itself (GLIBC_TUNABLES=glibc.malloc.hugetlb=1), but only from the
// environment the process starts with; so the replaceable `operator new`
// below does it:
// - a block of kHugeAllocation or more starts on a 2 MiB boundary and its
//   whole huge pages are advised, before anything touches it;
// - glibc's heaps, where smaller blocks come from (the main heap, and the
//   arenas of other threads), are advised as they grow (HeapAdvice).
// libstdc++'s other forms of new (arrays, nothrow) call this one; delete
// is the default (free).
//
// Only the heaps keep more memory resident than before: a huge page
// is backed whole, where its 4 KiB pages were backed one by one (about
// 6 MB more at 1 M events, 110 MB at 20 M, 7 %). Where transparent huge
// pages are off, or on another system, nothing changes. Where memory is
// fragmented, the kernel may compact it before it gives a huge page (the
// default "defrag" setting, madvise, does for advised memory) or falls
// back to 4 KiB pages: a first touch can wait, never fail.
// Not under AddressSanitizer, which brings its own operator new.

#include "hugepagenew.h"

#include "freshmemory.h"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

// glibc's malloc under its own name: `malloc` is the same function unless
// another allocator was preloaded in its place.
extern "C" void* __libc_malloc(std::size_t size);
#endif

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

namespace {

// stopHugePageAdvice: whether this thread advises, and whether the main
// heap is followed at all.
thread_local bool t_advises = true;
std::atomic<bool> g_followMainHeap{true};

#if defined(__linux__) && defined(__GLIBC__)
constexpr int kHugePageAdvice = 14; // MADV_HUGEPAGE

// glibc's main heap, where the main thread's blocks come from while its
// top has room (the builder's lists, the B and E events, the finisher's
// per-track arrays, every small object), advised as it grows, as
// GLIBC_TUNABLES=glibc.malloc.hugetlb=1 would. The heap grows by at least
// 32 MiB at a time (M_TOP_PAD), so that the advice comes before its pages
// are touched: a region of 2 MiB that a 4 KiB page already holds stays in
// 4 KiB pages. With the big blocks' alignment, `runlane-cli summary` of
// 1 M events took 3,350-3,750 faults instead of 6,750-7,100, and 0.47 s
// instead of 0.53.
//
// Other threads allocate from arenas of their own, which the window's
// load (on a pool thread) and the reader's producer thread use: those are
// advised whole as a thread first allocates from them (followArena).
class HeapAdvice
{
public:
    static HeapAdvice& instance()
    {
        static HeapAdvice advice;
        return advice;
    }
    // Advises what `block`'s heap gained since the last call.
    void follow(const void* block)
    {
        followMain();
        if (glibcMalloc())
            followArena(block);
    }

private:
    HeapAdvice()
    {
        mallopt(M_TOP_PAD, 32 << 20);
    }
    // sbrk(0) only reads the break; the advice is given once, by whichever
    // thread sees it first.
    void followMain()
    {
        if (!g_followMainHeap.load(std::memory_order_relaxed))
            return;
        const auto top = reinterpret_cast<std::uintptr_t>(sbrk(0));
        std::uintptr_t advised = m_advised.load(std::memory_order_relaxed);
        if (top == advised || !m_advised.compare_exchange_strong(advised, top))
            return;
        // A heap trimmed below what was advised is advised again from there
        // as it grows back: the trimmed pages were unmapped.
        if (top > advised)
            madvise(reinterpret_cast<void*>(advised), top - advised, kHugePageAdvice);
    }
    // A thread's arena is made of heaps of 64 MiB (glibc's HEAP_MAX_SIZE),
    // each aligned to its size, mapped whole and made writable as it grows:
    // advising one whole covers the pages it has not touched yet. glibc says
    // where a block comes from in its chunk's header, the word before it:
    // NON_MAIN_ARENA, and not IS_MMAPPED. A heap is advised once per thread
    // that allocates from it. The window, which loads on a pool thread,
    // took 5,700-6,300 faults for 1 M events instead of 12,500-13,400.
    //
    // The thread remembers the last kRemembered heaps it advised, not only
    // the last one: an arena of several heaps hands out blocks from each in
    // turn (freed chunks of an older heap are reused), and remembering one
    // made the window's loading thread advise 118,000 times in a 20 M load,
    // each call taking the address space's lock for writing while the other
    // threads' page faults wait for it. A heap unmapped and mapped again at
    // an address still remembered goes without the advice: 4 KiB pages, as
    // without this.
    static void followArena(const void* block)
    {
        constexpr std::size_t kIsMmapped = 2;
        constexpr std::size_t kNonMainArena = 4;
        constexpr std::uintptr_t kHeapBytes = std::uintptr_t(64) << 20;
        constexpr std::size_t kRemembered = 16;
        const std::size_t header = static_cast<const std::size_t*>(block)[-1];
        if (!(header & kNonMainArena) || (header & kIsMmapped))
            return;
        static thread_local std::uintptr_t advisedHeaps[kRemembered] = {};
        static thread_local std::size_t nextSlot = 0;
        const std::uintptr_t heap = reinterpret_cast<std::uintptr_t>(block) & ~(kHeapBytes - 1);
        for (const std::uintptr_t advised : advisedHeaps) {
            if (advised == heap)
                return;
        }
        advisedHeaps[nextSlot] = heap;
        nextSlot = (nextSlot + 1) % kRemembered;
        madvise(reinterpret_cast<void*>(heap), kHeapBytes, kHugePageAdvice);
    }

    // The break when last seen: what lies below it is advised, or was
    // there before this began (not ours to advise).
    std::atomic<std::uintptr_t> m_advised{reinterpret_cast<std::uintptr_t>(sbrk(0))};

public:
    // Blocks are laid out as followArena and movePages read them only if
    // malloc is glibc's own, not one preloaded in its place (whose blocks
    // are not ours to read before).
    static bool glibcMalloc()
    {
        static const bool glibc = isGlibcMalloc();
        return glibc;
    }

private:
    static bool isGlibcMalloc()
    {
        using Malloc = void* (*)(std::size_t);
        const Malloc used = &::malloc;
        const Malloc glibc = &__libc_malloc;
        return used == glibc;
    }
};
#endif

} // namespace

void* operator new(std::size_t size)
{
    for (;;) {
        // A big block starts on a huge page, so that all of it but its tail
        // is in whole huge pages: from wherever malloc placed it, its first
        // partial 2 MiB had been faulted 4 KiB at a time (256 faults on
        // average, for each of the load's arrays).
        void* block = nullptr;
        if (size < runlane::kHugeAllocation)
            block = std::malloc(size == 0 ? 1 : size);
        else if (posix_memalign(&block, runlane::kHugePageBytes, size) != 0)
            block = nullptr;
        if (block) {
#if defined(__linux__) && defined(__GLIBC__)
            if (t_advises) {
                HeapAdvice::instance().follow(block);
                if (size >= runlane::kHugeAllocation)
                    runlane::adviseWholePages(block, size, runlane::kHugePageBytes, kHugePageAdvice);
            }
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

namespace runlane {

void stopHugePageAdvice()
{
#if RUNLANE_OWN_NEW
    t_advises = false;
    g_followMainHeap = false;
#endif
}

std::size_t movePages(void* to, void* from, std::size_t bytes)
{
#if RUNLANE_OWN_NEW && defined(__linux__) && defined(__GLIBC__)
    // glibc's chunk header, the word before a block: IS_MMAPPED, so that
    // a hole left in `from` is unmapped with it when it is freed, and never
    // handed out again as heap memory.
    constexpr std::size_t kIsMmapped = 2;
    const auto mappedAlone = [](const void* block) {
        return (reinterpret_cast<std::uintptr_t>(block) & (kHugePageBytes - 1)) == 0
            && (static_cast<const std::size_t*>(block)[-1] & kIsMmapped) != 0;
    };
    const std::size_t whole = bytes & ~std::size_t(kHugePageBytes - 1);
    if (whole == 0 || !HeapAdvice::glibcMalloc() || !mappedAlone(to) || !mappedAlone(from))
        return 0;
    // With both ends on huge pages the kernel moves page-table entries, not
    // memory: microseconds for a gigabyte.
    if (mremap(from, whole, whole, MREMAP_MAYMOVE | MREMAP_FIXED, to) == to)
        return whole;
    // A move that failed may have unmapped `to`'s range first: map fresh
    // pages there again, as operator new gave them (nothing wrote them).
    if (mmap(to, whole, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
        std::abort(); // the address space is not ours to mend
    return 0;
#else
    (void)to;
    (void)from;
    (void)bytes;
    return 0;
#endif
}

} // namespace runlane
