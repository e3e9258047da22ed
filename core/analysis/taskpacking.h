#pragma once

#include "profile.h"

#include <unordered_map>
#include <utility>
#include <vector>

namespace runlane {

// The async tasks of a profile packed into shared rows, as Perfetto packs
// async slices: per track (or lane group of tracks), one group per label (the labels with the most
// tasks first, then in order of their first task's creation), and in each group the fewest rows such that the
// tasks sharing a row never overlap in time. A task occupies [created, end),
// end being when it finished (the profile's end if it did not), so a row
// reads left to right as the label's tasks one after the other. First-fit
// in order of creation (RowPacker), O(n log n).
class TaskPacking
{
public:
    struct Row {
        TrackId track;
        LabelId label;
        std::uint32_t indexInGroup; // 0 for a group's first row
        std::uint32_t begin; // its tasks: tasks()[begin, end), by creation
        std::uint32_t end;
    };

    TaskPacking() = default;
    // `withNeverRan` false leaves out the tasks that never ran (no active
    // interval), such as most of Node's promises.
    explicit TaskPacking(const Profile& profile, bool withNeverRan = true);
    // The async tasks that never ran: what `withNeverRan` false leaves out.
    static std::size_t neverRanCount(const Profile& profile);
    // Per track, the track whose heading its tasks are listed under: the
    // first track of its process with the same lane group (TrackInfo::
    // laneGroup), else itself. Rows name these tracks.
    static std::vector<TrackId> laneTracks(const Profile& profile);

    // By track, then group, then row within the group.
    const std::vector<Row>& rows() const { return m_rows; }
    const std::vector<MeasurementId>& tasks() const { return m_tasks; }
    std::size_t taskCount() const { return m_tasks.size(); }
    // When tasks()[i] was created, and when it ends (endOf).
    Time createdAt(std::uint32_t i) const { return m_created[i]; }
    Time endAt(std::uint32_t i) const { return m_ends[i]; }
    // The row of a task, or rows().size() if it is not an async task.
    std::size_t rowOf(MeasurementId task) const;
    // When a task stops occupying its row.
    static Time endOf(const Profile& profile, const Measurement& m);
    // The tasks of a row alive somewhere in [from, to] (as tasks()
    // indices): a binary search, since within a row both creations and
    // ends rise.
    std::pair<std::uint32_t, std::uint32_t> alive(const Row& row, Time from, Time to) const;
    // The first task of a row created at or after `t` (a tasks() index).
    std::uint32_t firstCreatedFrom(const Row& row, Time t) const;

private:
    std::vector<Row> m_rows;
    std::vector<MeasurementId> m_tasks;
    std::vector<Time> m_created; // beside m_tasks, so that searches read no measurement
    std::vector<Time> m_ends;
    std::unordered_map<MeasurementId, std::uint32_t> m_rowOf;
};

} // namespace runlane
