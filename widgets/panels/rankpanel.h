#pragma once

#include "profilejob.h"
#include "profiletypes.h"
#include "ranktable.h"

#include <QWidget>

#include <atomic>
#include <memory>

class QAction;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace runlane {

class ProfileDocument;
class RankModel;
class TimeAxis;

// The rank as a sortable, filterable table. Selecting a row focuses its
// label in every view; a time range selected anywhere restricts the rank to
// that range (clipped, semantics.md §5), computed off the GUI thread, a
// newer request cancelling an older one.
class RankPanel : public QWidget
{
    Q_OBJECT

public:
    explicit RankPanel(ProfileDocument* document, QWidget* parent = nullptr);
    ~RankPanel() override;

    RankModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTableView* view() const { return m_view; }
    // Substring of the name, or a regular expression written /like this/.
    void setFilterText(const QString& text);
    // Waits for the computation under way, if any, and shows its result.
    void finishPendingWork();
    bool isComputing() const { return m_job.isRunning(); }

    // The selected rows (all shown rows if none is selected) as
    // tab-separated text with a header, times in integer nanoseconds.
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
    void dropProfile();
    void recompute();
    void computed(ProfileResult<RankTable> result);
    void fitColumns();
    void currentRowChanged();
    void focusChanged();
    void updateBanner();
    void updateFilterStyle();
    std::vector<std::size_t> shownRows(bool selectedOnly) const;

    ProfileDocument* m_document;
    TimeAxis* m_axis;
    RankModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLineEdit* m_filter;
    QLabel* m_count;
    QLabel* m_banner;
    QAction* m_copy;
    ProfileJob<RankTable> m_job;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_syncing = false;
};

} // namespace runlane
