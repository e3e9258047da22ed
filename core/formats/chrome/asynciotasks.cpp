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

    // Tasks in the order they first ran; names and order of their tracks.
    std::vector<std::size_t> order(tracks.size());
    std::iota(order.begin(), order.end(), 0);
    auto firstRun = [&](std::size_t k) {
        return tasks[k] == kNone ? kTimeMax : b.measurement(tasks[k]).created;
    };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return firstRun(x) < firstRun(y); });
    for (std::size_t rank = 0; rank < order.size(); ++rank) {
        TrackInfo& info = b.trackInfo(tracks[order[rank]]);
        const std::string process = b.trackName(info);
        const std::string threadName(b.string(info.threadName));
        // trackName gives "<process> / <thread>": keep its process part.
        const std::string prefix = process.substr(0, process.size() - threadName.size());
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
