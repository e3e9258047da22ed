#pragma once

#include "profiletypes.h"

#include <cstdint>
#include <string>
#include <vector>

namespace runlane {

class Profile;

// Where a profile's work goes in a Perfetto trace, and in what order, for
// PerfettoTraceWriter. Perfetto nests the slices of a track by the order of
// their begins and ends, so each track's slices must nest strictly:
//  - a process track per pid, parent of the tracks below;
//  - a thread track per Thread or Samples track (a sampled stack is written
//    as slices; a (pid, tid) that two of them share gets a tid of its own,
//    or reading back would merge them);
//  - a Runlane async track becomes as many Perfetto async tracks ("lanes")
//    as it has tasks running at once: each outermost task with everything
//    nested in it goes whole to the first lane free from its first interval
//    to its last, so a task's intervals share a lane and never overlap
//    another task's;
//    (their TrackDescriptors merge them again by a sibling merge key, as
//    Perfetto's UI shows them: one track);
//  - a counter track per counter series; a global track for global marks.
// The events are the slices' begins and ends (a tree walk per track: a
// parent before its children, siblings by start and then end, so a
// zero-length slice is ended before its sibling at the same time begins),
// the marks as instants, the counter values, an instant at the creation of
// each measurement that never ran and one per wake (on the track of the
// task's first slice), merged in time order; on
// a tie, in the order they were made (a track's own order is kept).
class PerfettoTrackLayout
{
public:
    enum class Kind : std::uint8_t { Process, Thread, Async, Counter, Global };
    struct TrackOut {
        std::uint64_t uuid = 0;
        std::uint64_t parent = 0; // 0: none
        Kind kind = Kind::Process;
        std::int64_t pid = 0;
        std::int64_t tid = 0;
        std::string name; // the track's name, or the thread's or process's
        std::string mergeKey; // Async: the same for the lanes of one Runlane track
        std::uint32_t counter = kNone; // Counter: index into profile.counters()
    };
    enum class EventKind : std::uint8_t { Begin, End, Instant, Counter, Created, Wake };
    struct Event {
        Time time = 0;
        std::uint64_t track = 0; // uuid
        // Begin/End: the interval; Instant: the mark; Counter: the series;
        // Created: the measurement; Wake: the index of the wake.
        std::uint32_t ref = 0;
        std::uint32_t point = 0; // Counter: the index of its value
        EventKind kind = EventKind::Begin;
    };

    explicit PerfettoTrackLayout(const Profile& profile);

    const std::vector<TrackOut>& tracks() const { return m_tracks; }
    const std::vector<Event>& events() const { return m_events; }
    // Whether the interval is still open when the profile ends: it is
    // written with a begin and no end, which reading back ends there too.
    bool isOpen(IntervalId id) const;

private:
    std::uint64_t processTrack(std::int64_t pid);
    std::uint64_t addTrack(TrackOut track);
    void threadTrack(TrackId t, std::int64_t tid);
    void asyncTrack(TrackId t);
    void marksAndCounters();
    void createdAndWakes();
    // A new lane of the async track (its lanes share a merge key).
    std::uint64_t addLane(TrackId t);
    // The track's first Perfetto track; for an async track without slices,
    // a lane made for its instants.
    std::uint64_t emptyLane(TrackId t);
    // The track of the measurement's first slice, else of its track.
    std::uint64_t trackOf(MeasurementId m);
    // The begins and ends of `roots` and their descendants on `uuid`.
    void walk(const std::vector<IntervalId>& roots, std::uint64_t uuid);
    void childrenOf(TrackId t);

    const Profile& m_profile;
    std::vector<TrackOut> m_tracks;
    std::vector<Event> m_events;
    std::vector<std::pair<std::int64_t, std::uint64_t>> m_processes; // pid -> uuid, in first-use order
    // Per Runlane track: its first Perfetto track (thread, or first lane).
    std::vector<std::uint64_t> m_trackUuid;
    // Per measurement: the track its first slice went to (0: none yet).
    std::vector<std::uint64_t> m_measurementUuid;
    std::uint64_t m_globalUuid = 0;
    // The children of the track being walked (offsets by interval - begin).
    std::vector<std::uint32_t> m_childBegin;
    std::vector<IntervalId> m_children;
    IntervalId m_trackBegin = 0;
};

} // namespace runlane
