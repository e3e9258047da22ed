#pragma once

#include "profile.h"

#include <string>
#include <vector>

namespace runlane {

// Latency by process, as Enso's `processes` tool computes it (formats.md
// (n), Enso's lib/rust/profiler/data/src/bin/processes.rs): how the
// "foreign processes" (work named by a label, e.g. shader compilation or
// the backend's execution) and the main process contribute to the latency
// of one region of interest.
//
// - The region is the one measurement labelled `@highlight`: from its
//   creation to the end of its last interval. None, several, one that never
//   ran or one still running at the profile's end is an error.
// - A measurement whose label name is one of `labels` belongs to that
//   foreign process: only that measurement, not its descendants.
// - A foreign process's latency: the latest end of the last interval of
//   its measurements created (directly or not) by the highlight, from the
//   region's start; 0 if it has none.
// - Main: the sum of the top-level intervals (those no other interval of
//   their track encloses) of measurements that belong to no foreign
//   process, each clipped to the region.
// An interval still open at the profile's end (of an unfinished
// measurement, ending where the profile does) has no end in Enso's reader
// and counts for neither figure.
class ProcessLatency
{
public:
    struct Result {
        std::string error; // empty if the figures hold
        Time regionStart = 0;
        Time regionEnd = 0;
        Time main = 0;
        std::vector<Time> latencies; // one per label, in their order
    };

    static constexpr std::string_view kHighlight = "@highlight";

    static Result compute(const Profile& profile, const std::vector<std::string>& labels);
};

} // namespace runlane
