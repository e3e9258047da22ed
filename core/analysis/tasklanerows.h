#pragma once

#include "profiletypes.h"
#include "taskpacking.h"

#include <cstdint>
#include <vector>

namespace runlane {

class MeasurementMetrics;
class Profile;

// The rows of the task lanes (TaskLaneView), in content coordinates from
// y = 0, and nothing of their painting: which tasks are listed (all, or
// those that ran), then per track a header and a row per task (PerTask) or
// per TaskPacking row (Packed), of the tasks alive in a time range or of
// every task. Auto lays out whichever of the two shows more of the listed
// tasks on the first screen; a tie keeps a row per task (it names each).
// Kept apart from the view, and from the widgets, so that what is listed,
// and where, is tested without a widget.
class TaskLaneRows
{
public:
    enum class Order { Creation, Exec, Name };
    enum class Layout { Auto, PerTask, Packed };
    enum class Kind : std::uint8_t { Header, Task, Packed };
    struct Row {
        TrackId track;
        MeasurementId task; // Task: the task; otherwise kNone
        int y;
        Kind kind = Kind::Task;
        std::uint32_t packed = 0; // Packed: the TaskPacking row
        std::uint32_t count = 0; // Header: tasks listed under it; Packed: tasks alive in it
    };
    struct Options {
        Layout layout = Layout::Auto;
        Order order = Order::Creation;
        bool onlyInRange = true; // list only the tasks alive somewhere in [from, to]
        Time from = kTimeMin;
        Time to = kTimeMax;
        int headerHeight = 20;
        int rowHeight = 18;
        int screen = 0; // the first screen's height, for Auto
    };

    // The tasks to list: those of `packing` (one per async measurement
    // shown), on a profile of `trackCount` tracks. Clears the rows.
    void setTasks(TaskPacking packing, std::size_t trackCount);
    // The tasks of `profile`, every one or, `onlyThatRan`, those that ran
    // (an active interval): from the packings made ahead of time, `all` and
    // `ran` (null when every task ran), or packed here if `all` is null
    // (a profile shown without them: scripts). Clears the rows.
    void setTasks(const Profile& profile, bool onlyThatRan, const TaskPacking* all, const TaskPacking* ran);
    // Tasks left out because they never ran (by the last setTasks).
    std::size_t hiddenTaskCount() const { return m_hiddenCount; }
    const TaskPacking& packing() const { return m_packing; }
    // The rows of `profile` (whose tasks setTasks gave); `metrics` orders
    // by exec time.
    void build(const Profile& profile, const MeasurementMetrics* metrics, const Options& options);
    void clearRows();

    const std::vector<Row>& rows() const { return m_rows; }
    // Whether the rows are Packed (Auto chose them, or were asked for).
    bool packedShown() const { return m_packedShown; }
    // Tasks listed.
    std::size_t taskCount() const { return m_taskCount; }
    int heightOf(const Row& row) const { return row.kind == Kind::Header ? m_headerHeight : m_rowHeight; }
    int contentHeight() const { return m_rows.empty() ? 0 : m_rows.back().y + heightOf(m_rows.back()); }
    // The row at a content y, null if none.
    const Row* rowAt(int y) const;
    // The row showing a task (its packed row when packed), null if not listed.
    const Row* rowOfTask(MeasurementId task) const;
    // The first row at or below a content y: painting starts there.
    std::vector<Row>::const_iterator firstFrom(int y) const;

private:
    std::size_t perTaskRows(const Profile& p, const MeasurementMetrics* metrics, const Options& o,
                            std::vector<Row>& rows) const;
    std::size_t packedRows(const Options& o, std::vector<Row>& rows) const;
    static std::size_t tasksWithin(const std::vector<Row>& rows, int height);
    // tasksWithin(rows of perTaskRows, o.screen), without building them.
    std::size_t perTaskWithin(const Options& o) const;

    // A task to list, with what the range test reads: a zoom tests every
    // task (39,058 in a 50 M-event trace), and reading each measurement
    // from the profile, at random, made that 10 % of a notch's time.
    struct Task {
        MeasurementId id;
        Time created;
        Time end;
    };
    static bool listed(const Task& task, const Options& o)
    {
        return !o.onlyInRange || (task.end >= o.from && task.created <= o.to);
    }

    TaskPacking m_packing;
    std::vector<std::vector<Task>> m_tasks; // per track, by creation
    std::vector<Row> m_rows;
    std::vector<std::int32_t> m_rowOfPacked; // per TaskPacking row: its index in m_rows, -1 if not listed
    bool m_packedShown = false;
    std::size_t m_taskCount = 0;
    std::size_t m_hiddenCount = 0;
    int m_headerHeight = 20;
    int m_rowHeight = 18;
};

} // namespace runlane
