#pragma once

#include "flowbinder.h"
#include "longestlivedtasks.h"
#include "perfettotrackevent.h"
#include "profiletypes.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace runlane {

class PreviewTarget;
class ProfileBuilder;
class ProtoWireReader;
struct TrackInfo;

// Perfetto's tracks and the track events on them, into a ProfileBuilder.
// A TrackDescriptor with a ThreadDescriptor is a thread (Runlane Thread
// track by pid and tid, its slices nested by begin and end order); one with
// a CounterDescriptor a counter series; any other track whose slices land
// there is an async track (Runlane Async track, named as Perfetto names
// it): each outermost slice a task, the slices inside it measurements it
// created, as Chrome's b/e. Slices nest by the order of their begin and end
// on their own track (equal timestamps in stream order); instants are
// marks; flow ids chain the slices that carry them (Runlane flows).
// Tracks whose descriptors say to merge siblings by a merge key
// (SIBLING_MERGE_BEHAVIOR_BY_SIBLING_MERGE_KEY) are one track, as Perfetto
// shows them. Events with Runlane's notes (PerfettoTaskNotes, a trace
// PerfettoTraceWriter wrote) rebuild its tasks: the slices of one task id
// are the intervals of one measurement, created, finished, ended and
// created by whom as the notes say, the flow that stands for its creator
// no flow; a wake instant is a wake, not a mark.
// Events on a track whose descriptor has not come yet wait for it (writers
// such as tracing-perfetto describe a thread after its first event); those
// of a track never described go to an async track at the end.
// While a load shows previews (ProfileBuilder::startPreviews before this
// is made), they hold the async tasks read so far and name the tracks as
// the end of the file will.
class PerfettoTracks
{
public:
    explicit PerfettoTracks(ProfileBuilder& builder);

    // A TrackDescriptor message (a packet's track_descriptor).
    void describe(const ProtoWireReader& descriptor);
    // A legacy packet-level thread_descriptor (older Chrome): the track of
    // that thread, the uuid a sequence's events without one go to.
    std::uint64_t legacyThread(std::int64_t pid, std::int64_t tid, StringId name);
    void legacyProcess(std::int64_t pid, StringId name);
    // A track event, applied or kept until its track is described. Taken
    // by reference, not copied (a copy was a fifth of a simple event's
    // time): it may be changed (its extra counters taken, its type
    // cleared), so the caller sets every field again for the next.
    void event(PerfettoTrackEvent& e);
    // Ends what is still open and names the tracks.
    void finish();
    // PartialLoad::completeUpTo: if every track event so far came in time
    // order (a single sequence's trace, or sequences that interleave in
    // time), the latest time read, but no later than a slice still open or
    // an event still waiting for its track; else kTimeMin. Sequences
    // written in chunks (the tracing service's) come out of order soon.
    Time completeUpTo() const;

private:
    struct Open {
        MeasurementId measurement = kNone; // async: made at the begin; thread: at the end
        LabelId label = 0;
        Time start = 0;
        std::uint32_t order = 0;
        StringId args = kEmptyString; // its begin's debug annotations, JSON
        std::uint64_t task = 0; // its notes' task id, 0: none
        std::uint64_t creatorFlow = 0; // the flow id that is its creator's
        // Flow keys (flowKey): continued from here, and ended here.
        std::vector<std::uint32_t> flows;
        std::vector<std::uint32_t> terminatingFlows;
        std::uint32_t previewTask = kNone; // its index in m_previewTasks
    };
    // An async task (an outermost slice) as the previews show it: start
    // and track from its measurement, its end once read.
    struct PreviewTask {
        MeasurementId measurement;
        std::uint32_t order;
        Time end; // ProfileBuilder::kOpen until its end is read
    };
    // What finish() names the tracks: an async track by its descriptor, a
    // thread by any of its descriptors that names it.
    struct TrackNames {
        std::unordered_map<TrackId, StringId> async;
        std::map<std::pair<std::int64_t, std::int64_t>, StringId> threads;
    };
    struct Descriptor {
        bool described = false;
        std::uint64_t parent = 0;
        StringId name = kEmptyString;
        bool isProcess = false;
        bool isThread = false;
        bool isCounter = false;
        std::int64_t pid = 0;
        std::int64_t tid = 0;
        StringId processName = kEmptyString;
        StringId threadName = kEmptyString;
        StringId mergeKey = kEmptyString; // with SIBLING_MERGE_BEHAVIOR_BY_SIBLING_MERGE_KEY
        double multiplier = 1;
        bool incremental = false;
        // What it became in the builder, at its first event.
        bool bound = false;
        TrackId track = kNone;
        bool async = false;
        std::size_t counter = SIZE_MAX;
        double counterValue = 0; // an incremental counter's sum
        std::vector<Open> stack;
    };

    // A task of the notes, by its id.
    struct Task {
        MeasurementId measurement = kNone;
        PerfettoTaskNotes notes;
    };
    struct PendingWake {
        Time time = 0;
        std::uint64_t task = 0;
        std::uint8_t flags = 0;
    };

    Task& noteTask(const PerfettoTaskNotes& notes);
    // Creators, ends and wakes of the notes' tasks, once all are known.
    void finishTasks();
    // The descriptor of `uuid`, made if new. Most events follow one on the
    // same track: the last one found is kept (the nodes of m_tracks never
    // move, and none is erased), a lookup per event saved.
    Descriptor& descriptor(std::uint64_t uuid);
    // Whether an event on `uuid` must wait for its descriptor; keep() keeps
    // it until then.
    bool mustWait(std::uint64_t uuid);
    void keep(std::uint64_t uuid, PerfettoTrackEvent e);
    void replay(std::uint64_t uuid);
    Descriptor& bind(std::uint64_t uuid);
    void bindTrack(std::uint64_t uuid, Descriptor& d);
    void counterPoint(std::uint64_t uuid, Time t, double value, std::int64_t offset);
    void begin(Descriptor& d, const PerfettoTrackEvent& e);
    void end(Descriptor& d, const PerfettoTrackEvent& e);
    void close(Descriptor& d, const Open& open, Time at);
    void instant(Descriptor& d, const PerfettoTrackEvent& e);
    void flowKeys(const PerfettoTrackEvent& e, Open& open);
    void flowPoints(const Descriptor& d, MeasurementId measurement, Time at, const Open& open, bool slice);
    TrackId threadTrack(std::int64_t pid, std::int64_t tid);
    std::string trackText(std::uint64_t uuid) const;
    TrackNames trackNames() const;
    // PreviewSettings::nameTrack and ::addTasks.
    void nameTrack(TrackInfo& info) const;
    std::optional<std::uint64_t> addTasks(PreviewTarget& target);

    ProfileBuilder& m_builder;
    std::unordered_map<std::uint64_t, Descriptor> m_tracks;
    std::uint64_t m_lastUuid = 0;
    Descriptor* m_lastDescriptor = nullptr; // m_tracks[m_lastUuid], when set
    std::map<std::pair<std::int64_t, std::int64_t>, TrackId> m_threads;
    std::map<std::int64_t, StringId> m_processNames;
    std::unordered_map<std::uint64_t, std::uint32_t> m_flowKeys;
    // Flow points are added at the end: a creator's flow is known to be
    // one only when it ends.
    std::vector<FlowBinder::Point> m_flowPoints;
    std::unordered_set<std::uint32_t> m_creatorKeys;
    std::map<std::pair<std::uint64_t, StringId>, TrackId> m_merged; // by parent and merge key
    std::unordered_map<std::uint64_t, Task> m_tasks;
    std::vector<PendingWake> m_wakes;
    // The next flow's key: ids are erased from m_flowKeys when they end,
    // so its size would give a key that is still in use.
    std::uint32_t m_nextFlowKey = 0;
    std::uint32_t m_order = 0;
    // Events waiting for their track's descriptor, and the order in which
    // their tracks were first seen (the end replays them in that order).
    std::unordered_map<std::uint64_t, std::vector<PerfettoTrackEvent>> m_waiting;
    std::vector<std::uint64_t> m_waitingOrder;
    bool m_giveUpWaiting = false;
    // Whether the track events came in time order so far, the latest, and
    // whether waiting ones are being replayed (they came in order before).
    bool m_inOrder = true;
    Time m_latest = kTimeMin;
    bool m_replaying = false;
    // The previews' tasks (only while previews are shown), whether a task
    // of the notes was read (then they hold none: those tasks are made at
    // the end), and the track names as of the last change of a descriptor.
    bool m_previewing = false;
    std::vector<PreviewTask> m_previewTasks;
    LongestLivedTasks m_selection;
    std::vector<LongestLivedTasks::Kept> m_kept;
    bool m_noteTasks = false;
    std::uint64_t m_namesVersion = 0;
    mutable std::uint64_t m_previewNamesVersion = ~std::uint64_t(0);
    mutable TrackNames m_previewNames;
};

} // namespace runlane
