#include "perfettoclocks.h"

#include <algorithm>

namespace runlane {

namespace {

// value × unit in nanoseconds, held at the int64 range: a hostile
// multiplier must not overflow (undefined) nor wrap.
std::int64_t scaled(std::uint64_t value, std::uint64_t unitNs)
{
    std::uint64_t product = 0;
    if (__builtin_mul_overflow(value, unitNs, &product) || product > std::uint64_t(INT64_MAX))
        return INT64_MAX;
    return std::int64_t(product);
}

} // namespace

bool PerfettoClocks::snapshot(std::uint32_t sequence, const std::vector<Reading>& clocks, std::uint32_t primary)
{
    if (primary != 0 && !m_converted)
        m_traceClock = primary;
    const auto trace = std::find_if(clocks.begin(), clocks.end(), [&](const Reading& r) { return r.id == m_traceClock; });
    if (trace == clocks.end())
        return false;
    const Time traceNs = scaled(trace->value, std::max<std::uint64_t>(trace->unitNs, 1));
    for (const Reading& r : clocks) {
        if (r.id == m_traceClock)
            continue;
        Clock& clock = m_clocks[key(sequence, r.id)];
        clock.unitNs = std::max<std::uint64_t>(r.unitNs, 1);
        clock.incremental = r.incremental;
        clock.last = r.value;
        clock.hasLast = true;
        const Point point{scaled(r.value, clock.unitNs), traceNs};
        // Snapshots come in time order; one out of order is placed where
        // it belongs rather than breaking the search.
        const auto at = std::upper_bound(clock.points.begin(), clock.points.end(), point.clockNs,
                                         [](std::int64_t v, const Point& p) { return v < p.clockNs; });
        clock.points.insert(at, point);
    }
    return true;
}

bool PerfettoClocks::toTrace(std::uint32_t sequence, std::uint32_t clockId, std::uint64_t value, Time& out)
{
    if (clockId == m_traceClock) {
        m_converted = true;
        out = value > std::uint64_t(INT64_MAX) ? INT64_MAX : Time(value);
        return true;
    }
    const auto found = m_clocks.find(key(sequence, clockId));
    if (found == m_clocks.end())
        return false;
    Clock& clock = found->second;
    std::uint64_t absolute = value;
    if (clock.incremental) {
        if (!clock.hasLast)
            return false;
        clock.last += value; // wraps as the writer's uint64 does
        absolute = clock.last;
    }
    if (clock.points.empty())
        return false;
    m_converted = true;
    const std::int64_t ns = scaled(absolute, clock.unitNs);
    // The latest snapshot at or before the value; before the first, the first.
    auto at = std::upper_bound(clock.points.begin(), clock.points.end(), ns,
                               [](std::int64_t v, const Point& p) { return v < p.clockNs; });
    if (at != clock.points.begin())
        --at;
    Time delta = 0;
    if (__builtin_sub_overflow(ns, at->clockNs, &delta))
        return false;
    out = addClamped(at->traceNs, delta);
    return true;
}

} // namespace runlane
