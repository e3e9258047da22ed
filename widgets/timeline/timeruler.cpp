#include "timeruler.h"

#include "colorscheme.h"
#include "profiledocument.h"
#include "timeaxis.h"
#include "timeformat.h"
#include "valueformat.h"

#include <QPainter>
#include <QStyle>

#include <cmath>

namespace runlane {

TimeRuler::TimeRuler(ProfileDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_axis(document->axis())
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    connect(m_axis, &TimeAxis::visibleRangeChanged, this, qOverload<>(&QWidget::update));
    connect(m_axis, &TimeAxis::selectionChanged, this, qOverload<>(&QWidget::update));
    connect(m_axis, &TimeAxis::boundsChanged, this, qOverload<>(&QWidget::update));
}

QSize TimeRuler::sizeHint() const
{
    return QSize(400, fontMetrics().height() + 14);
}

Time TimeRuler::tickStep(Time span, double width, double minimumGap)
{
    return TimeFormat::niceStep(double(std::max<Time>(1, span)) * minimumGap / std::max(1.0, width));
}

QString TimeRuler::tickLabel(Time offset, Time step, ValueUnit unit)
{
    if (unit != ValueUnit::Nanoseconds) {
        const double units = ValueFormat::inUnits(offset, unit);
        const double stepUnits = ValueFormat::inUnits(step, unit);
        const int decimals = stepUnits >= 1 ? 0 : int(std::ceil(-std::log10(stepUnits) - 1e-9));
        return QString::number(units, 'f', decimals);
    }
    // The unit of the offset's magnitude, with decimals down to the step.
    static const struct {
        Time ns;
        const char* name;
    } units[] = {{1'000'000'000, "s"}, {1'000'000, "ms"}, {1'000, "µs"}, {1, "ns"}};
    const Time magnitude = std::max(std::abs(offset), step);
    for (const auto& u : units) {
        if (magnitude >= u.ns || u.ns == 1) {
            int decimals = 0;
            for (Time s = u.ns; s > step && decimals < 9; s /= 10)
                ++decimals;
            const QString value = QString::number(double(offset) / double(u.ns), 'f', decimals);
            return value + QLatin1Char(' ') + QString::fromUtf8(u.name);
        }
    }
    return QString::number(offset);
}

void TimeRuler::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    paintContent(painter, size());
}

void TimeRuler::paintContent(QPainter& p, QSize size) const
{
    TimeAxis::paintBackdrop(p, size);
    const int right = style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    const double width = std::max(1, size.width() - TimeAxis::kGutter - right);
    p.setPen(ColorScheme::grid());
    p.drawLine(0, size.height() - 1, size.width(), size.height() - 1);
    if (!m_document->hasProfile())
        return;
    const ValueUnit unit = m_document->profile()->unit();
    p.setPen(ColorScheme::mutedText());
    p.drawText(QRect(8, 0, TimeAxis::kGutter - 16, size.height()), Qt::AlignVCenter | Qt::AlignLeft,
               // The aggregated axis is a sum of durations, labelled like any time.
               m_document->isAggregated()
                   ? (unit == ValueUnit::Nanoseconds ? tr("merged call paths, time")
                                                     : tr("merged call paths, %1").arg(QString::fromUtf8(ValueFormat::key(unit).data())))
               : unit == ValueUnit::Nanoseconds ? tr("time from start")
                                                : tr("%1 from start").arg(QString::fromUtf8(ValueFormat::key(unit).data())));
    const Time origin = m_axis->boundsStart();
    // Zoomed in far from the start, labels grow long ("4999999999.990 s"):
    // widen the gap until the longest one fits (a coarser step may need
    // fewer decimals, hence a few rounds).
    const Time span = m_axis->visibleSpan();
    Time step = tickStep(span, width);
    for (int round = 0; round < 4; ++round) {
        const double gap = double(step) * width / double(std::max<Time>(1, span));
        const int needed = p.fontMetrics().horizontalAdvance(tickLabel(m_axis->visibleEnd() - origin, step, unit)) + 16;
        if (needed <= gap)
            break;
        step = tickStep(span, width, needed);
    }
    // First tick at a multiple of the step from the profile's start.
    // Offsets, not times, are compared and stepped: a profile may span
    // almost 2^63 ns, where `time + step` past the end would wrap around
    // and never stop the loop.
    Time offset = m_axis->visibleStart() - origin;
    const Time behind = offset % step;
    offset -= behind < 0 ? behind + step : behind;
    const Time last = m_axis->visibleEnd() - origin;
    const Time minorStep = step / 5; // none below 5 ns: no fractions of a ns
    p.setClipRect(QRect(TimeAxis::kGutter, 0, int(width), size.height()));
    // The range's length is drawn over the ticks: no tick label under it.
    QRectF deltaBox;
    QString deltaText;
    if (const auto& selection = m_axis->selection()) {
        const double x0 = TimeAxis::kGutter + m_axis->xFor(selection->first, width);
        const double x1 = TimeAxis::kGutter + m_axis->xFor(selection->second, width);
        deltaText = QStringLiteral("Δ ") + QString::fromStdString(ValueFormat::text(selection->second - selection->first, unit));
        const int w = p.fontMetrics().horizontalAdvance(deltaText) + 10;
        deltaBox = QRectF((x0 + x1 - w) / 2, 1, w, size.height() - 3);
    }
    for (;; offset += step) {
        const double x = TimeAxis::kGutter + m_axis->xFor(origin + offset, width);
        p.setPen(ColorScheme::mark());
        p.drawLine(QPointF(x, size.height() - 7), QPointF(x, size.height() - 1));
        for (int minor = 1; minorStep > 0 && minor < 5 && minorStep * minor <= last - offset; ++minor) {
            const double mx = TimeAxis::kGutter + m_axis->xFor(origin + offset + minorStep * minor, width);
            p.drawLine(QPointF(mx, size.height() - 3), QPointF(mx, size.height() - 1));
        }
        // Only whole labels: one cut by an edge reads as another time
        // ("89 s" for 14.89 s).
        const QString label = tickLabel(offset, step, unit);
        const QRectF text(x + 3, 0, p.fontMetrics().horizontalAdvance(label) + 1, size.height() - 4);
        if (text.left() >= TimeAxis::kGutter && text.right() <= TimeAxis::kGutter + width
            && !(deltaBox.isValid() && text.intersects(deltaBox.adjusted(-4, 0, 4, 0)))) {
            p.setPen(ColorScheme::text());
            p.drawText(text, Qt::AlignBottom | Qt::AlignLeft, label);
        }
        if (last - offset < step)
            break; // the last tick; stepping on could pass 2^63
    }
    if (deltaBox.isValid()) {
        p.fillRect(deltaBox, ColorScheme::selection());
        p.setPen(ColorScheme::textOn(ColorScheme::selection()));
        p.drawText(deltaBox, Qt::AlignCenter, deltaText);
    }
}

} // namespace runlane
