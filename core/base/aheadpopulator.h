#pragma once

// Fresh pages for arrays that grow while a file is read, made resident
// ahead of their writes by a thread of their own at idle priority.
//
// The building thread fills the builder's arrays as the events come, and a
// first write to each fresh page costs a fault. Where the host backs a
// virtual machine's memory only on first touch, that costs a second or
// more per gigabyte: in the window, 50 M events' read spent 4 s of the
// building thread's 14 s in those faults (perf, 2026-12-07), while the
// reading thread left a core idle for part of the time. The pages ahead of
// each array's end are asked for here (MADV_POPULATE_WRITE, Linux 5.14)
// in that idle time; a write that gets there first takes its fault as
// before. Nothing is written: contents stay as they are, and a range that
// was given back in the meantime only fails the call.
//
// At most ahead(used) bytes past an array's end are made resident (an
// eighth of what it holds, 4 to 64 MiB), and release() gives back what
// was made resident past the end, so that the reservation's unused tail
// never adds to the load's peak.

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace runlane {

class AheadPopulator
{
public:
    // Follows `arrays` arrays (numbered from 0). `idle`: at idle priority
    // (SCHED_IDLE), as a load wants; a test that counts pages under other
    // tests' load asks for the normal one, or it may wait for seconds.
    explicit AheadPopulator(std::size_t arrays, bool idle = true);
    ~AheadPopulator(); // stops the thread; what it made resident stays
    AheadPopulator(const AheadPopulator&) = delete;
    AheadPopulator& operator=(const AheadPopulator&) = delete;

    // Array `index` is at `data`, `used` of its `capacity` bytes written.
    // Cheap (a lock, a wake when there is work): call it every few
    // thousand items.
    void follow(std::size_t index, const void* data, std::size_t used, std::size_t capacity);
    // Array `index` at `data` is written only later, up to `bytes` of its
    // `capacity` then: its pages below `bytes` are made resident, after
    // every followed array's pages ahead (a step after the read that will
    // need as many bytes as an array holds: they are asked for in the
    // read's idle time instead of after it). They are made resident by
    // writing them (with zeros), so nothing else may touch the array until
    // release() or the destructor.
    void mirror(std::size_t index, const void* data, std::size_t bytes, std::size_t capacity);
    // Stops the thread and gives back the whole pages made resident past
    // each array's end (as last followed) that nothing wrote yet.
    void release();

    // How far past `used` bytes the pages are made resident.
    static std::size_t ahead(std::size_t used);
    // Whether the thread runs (Linux only; elsewhere nothing happens).
    static bool supported();

private:
    struct Array {
        std::uintptr_t data = 0;
        std::size_t used = 0;
        std::size_t capacity = 0;
        std::uintptr_t residentTo = 0; // the pages below it were asked for
        bool refused = false; // the kernel said no: not asked again until it moves
        bool mirrored = false; // mirror(): resident up to `used`, not ahead of it
        // The bytes from `data` on that are to be resident.
        std::size_t wanted() const;
    };
    void set(std::size_t index, const void* data, std::size_t used, std::size_t capacity, bool mirrored);
    void run(bool idle);
    // The next piece to ask for (lock held): {array, from, to}, or none.
    bool nextPiece(std::size_t& index, std::uintptr_t& from, std::uintptr_t& to);
    void stop();

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::vector<Array> m_arrays;
    bool m_stopping = false;
    std::thread m_thread;
};

} // namespace runlane
