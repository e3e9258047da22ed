#pragma once

#include "profiletypes.h"

#include <QPixmap>
#include <QWidget>

namespace runlane {

class ProfileDocument;
class TimeAxis;

// The whole profile at a glance: how busy each track is along its span (a
// heat row per track, the busiest ones when there are many), and the visible
// range as a window that can be dragged, or moved with a click.
class OverviewStrip : public QWidget
{
    Q_OBJECT

public:
    static constexpr int kMaxRows = 6;

    explicit OverviewStrip(ProfileDocument* document, QWidget* parent = nullptr);
    QSize sizeHint() const override;
    // The heat rows, then the visible window over them.
    void paintContent(QPainter& painter, QSize size) const;
    // The visible window, in widget coordinates.
    QRectF windowRect() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    // The whole profile: the same at every zoom.
    void paintRows(QPainter& painter, QSize size) const;
    // The visible range: dims the rest, outlines the window.
    void paintWindow(QPainter& painter, QSize size) const;
    void dropRows();

    double timeWidth() const;
    Time timeAtX(double x) const;
    double xOf(Time t) const;

    ProfileDocument* m_document;
    TimeAxis* m_axis;
    bool m_dragging = false;
    Time m_grabOffset = 0;
    // paintRows at the widget's size, drawn once per profile, size and
    // colours: a zoom or a pan only paints the window over it (drawing the
    // rows took 3-7 ms of every wheel notch at 1 M events: a rect per
    // pixel column and row, and the busiest rows sorted again).
    QPixmap m_rows;
};

} // namespace runlane
