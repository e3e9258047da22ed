#pragma once

#include "timeaxisinput.h"

#include <QChartView>

namespace runlane {

class TimeAxis;
class UsageChart;

// The usage chart's drawing surface: its plot area spans the shared time
// axis's time area, so a time is at the same x as in the icicle. Takes the
// same zoom, pan and range selection input as the other views, shows the
// bin under the cursor as a tooltip, and a click on a band focuses its label.
class UsageChartView : public QChartView
{
    Q_OBJECT

public:
    UsageChartView(UsageChart* owner, TimeAxis* axis, QWidget* parent = nullptr);

    // Shown across the plot instead of series (no timeline, computing…).
    void setMessage(const QString& message);
    void layoutPlot();
    int plotWidth() const { return m_input.navigator().areaWidth(); }
    // Where legend entry `index` is drawn, in the gutter (entry 0, the
    // largest band, at the top); empty while scrolled out of view.
    QRect legendRect(int index) const;
    // Entries that fit the gutter's height; with more, the last line says
    // which are shown and the wheel over the legend scrolls it, so that
    // every entry, "other" included, can be read.
    int legendRows() const;
    int legendFirst() const { return m_legendFirst; }
    void scrollLegend(int entries);
    // The index into UsageChart::legend() of the entry at a point, -1 if none.
    int legendAt(QPoint pos) const;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void drawBackground(QPainter* painter, const QRectF& rect) override;
    void drawForeground(QPainter* painter, const QRectF& rect) override;

private:
    // The same for a legend of `count` entries: a paint computes the
    // legend once, not once per entry.
    int legendRows(int count) const;
    QRect legendRect(int index, int rows) const;
    // A click on a legend entry or a band; the wheel over a legend that
    // does not fit.
    void clicked(QPoint pos);
    bool wheelOverLegend(QWheelEvent* event);

    UsageChart* m_owner;
    TimeAxis* m_axis;
    // The mouse, wheel, pinch and tooltips of the viewport.
    TimeAxisInput m_input;
    QString m_message;
    int m_legendFirst = 0;
};

} // namespace runlane
