#pragma once

#include <QString>

#include <functional>
#include <string>

namespace runlane {

class Profile;

// Writes any profile with a timeline as a Perfetto protobuf trace (a
// `Trace` of TracePackets) that Perfetto's UI and trace processor open and
// Runlane reads back with the same calls, slices, counters and flows.
//
// One packet sequence, its state cleared on its first packet, all in
// nanoseconds on the default trace clock: first the TrackDescriptors
// (PerfettoTrackLayout: processes, threads, async lanes, counters), then the
// track events in time order: slices as TYPE_SLICE_BEGIN/END with their
// names interned (and their label's file and line as interned source
// locations), marks as TYPE_INSTANT (a detail as a debug annotation
// "detail"), counter values as TYPE_COUNTER (double_counter_value).
// A task's running intervals are slices on its async lane (or on its
// thread, for tasks that ran on a thread's stack); the creator of an
// async task is a flow from the creator's slice running at the creation to
// the task's first slice. Flows are flow_ids on their source slice's begin
// and terminating_flow_ids on the target's (its end if the source begins
// later). What Perfetto has no field for, Runlane's own debug annotations
// say (PerfettoTaskNotes, names interned): on every slice of a measurement
// that is no plain call, its task id, and on its first (or on an instant
// at its creation, if it never ran) its creation, finish, final state,
// creator and flags; a wake is an instant "wake" naming its task. Read
// back, tasks come back whole: pending and paused time, states, creators
// and wakes. The lanes of one async track share a sibling merge key, so
// Perfetto shows them (and Runlane reads them) as one track. Not written:
// flow names, mark scopes (a process's marks are on its process track,
// global ones on a global track), sort indices, and pre-aggregated
// metrics (no timeline). Where the profile's span reaches past its events,
// a packet of a timestamp alone gives each end.
class PerfettoTraceWriter
{
public:
    using Sink = std::function<bool(const std::string& chunk)>;

    // Atomic: the file appears only when complete. False + error on failure.
    static bool writeFile(const Profile& profile, const QString& path, std::string& error);
    // Streams the trace to `sink` in chunks; stops when the sink returns
    // false. False + error if the profile cannot be written (a negative
    // time: Perfetto's timestamps are unsigned).
    static bool write(const Profile& profile, const Sink& sink, std::string& error);
    // The whole trace; empty (and `error` set) if it cannot be written.
    static std::string toString(const Profile& profile, std::string* error = nullptr);
};

} // namespace runlane
