#pragma once

#include "usageseries.h"

#include <string>
#include <vector>

namespace runlane {

// Event-loop usage series as CSV (one row per track, bin and series) or JSON
// (one object per track). Bin times are nanoseconds from the profile start.
class UsageFormatter
{
public:
    static std::string csv(const Profile& profile, const std::vector<UsageSeries>& series);
    static std::string json(const Profile& profile, const std::vector<UsageSeries>& series);
    static constexpr const char* kOtherName = "(other)";
};

} // namespace runlane
