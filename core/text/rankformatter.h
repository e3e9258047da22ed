#pragma once

#include "ranktable.h"
#include "schedulingdelays.h"

#include <cstddef>
#include <string>

namespace runlane {

// The rank as text for people (aligned table), spreadsheets (CSV, or
// tab-separated for the clipboard) and scripts (JSON). Durations are integer
// nanoseconds in CSV and JSON, so nothing is lost to rounding.
//
// With `delays` of a profile that has wakes (SchedulingDelays::any: tokio),
// CSV and JSON end each row with the label's scheduling delays, as the
// viewer's last columns: their count, sum, max and p90 (empty, or null, for
// a label with none).
class RankFormatter
{
public:
    static constexpr std::size_t kAllRows = static_cast<std::size_t>(-1);

    static std::string table(const Profile& profile, const RankTable& rank, std::size_t limit = kAllRows);
    static std::string csv(const Profile& profile, const RankTable& rank, char separator = ',',
                           std::size_t limit = kAllRows, const SchedulingDelays* delays = nullptr);
    // Only the given rows (indices into rank.rows()), e.g. a selection.
    static std::string csvRows(const Profile& profile, const RankTable& rank, const std::vector<std::size_t>& rows,
                               char separator, const SchedulingDelays* delays = nullptr);
    static std::string json(const Profile& profile, const RankTable& rank, std::size_t limit = kAllRows,
                            const SchedulingDelays* delays = nullptr);
};

} // namespace runlane
