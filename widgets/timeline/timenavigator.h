#pragma once

#include "profiletypes.h"

#include <QPoint>

#include <functional>

class QKeyEvent;
class QWidget;
class QMouseEvent;
class QNativeGestureEvent;
class QWheelEvent;

namespace runlane {

class TimeAxis;

// Zooming, panning and range selection with mouse, wheel, keys and pinch,
// the same in every time-based view (they only tell it where their time
// area is). Wheel over the time area zooms at the cursor; over the gutter,
// or with Shift, it scrolls rows; a horizontal wheel pans. Dragging pans,
// Shift-dragging selects a range. It gives its view the focus on a press
// and the drag cursor while dragging.
class TimeNavigator
{
public:
    TimeNavigator(TimeAxis* axis, QWidget* view = nullptr);

    void setArea(int left, int width);
    int areaLeft() const { return m_left; }
    int areaWidth() const { return m_width; }
    Time timeAtX(double x) const;

    // `scrollRows(pixels)` scrolls the view's rows; return value: handled.
    bool wheel(QWheelEvent* event, const std::function<void(int)>& scrollRows);
    // W/S/+/- zoom, A/D/arrows pan, 0/Home all, Alt+Left/Right history,
    // Escape clears the range selection.
    bool key(QKeyEvent* event, QPoint cursor);
    bool nativeGesture(QNativeGestureEvent* event);
    // Key handling with the cursor where it is over the view.
    bool key(QKeyEvent* event);

    void press(QMouseEvent* event);
    void move(QMouseEvent* event);
    // True if the press ended without dragging: a click.
    bool release(QMouseEvent* event);
    bool isDragging() const { return m_dragging; }

private:
    TimeAxis* m_axis;
    QWidget* m_view;
    int m_left = 0;
    int m_width = 1;
    bool m_pressed = false;
    bool m_dragging = false;
    bool m_selecting = false;
    QPoint m_pressPos;
    Time m_pressTime = 0;
    Time m_pressFrom = 0;
};

} // namespace runlane
