#pragma once

#include "profilejob.h"
#include "profiletypes.h"

#include <QWidget>

#include <vector>

class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QValueAxis;

namespace runlane {

class ProfileDocument;

// Compare mode's usage overlay: the focused label's event-loop share
// (LabelUsage, semantics.md §6) in the base and in the new profile on one
// chart, two series with the same bin width, each from its own profile's
// start — two runs side by side, never an averaged timeline. With several
// base runs, the first one is drawn (the legend says so).
class CompareUsageChart : public QWidget
{
    Q_OBJECT

public:
    static constexpr std::size_t kBins = 200;

    struct Series {
        std::vector<double> base; // share per bin, 0..1 (may exceed 1 on snapshots)
        std::vector<double> next;
        Time binWidth = 1;
        ValueUnit unit = ValueUnit::Nanoseconds;
        QString label;
    };

    explicit CompareUsageChart(ProfileDocument* document, QWidget* parent = nullptr);
    ~CompareUsageChart() override;

    // Null while nothing is focused, outside compare mode, or computing.
    const Series* series() const { return m_shown.value.get(); }
    QLineSeries* baseLine() const { return m_baseLine; }
    QLineSeries* newLine() const { return m_newLine; }
    QLabel* note() const { return m_note; }
    void finishPendingWork();

private:
    void drop();
    void recompute();
    void computed(ProfileResult<Series> result);

    ProfileDocument* m_document;
    QChart* m_chart;
    QChartView* m_view;
    QLineSeries* m_baseLine;
    QLineSeries* m_newLine;
    QValueAxis* m_xAxis;
    QValueAxis* m_yAxis;
    QLabel* m_note;
    // What the series shown or under way is of (the profile: until drop()).
    struct Asked {
        LabelId focus = kNone;
        quint64 generation = 0;
        bool operator==(const Asked&) const = default;
    };
    Asked m_asked;
    ProfileJob<Series> m_job;
    ProfileResult<Series> m_shown;
};

} // namespace runlane
