#pragma once

#include "measurementmetrics.h"
#include "profile.h"

#include <atomic>
#include <optional>
#include <string>
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
    std::uint64_t calls = 0; // finished measurements, of any final state
    std::uint64_t unfinished = 0;
    std::uint64_t stillborn = 0; // born finished: never pending, never ran
    std::uint64_t primitive = 0; // pending, then finished without running
    std::uint64_t failed = 0;
    std::uint64_t cancelled = 0;
    std::uint64_t zombieEvents = 0; // reported by Chroprof only
    Time exec = 0;
    Time total = 0; // with children, recursion counted once
    Time wall = 0;
    // Exec of one call, over the calls that ran:
    Time max = 0;
    Time mean = 0;
    Time p50 = 0;
    Time p90 = 0;
    Time p99 = 0;
    // Wall of one call, over all but the stillborn:
    Time wallMax = 0;
    Time wallP50 = 0;
    Time wallP90 = 0;
    Time wallP99 = 0;
    // False for pre-aggregated metrics, which give only the max and mean.
    bool hasDistribution = true;
    double busyShare = 0; // exec / Σ exec of all rows
};

class SchedulingDelays;

// Every column of the rank, as `runlane-cli rank --sort` names them
// (RankTable::sortKeys): the row's figures, its name or file, and its
// scheduling delays (SchedulingDelays: count, sum, max, p90).
enum class RankSortKey {
    Exec,
    Busy,
    Total,
    Wall,
    Calls,
    Unfinished,
    Stillborn,
    Primitive,
    Failed,
    Cancelled,
    Zombie,
    Max,
    Mean,
    P50,
    P90,
    P99,
    WallMax,
    WallP50,
    WallP90,
    WallP99,
    Delays,
    DelaySum,
    DelayMax,
    DelayP90,
    Name,
    File,
};

// The rank of a whole profile, or of a range of it with every quantity
// clipped to the range: counts and per-call figures over the measurements
// alive in it, time with children over everything that ran in it, billed up
// the creator chain however long ago the creators finished (so a label may
// have a row with no calls). Computed off the GUI thread; immutable afterwards.
// A profile of pre-aggregated metrics (Chroprof) gives the rows of its last
// snapshot, or for a range the difference of the snapshots around it.
class RankTable
{
public:
    // The per-call distributions to compute: that of wall (wallMax,
    // wallP50 …) costs as much as that of exec, and only the rank view
    // shows it; with ExecOnly those fields stay 0.
    enum class Distributions { ExecAndWall, ExecOnly };

    // Checks `cancel` between its passes and throws LoadCancelled when set
    // (a newer request replaced this one).
    static RankTable compute(const MeasurementMetrics& metrics, std::optional<TimeRange> range = std::nullopt,
                             const std::atomic<bool>* cancel = nullptr,
                             Distributions distributions = Distributions::ExecAndWall);

    const std::vector<RankRow>& rows() const { return m_rows; }
    Time busyTime() const { return m_busy; }
    const std::optional<TimeRange>& range() const { return m_range; }
    // Stable; ties keep the label order. A row without the figure (no
    // per-call distribution, no scheduling delay) sorts below every row
    // with one. The delay keys read `delays` (all alike without them).
    void sort(const Profile& profile, RankSortKey key, bool descending = true,
              const SchedulingDelays* delays = nullptr);
    static bool parseSortKey(std::string_view text, RankSortKey& key);
    // The keys' names in parseSortKey's order: "exec, busy, …, name, file".
    static std::string sortKeys();
    // Name and file sort A to Z; every number largest first.
    static bool sortsAscending(RankSortKey key) { return key == RankSortKey::Name || key == RankSortKey::File; }

private:
    static RankTable fromSnapshots(const Profile& profile, std::optional<TimeRange> range);
    void finish(const Profile& profile);

    std::vector<RankRow> m_rows;
    Time m_busy = 0;
    std::optional<TimeRange> m_range;
};

} // namespace runlane
