#pragma once

#include "profiletypes.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace runlane {

// The clocks of a Perfetto trace and their conversion to the trace clock,
// as Perfetto's trace processor does it: every ClockSnapshot says which
// value each clock had at one instant; a timestamp on another clock becomes
// the trace clock's value of the latest snapshot at or before it plus the
// time since. The trace clock is BOOTTIME unless a snapshot names another
// (primary_trace_clock) before any conversion. Clock ids 64 to 127 belong
// to the sequence that wrote them (the Perfetto SDK's incremental clocks:
// each packet's timestamp is a delta from the one before, in units of
// unit_multiplier_ns); the others are global. Only snapshots that hold the
// trace clock itself are used: the SDK and the service always write it.
class PerfettoClocks
{
public:
    static constexpr std::uint32_t kBootTime = 6;

    // One clock of a ClockSnapshot, as read.
    struct Reading {
        std::uint32_t id = 0;
        std::uint64_t value = 0;
        bool incremental = false;
        std::uint64_t unitNs = 1;
    };

    static bool sequenceScoped(std::uint32_t id) { return id >= 64 && id <= 127; }

    // A snapshot read on sequence `sequence`; `primary` the clock it names
    // as the trace's (0: none). False if it holds no trace clock, so no
    // clock of it can be converted.
    bool snapshot(std::uint32_t sequence, const std::vector<Reading>& clocks, std::uint32_t primary);
    // A packet's timestamp on `clock` (of `sequence`) in trace nanoseconds;
    // false if that clock was never seen in a snapshot with the trace
    // clock. An incremental clock's value moves by `value` even then.
    bool toTrace(std::uint32_t sequence, std::uint32_t clock, std::uint64_t value, Time& out);

    std::uint32_t traceClock() const { return m_traceClock; }

private:
    struct Point {
        std::int64_t clockNs = 0;
        Time traceNs = 0;
    };
    struct Clock {
        std::vector<Point> points; // by clockNs
        std::uint64_t unitNs = 1;
        bool incremental = false;
        std::uint64_t last = 0; // an incremental clock's current value, in units
        bool hasLast = false;
    };
    static std::uint64_t key(std::uint32_t sequence, std::uint32_t id)
    {
        return sequenceScoped(id) ? (std::uint64_t(sequence) << 32) | id : id;
    }

    std::unordered_map<std::uint64_t, Clock> m_clocks;
    std::uint32_t m_traceClock = kBootTime;
    bool m_converted = false; // the trace clock is fixed from then on
};

} // namespace runlane
