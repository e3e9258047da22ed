#pragma once

#include "profiletypes.h"

#include <string_view>
#include <vector>

namespace runlane {

class ProfileBuilder;

// Python asyncio tasks in a viztracer `--log_async` trace (formats.md, the
// viztracer sample): viztracer writes each task as a pseudo-thread (tid =
// the task object's address & 0xffffff, `thread_name` = the task's name)
// holding the calls made while the task ran, cut out of the thread that ran
// them. Runlane makes such a track one task (OutermostTasks): its outermost
// calls, one per step from a resume to the next `await` that suspends, are
// its Running intervals and the gaps between them Paused. Then it puts the
// task back on the thread that ran it (the event loop's, found by where its
// first step nests: viztracer leaves there the `Context.run` that ran it),
// so each step nests under that `Context.run`: exec is counted once (not as
// the step's and as `Context.run`'s), the loop's usage chart shows the
// coroutines, and the icicle shows the real call stack. The loop thread's
// tasks are listed under "<thread>: asyncio tasks" in the task lanes. A task
// no thread holds stays a track of its own, "<process> / asyncio tasks /
// <name>", after the process's threads.
//
// What the file does not say:
// * Which tracks are tasks. A track is taken for one when the file is
//   viztracer's (its top-level "viztracer_metadata") and its name is
//   asyncio's default `Task-<n>`; a task given its own name
//   (`create_task(..., name=...)`) stays a thread track.
// * When a task was created and by whom. asyncio runs tasks' first steps in
//   the order they were created, so when the trace holds exactly one
//   `BaseEventLoop.create_task` call per task, each before its task's first
//   step, the n-th call created the n-th task to run: the task is created as
//   that call starts, by what ran innermost then (semantics.md §2: that
//   call; its callers are its creators in turn). Otherwise the tasks start at
//   their first step and their creator is unknown (said in the details).
// * When a task finished: viztracer records no end, so a task ends (Ended)
//   at the end of its last step.
class AsyncioTasks
{
public:
    static bool isTaskName(std::string_view threadName);
    // `tracks`: the task tracks, named and sorted by the caller's metadata.
    static void build(ProfileBuilder& builder, const std::vector<TrackId>& tracks);

private:
    // Per task track, the thread its tasks ran on: the thread of its process
    // holding its first step in the shortest interval (the event loop's
    // `Context.run` that ran it), kNone if none holds it.
    static std::vector<TrackId> loopThreads(const ProfileBuilder& builder, const std::vector<TrackId>& tracks,
                                            const std::vector<MeasurementId>& tasks);
};

} // namespace runlane
