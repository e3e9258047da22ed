#include "overviewstrip.h"

#include "colorscheme.h"
#include "profiledocument.h"
#include "timeaxis.h"

#include <QMouseEvent>
#include <QPaintEngine>
#include <QPainter>
#include <QStyle>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace runlane {

OverviewStrip::OverviewStrip(ProfileDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_axis(document->axis())
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setCursor(Qt::PointingHandCursor);
    connect(m_axis, &TimeAxis::visibleRangeChanged, this, qOverload<>(&QWidget::update));
    connect(m_axis, &TimeAxis::boundsChanged, this, &OverviewStrip::dropRows);
    connect(m_document, &ProfileDocument::profileChanged, this, &OverviewStrip::dropRows);
    connect(m_document, &ProfileDocument::viewModeChanged, this, &OverviewStrip::dropRows);
    connect(m_document, &ProfileDocument::colorsChanged, this, &OverviewStrip::dropRows);
}

void OverviewStrip::dropRows()
{
    m_rows = QPixmap();
    update();
}

void OverviewStrip::changeEvent(QEvent* event)
{
    // The theme's colours, the style's scroll bar width and the font all
    // change what the rows look like.
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange
        || event->type() == QEvent::FontChange)
        dropRows();
    QWidget::changeEvent(event);
}

QSize OverviewStrip::sizeHint() const
{
    return QSize(400, 46);
}

double OverviewStrip::timeWidth() const
{
    return std::max(1, width() - TimeAxis::kGutter - style()->pixelMetric(QStyle::PM_ScrollBarExtent));
}

double OverviewStrip::xOf(Time t) const
{
    const Time span = m_axis->boundsEnd() - m_axis->boundsStart();
    return TimeAxis::kGutter + double(t - m_axis->boundsStart()) * timeWidth() / double(std::max<Time>(1, span));
}

Time OverviewStrip::timeAtX(double x) const
{
    // A drag goes on past the strip's ends (and its window): there it
    // means the end, and llround of a time past 2^63 would overflow.
    const double fraction = std::clamp((x - TimeAxis::kGutter) / timeWidth(), 0.0, 1.0);
    if (fraction >= 1.0)
        return m_axis->boundsEnd(); // double(span) may round up to 2^63
    const Time span = m_axis->boundsEnd() - m_axis->boundsStart();
    return std::min(m_axis->boundsEnd(), m_axis->boundsStart() + Time(std::llround(fraction * double(span))));
}

QRectF OverviewStrip::windowRect() const
{
    const double x0 = xOf(m_axis->visibleStart());
    const double x1 = std::max(x0 + 3, xOf(m_axis->visibleEnd()));
    return QRectF(x0, 1, x1 - x0, height() - 3);
}

void OverviewStrip::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    // Where this paint goes: the window, or an image of another scale
    // (ImageExporter renders the widgets), which gets its rows drawn at
    // its own scale, not the window's stretched; the window's are kept.
    // (The engine's device: the painter's own is this widget either way.)
    const QPaintDevice* target = painter.paintEngine() ? painter.paintEngine()->paintDevice() : nullptr;
    const qreal ratio = target ? target->devicePixelRatioF() : devicePixelRatioF();
    if (ratio != devicePixelRatioF()) {
        paintContent(painter, size());
        return;
    }
    if (m_rows.isNull() || m_rows.deviceIndependentSize() != QSizeF(size()) || m_rows.devicePixelRatio() != ratio) {
        m_rows = QPixmap((QSizeF(size()) * ratio).toSize());
        m_rows.setDevicePixelRatio(ratio);
        QPainter rows(&m_rows);
        paintRows(rows, size());
    }
    painter.drawPixmap(0, 0, m_rows);
    paintWindow(painter, size());
}

void OverviewStrip::paintContent(QPainter& p, QSize size) const
{
    paintRows(p, size);
    paintWindow(p, size);
}

void OverviewStrip::paintRows(QPainter& p, QSize size) const
{
    TimeAxis::paintBackdrop(p, size);
    p.setPen(ColorScheme::grid());
    p.drawLine(0, size.height() - 1, size.width(), size.height() - 1);
    if (!m_document->hasProfile())
        return;
    if (m_document->isAggregated()) {
        // Merged call paths have no time order to give an overview of.
        p.setPen(ColorScheme::mutedText());
        // Only a file with timestamps has a timeline to switch back to.
        p.drawText(QRect(8, 0, size.width() - 16, size.height()), Qt::AlignVCenter | Qt::AlignLeft,
                   m_document->profile()->hasTimestamps()
                       ? tr("Aggregated view: identical call paths merged over the whole profile, widest first "
                            "(View ▸ Aggregated flame graph, Ctrl+G, switches back to the timeline)")
                       : tr("Aggregated view: identical call paths merged over the whole profile, widest first "
                            "(the file has no timestamps: there is no timeline)"));
        return;
    }
    const auto& overview = m_document->loaded().overview;
    // The busiest tracks get a row each.
    std::vector<std::size_t> order(overview.size());
    std::iota(order.begin(), order.end(), 0);
    auto total = [&](std::size_t t) { return std::accumulate(overview[t].begin(), overview[t].end(), 0.0); };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return total(a) > total(b); });
    while (!order.empty() && total(order.back()) == 0)
        order.pop_back();
    if (order.size() > std::size_t(kMaxRows))
        order.resize(kMaxRows);
    std::sort(order.begin(), order.end());
    p.setPen(ColorScheme::mutedText());
    p.drawText(QRect(8, 0, TimeAxis::kGutter - 16, size.height()), Qt::AlignVCenter | Qt::AlignLeft,
               tr("overview: busy %1").arg(order.size() == overview.size() || order.empty()
                                               ? QString()
                                               : tr("(%1 busiest tracks)").arg(order.size())));
    const double width = timeWidth();
    const double rowHeight = order.empty() ? 0 : double(size.height() - 4) / double(order.size());
    for (std::size_t r = 0; r < order.size(); ++r) {
        const auto& bins = overview[order[r]];
        const double y = 2 + rowHeight * double(r);
        for (int px = 0; px < int(width); ++px) {
            // The busiest bin under this pixel column.
            const std::size_t b0 = std::size_t(double(px) / width * double(bins.size()));
            const std::size_t b1 = std::max(b0 + 1, std::size_t(double(px + 1) / width * double(bins.size())));
            float busy = 0;
            for (std::size_t b = b0; b < std::min(b1, bins.size()); ++b)
                busy = std::max(busy, bins[b]);
            if (busy <= 0)
                continue;
            // Busy fraction as the height of a bar and its colour's depth.
            const double h = std::max(1.0, (rowHeight - 1) * double(busy));
            p.fillRect(QRectF(TimeAxis::kGutter + px, y + rowHeight - 1 - h, 1, h),
                       QColor::fromHsl(int(215 - 200 * double(busy)), 160, int(175 - 60 * double(busy))));
        }
    }
}

void OverviewStrip::paintWindow(QPainter& p, QSize size) const
{
    if (!m_document->hasProfile() || m_document->isAggregated())
        return;
    // Outside the visible window is dimmed; the window is outlined.
    const double width = timeWidth();
    const QRectF window = windowRect();
    const QColor dim = ColorScheme::outsideWindow();
    p.fillRect(QRectF(TimeAxis::kGutter, 0, window.left() - TimeAxis::kGutter, size.height()), dim);
    p.fillRect(QRectF(window.right(), 0, TimeAxis::kGutter + width - window.right(), size.height()), dim);
    p.setPen(QPen(ColorScheme::selection(), 2));
    p.drawRect(window);
}

void OverviewStrip::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || !m_document->hasProfile())
        return;
    const double x = event->position().x();
    const Time span = m_axis->visibleSpan();
    if (!windowRect().contains(QPointF(x, height() / 2.0))) {
        // A click elsewhere centres the window there.
        // In long double (panTo): near 2^63, centre + span / 2 overflows.
        m_axis->panTo(timeAtX(x), -static_cast<long double>(span / 2), TimeAxis::History::Record);
    }
    m_grabOffset = timeAtX(x) - m_axis->visibleStart();
    m_dragging = true;
}

void OverviewStrip::mouseMoveEvent(QMouseEvent* event)
{
    if (!m_dragging)
        return;
    // Found by tst_monkey under UBSan: `from + span` passed 2^63 on a
    // profile of 158 years. panTo keeps the span and clamps without overflow.
    m_axis->panTo(timeAtX(event->position().x()), -static_cast<long double>(m_grabOffset), TimeAxis::History::Skip);
}

void OverviewStrip::mouseReleaseEvent(QMouseEvent*)
{
    m_dragging = false;
}

void OverviewStrip::mouseDoubleClickEvent(QMouseEvent*)
{
    m_axis->zoomToAll();
}

void OverviewStrip::wheelEvent(QWheelEvent* event)
{
    const double factor = std::pow(0.8, double(event->angleDelta().y()) / 120.0);
    m_axis->zoomAt(timeAtX(event->position().x()), factor);
    event->accept();
}

} // namespace runlane
