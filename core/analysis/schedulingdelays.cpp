#include "schedulingdelays.h"

#include "nearestrank.h"

#include <algorithm>
#include <cmath>

namespace runlane {

std::vector<Time> SchedulingDelays::delaysOf(const Profile& profile, MeasurementId task, std::optional<TimeRange> range)
{
    std::vector<Time> delays;
    const std::span<const Wake> wakes = profile.wakesOf(task); // in time order
    if (wakes.empty())
        return delays;
    std::size_t k = 0;
    const Interval* previous = nullptr;
    for (const IntervalId id : profile.intervalsOf(task)) {
        const Interval& poll = profile.interval(id);
        bool ready = false;
        Time since = 0;
        // The wakes since the previous poll's start, up to this one's.
        for (; k < wakes.size() && wakes[k].time <= poll.start; ++k) {
            Time at = wakes[k].time;
            // Woken while it ran: ready when it returned (held at this
            // poll's start should a file's times run backwards).
            if (previous && at < previous->end)
                at = std::min(previous->end, poll.start);
            if (!ready) {
                ready = true;
                since = at;
            }
        }
        if (ready && (!range || range->contains(poll.start)))
            delays.push_back(poll.start - since);
        previous = &poll;
    }
    return delays;
}

DelayStats SchedulingDelays::statsOf(std::vector<Time>& delays)
{
    DelayStats stats;
    stats.count = delays.size();
    if (delays.empty())
        return stats;
    for (const Time d : delays) {
        stats.sum = addClamped(stats.sum, d);
        stats.max = std::max(stats.max, d);
    }
    const std::size_t rank = nearestRank(delays.size(), 0.9);
    std::nth_element(delays.begin(), delays.begin() + std::ptrdiff_t(rank), delays.end());
    stats.p90 = delays[rank];
    return stats;
}

SchedulingDelays::SchedulingDelays(const Profile& profile, std::optional<TimeRange> range) : m_range(range)
{
    if (profile.wakes().empty())
        return;
    m_tasks.resize(profile.measurementCount());
    std::vector<std::vector<Time>> perLabel(profile.labelCount());
    const std::vector<Wake>& wakes = profile.wakes();
    // Only the tasks with wakes can have delays: one visit per task.
    for (std::size_t i = 0; i < wakes.size();) {
        const MeasurementId task = wakes[i].task;
        std::vector<Time> delays = delaysOf(profile, task, range);
        std::vector<Time>& ofLabel = perLabel[profile.measurement(task).label];
        ofLabel.insert(ofLabel.end(), delays.begin(), delays.end());
        m_tasks[task] = statsOf(delays);
        while (i < wakes.size() && wakes[i].task == task)
            ++i;
    }
    m_labels.resize(profile.labelCount());
    for (std::size_t label = 0; label < perLabel.size(); ++label)
        m_labels[label] = statsOf(perLabel[label]);
}

} // namespace runlane
