#pragma once

#include "profilejob.h"
#include "profiletypes.h"
#include "ranktable.h"
#include "runset.h"
#include "schedulingdelays.h"

#include <QWidget>

#include <atomic>
#include <memory>
#include <optional>

class QAbstractItemModel;
class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;

namespace runlane {

class CompareFilterModel;
class CompareModel;
class ElidedLabel;
class ProfileDocument;
class RankModel;
class TimeAxis;

// The rank as a sortable, filterable table. Selecting a row focuses its
// label in every view; a time range selected anywhere restricts the rank to
// that range (clipped, semantics.md §5), computed off the GUI thread, a
// newer request cancelling an older one. The filter is the open file's: a
// new profile clears it (a live recording's next version keeps it), and
// while it is set the count says what it hides, with a link that clears it.
//
// In compare mode (ProfileDocument::compare() has a base) it shows the
// compare rank instead: base, new, Δ, Δ%, p and verdict per label for the
// chosen metric, coloured by verdict, largest change first, filtered by
// name and verdict; copy and CSV export write the compare rows then.
class RankPanel : public QWidget
{
    Q_OBJECT

public:
    explicit RankPanel(ProfileDocument* document, QWidget* parent = nullptr);
    ~RankPanel() override;

    RankModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTableView* view() const { return m_view; }
    CompareModel* compareModel() const { return m_compareModel; }
    CompareFilterModel* compareProxy() const { return m_compareProxy; }
    QTableView* compareView() const { return m_compareView; }
    bool isComparing() const;
    QComboBox* metricBox() const { return m_metricBox; }
    QComboBox* verdictBox() const { return m_verdictBox; }
    // The rows shown, in the mode shown (rank or compare rank).
    int shownRowCount() const;
    // Substring of the name, or a regular expression written /like this/.
    void setFilterText(const QString& text);
    // Waits for the computation under way, if any, and shows its result.
    void finishPendingWork();
    bool isComputing() const { return m_job.isRunning(); }

    // The selected rows (all shown rows if none is selected) as
    // tab-separated text with a header, times in integer nanoseconds:
    // RankFormatter's columns, the scheduling delays included when the
    // view shows them.
    QString selectedRowsText() const;
    // Copies selectedRowsText() (Ctrl+C; the window puts it in Edit too).
    QAction* copyAction() const { return m_copy; }
    // The rows as shown (filtered, in the shown order) as CSV, atomically.
    bool exportCsv(const QString& path, QString* error = nullptr) const;

Q_SIGNALS:
    // A new table is shown (after a load or a range change).
    void tableShown();

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    // The rank's and the compare rank's tables alike: rows selected whole,
    // sorted descending by `sortColumn`.
    void setUpTable(QTableView* view, QAbstractItemModel* model, int sortColumn);
    void dropProfile();
    void recompute();
    // A range's rank comes with the range's scheduling delays.
    struct Computed {
        std::shared_ptr<const RankTable> table;
        std::shared_ptr<const SchedulingDelays> delays; // null: the whole profile's
    };
    void computed(ProfileResult<Computed> result);
    // Widens the numeric columns to their values; `grown`: the same table with new values.
    void fitColumns(bool grown = false);
    // The name of the row at the top of a scrolled rank (nothing at the
    // top), and the row of that name brought to the top: a load's next
    // version keeps the rows the user scrolled to.
    std::optional<LabelKey> topRow() const;
    void scrollLabelToTop(const LabelKey& key);
    void currentRowChanged();
    void focusChanged();
    void updateBanner();
    // "3 of 120 labels match 'foo' · clear" (a link that clears the filter).
    QString countText(int shown, int all) const;
    void updateFilterStyle();
    std::vector<std::size_t> shownRows(bool selectedOnly) const;
    void comparisonChanged();
    void verdictFilterChanged();
    QTableView* currentView() const;

    ProfileDocument* m_document;
    TimeAxis* m_axis;
    RankModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    CompareModel* m_compareModel;
    CompareFilterModel* m_compareProxy;
    QTableView* m_compareView;
    QStackedWidget* m_stack;
    QComboBox* m_metricBox;
    QComboBox* m_verdictBox;
    QLineEdit* m_filter;
    QLabel* m_count;
    ElidedLabel* m_banner; // cut at the panel's edge, whole in its tooltip
    QAction* m_copy;
    ProfileJob<Computed> m_job;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_syncing = false;
    bool m_continuing = false; // the table shown is kept for the next version
    std::optional<LabelKey> m_keptTop; // topRow() of the version a refinement replaced
};

} // namespace runlane
