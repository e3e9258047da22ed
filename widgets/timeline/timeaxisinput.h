#pragma once

#include "timenavigator.h"

#include <QObject>
#include <QString>

#include <functional>

class QWheelEvent;

namespace runlane {

class TimeAxis;

// The time axis's input on a view, the same for a plain widget
// (TimelineView) and a scroll area (UsageChartView, a QChartView, whose
// mouse events its viewport receives): installed as an event filter on
// the widget that receives the mouse, it gives press, move, release, wheel
// and pinch to the view's TimeNavigator and answers tooltips, before the
// widget's own handlers, so that a view states only what it does beyond
// that: what a click does, what the tooltip says, how its rows scroll, a
// wheel it takes first. Keys stay with the view (it handles its own before
// the navigator's: key()), and so does a double click (the icicle and the
// lanes zoom to what is under it).
class TimeAxisInput : public QObject
{
public:
    // `view` takes the focus, the drag cursor and the tooltips; `target`
    // receives the mouse: the view itself, or its viewport.
    TimeAxisInput(TimeAxis* axis, QWidget* view, QWidget* target);

    TimeNavigator& navigator() { return m_navigator; }
    const TimeNavigator& navigator() const { return m_navigator; }

    // The time area of every view: after the names gutter, before a scroll
    // bar's width (where the rows' scroll bar is, so that a time is at the
    // same x in every view), in a view `width` px wide.
    static int rightMargin(const QWidget& view);
    static int timeWidth(const QWidget& view, int width);

    // A press and release without a drag, at a point of the target.
    void onClick(std::function<void(QPoint)> clicked) { m_clicked = std::move(clicked); }
    // What the tooltip says at a point; empty: none.
    void onToolTip(std::function<QString(QPoint)> text) { m_toolTip = std::move(text); }
    // Scrolls the view's rows by pixels: the wheel over the gutter, or
    // with Shift (without, the wheel there does nothing).
    void onScrollRows(std::function<void(int)> scroll) { m_scrollRows = std::move(scroll); }
    // A wheel the view may take before the navigator: true if it did.
    void onWheel(std::function<bool(QWheelEvent*)> wheel) { m_wheel = std::move(wheel); }

    // The navigator's keys with the cursor where it is: true if taken.
    bool key(QKeyEvent* event) { return m_navigator.key(event); }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* m_view;
    QWidget* m_target;
    TimeNavigator m_navigator;
    std::function<void(QPoint)> m_clicked;
    std::function<QString(QPoint)> m_toolTip;
    std::function<void(int)> m_scrollRows;
    std::function<bool(QWheelEvent*)> m_wheel;
};

} // namespace runlane
