#pragma once

#include "criticalpath.h"
#include "ranktable.h"

#include <array>
#include <atomic>
#include <functional>
#include <optional>
#include <span>
#include <vector>

namespace runlane {

// The critical paths of a set of tasks summed up (semantics.md §9,
// "Aggregated over a label"): the time by (kind, named label), by track and
// by process, and the critical-path call tree (every running segment under
// the creation path of the measurement it names, merged by label as the
// aggregated flame graph merges call paths).
class CriticalPathSummary
{
public:
    // Time of one kind named after one label (kNone: idle).
    struct Entry {
        CriticalPath::Kind kind = CriticalPath::Kind::Running;
        LabelId label = kNone;
        Time ns = 0;
    };
    struct TrackEntry {
        TrackId track = 0;
        Time ns = 0;
    };
    struct ProcessEntry {
        std::int64_t pid = 0;
        StringId name = kEmptyString; // the first of its tracks' process names
        Time ns = 0;
    };
    // A node of the critical-path call tree: the running time on the paths
    // of the measurements whose creation path is this node's.
    struct Node {
        LabelId label = 0;
        std::uint32_t parent = kNone;
        Time total = 0; // with the nodes under it
        Time self = 0;
    };
    struct Task {
        MeasurementId measurement = kNone;
        std::vector<CriticalPath::Segment> segments; // empty unless kept
        std::vector<Entry> breakdown;
    };

    // The tasks a label's summary is over: its finished measurements that
    // were not born finished, in creation order; with a range, those whose
    // life [created, finished) overlaps it.
    static std::vector<MeasurementId> tasksOf(const Profile& profile, std::span<const LabelId> labels,
                                              std::optional<TimeRange> range = std::nullopt);
    // The `count` tasks with the longest lives (ties: the earlier created),
    // in creation order.
    static std::vector<MeasurementId> slowest(const Profile& profile, std::vector<MeasurementId> tasks,
                                              std::size_t count);
    // Sums the tasks' paths; `keepSegments` keeps each task's segments.
    // `progress(done, total)` is called now and then; throws LoadCancelled
    // when `cancel` is set.
    static CriticalPathSummary compute(const CriticalPath& path, std::vector<MeasurementId> tasks,
                                       bool keepSegments, const std::atomic<bool>* cancel = nullptr,
                                       const std::function<void(std::size_t, std::size_t)>& progress = {});
    // One path's time by (kind, named label), largest first.
    static std::vector<Entry> breakdownOf(const Profile& profile, std::span<const CriticalPath::Segment> segments);

    CriticalPath::WakeSource wakeSource() const { return m_source; }
    const std::vector<Task>& tasks() const { return m_tasks; }
    // Σ of the tasks' lives: what the breakdown adds up to.
    Time wall() const { return m_wall; }
    // Largest first; ties by kind, then label.
    const std::vector<Entry>& breakdown() const { return m_breakdown; }
    const std::vector<TrackEntry>& byTrack() const { return m_byTrack; }
    const std::vector<ProcessEntry>& byProcess() const { return m_byProcess; }
    // The call tree's nodes, parents before children; roots have no parent.
    const std::vector<Node>& tree() const { return m_tree; }
    // Σ of each kind over all tasks, in the order of CriticalPath::Kind.
    const std::array<Time, 4>& kindTotals() const { return m_kindTotals; }

private:
    CriticalPath::WakeSource m_source = CriticalPath::WakeSource::None;
    std::vector<Task> m_tasks;
    Time m_wall = 0;
    std::vector<Entry> m_breakdown;
    std::vector<TrackEntry> m_byTrack;
    std::vector<ProcessEntry> m_byProcess;
    std::vector<Node> m_tree;
    std::array<Time, 4> m_kindTotals{};
};

} // namespace runlane
