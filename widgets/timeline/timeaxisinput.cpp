#include "timeaxisinput.h"

#include "timeaxis.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QNativeGestureEvent>
#include <QStyle>
#include <QToolTip>
#include <QWheelEvent>
#include <QWidget>

#include <algorithm>

namespace runlane {

TimeAxisInput::TimeAxisInput(TimeAxis* axis, QWidget* view, QWidget* target)
    : m_view(view), m_target(target), m_navigator(axis, view)
{
    // Filters installed last see the events first: this one, installed
    // when the view is made, comes before the widget's handlers and before
    // a scroll area's own filter on its viewport (which would pass the
    // mouse on to the view's handlers).
    m_target->installEventFilter(this);
}

int TimeAxisInput::rightMargin(const QWidget& view)
{
    return view.style()->pixelMetric(QStyle::PM_ScrollBarExtent);
}

int TimeAxisInput::timeWidth(const QWidget& view, int width)
{
    return std::max(1, width - TimeAxis::kGutter - rightMargin(view));
}

bool TimeAxisInput::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != m_target)
        return false;
    switch (event->type()) {
    case QEvent::ToolTip: {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = m_toolTip ? m_toolTip(help->pos()) : QString();
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, m_view);
        return true;
    }
    case QEvent::NativeGesture:
        return m_navigator.nativeGesture(static_cast<QNativeGestureEvent*>(event));
    case QEvent::MouseButtonPress:
    case QEvent::MouseMove:
    case QEvent::MouseButtonRelease:
    case QEvent::Wheel:
        // A disabled widget takes no mouse, as QWidget::event has it.
        if (!m_target->isEnabled())
            return false;
        break;
    default:
        return false;
    }
    if (event->type() == QEvent::Wheel) {
        auto* wheel = static_cast<QWheelEvent*>(event);
        if (!m_wheel || !m_wheel(wheel))
            m_navigator.wheel(wheel, m_scrollRows);
        wheel->accept();
        return true;
    }
    auto* mouse = static_cast<QMouseEvent*>(event);
    if (event->type() == QEvent::MouseButtonPress)
        m_navigator.press(mouse);
    else if (event->type() == QEvent::MouseMove)
        m_navigator.move(mouse);
    else if (m_navigator.release(mouse) && m_clicked)
        m_clicked(mouse->position().toPoint());
    return true;
}

} // namespace runlane
