#include "flowbinder.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace runlane {

void FlowBinder::renumberTracks(std::span<const TrackId> newId)
{
    for (Point& p : m_points) {
        if (p.track < newId.size())
            p.track = newId[p.track];
    }
}

void FlowBinder::renumberMeasurements(std::span<const MeasurementId> newId)
{
    for (Point& p : m_points) {
        if (p.measurement < newId.size())
            p.measurement = newId[p.measurement];
    }
}

IntervalId FlowBinder::locate(const Point& point, std::span<const Interval> intervals,
                              const std::vector<IntervalId>& offsets) const
{
    const Time t = point.time;
    const std::size_t depthCount = offsets.empty() ? 0 : offsets.size() - 1;
    auto run = [&](std::size_t d) {
        return std::pair(intervals.begin() + std::ptrdiff_t(offsets[d]), intervals.begin() + std::ptrdiff_t(offsets[d + 1]));
    };
    auto idOf = [&](std::span<const Interval>::iterator it) { return IntervalId(it - intervals.begin()); };
    switch (point.binding) {
    case Binding::Enclosing:
        // Deepest first: the innermost running interval. Ends are
        // exclusive, but an empty interval at `t` holds it.
        for (std::size_t d = depthCount; d-- > 0;) {
            const auto [first, last] = run(d);
            const auto it = std::partition_point(first, last, [t](const Interval& iv) {
                return iv.end < t || (iv.end == t && iv.start < t);
            });
            if (it != last && it->start <= t && (t < it->end || it->start == it->end))
                return idOf(it);
        }
        return kNone;
    case Binding::Next: {
        IntervalId best = kNone;
        for (std::size_t d = 0; d < depthCount; ++d) {
            const auto [first, last] = run(d);
            const auto it = std::partition_point(first, last, [t](const Interval& iv) { return iv.start < t; });
            // Strictly earlier only: on a tie the outer (shallower) one wins.
            if (it != last && (best == kNone || it->start < intervals[best].start))
                best = idOf(it);
        }
        return best;
    }
    case Binding::Slice:
        for (std::size_t d = 0; d < depthCount; ++d) {
            const auto [first, last] = run(d);
            for (auto it = std::partition_point(first, last, [t](const Interval& iv) { return iv.start < t; });
                 it != last && it->start == t; ++it) {
                if (it->measurement == point.measurement)
                    return idOf(it);
            }
        }
        return kNone;
    }
    return kNone;
}

std::vector<Flow> FlowBinder::bind(std::span<const Interval> intervals,
                                   const std::vector<std::vector<IntervalId>>& depthOffsets, Diagnostics& diagnostics,
                                   const std::function<std::string(const Point&)>& describe)
{
    std::vector<Flow> flows;
    const std::size_t n = m_points.size();
    std::vector<IntervalId> at(n, kNone);
    for (std::size_t i = 0; i < n; ++i) {
        const Point& p = m_points[i];
        if (p.track < depthOffsets.size())
            at[i] = locate(p, intervals, depthOffsets[p.track]);
    }
    // Chains follow time, not file order (events come in any order).
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [this](std::uint32_t a, std::uint32_t b) {
        const Point& x = m_points[a];
        const Point& y = m_points[b];
        return std::tie(x.key, x.time, x.order, a) < std::tie(y.key, y.time, y.order, b);
    });

    auto unbound = [&](const Point& p, std::string_view kind, const char* why) {
        ++m_unbound;
        diagnostics.warnWith(kind, [&] { return describe(p) + why; });
    };
    for (std::size_t k = 0; k < n;) {
        const std::uint32_t key = m_points[order[k]].key;
        // The point the key's flow currently leaves from, and whether that
        // point already is part of a flow.
        std::uint32_t open = kNone;
        bool openBound = false;
        auto closeOpen = [&] {
            if (open != kNone && !openBound)
                unbound(m_points[open], "flow start without end", " starts a flow that nothing ends; ignored");
            open = kNone;
        };
        for (; k < n && m_points[order[k]].key == key; ++k) {
            const std::uint32_t i = order[k];
            const Point& p = m_points[i];
            if (at[i] == kNone) {
                unbound(p, "flow event on no slice",
                        p.binding == Binding::Next ? " has no slice starting at or after it on its thread; ignored"
                                                   : " is on no slice of its thread; ignored");
                continue;
            }
            switch (p.role) {
            case Role::Start:
                closeOpen();
                open = i;
                openBound = false;
                break;
            case Role::Step: {
                // A step that continues a flow is bound; one that opens a
                // chain of its own is not, until a flow leaves it.
                const bool continued = open != kNone;
                if (continued)
                    flows.push_back(Flow{at[open], at[i], m_points[open].name});
                open = i;
                openBound = continued;
                break;
            }
            case Role::End:
                if (open == kNone) {
                    unbound(p, "flow end without start", " ends a flow that nothing started; ignored");
                    break;
                }
                flows.push_back(Flow{at[open], at[i], m_points[open].name});
                openBound = true;
                break;
            }
        }
        closeOpen();
    }
    std::vector<Point>().swap(m_points);
    return flows;
}

} // namespace runlane
