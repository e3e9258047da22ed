#pragma once

#include "historytrend.h"

#include <QChartView>
#include <QString>

#include <map>
#include <vector>

class QAreaSeries;
class QCategoryAxis;
class QDateTimeAxis;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace runlane {

// The history's trend view (File ▸ Open History…): the chosen labels'
// metric over runs (x = the run's order among the runs shown, or when it
// was recorded), for the first label the band of its noise threshold
// around the median of the runs before each one and the runs `history
// check` would flag marked (regressions red, improvements green). The
// tooltip of a point names its run and commit. With no point to draw it
// shows no axes and says, centred, what to do.
class HistoryTrendChart : public QChartView
{
    Q_OBJECT

public:
    // x: each run's order in the history (1, 2, …), or when it was recorded.
    enum class XAxis { RunOrder, Time };

    struct Labelled {
        QString label;
        HistoryTrend trend;
    };

    explicit HistoryTrendChart(QWidget* parent = nullptr);

    // One label: `title` names it; `unit`: ValueFormat's key of the values.
    void setTrend(const HistoryTrend& trend, const QString& title, const QString& unit);
    // Several: the first with its band and marks, the others as lines.
    void setTrends(std::vector<Labelled> trends, const QString& title, const QString& unit);
    // The first label's (an empty one if none).
    const HistoryTrend& trend() const { return m_trends.empty() ? m_empty : m_trends.front().trend; }
    // One line per label, in order.
    const std::vector<QLineSeries*>& lines() const { return m_lines; }
    void setXAxis(XAxis axis);
    XAxis xAxis() const { return m_axis; }

    QLineSeries* values() const { return m_lines.front(); }
    QAreaSeries* band() const { return m_band; }
    QScatterSeries* regressions() const { return m_regressions; }
    QScatterSeries* improvements() const { return m_improvements; }
    // The chart as PNG; false if it cannot be written.
    bool savePng(const QString& path);
    // What it says instead of a chart while no label has a point to draw
    // (empty while one is drawn).
    QString message() const;

protected:
    void drawForeground(QPainter* painter, const QRectF& rect) override;

private:
    void fill();
    double xOf(const HistoryTrend::Point& point) const;
    void showTipOf(std::size_t line, const QPointF& point, bool state);

    std::vector<Labelled> m_trends;
    HistoryTrend m_empty;
    std::map<std::int64_t, double> m_order; // run id -> its x by run order
    QString m_unit;
    XAxis m_axis = XAxis::RunOrder;
    bool m_blank = true; // no point of any label: nothing drawn
    QDateTimeAxis* m_time = nullptr;
    std::vector<QLineSeries*> m_lines;
    QLineSeries* m_bandHigh = nullptr;
    QLineSeries* m_bandLow = nullptr;
    QAreaSeries* m_band = nullptr;
    QScatterSeries* m_regressions = nullptr;
    QScatterSeries* m_improvements = nullptr;
    QValueAxis* m_x = nullptr;
    // Labels at nice steps in the values' unit ("2.35 s", as the table).
    QCategoryAxis* m_y = nullptr;
};

} // namespace runlane
