#pragma once

#include "perfettoannotations.h"
#include "profiletypes.h"

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace runlane {

class ProfileBuilder;
class ProtoWireReader;

// What Perfetto has no field for, written by PerfettoTraceWriter as debug
// annotations of its own ("runlane.*") so that PerfettoTracks rebuilds a
// profile's tasks exactly: Perfetto has slices, not tasks, so a task's
// running intervals are slices that each say which task they belong to
// ("runlane.task", an id unique in the file), and the first of them (or an
// instant at its creation, for a task that never ran) says the rest: when
// it was created and finished, how it ended, who created it (that task's
// id), its flags and which flow id stands for its creator. A wake is an
// instant "wake" on the task's track naming the task ("runlane.wake").
// Perfetto's UI shows them as any annotation; a trace without them reads as
// before.
struct PerfettoTaskNotes {
    enum Name : std::uint8_t { Task, Created, Finished, State, Creator, CreatorFlow, Flags, Wake, WakeFlags, kNameCount };
    static constexpr std::array<std::string_view, kNameCount> kNames = {
        "runlane.task",         "runlane.created", "runlane.finished", "runlane.state",      "runlane.creator",
        "runlane.creator_flow", "runlane.flags",   "runlane.wake",     "runlane.wake_flags",
    };

    std::uint64_t task = 0; // 0: not a task's event
    bool described = false; // created, finished and state are given
    Time created = 0;
    Time finished = 0;
    FinalState state = FinalState::Unfinished;
    std::uint64_t creator = 0; // the creator's task id, 0: none
    std::uint64_t creatorFlow = 0; // the flow id that is the creator's arrow
    std::uint8_t flags = 0; // MeasurementFlag
    std::uint64_t wake = 0; // the woken task's id, 0: not a wake
    std::uint8_t wakeFlags = 0; // Wake::Flag

    bool any() const { return task != 0 || wake != 0; }

    // The notes among a track event's annotations (names inline or
    // interned); none if it has none.
    static PerfettoTaskNotes read(const std::vector<ProtoWireReader>& annotations,
                                  const PerfettoAnnotations::Interned& names,
                                  const PerfettoAnnotations::Interned& strings, const ProfileBuilder& builder);
};

} // namespace runlane
