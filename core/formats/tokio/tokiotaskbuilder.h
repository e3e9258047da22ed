#pragma once

#include "profilebuilder.h"
#include "tokioevent.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace runlane {

// Format side of a tokio-console recording: the events of the tasks of one
// runtime, in the file's order, to measurements on one Async track of a
// worker pool (TrackInfo::workerPool), since the recording names no threads.
//
// A task is created at its Spawn (label: `task.name`, else the spawn
// location `file:line`, with " [kind]" for other kinds than "task"), runs
// from each Enter to its Exit (one poll), is paused between polls and
// completes at its Close; one without a Close is unfinished. Its creator is
// the task entered at its Spawn when exactly one is (on a multi-threaded
// runtime a guess the recording cannot check, but the only evidence it
// has); none entered: a root (spawned from outside every task, e.g.
// `block_on`); several: unknown (CreatorUnknown), said in the details.
// Wake and WakeByRef are kept as the task's wakes; Clone and Drop are
// counted only. Events that contradict a task's state are warnings.
class TokioTaskBuilder
{
public:
    explicit TokioTaskBuilder(ProfileBuilder& builder);
    void add(const TokioEvent& event, std::uint64_t index);
    // Closes what is still open and states the counts.
    void finish();

private:
    struct Task {
        MeasurementId measurement = kNone;
        Time enteredAt = 0;
        std::uint32_t order = 0;
        bool entered = false;
    };

    void spawn(const TokioEvent& event, std::uint64_t index);
    void enter(Task& task, const TokioEvent& event, std::uint64_t index);
    void exit(Task& task, Time at);
    void waker(std::uint32_t slot, const TokioEvent& event);
    LabelId labelOf(const TokioEvent& event);
    void warnState(std::uint64_t index, const TokioEvent& event, std::string_view why);

    ProfileBuilder& m_builder;
    TrackId m_track;
    std::vector<Task> m_tasks; // one per Spawn
    // Live task ids to their slot in m_tasks; ids are reused after Close.
    std::unordered_map<std::uint64_t, std::uint32_t> m_live;
    std::vector<std::uint32_t> m_entered; // slots polled now
    std::unordered_map<std::string, LabelId> m_labels;
    std::string m_labelKey;
    std::uint64_t m_closed = 0;
    std::uint64_t m_clones = 0;
    std::uint64_t m_drops = 0;
    std::uint64_t m_unknownWakes = 0;
    std::uint64_t m_unknownCreators = 0;
};

} // namespace runlane
