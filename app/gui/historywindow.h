#pragma once

#include "historydatabase.h"
#include "historystore.h"

#include <QString>
#include <QWidget>

#include <functional>
#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QTableWidget;

namespace runlane {

class HistoryTrendChart;

// A history opened in the viewer (File ▸ Open History…): pick a workload,
// a label and a metric; the trend chart (HistoryTrendChart) and a table of
// the runs, the same verdicts as `history check` per run. Double-click a
// run to open its profile while the recorded file is still there, or
// compare it with the run before it (the viewer's compare mode). Exports
// the chart as PNG and the series as CSV (`history show --format csv`).
class HistoryWindow : public QWidget
{
    Q_OBJECT

public:
    using Open = std::function<void(const QString& path)>;
    using Compare = std::function<void(const QString& path, const QString& base)>;

    // Opens `location` (as --db takes it); see error() when it fails.
    HistoryWindow(const std::string& location, Open open, Compare compare, QWidget* parent = nullptr);
    ~HistoryWindow() override;

    bool isOpen() const { return m_open; }
    const std::string& error() const { return m_error; }
    HistoryTrendChart* chart() const { return m_chart; }
    QTableWidget* runs() const { return m_table; }
    QComboBox* workloads() const { return m_workloads; }
    // The labels of the workload: the current one with its band and marks,
    // the other selected ones as lines.
    QListWidget* labels() const { return m_labels; }
    QPushButton* compareButton() const { return m_compare; }
    // The series shown, as CSV; false if it cannot be written.
    bool saveCsv(const QString& path) const;

private:
    void fillLabels();
    void showTrend();
    void openRun(int row);
    // The selected run against the one before it (compare mode).
    void compareRun();
    // A run's profile, if its file is still there; "" after saying it is not.
    QString profileOf(std::size_t row);

    HistoryDatabase m_db;
    std::unique_ptr<HistoryStore> m_store;
    Open m_openProfile;
    Compare m_compareProfiles;
    bool m_open = false;
    std::string m_error;
    std::vector<HistoryStore::Point> m_points; // the current label's
    // One label's points over the workload's runs (the first of its name's
    // files and lines).
    std::vector<HistoryStore::Point> pointsOf(const QString& label, CompareMetric metric);
    QComboBox* m_workloads = nullptr;
    QListWidget* m_labels = nullptr;
    QComboBox* m_metrics = nullptr;
    HistoryTrendChart* m_chart = nullptr;
    QTableWidget* m_table = nullptr;
    QLabel* m_note = nullptr;
    QPushButton* m_compare = nullptr;
};

} // namespace runlane
