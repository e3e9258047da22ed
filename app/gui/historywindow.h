#pragma once

#include "historydatabase.h"
#include "historystore.h"

#include <QString>
#include <QWidget>

#include <functional>
#include <memory>
#include <vector>

class QComboBox;
class QKeyEvent;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTableWidget;

namespace runlane {

class HistoryTrendChart;

// A history opened in the viewer (File ▸ Open History…): pick a workload,
// a label (heaviest first, filtered by text or /regex/) and a metric; the
// trend chart (HistoryTrendChart) and a table of the runs, the same
// verdicts as `history check` per run. Double-click a run to open its
// profile while the recorded file is still there, or compare it with the
// run before it (the viewer's compare mode; while comparing, a
// double-click compares too). Exports the chart as PNG and the series as
// CSV (`history show --format csv`). Esc closes it.
class HistoryWindow : public QWidget
{
    Q_OBJECT

public:
    using Open = std::function<void(const QString& path)>;
    using Compare = std::function<void(const QString& path, const QString& base)>;
    // What the window asks of the viewer.
    struct Hooks {
        Open open; // a run's profile, alone
        Compare compare; // a run's profile against a base
        // Whether the viewer compares (or is about to): a double-click then
        // compares the run with the one before it, not with the base
        // another run left there (a later run, for an older one).
        std::function<bool()> comparing;
        // The label focused in the viewer, "" if none: the list starts there.
        std::function<QString()> focusedLabel;
    };

    // Opens `location` (as --db takes it); see error() when it fails.
    HistoryWindow(const std::string& location, Hooks hooks, QWidget* parent = nullptr);
    ~HistoryWindow() override;

    bool isOpen() const { return m_open; }
    const std::string& error() const { return m_error; }
    HistoryTrendChart* chart() const { return m_chart; }
    QTableWidget* runs() const { return m_table; }
    QComboBox* workloads() const { return m_workloads; }
    // The labels of the workload: the current one with its band and marks,
    // the other selected ones as lines.
    QListWidget* labels() const { return m_labels; }
    QLineEdit* labelFilter() const { return m_filter; }
    QPushButton* compareButton() const { return m_compare; }
    // The series shown, as CSV; false if it cannot be written.
    bool saveCsv(const QString& path) const;
    // Sizes and moves the window to fit `available` (a screen's available
    // geometry), centred over `over` where it fits.
    void placeWithin(const QRect& available, const QRect& over);
    // The geometry (without the frame) placeWithin gives a window that
    // wants `wanted`: room left around it for a usual frame and title bar.
    static QRect placement(QSize wanted, const QRect& available, const QRect& over);

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void fillLabels();
    void filterLabels();
    void showTrend();
    void openRun(int row);
    // The selected run against the one before it (compare mode).
    void compareRun();
    void compareRow(int row);
    // A run's profile, if its file is still there; "" after saying it is not.
    QString profileOf(std::size_t row);

    HistoryDatabase m_db;
    std::unique_ptr<HistoryStore> m_store;
    Hooks m_hooks;
    bool m_open = false;
    std::string m_error;
    std::vector<HistoryStore::Point> m_points; // the current label's
    // One label's points over the workload's runs (the first of its name's
    // files and lines).
    std::vector<HistoryStore::Point> pointsOf(const QString& label, CompareMetric metric);
    QComboBox* m_workloads = nullptr;
    QLineEdit* m_filter = nullptr;
    QListWidget* m_labels = nullptr;
    QComboBox* m_metrics = nullptr;
    HistoryTrendChart* m_chart = nullptr;
    QTableWidget* m_table = nullptr;
    QLabel* m_note = nullptr;
    QPushButton* m_compare = nullptr;
};

} // namespace runlane
