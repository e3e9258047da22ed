#pragma once

#include "profiletypes.h"

#include <span>
#include <vector>

namespace runlane {

class ProfileBuilder;

// Turns the outermost calls of a track into the running intervals of one
// async task, before the build: a track that stands for one task rather than
// a thread (viztracer's --log_async writes each Python asyncio task as a
// pseudo-thread whose outermost calls are the task's steps, from a resume to
// the next suspension). The steps' calls become that one task's intervals,
// so the icicle keeps its boxes and rows while the task lanes, the rank
// (one call per task, not per step) and the creators see one task.
class OutermostTasks
{
public:
    struct Request {
        TrackId track = kNone;
        // The task's label when its steps' calls do not all share one (a
        // trace that filtered the coroutine's frame out); otherwise the
        // steps' label, the coroutine's.
        LabelId fallbackLabel = 0;
    };

    // Per request, the task's measurement (kNone for a track without calls).
    // The task is created at its first step and ends, Ended, at its last;
    // its creator is left unset (kNone) for the caller to state. Everything
    // that named a step's call (creators, flows, wakes, triggers) names the
    // task afterwards (but for its args: the task keeps the first step's);
    // measurement ids are renumbered.
    static std::vector<MeasurementId> apply(ProfileBuilder& builder, std::span<const Request> requests);
    // Moves everything on track `from` to track `into` (where the tasks ran,
    // so that their steps nest in what ran them there) and drops `from`.
    static void mergeTrack(ProfileBuilder& builder, TrackId from, TrackId into);
};

} // namespace runlane
