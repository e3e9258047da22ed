#pragma once

#include "usageseries.h"

#include <string>
#include <vector>

namespace runlane {

// Event-loop usage series as CSV (one row per track, bin and series) or JSON
// (one object per track). Bin times are nanoseconds from the profile start.
// A CSV row's bin is the part its share is of (UsageSeries::binPart): the
// last bin ends at the range's or the profile's end, not a bin width after
// its start; JSON gives the bins' start, width and that end ("end_ns").
class UsageFormatter
{
public:
    static std::string csv(const Profile& profile, const std::vector<UsageSeries>& series);
    static std::string json(const Profile& profile, const std::vector<UsageSeries>& series);
    static constexpr const char* kOtherName = "(other)";
};

} // namespace runlane
