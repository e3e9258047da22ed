#include "asynciotasks.h"

#include "outermosttasks.h"
#include "profilebuilder.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace runlane {

namespace {

// asyncio's own method, which every way of making a task goes through
// (asyncio.create_task, ensure_future, gather, TaskGroup, asyncio.run).
constexpr std::string_view kCreateTask = "BaseEventLoop.create_task";

bool isCreateTask(std::string_view name)
{
    // viztracer names a function "qualname (file:line)".
    return name.starts_with(kCreateTask)
        && (name.size() == kCreateTask.size() || name.substr(kCreateTask.size()).starts_with(" ("));
}

// After every thread of the process (threads keep their own sort indices).
constexpr std::int64_t kTaskSortBase = std::numeric_limits<std::int64_t>::max() / 2;

} // namespace

std::vector<TrackId> AsyncioTasks::loopThreads(const ProfileBuilder& b, const std::vector<TrackId>& tracks,
                                               const std::vector<MeasurementId>& tasks)
{
    std::vector<TrackId> loops(tracks.size(), kNone);
    std::vector<bool> isTask(b.trackCount(), false);
    for (TrackId t : tracks)
        isTask[t] = true;
    // Each task's first step (its earliest interval), by start.
    struct Step {
        Time start = kTimeMax;
        Time end = kTimeMax;
        std::int64_t pid = 0;
        std::size_t task = 0;
        Time best = kTimeMax; // the shortest interval of another thread holding it
    };
    std::vector<std::size_t> taskOf(b.measurementCount(), kNone);
    std::vector<Step> steps(tracks.size());
    for (std::size_t k = 0; k < tracks.size(); ++k) {
        if (tasks[k] != kNone)
            taskOf[tasks[k]] = k;
        steps[k].pid = b.trackInfo(tracks[k]).pid;
        steps[k].task = k;
    }
    for (const Interval& iv : b.intervalsSoFar()) {
        const std::size_t k = taskOf[iv.measurement];
        if (k != kNone && iv.start < steps[k].start) {
            steps[k].start = iv.start;
            steps[k].end = iv.end;
        }
    }
    std::sort(steps.begin(), steps.end(), [](const Step& x, const Step& y) { return x.start < y.start; });
    for (const Interval& iv : b.intervalsSoFar()) {
        const TrackId t = b.measurement(iv.measurement).track;
        if (isTask[t] || b.trackInfo(t).kind != TrackKind::Thread)
            continue;
        auto it = std::lower_bound(steps.begin(), steps.end(), iv.start, [](const Step& st, Time at) { return st.start < at; });
        for (; it != steps.end() && it->start < iv.end; ++it) {
            const Time length = iv.end - iv.start;
            if (it->end <= iv.end && it->pid == b.trackInfo(t).pid
                && (length < it->best || (length == it->best && t < loops[it->task]))) {
                it->best = length;
                loops[it->task] = t;
            }
        }
    }
    return loops;
}

bool AsyncioTasks::isTaskName(std::string_view name)
{
    constexpr std::string_view prefix = "Task-";
    if (!name.starts_with(prefix) || name.size() == prefix.size())
        return false;
    return std::all_of(name.begin() + prefix.size(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

void AsyncioTasks::build(ProfileBuilder& b, const std::vector<TrackId>& tracks)
{
    if (tracks.empty())
        return;
    std::vector<OutermostTasks::Request> requests;
    for (TrackId t : tracks)
        requests.push_back({t, b.label(b.trackInfo(t).threadName)});
    std::vector<MeasurementId> tasks = OutermostTasks::apply(b, requests);

    // Tasks in the order they first ran.
    std::vector<std::size_t> order(tracks.size());
    std::iota(order.begin(), order.end(), 0);
    auto firstRun = [&](std::size_t k) {
        return tasks[k] == kNone ? kTimeMax : b.measurement(tasks[k]).created;
    };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return firstRun(x) < firstRun(y); });
    const std::vector<TrackId> loops = loopThreads(b, tracks, tasks);
    for (std::size_t rank = 0; rank < order.size(); ++rank) {
        const std::size_t k = order[rank];
        TrackInfo& info = b.trackInfo(tracks[k]);
        const std::string process = b.trackName(info);
        const std::string threadName(b.string(info.threadName));
        // trackName gives "<process> / <thread>": keep its process part.
        const std::string prefix = process.substr(0, process.size() - threadName.size());
        if (loops[k] != kNone) {
            TrackInfo& loop = b.trackInfo(loops[k]);
            loop.laneGroup = b.intern(b.trackName(loop) + ": asyncio tasks");
            OutermostTasks::mergeTrack(b, tracks[k], loops[k]);
            continue;
        }
        info.displayName = b.intern(prefix + "asyncio tasks / " + threadName);
        info.laneGroup = b.intern(prefix + "asyncio tasks");
        info.threadSortIndex = kTaskSortBase + std::int64_t(rank);
    }

    std::vector<MeasurementId> ran;
    for (std::size_t k : order) {
        if (tasks[k] != kNone)
            ran.push_back(tasks[k]);
    }
    std::vector<MeasurementId> creates;
    std::vector<std::int8_t> isCreate; // by label: 0 not known yet, 1 no, 2 yes
    for (MeasurementId id = 0; id < b.measurementCount(); ++id) {
        const Measurement& m = b.measurement(id);
        if (isCreate.size() <= m.label)
            isCreate.resize(m.label + 1, 0);
        if (isCreate[m.label] == 0)
            isCreate[m.label] = isCreateTask(b.string(b.labelOf(m.label).name)) ? 2 : 1;
        if ((m.flags & Call) && isCreate[m.label] == 2)
            creates.push_back(id);
    }
    std::stable_sort(creates.begin(), creates.end(), [&b](MeasurementId x, MeasurementId y) {
        return b.measurement(x).created < b.measurement(y).created;
    });
    bool matched = creates.size() == ran.size();
    for (std::size_t k = 0; matched && k < ran.size(); ++k)
        matched = b.measurement(creates[k]).created <= b.measurement(ran[k]).created;
    for (std::size_t k = 0; k < ran.size(); ++k) {
        if (matched)
            b.setCreatedOn(ran[k], b.measurement(creates[k]).created, b.measurement(creates[k]).track);
        else
            b.setCreatorUnknown(ran[k]);
    }
}

} // namespace runlane
