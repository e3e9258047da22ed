#include "timelineview.h"

#include "colorscheme.h"
#include "profiledocument.h"
#include "timeaxis.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QNativeGestureEvent>
#include <QPainter>
#include <QScrollBar>
#include <QStyle>
#include <QToolTip>

namespace runlane {

TimelineView::TimelineView(ProfileDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_axis(document->axis()), m_navigator(document->axis(), this),
      m_scroll(new QScrollBar(Qt::Vertical, this))
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    connect(m_scroll, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
    connect(m_axis, &TimeAxis::selectionChanged, this, qOverload<>(&QWidget::update));
}

int TimelineView::rightMargin() const
{
    return style()->pixelMetric(QStyle::PM_ScrollBarExtent);
}

int TimelineView::scrollY() const
{
    return m_scroll->value();
}

void TimelineView::updateScrollBar()
{
    const int extent = rightMargin();
    const int rows = height() - m_rowsTop;
    m_scroll->setGeometry(width() - extent, m_rowsTop, extent, std::max(0, rows));
    m_scroll->setRange(0, std::max(0, contentHeight() - rows));
    m_scroll->setPageStep(std::max(1, rows));
    m_scroll->setSingleStep(m_scrollStep);
    m_navigator.setArea(TimeAxis::kGutter, std::max(1, width() - TimeAxis::kGutter - extent));
}

void TimelineView::paintRangeSelection(QPainter& p, int timeWidth, int top, int height, bool edges) const
{
    const auto& selection = m_axis->selection();
    if (!selection)
        return;
    const double x0 = std::max(0.0, m_axis->xFor(selection->first, timeWidth));
    const double x1 = std::min(double(timeWidth), m_axis->xFor(selection->second, timeWidth));
    if (x1 <= x0)
        return;
    p.fillRect(QRectF(TimeAxis::kGutter + x0, top, std::max(1.0, x1 - x0), height), ColorScheme::rangeSelection());
    if (edges) {
        p.setPen(QPen(ColorScheme::selection(), 1));
        p.drawLine(QPointF(TimeAxis::kGutter + x0, top), QPointF(TimeAxis::kGutter + x0, top + height));
        p.drawLine(QPointF(TimeAxis::kGutter + x1, top), QPointF(TimeAxis::kGutter + x1, top + height));
    }
}

void TimelineView::paintMargin(QPainter& p, const QRect& margin) const
{
    p.fillRect(margin, ColorScheme::gutter());
}

void TimelineView::clicked(QPoint) { }

QString TimelineView::toolTipAt(QPoint) const
{
    return {};
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    paintContent(painter, QSize(width() - rightMargin(), height()), scrollY());
    paintMargin(painter, QRect(width() - rightMargin(), 0, rightMargin(), height()));
}

void TimelineView::resizeEvent(QResizeEvent*)
{
    updateScrollBar();
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    m_navigator.press(event);
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    m_navigator.move(event);
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_navigator.release(event))
        clicked(event->position().toPoint());
}

void TimelineView::wheelEvent(QWheelEvent* event)
{
    m_navigator.wheel(event, [this](int pixels) { m_scroll->setValue(m_scroll->value() + pixels); });
    event->accept();
}

void TimelineView::keyPressEvent(QKeyEvent* event)
{
    if (!m_navigator.key(event))
        QWidget::keyPressEvent(event);
}

bool TimelineView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    if (event->type() == QEvent::NativeGesture && m_navigator.nativeGesture(static_cast<QNativeGestureEvent*>(event)))
        return true;
    return QWidget::event(event);
}

} // namespace runlane
