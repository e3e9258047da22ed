#pragma once

#include "perfettointernednames.h"
#include "profiletypes.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace runlane {

// What one packet sequence (trusted_packet_sequence_id) of a Perfetto trace
// keeps between its packets: the interned data and the packet defaults,
// both incremental state that SEQ_INCREMENTAL_STATE_CLEARED resets, and
// whether packets were lost since the last reset.
struct PerfettoSequence {
    struct SourceLocation {
        StringId file = kEmptyString;
        std::int32_t line = 0;
    };

    PerfettoInternedNames eventNames;
    std::unordered_map<std::uint64_t, StringId> annotationNames;
    std::unordered_map<std::uint64_t, StringId> annotationStrings;
    std::unordered_map<std::uint64_t, SourceLocation> sourceLocations;

    // trace_packet_defaults.
    bool hasDefaultTrack = false;
    std::uint64_t defaultTrack = 0;
    std::vector<std::uint64_t> defaultExtraCounterTracks;
    std::vector<std::uint64_t> defaultExtraDoubleCounterTracks;
    std::uint32_t defaultClock = 0; // 0: the trace clock

    // The track of a legacy thread_descriptor packet: where events without
    // a track go when the defaults name none.
    bool hasLegacyTrack = false;
    std::uint64_t legacyTrack = 0;

    // previous_packet_dropped was seen: packets that need incremental
    // state are skipped until the next reset.
    bool lost = false;

    void clearIncrementalState()
    {
        eventNames.clear();
        annotationNames.clear();
        annotationStrings.clear();
        sourceLocations.clear();
        hasDefaultTrack = false;
        defaultTrack = 0;
        defaultExtraCounterTracks.clear();
        defaultExtraDoubleCounterTracks.clear();
        defaultClock = 0;
        lost = false;
    }
};

} // namespace runlane
