#include "aheadpopulator.h"

#include "freshmemory.h"

#include <algorithm>
#include <utility>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#endif

namespace runlane {

namespace {

constexpr std::uintptr_t kPage = 4096;
// Asked for one huge page at a time: each call holds the process's memory
// map for a moment only (the building thread's own faults and other
// threads' allocations wait for it), and a stop is seen soon.
constexpr std::uintptr_t kPiece = kHugePageBytes;

std::uintptr_t alignDown(std::uintptr_t at, std::uintptr_t to)
{
    return at & ~(to - 1);
}

std::uintptr_t alignUp(std::uintptr_t at, std::uintptr_t to)
{
    return alignDown(at + to - 1, to);
}

} // namespace

AheadPopulator::AheadPopulator(std::size_t arrays, bool idle) : m_arrays(arrays)
{
    if (supported())
        m_thread = std::thread([this, idle] { run(idle); });
}

AheadPopulator::~AheadPopulator()
{
    stop();
}

bool AheadPopulator::supported()
{
#if defined(__linux__)
    return true;
#else
    return false;
#endif
}

std::size_t AheadPopulator::ahead(std::size_t used)
{
    constexpr std::size_t kLeast = std::size_t(4) << 20;
    constexpr std::size_t kMost = std::size_t(64) << 20;
    return alignDown(std::clamp(used / 8, kLeast, kMost), kPiece);
}

std::size_t AheadPopulator::Array::wanted() const
{
    return std::min(capacity, mirrored ? used : used + ahead(used));
}

void AheadPopulator::follow(std::size_t index, const void* data, std::size_t used, std::size_t capacity)
{
    set(index, data, used, capacity, false);
}

void AheadPopulator::mirror(std::size_t index, const void* data, std::size_t bytes, std::size_t capacity)
{
    set(index, data, bytes, capacity, true);
}

void AheadPopulator::set(std::size_t index, const void* data, std::size_t used, std::size_t capacity, bool mirrored)
{
    bool work = false;
    {
        std::lock_guard lock(m_mutex);
        Array& a = m_arrays[index];
        const auto at = reinterpret_cast<std::uintptr_t>(data);
        if (at != a.data) {
            a.residentTo = 0; // moved: its old pages are not ours any more
            a.refused = false;
        }
        a.data = at;
        a.used = used;
        a.capacity = capacity;
        a.mirrored = mirrored;
        work = !a.refused && a.residentTo < at + a.wanted();
    }
    if (work)
        m_wake.notify_one();
}

bool AheadPopulator::nextPiece(std::size_t& index, std::uintptr_t& from, std::uintptr_t& to)
{
    // The followed array whose resident margin past its end is smallest
    // goes first; a mirrored one only when none has work, from its start.
    bool found = false;
    std::pair<bool, std::uintptr_t> best; // {mirrored, margin}: the least goes first
    for (std::size_t i = 0; i < m_arrays.size(); ++i) {
        const Array& a = m_arrays[i];
        if (a.data == 0 || a.refused)
            continue;
        const std::uintptr_t end = a.data + a.used;
        const std::uintptr_t limit = alignDown(a.data + a.wanted(), kPage);
        // A followed array's end lies in its writer's huge page (resident
        // already, or about to be).
        const std::uintptr_t start = std::max(a.residentTo, a.mirrored ? alignUp(a.data, kPage) : alignUp(end, kPiece));
        if (start >= limit)
            continue;
        const std::pair<bool, std::uintptr_t> key(a.mirrored, a.mirrored ? 0 : start - end);
        if (!found || key < best) {
            found = true;
            best = key;
            index = i;
            from = start;
            to = std::min(limit, alignDown(start, kPiece) + kPiece);
        }
    }
    return found;
}

void AheadPopulator::run(bool idle)
{
#if defined(__linux__)
    // Only the time no other thread wants: the building and reading
    // threads are never slowed by it.
    sched_param param{};
    if (idle)
        pthread_setschedparam(pthread_self(), SCHED_IDLE, &param);
    std::unique_lock lock(m_mutex);
    for (;;) {
        std::size_t index = 0;
        std::uintptr_t from = 0;
        std::uintptr_t to = 0;
        m_wake.wait(lock, [&] { return m_stopping || nextPiece(index, from, to); });
        if (m_stopping)
            return;
        const std::uintptr_t data = m_arrays[index].data;
        const bool mirrored = m_arrays[index].mirrored;
        lock.unlock();
        bool ok = true;
        if (mirrored) {
            // Nothing else touches a mirrored array before release(), so its
            // pages are written here: a fault holds only its own mapping's
            // lock (Linux 6.4), where MADV_POPULATE_WRITE holds the whole
            // address space's, and the loading thread's mmap calls waited
            // behind it (a second 2 MiB piece at a time, at idle priority,
            // preempted while it held it). With the mirror asked for that
            // way, the window's 50 M read took 23 s instead of 16.5 (perf).
            for (std::uintptr_t page = from; page < to; page += kPage)
                *reinterpret_cast<volatile char*>(page) = 0;
        } else {
            ok = adviseWholePages(reinterpret_cast<void*>(from), to - from, kPage, kAdvicePopulateWrite);
        }
        lock.lock();
        Array& a = m_arrays[index];
        if (a.data != data)
            continue; // moved meanwhile
        if (ok)
            a.residentTo = std::max(a.residentTo, to);
        else
            a.refused = true; // an older kernel (EINVAL), or a range given back meanwhile
    }
#endif
}

void AheadPopulator::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_one();
    if (m_thread.joinable())
        m_thread.join();
}

void AheadPopulator::release()
{
    stop();
#if defined(__linux__)
    for (Array& a : m_arrays) {
        const std::uintptr_t from = alignUp(a.data + a.used, kPage);
        if (a.data != 0 && a.residentTo > from)
            adviseWholePages(reinterpret_cast<void*>(from), a.residentTo - from, kPage, MADV_DONTNEED);
        a.residentTo = 0;
    }
#endif
}

} // namespace runlane
