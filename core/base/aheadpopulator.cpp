#include "aheadpopulator.h"

#include "freshmemory.h"

#include <algorithm>

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

void AheadPopulator::follow(std::size_t index, const void* data, std::size_t used, std::size_t capacity)
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
        work = !a.refused && a.residentTo < at + std::min(capacity, used + ahead(used));
    }
    if (work)
        m_wake.notify_one();
}

bool AheadPopulator::nextPiece(std::size_t& index, std::uintptr_t& from, std::uintptr_t& to)
{
    // The array whose resident margin past its end is smallest goes first.
    bool found = false;
    std::uintptr_t bestMargin = 0;
    for (std::size_t i = 0; i < m_arrays.size(); ++i) {
        const Array& a = m_arrays[i];
        if (a.data == 0 || a.refused)
            continue;
        const std::uintptr_t end = a.data + a.used;
        const std::uintptr_t limit = alignDown(a.data + std::min(a.capacity, a.used + ahead(a.used)), kPage);
        // The huge page the end lies in is the writer's (resident already,
        // or about to be).
        const std::uintptr_t start = std::max(a.residentTo, alignUp(end, kPiece));
        if (start >= limit)
            continue;
        const std::uintptr_t margin = start - end;
        if (!found || margin < bestMargin) {
            found = true;
            bestMargin = margin;
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
        lock.unlock();
        const bool ok = adviseWholePages(reinterpret_cast<void*>(from), to - from, kPage, kAdvicePopulateWrite);
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
