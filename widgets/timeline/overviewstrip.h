#pragma once

#include "profiletypes.h"

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

private:
    double timeWidth() const;
    Time timeAtX(double x) const;
    double xOf(Time t) const;

    ProfileDocument* m_document;
    TimeAxis* m_axis;
    bool m_dragging = false;
    Time m_grabOffset = 0;
};

} // namespace runlane
