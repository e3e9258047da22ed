#pragma once

#include "profiletypes.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
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

// The rules that make a task of one async id's events, in time order:
// ChromeTraceBuilder::buildAsyncTask builds the profile's by them, and
// ChromePreviewPairs a preview's of the events read so far, so that the two
// cannot drift apart. The task is made at its first 'b', or at its first
// instant stating a state if any event states a final one (`anyFinalState`):
// instants alone make no task. A 'b' opens a slice inside those open; an
// 'e' ends the 'b' of its name (its innermost open one, or the innermost
// of all if it has none), and the slices opened inside that one and never
// ended end with it, as in catapult. The visitor hears:
//   task(first)           the task is made (once), at `first`
//   begin(b, depth)       a slice opens, `depth` slices already open
//   end(e, depth, forced) the slice at `depth` ends at e.ts; `forced`: one
//                         left open inside the one `e` ends, innermost first
//   unmatched(e, anyOpen) an 'e' that ends nothing (ignored)
//   wake(n), mark(n)      an instant: a wake, or one without a state
// Returns how many slices are still open at the end.
template<typename Visitor>
std::size_t walkAsyncTask(std::span<const ChromeAsyncEvent> events, bool anyFinalState, Visitor& visitor)
{
    std::vector<StringId> open; // the open slices' names, outermost first
    bool made = false;
    auto make = [&](const ChromeAsyncEvent& first) {
        if (!made) {
            made = true;
            visitor.task(first);
        }
    };
    for (const ChromeAsyncEvent& ev : events) {
        if (ev.kind == 'b') {
            make(ev);
            visitor.begin(ev, open.size());
            open.push_back(ev.name);
        } else if (ev.kind == 'e') {
            std::size_t ends = open.size(); // the depth it ends
            if (ends > 0 && (ev.name == kEmptyString || ev.name == open.back())) {
                ends = open.size() - 1;
            } else if (ends > 0) {
                const auto match = std::find(open.rbegin(), open.rend(), ev.name);
                ends = match == open.rend() ? open.size() : std::size_t(open.rend() - match) - 1;
            }
            if (ends == open.size()) {
                visitor.unmatched(ev, !open.empty());
                continue;
            }
            while (open.size() > ends + 1) {
                visitor.end(ev, open.size() - 1, true);
                open.pop_back();
            }
            visitor.end(ev, ends, false);
            open.pop_back();
        } else if (ev.wake >= 0) {
            visitor.wake(ev);
        } else if (ev.state != ChromeAsyncEvent::kNoState) {
            // An instant that states the task's state is part of its life
            // (Runlane writes one at creation and one at the end).
            if (anyFinalState)
                make(ev);
        } else {
            visitor.mark(ev);
        }
    }
    return open.size();
}

} // namespace runlane
