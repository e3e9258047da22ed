#include "timenavigator.h"

#include "timeaxis.h"

#include <QApplication>
#include <QCursor>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QNativeGestureEvent>
#include <QWheelEvent>
#include <QWidget>

#include <cmath>

namespace runlane {

namespace {
constexpr double kWheelZoom = 0.8; // per wheel notch
constexpr double kKeyZoom = 0.7;
constexpr double kKeyPan = 0.15; // of the visible span
} // namespace

TimeNavigator::TimeNavigator(TimeAxis* axis, QWidget* view) : m_axis(axis), m_view(view) { }

void TimeNavigator::setArea(int left, int width)
{
    m_left = left;
    m_width = std::max(1, width);
}

Time TimeNavigator::timeAtX(double x) const
{
    return m_axis->timeAt(x - m_left, m_width);
}

bool TimeNavigator::wheel(QWheelEvent* event, const std::function<void(int)>& scrollRows)
{
    const QPoint delta = event->angleDelta();
    const double x = event->position().x();
    const bool overTime = x >= m_left && x < m_left + m_width;
    if (std::abs(delta.x()) > std::abs(delta.y())) {
        m_axis->panBy(Time(-double(delta.x()) / 120.0 * kKeyPan * double(m_axis->visibleSpan())));
        return true;
    }
    if (!overTime || (event->modifiers() & Qt::ShiftModifier)) {
        if (scrollRows)
            scrollRows(-delta.y());
        return true;
    }
    const double factor = std::pow(kWheelZoom, double(delta.y()) / 120.0);
    m_axis->zoomAt(timeAtX(x), factor);
    return true;
}

bool TimeNavigator::key(QKeyEvent* event, QPoint cursor)
{
    const bool alt = event->modifiers() & Qt::AltModifier;
    const bool inside = cursor.x() >= m_left && cursor.x() < m_left + m_width;
    const Time anchor = inside ? timeAtX(cursor.x()) : m_axis->visibleStart() + m_axis->visibleSpan() / 2;
    const Time pan = Time(kKeyPan * double(m_axis->visibleSpan()));
    switch (event->key()) {
    case Qt::Key_W:
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        m_axis->zoomAt(anchor, kKeyZoom, TimeAxis::History::Record);
        return true;
    case Qt::Key_S:
    case Qt::Key_Minus:
        m_axis->zoomAt(anchor, 1.0 / kKeyZoom, TimeAxis::History::Record);
        return true;
    case Qt::Key_A:
        m_axis->panBy(-pan);
        return true;
    case Qt::Key_D:
        m_axis->panBy(pan);
        return true;
    case Qt::Key_Left:
        if (alt)
            m_axis->goBack();
        else
            m_axis->panBy(-pan);
        return true;
    case Qt::Key_Right:
        if (alt)
            m_axis->goForward();
        else
            m_axis->panBy(pan);
        return true;
    case Qt::Key_0:
    case Qt::Key_Home:
        m_axis->zoomToAll();
        return true;
    case Qt::Key_Back:
        m_axis->goBack();
        return true;
    case Qt::Key_Forward:
        m_axis->goForward();
        return true;
    case Qt::Key_Escape:
        if (m_axis->selection()) {
            m_axis->clearSelection();
            return true;
        }
        return false;
    default:
        return false;
    }
}

bool TimeNavigator::key(QKeyEvent* event)
{
    return key(event, m_view ? m_view->mapFromGlobal(QCursor::pos()) : QPoint(-1, -1));
}

bool TimeNavigator::nativeGesture(QNativeGestureEvent* event)
{
    if (event->gestureType() != Qt::ZoomNativeGesture)
        return false;
    const double factor = std::clamp(1.0 - event->value(), 0.2, 5.0);
    m_axis->zoomAt(timeAtX(event->position().x()), factor);
    return true;
}

void TimeNavigator::press(QMouseEvent* event)
{
    if (m_view)
        m_view->setFocus(Qt::MouseFocusReason);
    if (event->button() != Qt::LeftButton)
        return;
    m_pressed = true;
    m_dragging = false;
    m_selecting = event->modifiers() & Qt::ShiftModifier;
    m_pressPos = event->position().toPoint();
    m_pressTime = timeAtX(event->position().x());
    m_pressFrom = m_axis->visibleStart();
}

void TimeNavigator::move(QMouseEvent* event)
{
    if (!m_pressed)
        return;
    const QPoint pos = event->position().toPoint();
    if (!m_dragging && (pos - m_pressPos).manhattanLength() < QApplication::startDragDistance())
        return;
    const bool starting = !m_dragging;
    m_dragging = true;
    if (m_view)
        m_view->setCursor(m_selecting ? Qt::IBeamCursor : Qt::ClosedHandCursor);
    if (m_selecting) {
        m_axis->setSelection(m_pressTime, timeAtX(pos.x()));
    } else {
        // Pan so that the time under the press point follows the cursor.
        const Time span = m_axis->visibleSpan();
        const long double shift = static_cast<long double>(m_pressPos.x() - pos.x()) * static_cast<long double>(span)
            / static_cast<long double>(m_width);
        // One history step per drag: the range it started from.
        m_axis->panTo(m_pressFrom, shift, starting ? TimeAxis::History::Record : TimeAxis::History::Skip);
    }
}

bool TimeNavigator::release(QMouseEvent* event)
{
    if (m_view)
        m_view->unsetCursor();
    if (event->button() != Qt::LeftButton || !m_pressed)
        return false;
    m_pressed = false;
    const bool click = !m_dragging;
    m_dragging = false;
    return click;
}

} // namespace runlane
