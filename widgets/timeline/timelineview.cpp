#include "timelineview.h"

#include "colorscheme.h"
#include "profiledocument.h"
#include "timeaxis.h"

#include <QPainter>
#include <QScrollBar>

namespace runlane {

TimelineView::TimelineView(ProfileDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_axis(document->axis()), m_scroll(new QScrollBar(Qt::Vertical, this)),
      m_input(document->axis(), this, this)
{
    m_input.onClick([this](QPoint pos) { clicked(pos); });
    m_input.onToolTip([this](QPoint pos) { return toolTipAt(pos); });
    m_input.onScrollRows([this](int pixels) { m_scroll->setValue(m_scroll->value() + pixels); });
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    connect(m_scroll, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
    connect(m_axis, &TimeAxis::selectionChanged, this, qOverload<>(&QWidget::update));
}

int TimelineView::rightMargin() const
{
    return TimeAxisInput::rightMargin(*this);
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
    m_input.navigator().setArea(TimeAxis::kGutter, TimeAxisInput::timeWidth(*this, width()));
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

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event)
{
    m_input.navigator().press(event);
}

void TimelineView::keyPressEvent(QKeyEvent* event)
{
    if (!m_input.key(event))
        QWidget::keyPressEvent(event);
}

} // namespace runlane
