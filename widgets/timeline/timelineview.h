#pragma once

#include "timeaxisinput.h"

#include <QWidget>

#include <algorithm>
#include <functional>
#include <vector>

class QScrollBar;

namespace runlane {

class ProfileDocument;
class TimeAxis;

// What the views on the time axis (IcicleView, TaskLaneView, CounterView)
// share, so that each states only what it shows: a names gutter
// (TimeAxis::kGutter) left of the time area and a scroll bar's width right
// of it; the TimeNavigator's zoom, pan and range selection from mouse,
// wheel, keys and pinch over the time area (TimeAxisInput, which the usage
// chart shares); rows in content coordinates
// scrolled by a vertical scroll bar, below a fixed band at the top if the
// view has one (the lanes' legend); a click, a tooltip and painting asked of
// the view. paintContent draws the widget and its PNG export alike.
class TimelineView : public QWidget
{
    Q_OBJECT

public:
    // Paints what the widget shows into an area of `size` scrolled to
    // `scrollY`: for the widget itself and for PNG export alike.
    virtual void paintContent(QPainter& painter, QSize size, int scrollY) const = 0;
    // The rows' height, from the first row's top to the last one's bottom.
    virtual int contentHeight() const = 0;
    int scrollY() const;

protected:
    TimelineView(ProfileDocument* document, QWidget* parent);

    // The band above the scrolled rows (0: the rows start at the top), and
    // the scroll bar's single step (a row).
    void setRowsTop(int top) { m_rowsTop = top; }
    void setScrollStep(int step) { m_scrollStep = step; }
    int rowsTop() const { return m_rowsTop; }
    // The scroll bar's width: the time area ends there, the same in every view.
    int rightMargin() const;
    // Lays the scroll bar and the navigator's time area out for the
    // widget's size and contentHeight(): after either changes.
    void updateScrollBar();

    // The row at a content y among rows sorted by y (each with a `y`), and
    // the first row reaching below y: `yEnd` (a function or a member
    // function of a row) says where a row ends.
    template <class Row, class YEnd>
    static typename std::vector<Row>::const_iterator firstRowFrom(const std::vector<Row>& rows, int y, YEnd yEnd)
    {
        return std::partition_point(rows.begin(), rows.end(), [&](const Row& r) { return std::invoke(yEnd, r) <= y; });
    }
    template <class Row, class YEnd>
    static const Row* rowAt(const std::vector<Row>& rows, int y, YEnd yEnd)
    {
        const auto it = firstRowFrom(rows, y, yEnd);
        return it == rows.end() || it->y > y ? nullptr : &*it;
    }

    // The range selection across the time area of a paint `timeWidth` px
    // wide, from `top` down `height` px, its edges drawn or not.
    void paintRangeSelection(QPainter& p, int timeWidth, int top, int height, bool edges) const;
    // The right margin beside the content, where the scroll bar is.
    virtual void paintMargin(QPainter& p, const QRect& margin) const;
    // A press and release without a drag, at `pos`.
    virtual void clicked(QPoint pos);
    // What the tooltip says at `pos`; empty: none.
    virtual QString toolTipAt(QPoint pos) const;

    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    // A double click is one more press for the navigator, as QWidget
    // makes it, unless a view has a use for it.
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    // The navigator's keys; a view handles its own first.
    void keyPressEvent(QKeyEvent* event) override;

    ProfileDocument* const m_document;
    TimeAxis* const m_axis;
    QScrollBar* const m_scroll;
    // Mouse, wheel, pinch and tooltips, before the handlers above.
    TimeAxisInput m_input;

private:
    int m_rowsTop = 0;
    int m_scrollStep = 1;
};

} // namespace runlane
