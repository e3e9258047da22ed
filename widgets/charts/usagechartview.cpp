#include "usagechartview.h"

#include "colorscheme.h"
#include "profiledocument.h"
#include "timeaxis.h"
#include "usagechart.h"

#include <QChart>
#include <QGraphicsLayout>
#include <QLegend>
#include <QMouseEvent>

namespace runlane {

namespace {
constexpr int kTopMargin = 12; // half a y label above 100 %: it shows
constexpr int kAxisLabels = 22; // below the plot: the x axis's labels
constexpr int kYAxisLabels = 44; // left of the plot, inside the gutter
} // namespace

UsageChartView::UsageChartView(UsageChart* owner, TimeAxis* axis, QWidget* parent)
    : QChartView(parent), m_owner(owner), m_axis(axis), m_input(axis, this, viewport())
{
    m_input.onClick([this](QPoint pos) { clicked(pos); });
    m_input.onToolTip([this](QPoint pos) { return m_owner->describeAt(pos); });
    m_input.onWheel([this](QWheelEvent* event) { return wheelOverLegend(event); });
    setFrameShape(QFrame::NoFrame);
    setRenderHint(QPainter::Antialiasing, false);
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setRubberBand(QChartView::NoRubberBand);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    QChart* c = chart();
    c->setBackgroundVisible(false);
    c->setPlotAreaBackgroundVisible(false);
    c->setMargins(QMargins());
    // Nor the layout's own margins: its axes hide a label that reaches
    // into them, as the one at the top of the plot (100 %) did.
    c->layout()->setContentsMargins(0, 0, 0, 0);
    // The legend is ours, in the gutter, like the other views' names.
    c->legend()->hide();
    connect(m_axis, &TimeAxis::selectionChanged, viewport(), qOverload<>(&QWidget::update));
}

void UsageChartView::setMessage(const QString& message)
{
    m_message = message;
    viewport()->update();
}

void UsageChartView::layoutPlot()
{
    const int width = TimeAxisInput::timeWidth(*this, viewport()->width());
    const int height = std::max(1, viewport()->height() - kTopMargin - kAxisLabels);
    const QRectF area(TimeAxis::kGutter, kTopMargin, width, height);
    setSceneRect(QRectF(QPointF(0, 0), viewport()->size()));
    // The plot area before the size: resizing the chart lays its axes out
    // at once, around the plot area it has then, while setPlotArea alone
    // only moves the series (and the bands, through plotAreaChanged). Set
    // after the resize, the y labels stayed where the previous size had
    // them, 20 px off the bands after a tab switch (issue 39).
    const bool moved = chart()->plotArea() != area;
    chart()->setPlotArea(area);
    if (chart()->size() != QSizeF(viewport()->size()))
        chart()->resize(viewport()->size());
    else if (moved)
        chart()->layout()->invalidate(); // the same size (a style's scroll bar): laid out on the next pass
    m_input.navigator().setArea(TimeAxis::kGutter, width);
}

int UsageChartView::legendRows() const
{
    return legendRows(int(m_owner->legend().size()));
}

int UsageChartView::legendRows(int count) const
{
    const int line = fontMetrics().height() + 2;
    const int fit = std::max(1, (viewport()->height() - kTopMargin + 2) / line);
    return count <= fit ? count : std::max(1, fit - 1); // one line for "1–5 of 9"
}

void UsageChartView::scrollLegend(int entries)
{
    const int count = int(m_owner->legend().size());
    m_legendFirst = std::clamp(m_legendFirst + entries, 0, std::max(0, count - legendRows(count)));
    viewport()->update();
}

QRect UsageChartView::legendRect(int index) const
{
    return legendRect(index, legendRows());
}

QRect UsageChartView::legendRect(int index, int rows) const
{
    const int row = index - m_legendFirst;
    if (row < 0 || row >= rows)
        return {};
    const int line = fontMetrics().height() + 2;
    return QRect(6, kTopMargin - 2 + row * line, TimeAxis::kGutter - kYAxisLabels - 10, line);
}

int UsageChartView::legendAt(QPoint pos) const
{
    const int count = int(m_owner->legend().size());
    const int rows = legendRows(count);
    for (int i = 0; i < count; ++i) {
        if (legendRect(i, rows).contains(pos))
            return i;
    }
    return -1;
}

void UsageChartView::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event);
    layoutPlot();
}

void UsageChartView::clicked(QPoint pos)
{
    // On a legend entry shows or hides its series; on the plot focuses the
    // band's label (or clears the focus off the bands).
    if (const int entry = legendAt(pos); entry >= 0) {
        const auto legend = m_owner->legend();
        m_owner->setHidden(legend[std::size_t(entry)].label, !legend[std::size_t(entry)].hidden);
    } else if (pos.x() >= TimeAxis::kGutter) {
        m_owner->focusLabelAt(pos);
    }
}

void UsageChartView::mouseDoubleClickEvent(QMouseEvent* event)
{
    // The bin under the cursor fills the view.
    const QPoint pos = event->position().toPoint();
    const UsageSeries* series = m_owner->series();
    if (!series || series->binCount() == 0 || pos.x() < TimeAxis::kGutter)
        return;
    const Time t = m_input.navigator().timeAtX(pos.x());
    const Time bin = (t - series->start()) / series->binWidth();
    const Time from = series->start() + bin * series->binWidth();
    m_axis->setVisibleRange(from, addClamped(from, series->binWidth()));
}

bool UsageChartView::wheelOverLegend(QWheelEvent* event)
{
    // Over the legend, when it does not fit: scroll it, one entry a notch.
    const int count = int(m_owner->legend().size());
    if (event->position().x() >= TimeAxis::kGutter - kYAxisLabels || count <= legendRows(count))
        return false;
    const int notches = event->angleDelta().y() / 120;
    scrollLegend(notches == 0 ? 0 : -notches);
    return true;
}

void UsageChartView::keyPressEvent(QKeyEvent* event)
{
    if (!m_input.key(event))
        QChartView::keyPressEvent(event);
}

void UsageChartView::drawBackground(QPainter* painter, const QRectF&)
{
    TimeAxis::paintBackdrop(*painter, viewport()->size());
    const QRectF plot = chart()->plotArea();
    painter->setPen(ColorScheme::grid());
    painter->drawLine(QPointF(TimeAxis::kGutter - 1, 0), QPointF(TimeAxis::kGutter - 1, viewport()->height()));
    // On the y axis's labels (25 % steps where the height allows), so
    // that shares read at a glance.
    const double step = m_owner->yStep();
    for (double share = 0; share <= m_owner->yMaximum(); share += step) {
        const double y = plot.bottom() - plot.height() * share / m_owner->yMaximum();
        painter->drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
    }
}

void UsageChartView::drawForeground(QPainter* painter, const QRectF&)
{
    const QRectF plot = chart()->plotArea();
    // The legend, largest (bottom) band first: when the chart is too low
    // for every entry, the ones cut off are the smallest.
    const auto legend = m_owner->legend();
    painter->setFont(font());
    const int rows = legendRows(int(legend.size()));
    // Fewer entries than before (a new series): scrolled back in range.
    m_legendFirst = std::clamp(m_legendFirst, 0, std::max(0, int(legend.size()) - rows));
    for (std::size_t i = 0; i < legend.size(); ++i) {
        const auto& entry = legend[i];
        const QRect r = legendRect(int(i), rows);
        if (r.isEmpty())
            continue;
        QColor swatch = entry.color;
        QColor text = ColorScheme::text();
        if (entry.hidden) {
            swatch.setAlphaF(0.25);
            text = ColorScheme::faintText();
        }
        painter->fillRect(QRect(r.left(), r.center().y() - 5, 10, 10), swatch);
        painter->setPen(text);
        const QString share = QStringLiteral("%1 %").arg(100.0 * entry.meanShare, 0, 'f', 1);
        const int shareWidth = painter->fontMetrics().horizontalAdvance(QStringLiteral("100.0 %"));
        painter->drawText(r.adjusted(14, 0, -shareWidth - 4, 0), Qt::AlignVCenter | Qt::AlignLeft,
                          painter->fontMetrics().elidedText(entry.name, Qt::ElideRight, r.width() - 18 - shareWidth));
        painter->drawText(r, Qt::AlignVCenter | Qt::AlignRight, share);
    }
    if (const int shown = rows; int(legend.size()) > shown) {
        const int line = fontMetrics().height() + 2;
        const QRect r(6, kTopMargin - 2 + shown * line, TimeAxis::kGutter - kYAxisLabels - 10, line);
        painter->setPen(ColorScheme::mutedText());
        painter->drawText(r, Qt::AlignVCenter | Qt::AlignLeft,
                          tr("%1%2–%3 of %4 %5")
                              .arg(m_legendFirst > 0 ? QStringLiteral("▴ ") : QString())
                              .arg(m_legendFirst + 1)
                              .arg(m_legendFirst + shown)
                              .arg(legend.size())
                              .arg(m_legendFirst + shown < int(legend.size()) ? QStringLiteral("▾") : QString()));
    }
    if (!m_message.isEmpty()) {
        painter->setPen(ColorScheme::mutedText());
        painter->drawText(plot, Qt::AlignCenter, m_message);
    }
    if (const auto& selection = m_axis->selection()) {
        const double x0 = std::max(plot.left(), plot.left() + m_axis->xFor(selection->first, plot.width()));
        const double x1 = std::min(plot.right(), plot.left() + m_axis->xFor(selection->second, plot.width()));
        if (x1 > x0) {
            painter->fillRect(QRectF(x0, 0, std::max(1.0, x1 - x0), viewport()->height()), ColorScheme::rangeSelection());
            painter->setPen(QPen(ColorScheme::selection(), 1));
            painter->drawLine(QPointF(x0, 0), QPointF(x0, viewport()->height()));
            painter->drawLine(QPointF(x1, 0), QPointF(x1, viewport()->height()));
        }
    }
}

} // namespace runlane
