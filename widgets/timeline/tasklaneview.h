#pragma once

#include "profiletypes.h"
#include "tasklanerows.h"
#include "timelineview.h"

#include <memory>
#include <unordered_set>
#include <vector>

namespace runlane {

class MeasurementMetrics;
class Profile;
class ProfileDocument;
struct Interval;

// One row per asynchronous measurement (semantics.md §7), grouped by track:
// pending from its creation to its first run (hatched), running on each
// active interval (solid, in its label's colour), paused between them (a
// dotted line), and an end mark in the colour of its final state. Rows are
// virtualised: only those in view are painted. Same time axis, zoom, pan and
// selection as the icicle; selecting a task also marks its creator and the
// tasks it created. Tasks either get a row each or are packed (TaskPacking:
// per label, tasks that do not overlap share a row); by default whichever
// shows more of the visible range's tasks on the first screen, chosen again
// whenever the lanes' height changes (TaskLaneRows lists them and chooses).
class TaskLaneView : public TimelineView
{
    Q_OBJECT

public:
    using Order = TaskLaneRows::Order;
    using Layout = TaskLaneRows::Layout;
    static constexpr int kLegendHeight = 24;
    static constexpr int kHeaderHeight = 20;

    explicit TaskLaneView(ProfileDocument* document, QWidget* parent = nullptr);

    void paintContent(QPainter& painter, QSize size, int scrollY) const override;
    int contentHeight() const override;
    int rowHeight() const { return m_rowHeight; } // a lane row's, from the font

    Order order() const { return m_order; }
    void setOrder(Order order);
    Layout layout() const { return m_layout; }
    void setLayout(Layout layout);
    // What the rows show now: PerTask or Packed (Auto chose one).
    Layout effectiveLayout() const { return m_lanes.packedShown() ? Layout::Packed : Layout::PerTask; }
    // The lane rows (a task's or a packed one, not a header) wholly in view at the scroll position.
    int rowsInView() const;
    // List only the tasks alive somewhere in the visible range (default),
    // or every task of the profile.
    bool onlyTasksInView() const { return m_onlyInView; }
    void setOnlyTasksInView(bool only);
    // Leave out the tasks that never ran (no active interval). Each profile
    // sets the default (on for Node's async_hooks, whose promises mostly
    // never run) until the user chooses.
    bool hidesTasksThatNeverRan() const { return m_hideNeverRan; }
    // What the lanes say when no task is listed ("" with no profile).
    QString placeholderText() const;
    void setHideTasksThatNeverRan(bool hide);
    std::size_t hiddenTaskCount() const { return m_lanes.hiddenTaskCount(); }
    // Tasks listed (those in view, unless every task is listed).
    std::size_t taskCount() const { return m_lanes.taskCount(); }
    // Async measurements of the profile.
    std::size_t totalTaskCount() const { return m_lanes.packing().taskCount(); }
    // The task drawn at a point, kNone if none.
    MeasurementId taskAt(QPoint pos) const;
    // The row of a task in widget coordinates (empty if out of view).
    QRect rowRect(MeasurementId task) const;
    void scrollToTask(MeasurementId task);
    bool isRelated(MeasurementId task) const { return m_related.count(task) != 0; }

protected:
    void paintMargin(QPainter& p, const QRect& margin) const override;
    void clicked(QPoint pos) override;
    QString toolTipAt(QPoint pos) const override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    using Kind = TaskLaneRows::Kind;
    using Row = TaskLaneRows::Row;

    void dropProfile();
    void collectTasks();
    // The profile the rows were built from, while it is the open one.
    const Profile* shownProfile() const;
    // The rows and the selected task's relations, for a new profile or
    // view mode.
    void rebuild();
    // The rows only, for a new range, order, layout or height: the
    // relations do not change with them.
    void rebuildRows();
    void rangeChanged();
    void selectionChanged();
    void computeRelated();
    void paintLegend(QPainter& p, int width) const;
    // The critical path shown (CriticalPathState) over the lanes.
    void paintCriticalPath(QPainter& p, QSize size, int scroll) const;
    void paintTask(QPainter& p, const Row& row, int y, int timeWidth) const;
    void paintPackedRow(QPainter& p, const Row& row, int y, int timeWidth) const;
    // A task's pending, running and paused stretches and its end mark.
    void paintTaskBody(QPainter& p, MeasurementId task, int y, int timeWidth) const;

    Order m_order = Order::Creation;
    Layout m_layout = Layout::Auto;
    TaskLaneRows m_lanes; // the tasks listed and their rows
    bool m_onlyInView = true;
    bool m_hideNeverRan = false;
    bool m_hideChosen = false;
    // The scroll a refinement of the profile keeps (ProfileDocument::
    // refineProfile), taken as the old profile is dropped; -1: none.
    int m_keptScroll = -1;
    // What the rows and tasks were built from: their ids are read against
    // this profile only (null between a switch's two signals).
    std::shared_ptr<const Profile> m_profile;
    std::shared_ptr<const MeasurementMetrics> m_metrics;
    std::unordered_set<MeasurementId> m_related;
    int m_rowHeight = 18;
    int m_builtScreen = -1; // the first screen's height the rows were built for (Auto's choice)
};

} // namespace runlane
