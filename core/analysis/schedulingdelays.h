#pragma once

#include "profile.h"
#include "ranktable.h"

#include <optional>

#include <vector>

namespace runlane {

// Figures of a set of scheduling delays (nearest-rank p90, as the rank's).
struct DelayStats {
    std::uint64_t count = 0;
    Time sum = 0;
    Time max = 0;
    Time p90 = 0;
};

// The scheduling delay of async tasks with wakes (Profile::wakes, tokio):
// how long a task waited, ready to run, before a worker polled it.
//
// A delay runs from a wake of the task to the start of its next poll:
// - several wakes before one poll: the first counts (the task was ready
//   from then on; the later ones find it queued already);
// - a wake during a poll of the task (a self-wake, or another thread's
//   wake while it runs) makes it ready again at that poll's end, since it
//   cannot be polled again before the poll returns: the delay runs from
//   the end of that poll to the start of the next;
// - a wake at the very instant a poll starts counts for that poll (0);
// - a wake that no poll follows (the task closed, or the recording ended)
//   gives no delay.
// The first poll after the spawn is no delay: no wake comes before it (that
// wait is the task's Pending time). Per label, the figures are over all
// the delays of its tasks (not over per-task sums). Over a range, the
// delays are those of the polls that start in it (a delay belongs to the
// poll it ends at), wherever its wake lies.
class SchedulingDelays
{
public:
    explicit SchedulingDelays(const Profile& profile, std::optional<TimeRange> range = std::nullopt);
    const std::optional<TimeRange>& range() const { return m_range; }

    // False when the profile has no wakes: every figure is then zero.
    bool any() const { return !m_tasks.empty(); }
    const DelayStats& ofTask(MeasurementId id) const { return id < m_tasks.size() ? m_tasks[id] : m_none; }
    const DelayStats& ofLabel(LabelId id) const { return id < m_labels.size() ? m_labels[id] : m_none; }
    // The delays of one task, in the order of its polls.
    static std::vector<Time> delaysOf(const Profile& profile, MeasurementId task,
                                      std::optional<TimeRange> range = std::nullopt);

private:
    static DelayStats statsOf(std::vector<Time>& delays);

    std::vector<DelayStats> m_tasks;
    std::vector<DelayStats> m_labels;
    DelayStats m_none;
    std::optional<TimeRange> m_range;
};

} // namespace runlane
