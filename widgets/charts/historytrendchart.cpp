#include "historytrendchart.h"

#include "valueformat.h"

#include <QAreaSeries>
#include <QChart>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QLineSeries>
#include <QPixmap>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace runlane {

HistoryTrendChart::HistoryTrendChart(QWidget* parent)
    : QChartView(new QChart, parent)
{
    setRenderHint(QPainter::Antialiasing);
    QChart* c = chart();
    c->legend()->setAlignment(Qt::AlignBottom);
    m_bandHigh = new QLineSeries(this);
    m_bandLow = new QLineSeries(this);
    m_band = new QAreaSeries(m_bandHigh, m_bandLow);
    m_band->setName(tr("noise threshold"));
    m_band->setColor(QColor(120, 160, 220, 70));
    m_band->setBorderColor(QColor(120, 160, 220, 140));
    m_values = new QLineSeries;
    m_values->setName(tr("value"));
    m_values->setPointsVisible(true);
    m_regressions = new QScatterSeries;
    m_regressions->setName(tr("regressed"));
    m_regressions->setColor(QColor(210, 40, 40));
    m_regressions->setMarkerSize(12);
    m_improvements = new QScatterSeries;
    m_improvements->setName(tr("improved"));
    m_improvements->setColor(QColor(40, 160, 60));
    m_improvements->setMarkerSize(12);
    m_x = new QValueAxis;
    m_x->setTitleText(tr("run"));
    m_x->setLabelFormat(QStringLiteral("%d"));
    m_y = new QValueAxis;
    m_y->setLabelFormat(QStringLiteral("%.0f"));
    m_time = new QDateTimeAxis;
    m_time->setTitleText(tr("recorded"));
    m_time->setFormat(QStringLiteral("yyyy-MM-dd HH:mm"));
    m_time->setVisible(false);
    c->addAxis(m_time, Qt::AlignBottom);
    c->addAxis(m_x, Qt::AlignBottom);
    c->addAxis(m_y, Qt::AlignLeft);
    for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*>{m_band, m_values, m_regressions, m_improvements}) {
        c->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    connect(m_values, &QLineSeries::hovered, this, &HistoryTrendChart::showTip);
    connect(m_regressions, &QScatterSeries::hovered, this, &HistoryTrendChart::showTip);
    connect(m_improvements, &QScatterSeries::hovered, this, &HistoryTrendChart::showTip);
}

void HistoryTrendChart::setTrend(const HistoryTrend& trend, const QString& title, const QString& unit)
{
    m_trend = trend;
    m_unit = unit;
    chart()->setTitle(title);
    m_y->setTitleText(unit);
    fill();
}

void HistoryTrendChart::setXAxis(XAxis axis)
{
    if (axis == m_axis)
        return;
    QAbstractAxis* from = axis == XAxis::Time ? static_cast<QAbstractAxis*>(m_x) : m_time;
    QAbstractAxis* to = axis == XAxis::Time ? static_cast<QAbstractAxis*>(m_time) : m_x;
    for (QAbstractSeries* s : chart()->series()) {
        s->detachAxis(from);
        s->attachAxis(to);
    }
    from->setVisible(false);
    to->setVisible(true);
    m_axis = axis;
    fill();
}

double HistoryTrendChart::xOf(std::size_t run) const
{
    if (m_axis == XAxis::RunOrder)
        return double(run + 1);
    return double(QDateTime::fromString(QString::fromStdString(m_trend.points()[run].run.recordedAt), Qt::ISODateWithMs)
                      .toMSecsSinceEpoch());
}

void HistoryTrendChart::fill()
{
    const HistoryTrend& trend = m_trend;
    // The band only where a run has runs before it; replaced in one go,
    // so that each series repaints once.
    QList<QPointF> values;
    QList<QPointF> high;
    QList<QPointF> low;
    QList<QPointF> regressed;
    QList<QPointF> improved;
    double top = 0;
    double bottom = 0;
    bool any = false;
    for (std::size_t i = 0; i < trend.points().size(); ++i) {
        const HistoryTrend::Point& p = trend.points()[i];
        const double x = xOf(i);
        values << QPointF(x, p.value);
        double lo = p.value;
        double hi = p.value;
        if (p.hasWindow) {
            high << QPointF(x, p.high());
            low << QPointF(x, p.low());
            lo = std::min(lo, p.low());
            hi = std::max(hi, p.high());
        }
        if (p.verdict == Comparison::Verdict::Regressed)
            regressed << QPointF(x, p.value);
        else if (p.verdict == Comparison::Verdict::Improved)
            improved << QPointF(x, p.value);
        top = any ? std::max(top, hi) : hi;
        bottom = any ? std::min(bottom, lo) : lo;
        any = true;
    }
    m_values->replace(values);
    m_bandHigh->replace(high);
    m_bandLow->replace(low);
    m_regressions->replace(regressed);
    m_improvements->replace(improved);
    const double margin = std::max(1.0, (top - bottom) * 0.05);
    // Ticks on whole runs, about ten of them.
    const double runs = double(trend.points().size());
    m_x->setRange(0.5, std::max(1.5, runs + 0.5));
    m_x->setTickType(QValueAxis::TicksDynamic);
    m_x->setTickAnchor(1);
    m_x->setTickInterval(std::max(1.0, std::ceil(runs / 10)));
    if (!trend.points().empty()) {
        const double first = xOf(0);
        const double last = std::max(xOf(trend.points().size() - 1), first + 60'000); // a minute at least
        const double pad = (last - first) * 0.02;
        m_time->setRange(QDateTime::fromMSecsSinceEpoch(qint64(first - pad), Qt::UTC),
                         QDateTime::fromMSecsSinceEpoch(qint64(last + pad), Qt::UTC));
    }
    m_y->setRange(std::max(0.0, bottom - margin), top + margin);
}

void HistoryTrendChart::showTip(const QPointF& point, bool state)
{
    // The run at the point: the nearest x (runs recorded at one time share it).
    std::size_t i = 0;
    for (std::size_t k = 1; k < m_trend.points().size(); ++k) {
        if (std::fabs(xOf(k) - point.x()) < std::fabs(xOf(i) - point.x()))
            i = k;
    }
    if (!state || i >= m_trend.points().size()) {
        QToolTip::hideText();
        return;
    }
    const HistoryTrend::Point& p = m_trend.points()[i];
    QString text = tr("run %1, %2\ncommit %3\n%4")
                       .arg(p.run.id)
                       .arg(QString::fromStdString(p.run.recordedAt), QString::fromStdString(p.run.commit),
                            QString::fromStdString(ValueFormat::text(Time(std::llround(p.value)),
                                                                     ValueFormat::unitOfKey(m_unit.toStdString()))));
    if (p.hasWindow)
        text += tr("\nthreshold ±%1 %, %2").arg(p.threshold * 100, 0, 'f', 2).arg(QString::fromLatin1(Comparison::name(p.verdict).data()));
    QToolTip::showText(QCursor::pos(), text, this);
}

bool HistoryTrendChart::savePng(const QString& path)
{
    return grab().save(path, "PNG");
}

} // namespace runlane
