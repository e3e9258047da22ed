#pragma once

#include "profiletypes.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace runlane {

// One event of a Chrome async slice ('b', 'e' or 'n'), kept until the end
// of the file, when ChromeTraceBuilder::buildAsyncTask sorts them by time
// and builds the task.
struct ChromeAsyncEvent {
    // `state` of an event without args.state, and of a state that is not
    // final (Runlane writes "pending" at creation).
    static constexpr std::int8_t kNoState = -2;
    static constexpr std::int8_t kOtherState = -1;

    Time ts;
    std::uint32_t order;
    LabelId label;
    StringId name;
    char kind; // 'b', 'e' or 'n'
    // FinalState from args.state; kNoState if none, kOtherState for a state
    // that is not final.
    std::int8_t state;
    std::int16_t wake; // an 'n': a wake's flags (args.wake), else -1
};

// The events of one async id, in file order, and what the previews need to
// know of them without a walk (ChromePreviewPairs::addTasks).
struct ChromeAsyncTask {
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    bool onThread = false;
    std::vector<ChromeAsyncEvent> events;
    MeasurementId measurement = kNone; // once built
    // Ids of the creator and trigger tasks, as args name them (-1: none).
    std::int64_t creatorId = -1;
    std::int64_t triggerId = -1;
    // The thread it was created on, when not its own (args.creator_tid).
    bool hasCreatorTid = false;
    std::int64_t creatorTid = 0;
    // Its earliest and latest event so far, and whether it makes a task:
    // a 'b', or a final state (buildAsyncTask's rules).
    Time first = kTimeMax;
    Time last = kTimeMin;
    bool anyBegin = false;
    bool anyFinalState = false;

    void add(const ChromeAsyncEvent& event)
    {
        events.push_back(event);
        first = std::min(first, event.ts);
        last = std::max(last, event.ts);
        anyBegin = anyBegin || event.kind == 'b';
        anyFinalState = anyFinalState || event.state >= 0;
    }
};

} // namespace runlane
