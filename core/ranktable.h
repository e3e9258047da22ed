#pragma once

#include "measurementmetrics.h"
#include "profile.h"

#include <optional>
#include <string_view>
#include <vector>

namespace runlane {

struct TimeRange {
    Time from = 0;
    Time to = 0; // exclusive
    bool contains(Time t) const { return t >= from && t < to; }
};

// One row of the flattened performance rank: one label (semantics.md §5).
struct RankRow {
    LabelId label = 0;
    std::uint64_t calls = 0; // finished measurements
    std::uint64_t unfinished = 0;
    std::uint64_t stillborn = 0; // finished without ever running
    Time exec = 0;
    Time total = 0; // with children, recursion counted once
    Time wall = 0;
    // Over the label's measurements that are not stillborn, one value each:
    Time max = 0; // largest exec of one call
    Time mean = 0;
    Time p50 = 0;
    Time p90 = 0;
    Time p99 = 0;
    Time wallMax = 0;
    Time wallP50 = 0;
    Time wallP90 = 0;
    Time wallP99 = 0;
    double busyShare = 0; // exec / Σ exec of all rows
};

enum class RankSortKey { Exec, Total, Wall, Calls, Max, Mean, Name };

// The rank of a whole profile, or of a range of it with every quantity
// clipped to the range. Computed off the GUI thread; immutable afterwards.
class RankTable
{
public:
    static RankTable compute(const MeasurementMetrics& metrics, std::optional<TimeRange> range = std::nullopt);

    const std::vector<RankRow>& rows() const { return m_rows; }
    Time busyTime() const { return m_busy; }
    const std::optional<TimeRange>& range() const { return m_range; }
    // Stable; ties keep the label order.
    void sort(const Profile& profile, RankSortKey key, bool descending = true);
    static bool parseSortKey(std::string_view text, RankSortKey& key);

private:
    std::vector<RankRow> m_rows;
    Time m_busy = 0;
    std::optional<TimeRange> m_range;
};

} // namespace runlane
