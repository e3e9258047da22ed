#pragma once

#include <cstdint>
#include <string>

namespace runlane {

// The names of TracePacket's data fields (its `data` oneof, and the Android
// frame timeline's extension), for the summary of what a trace held that
// Runlane does not read: "355 perf_sample packets".
struct PerfettoPacketNames {
    // "field 1234" for a number the schema does not name.
    static std::string name(std::uint32_t field);
};

} // namespace runlane
