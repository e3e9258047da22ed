#pragma once

#include "criticalpathsummary.h"
#include "profilejob.h"

#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QAction;
class QLabel;
class QListWidget;
class QProgressBar;
class QSortFilterProxyModel;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTimer;
class QToolButton;

namespace runlane {

class CriticalPathBar;
class CriticalPathBreakdownModel;
class CriticalPathCompareTab;
class CriticalPathFlameGraph;
class CriticalPathSegmentModel;
class ProfileDocument;

// The Critical path panel (semantics.md §9, a tab beside the rank). Two
// scopes, each kept while the other is looked at:
// - Task: the path the document shows (P on a task or box): its segments in
//   time order, a click selecting the named measurement and zooming to the
//   segment; the breakdown by (kind, label) and by process.
// - Label: the paths of all the finished tasks of the rank's focused label
//   summed, computed off the GUI thread (progress, cancel; a newer label or
//   another profile drops it), and the label's slowest tasks: picking one
//   shows its path.
// Both show the kinds' shares of the wall time as one stacked bar, the
// critical-path flame graph of what ran on the paths, and say
// why there are no wakers when the format records none.
class CriticalPathPanel : public QWidget
{
    Q_OBJECT

public:
    enum class Scope { Task, Label };
    // The CSV exports, with runlane-cli critical-path --format csv's
    // columns: the breakdown (kind,name,file,line,ns), or with --each the
    // task's segments (task_created_ns,start_ns,end_ns,kind,name,track).
    enum class CsvTable { Breakdown, Segments };
    // Asked for a file name to save to, given a suggestion and a filter;
    // empty: cancelled. A QFileDialog unless set (tests).
    using SaveChooser = std::function<QString(const QString& suggestion, const QString& filter)>;

    explicit CriticalPathPanel(ProfileDocument* document, QWidget* parent = nullptr);
    ~CriticalPathPanel() override;

    Scope scope() const { return m_scope; }
    void setScope(Scope scope);
    // Sums the paths of `label`'s tasks off the GUI thread and shows them
    // in the Label scope; kNone clears it.
    void showLabel(LabelId label);
    LabelId label() const { return m_label; }
    // A label's aggregate asked for and not yet shown (nor dropped).
    bool isComputing() const { return m_computing; }
    // Stops the label's computation under way; nothing is shown for it.
    void cancel();
    // Waits for the label's computation under way, if any, and shows it.
    void finishPendingWork();
    // What clicking segment row `row` does: selects the measurement the
    // segment names (the interval of it the segment overlaps) and brings
    // the segment into view with some context.
    void activateSegment(int row);
    // Shows the path of the label's slowest task at `row` of the list.
    void pickSlowest(int row);

    CriticalPathSegmentModel* segmentModel() const { return m_segments; }
    CriticalPathBreakdownModel* labelModel() const { return m_byLabel; }
    CriticalPathBreakdownModel* processModel() const { return m_byProcess; }
    QTableView* segmentView() const { return m_segmentView; }
    QTableView* labelView() const { return m_labelView; }
    CriticalPathBar* bar() const { return m_bar; }
    QListWidget* slowestList() const { return m_slowest; }
    CriticalPathFlameGraph* flameGraph() const { return m_flameGraph; }
    // Compare mode's "Base vs new" tab of the Label scope.
    CriticalPathCompareTab* compareTab() const { return m_compareTab; }
    // The slowest tasks listed, in creation order.
    const std::vector<MeasurementId>& slowestTasks() const { return m_slowestTasks; }
    // The text above the bar: whose path, or how to get one.
    QString message() const;
    // The summary the tables show in the current scope (null: none).
    const CriticalPathSummary* summary() const;

    bool exportCsv(const QString& path, CsvTable table, QString* error = nullptr) const;
    // The panel as it is shown, `scale` device pixels per pixel.
    QImage image(qreal scale = 1.0);
    // File ▸ Export's items for the panel (also in its context menu).
    QList<QAction*> exportActions() const;
    // "Critical path of this label" for the rank's context menu: the
    // focused label's aggregate, the panel brought to the front.
    QAction* labelAction() const { return m_labelAction; }
    void setSaveChooser(SaveChooser chooser) { m_chooseSave = std::move(chooser); }

Q_SIGNALS:
    // A label's aggregate is shown (the result of showLabel).
    void aggregateShown();
    // The task's path shown changed (shown or cleared).
    void pathShown();

protected:
    void showEvent(QShowEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    struct Aggregate {
        LabelId label = kNone;
        std::shared_ptr<const CriticalPathSummary> summary;
        std::vector<MeasurementId> slowest;
    };
    struct Progress {
        std::atomic<std::size_t> done{0};
        std::atomic<std::size_t> total{0};
    };
    void dropProfile();
    void profileChanged();
    void pathChanged();
    void focusChanged();
    void aggregated(ProfileResult<Aggregate> result);
    void stopJob();
    // The tables, the bar and the message for the current scope.
    void updateShown();
    void updateProgress();
    void bringToFront();
    void chooseAndExportCsv(CsvTable table);
    void chooseAndExportPng();
    // The first segment that starts at `start` or later brought to the top.
    void scrollSegmentsTo(Time start);
    QString suggestedName(const QString& suffix) const;

    ProfileDocument* m_document;
    Scope m_scope = Scope::Task;
    QToolButton* m_taskButton;
    QToolButton* m_labelButton;
    QLabel* m_message;
    QProgressBar* m_progressBar;
    QToolButton* m_cancelButton;
    CriticalPathBar* m_bar;
    QStackedWidget* m_left;
    CriticalPathSegmentModel* m_segments;
    QTableView* m_segmentView;
    QListWidget* m_slowest;
    QTabWidget* m_tables;
    CriticalPathBreakdownModel* m_byLabel;
    CriticalPathBreakdownModel* m_byProcess;
    QSortFilterProxyModel* m_labelProxy;
    QSortFilterProxyModel* m_processProxy;
    QTableView* m_labelView;
    QTableView* m_processView;
    CriticalPathFlameGraph* m_flameGraph;
    CriticalPathCompareTab* m_compareTab;
    QAction* m_exportBreakdown;
    QAction* m_exportSegments;
    QAction* m_exportPng;
    QAction* m_labelAction;
    QTimer* m_progressTimer;
    SaveChooser m_chooseSave;

    // Task scope: the path's profile and its one-task summary.
    std::shared_ptr<const Profile> m_taskProfile;
    std::shared_ptr<const CriticalPathSummary> m_taskSummary;
    // The start of the segment at the top of the scrolled table, while a
    // load's next version walks the path again.
    std::optional<Time> m_keptSegmentTop;
    // Label scope: the label asked for, and what was computed for it.
    LabelId m_label = kNone;
    bool m_followPending = false; // the focus moved while the panel was hidden
    std::shared_ptr<const Profile> m_labelProfile;
    std::shared_ptr<const CriticalPathSummary> m_labelSummary;
    std::vector<MeasurementId> m_slowestTasks;
    bool m_cancelled = false;
    bool m_computing = false;
    bool m_flameClick = false;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::shared_ptr<Progress> m_progress;
    ProfileJob<Aggregate> m_job;
};

} // namespace runlane
