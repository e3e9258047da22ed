#pragma once

#include "criticalpathsummary.h"

#include <optional>
#include <string>

namespace runlane {

// Critical paths as text: a table for people (the breakdown, largest
// first, with its share of the wall time), CSV and JSON for scripts. Times
// are integer nanoseconds from the profile's start in CSV and JSON; idle
// time names no label (JSON null, CSV empty).
class CriticalPathFormatter
{
public:
    // `label`: the name the tasks were chosen by, none for the slowest of all.
    // `each`: every task's breakdown and segments too.
    static std::string table(const Profile& profile, const CriticalPathSummary& summary,
                             const std::optional<std::string>& label, bool each);
    static std::string csv(const Profile& profile, const CriticalPathSummary& summary, bool each);
    static std::string json(const Profile& profile, const CriticalPathSummary& summary,
                            const std::optional<std::string>& label, bool each);
};

} // namespace runlane
