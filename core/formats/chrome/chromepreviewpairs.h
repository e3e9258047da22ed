#pragma once

#include "chromeasynctask.h"
#include "chromeevent.h"
#include "longestlivedtasks.h"
#include "profilebuilder.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace runlane {

// A Chrome trace while it loads, for the previews (LoadControl::preview)
// and for a load stopped and kept (LoadControl::keepPartial): how many
// events were read, whether they came in time order, and the B/E pairs of
// each thread matched in file order on a stack as they complete, so that
// a preview shows them (ChromeTraceBuilder matches them for good only at
// the end of the file, after a sort: a B/E out of time order is skipped
// here, never there). X events reach the previews through addCall. The
// async tasks so far are added to each preview as their events make them
// (addTasks). Only made when the load wants either: a plain load pays
// nothing.
class ChromePreviewPairs
{
public:
    // The trace builder's async tasks while it loads, and the track a task
    // goes on if the source has it yet (kNone: the preview adds it).
    struct Tasks {
        const std::vector<ChromeAsyncTask>& list;
        std::function<TrackId(const ChromeAsyncTask&)> track;
    };

    // Sets the builder's preview hooks (when previews are on): the time
    // known complete, the track names the metadata so far gives, and the
    // tasks so far.
    ChromePreviewPairs(ProfileBuilder& builder, std::function<void(TrackInfo&)> nameTrack, Tasks tasks);

    // Every event, before the builder takes it (and after the builder was
    // polled for a preview of the events before it).
    void event(const ChromeEvent& e, std::uint64_t index)
    {
        m_events = index + 1;
        // Metadata carries a ts of 0 or none, wherever it is written.
        if (e.ts.kind == ChromeEvent::TimeValue::Ok && !(e.ph.size() == 1 && e.ph[0] == 'M')) {
            m_inOrder = m_inOrder && e.ts.ns >= m_latest;
            m_latest = std::max(m_latest, e.ts.ns);
        }
    }
    void beginEnd(TrackId track, Time ts, LabelId label, bool begin, std::uint32_t order);
    // An async 'b' or 'e' (others ignored): while any is open, nothing
    // after the first open one's start is known complete. `asyncHooks`:
    // of Node's async_hooks, whose tasks NodeAsyncHooks builds only at the
    // end (the previews then hold none).
    void async(char kind, Time ts, bool asyncHooks);
    // Task `index` of Tasks::list took an event.
    void touched(std::uint32_t index)
    {
        if (m_selecting && !m_asyncHooks)
            m_selection.touch(index);
    }

    std::uint64_t eventsRead() const { return m_events; }
    // PartialLoad::completeUpTo: the latest timestamp read if every event
    // came in time order, but no later than the start of a slice still
    // open (its end is still to come); kTimeMin once one came out of order.
    Time completeUpTo() const;
    // PreviewSettings::addTasks: the tasks so far, as ChromeTraceBuilder
    // would build them from the events read (a task ends at its last event
    // read unless a slice of it is open), the longest-lived first over the
    // budget; their top-level slices only (nested ones are calls the task
    // made). Returns how many it left out; none if async_hooks events were
    // read (all the tasks come with the whole profile then).
    std::optional<std::uint64_t> addTasks(PreviewTarget& target);

private:
    void addTask(PreviewTarget& target, const ChromeAsyncTask& task, std::vector<ChromeAsyncEvent>& scratch) const;

    struct Open {
        Time ts;
        LabelId label;
        std::uint32_t order;
    };

    ProfileBuilder& m_builder;
    Tasks m_tasks;
    std::vector<std::vector<Open>> m_stacks; // by track
    std::uint64_t m_events = 0;
    Time m_latest = kTimeMin;
    bool m_inOrder = true;
    std::int64_t m_asyncOpen = 0;
    Time m_asyncOpenSince = kTimeMax;
    bool m_asyncHooks = false;
    bool m_selecting = false; // previews are shown (not only a cut kept)
    LongestLivedTasks m_selection;
    std::vector<LongestLivedTasks::Kept> m_kept;
};

} // namespace runlane
