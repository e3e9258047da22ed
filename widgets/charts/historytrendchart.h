#pragma once

#include "historytrend.h"

#include <QChartView>
#include <QString>

class QAreaSeries;
class QDateTimeAxis;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace runlane {

// The history's trend view (File ▸ Open History…): one label's metric over
// runs (x = the run's order in the history), the band of its noise
// threshold around the median of the runs before each one, and the runs
// `history check` would flag marked (regressions red, improvements green).
// The tooltip of a point names its run and commit.
class HistoryTrendChart : public QChartView
{
    Q_OBJECT

public:
    // x: each run's order in the history (1, 2, …), or when it was recorded.
    enum class XAxis { RunOrder, Time };

    explicit HistoryTrendChart(QWidget* parent = nullptr);

    // `title`: the label; `unit`: ValueFormat's key of the values.
    void setTrend(const HistoryTrend& trend, const QString& title, const QString& unit);
    const HistoryTrend& trend() const { return m_trend; }
    void setXAxis(XAxis axis);
    XAxis xAxis() const { return m_axis; }

    QLineSeries* values() const { return m_values; }
    QAreaSeries* band() const { return m_band; }
    QScatterSeries* regressions() const { return m_regressions; }
    QScatterSeries* improvements() const { return m_improvements; }
    // The chart as PNG; false if it cannot be written.
    bool savePng(const QString& path);

private:
    void showTip(const QPointF& point, bool state);
    void fill();
    double xOf(std::size_t run) const;

    HistoryTrend m_trend;
    QString m_unit;
    XAxis m_axis = XAxis::RunOrder;
    QDateTimeAxis* m_time = nullptr;
    QLineSeries* m_values = nullptr;
    QLineSeries* m_bandHigh = nullptr;
    QLineSeries* m_bandLow = nullptr;
    QAreaSeries* m_band = nullptr;
    QScatterSeries* m_regressions = nullptr;
    QScatterSeries* m_improvements = nullptr;
    QValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
};

} // namespace runlane
