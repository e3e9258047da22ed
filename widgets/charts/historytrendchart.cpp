#include "historytrendchart.h"

#include "timeformat.h"
#include "timeruler.h"
#include "valueformat.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QLegend>
#include <QLineSeries>
#include <QPainter>
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
    m_y = new QCategoryAxis;
    m_y->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_time = new QDateTimeAxis;
    m_time->setTitleText(tr("recorded"));
    m_time->setFormat(QStringLiteral("yyyy-MM-dd HH:mm"));
    m_time->setVisible(false);
    c->addAxis(m_time, Qt::AlignBottom);
    c->addAxis(m_x, Qt::AlignBottom);
    c->addAxis(m_y, Qt::AlignLeft);
    for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*>{m_band, m_regressions, m_improvements}) {
        c->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    // The marks are the first label's.
    const auto tip = [this](const QPointF& point, bool state) { showTipOf(0, point, state); };
    connect(m_regressions, &QScatterSeries::hovered, this, tip);
    connect(m_improvements, &QScatterSeries::hovered, this, tip);
    setTrends({}, QString(), QStringLiteral("ns"));
}

void HistoryTrendChart::setTrend(const HistoryTrend& trend, const QString& title, const QString& unit)
{
    setTrends({{title, trend}}, title, unit);
}

void HistoryTrendChart::setTrends(std::vector<Labelled> trends, const QString& title, const QString& unit)
{
    m_trends = std::move(trends);
    m_unit = unit;
    chart()->setTitle(title);
    // Times carry their unit in each label; counts and sizes name it here.
    m_y->setTitleText(ValueFormat::unitOfKey(unit.toStdString()) == ValueUnit::Nanoseconds ? QString() : unit);
    // One line per label (at least one, empty): made or dropped to match.
    const std::size_t wanted = std::max<std::size_t>(1, m_trends.size());
    while (m_lines.size() > wanted) {
        chart()->removeSeries(m_lines.back());
        delete m_lines.back();
        m_lines.pop_back();
    }
    while (m_lines.size() < wanted) {
        auto* line = new QLineSeries;
        line->setPointsVisible(true);
        chart()->addSeries(line);
        line->attachAxis(m_axis == XAxis::Time ? static_cast<QAbstractAxis*>(m_time) : m_x);
        line->attachAxis(m_y);
        const std::size_t index = m_lines.size();
        connect(line, &QLineSeries::hovered, this,
                [this, index](const QPointF& point, bool state) { showTipOf(index, point, state); });
        m_lines.push_back(line);
    }
    for (std::size_t i = 0; i < m_lines.size(); ++i)
        m_lines[i]->setName(i < m_trends.size() ? m_trends[i].label : tr("value"));
    // By run order, x is a run's place among the runs of every label shown.
    m_order.clear();
    for (const Labelled& l : m_trends) {
        for (const HistoryTrend::Point& p : l.trend.points())
            m_order.emplace(p.run.id, 0);
    }
    double x = 0;
    for (auto& [id, at] : m_order)
        at = ++x;
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
    m_axis = axis;
    fill(); // shows the new axis if there is anything to draw
}

double HistoryTrendChart::xOf(const HistoryTrend::Point& point) const
{
    if (m_axis == XAxis::RunOrder)
        return m_order.at(point.run.id);
    return double(QDateTime::fromString(QString::fromStdString(point.run.recordedAt), Qt::ISODateWithMs).toMSecsSinceEpoch());
}

void HistoryTrendChart::fill()
{
    // Each series replaced in one go, so that it repaints once; the band
    // only where a run has runs before it.
    QList<QPointF> high;
    QList<QPointF> low;
    QList<QPointF> regressed;
    QList<QPointF> improved;
    double top = 0;
    double bottom = 0;
    double first = 0;
    double last = 0;
    bool any = false;
    for (std::size_t l = 0; l < m_trends.size(); ++l) {
        QList<QPointF> values;
        for (const HistoryTrend::Point& p : m_trends[l].trend.points()) {
            const double x = xOf(p);
            values << QPointF(x, p.value);
            double lo = p.value;
            double hi = p.value;
            if (l == 0 && p.hasWindow) {
                high << QPointF(x, p.high());
                low << QPointF(x, p.low());
                lo = std::min(lo, p.low());
                hi = std::max(hi, p.high());
            }
            if (l == 0 && p.verdict == Comparison::Verdict::Regressed)
                regressed << QPointF(x, p.value);
            else if (l == 0 && p.verdict == Comparison::Verdict::Improved)
                improved << QPointF(x, p.value);
            top = any ? std::max(top, hi) : hi;
            bottom = any ? std::min(bottom, lo) : lo;
            first = any ? std::min(first, x) : x;
            last = any ? std::max(last, x) : x;
            any = true;
        }
        m_lines[l]->replace(values);
    }
    if (m_trends.empty())
        m_lines.front()->clear();
    // Nothing to draw: no axes (an empty range's "0 ns, 1 ns" and "run 1"
    // would read as data) and no legend; drawForeground says what to do.
    m_blank = !any;
    m_x->setVisible(any && m_axis == XAxis::RunOrder);
    m_time->setVisible(any && m_axis == XAxis::Time);
    m_y->setVisible(any);
    chart()->legend()->setVisible(any);
    viewport()->update();
    m_bandHigh->replace(high);
    m_bandLow->replace(low);
    m_regressions->replace(regressed);
    m_improvements->replace(improved);
    const double margin = std::max(1.0, (top - bottom) * 0.05);
    // Ticks on whole runs, about ten of them.
    const double runs = double(m_order.size());
    m_x->setRange(0.5, std::max(1.5, runs + 0.5));
    m_x->setTickType(QValueAxis::TicksDynamic);
    m_x->setTickAnchor(1);
    m_x->setTickInterval(std::max(1.0, std::ceil(runs / 10)));
    if (any && m_axis == XAxis::Time) {
        last = std::max(last, first + 60'000); // a minute at least
        const double pad = (last - first) * 0.02;
        m_time->setRange(QDateTime::fromMSecsSinceEpoch(qint64(first - pad), Qt::UTC),
                         QDateTime::fromMSecsSinceEpoch(qint64(last + pad), Qt::UTC));
    }
    const double yLow = std::max(0.0, bottom - margin);
    const double yHigh = top + margin;
    m_y->setRange(yLow, yHigh);
    // Ticks as the time ruler labels them, three to eight (a step of 1, 2
    // or 5 × 10^k at least an eighth of the range): the table's "2.33 s",
    // not 2355328405 ns.
    for (const QString& label : m_y->categoriesLabels())
        m_y->remove(label);
    const Time step = TimeFormat::niceStep((yHigh - yLow) / 8);
    const ValueUnit unit = ValueFormat::unitOfKey(m_unit.toStdString());
    m_y->setStartValue(yLow);
    for (double at = std::ceil(yLow / double(step)) * double(step); at <= yHigh; at += double(step))
        m_y->append(TimeRuler::tickLabel(Time(std::llround(at)), step, unit), at);
}

void HistoryTrendChart::showTipOf(std::size_t line, const QPointF& point, bool state)
{
    if (!state || line >= m_trends.size() || m_trends[line].trend.points().empty()) {
        QToolTip::hideText();
        return;
    }
    // The run at the point: the nearest x (runs recorded at one time share it).
    const std::vector<HistoryTrend::Point>& points = m_trends[line].trend.points();
    std::size_t i = 0;
    for (std::size_t k = 1; k < points.size(); ++k) {
        if (std::fabs(xOf(points[k]) - point.x()) < std::fabs(xOf(points[i]) - point.x()))
            i = k;
    }
    const HistoryTrend::Point& p = points[i];
    QString text = tr("%1\nrun %2, %3\ncommit %4\n%5")
                       .arg(m_trends[line].label)
                       .arg(p.run.id)
                       .arg(QString::fromStdString(p.run.recordedAt), QString::fromStdString(p.run.commit),
                            QString::fromStdString(ValueFormat::text(Time(std::llround(p.value)),
                                                                     ValueFormat::unitOfKey(m_unit.toStdString()))));
    if (p.hasWindow)
        text += tr("\nthreshold ±%1 %, %2")
                    .arg(p.threshold * 100, 0, 'f', 2)
                    .arg(QString::fromLatin1(Comparison::name(p.verdict).data()));
    QToolTip::showText(QCursor::pos(), text, this);
}

bool HistoryTrendChart::savePng(const QString& path)
{
    return grab().save(path, "PNG");
}

QString HistoryTrendChart::message() const
{
    if (!m_blank)
        return {};
    return m_trends.empty() ? tr("Select a label to see its trend over the recorded runs.")
                            : tr("No run recorded a value of this metric for the labels selected.");
}

void HistoryTrendChart::drawForeground(QPainter* painter, const QRectF& rect)
{
    QChartView::drawForeground(painter, rect);
    const QString text = message();
    if (text.isEmpty())
        return;
    // Centred in the view, whatever the scene's transform.
    painter->save();
    painter->resetTransform();
    painter->setPen(palette().color(QPalette::PlaceholderText));
    painter->setFont(font());
    painter->drawText(viewport()->rect().adjusted(24, 0, -24, 0), Qt::AlignCenter | Qt::TextWordWrap, text);
    painter->restore();
}

} // namespace runlane
