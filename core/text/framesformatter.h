#pragma once

#include "frameseries.h"
#include "ranktable.h"

#include <optional>
#include <string>

namespace runlane {

// Frame statistics (FrameSeries) of a range as text: a table for people
// and JSON. Times from the profile's start in ms, fps and frame times to
// three decimals. Without a range, every frame of the profile (one that
// starts at its very end too).
class FramesFormatter
{
public:
    static std::string table(const Profile& profile, const FrameSeries& frames, std::optional<TimeRange> range);
    // {"source", "process", "from_ms", "to_ms", "frames", "skipped",
    // "min_fps", "max_fps", "average_fps" (null without frames),
    // "frame_time_ms": {"p50", "p90", "p99"}, "janky": {"over_16.7_ms",
    // "over_33.3_ms"}, "quality": {"good", "medium", "bad"}}.
    static std::string json(const Profile& profile, const FrameSeries& frames, std::optional<TimeRange> range);
    // The summary of `range`, or of the whole profile.
    static FrameSeries::Summary summary(const FrameSeries& frames, std::optional<TimeRange> range);
    // "Ide" (the process's name), or "pid 12" when it has none.
    static std::string processName(const Profile& profile, std::int64_t pid);
    // "60.125": three decimals.
    static std::string decimal(double value);
};

} // namespace runlane
