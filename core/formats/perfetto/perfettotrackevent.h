#pragma once

#include "perfettotasknotes.h"
#include "profiletypes.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace runlane {

// One TrackEvent of a Perfetto trace as PerfettoReader decodes it for
// PerfettoTracks: its time on the trace clock, its track, and its name and
// source location with the sequence's interned data already resolved.
struct PerfettoTrackEvent {
    // TrackEvent.Type's values.
    enum class Type : std::uint8_t { Unspecified = 0, SliceBegin = 1, SliceEnd = 2, Instant = 3, Counter = 4 };

    Type type = Type::Unspecified;
    Time time = 0;
    std::uint64_t track = 0;
    StringId name = kEmptyString;
    StringId file = kEmptyString;
    std::int32_t line = 0;
    // An instant's or a slice begin's debug annotations as JSON (the mark's
    // details, the slice's args).
    StringId args = kEmptyString;
    bool hasCounter = false;
    double counter = 0;
    // extra_counter_* values on the tracks the event (or its sequence's
    // defaults) names, in order.
    std::vector<std::pair<std::uint64_t, double>> extraCounters;
    std::vector<std::uint64_t> flows;
    std::vector<std::uint64_t> terminatingFlows;
    // Runlane's own notes of a task or a wake (a trace Runlane wrote).
    PerfettoTaskNotes notes;
    // Where its packet starts, for warnings.
    std::int64_t offset = 0;
};

} // namespace runlane
