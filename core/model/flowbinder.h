#pragma once

#include "diagnostics.h"
#include "profiletypes.h"

#include <functional>
#include <span>
#include <string>
#include <vector>

namespace runlane {

// Turns the flow points a loader read ("this flow id passes here, on this
// track, at this time") into flows between intervals. Interval ids are
// known only after ProfileBuilder has laid the intervals out, so points are
// collected while reading, in any order, and bound afterwards: each point to
// its interval with binary searches in the (depth, start) layout, O(depth ×
// log n), then the points of one key are chained in time order.
//
// Chaining follows Perfetto's FlowTracker: a Start opens the key's flow at
// its interval; a Step ends the open flow there and opens the next one from
// it; an End ends the open flow there and leaves it open, so that several
// ends fan out of one source (Perfetto's `connected_flow_data.json`). A Step
// with nothing open still opens a flow from its interval (a pass-through
// whose source is lost still causes what follows).
class FlowBinder
{
public:
    enum class Role : std::uint8_t { Start, Step, End };
    // Where a point lands on its track.
    enum class Binding : std::uint8_t {
        Enclosing, // the innermost interval running at `time`
        Next, // the first interval to start at or after `time` (the outermost on a tie)
        Slice, // the interval of `measurement` that starts at `time`
    };
    struct Point {
        std::uint32_t key = 0; // points of one key form one chain
        Time time = 0;
        std::uint32_t order = 0; // breaks ties of time: file order
        TrackId track = kNone;
        MeasurementId measurement = kNone; // Slice only
        StringId name = kEmptyString; // the flow's name (v1 event name)
        Role role = Role::Start;
        Binding binding = Binding::Enclosing;
    };

    void add(const Point& point) { m_points.push_back(point); }
    bool empty() const { return m_points.empty(); }
    // Tracks were renumbered (ProfileBuilder::sortTracks).
    void renumberTracks(std::span<const TrackId> newId);
    // Measurements were renumbered before the build (OutermostTasks).
    void renumberMeasurements(std::span<const MeasurementId> newId);

    // The flows, once intervals are laid out and before measurements are
    // renumbered (Slice points name the loader's ids): `depthOffsets[t]`
    // are track t's depth runs in `intervals`. Points that take part in no
    // flow are counted as unbound, each under its reason in `diagnostics`,
    // `describe` naming the point in the examples. The binder is spent
    // afterwards.
    std::vector<Flow> bind(std::span<const Interval> intervals,
                           const std::vector<std::vector<IntervalId>>& depthOffsets, Diagnostics& diagnostics,
                           const std::function<std::string(const Point&)>& describe);
    std::uint64_t unboundCount() const { return m_unbound; }

private:
    IntervalId locate(const Point& point, std::span<const Interval> intervals,
                      const std::vector<IntervalId>& offsets) const;

    std::vector<Point> m_points;
    std::uint64_t m_unbound = 0;
};

} // namespace runlane
