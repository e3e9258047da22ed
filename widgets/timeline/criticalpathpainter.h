#pragma once

#include "profile.h"

#include <QColor>
#include <QRectF>

#include <functional>
#include <vector>

class QPainter;

namespace runlane {

class CriticalPathState;
class TimeAxis;

// The critical path shown (CriticalPathState, semantics.md §9) over the task
// lanes and the icicle, as FlowPainter draws the flows: the path's running
// segments outlined, each queued (or idle) span hatched on the lane of the
// task that was ready, the blockers' stretches tinted, the wakes as arrows
// from the waker's end to the woken task's resume, and a veil over all the
// rest so that the path stands out. A paint asks the state for the
// segments that overlap the visible range only (segmentsIn, a binary
// search) and, per segment, for the named measurement's intervals that
// overlap it (another). What it draws is bounded by the pixels, not by the
// path: marks that meet on one row are merged (a running segment too narrow
// for its outline is a solid run with its neighbours), the veil is the
// area's rectangles between the marks, found row by row (a QRegion grown
// one mark at a time cost O(marks²): up to 130 ms a frame for a path of
// 15,595 segments, issue 41), and a wake arrow drawn on the same pixels as
// one already drawn is left out.
class CriticalPathPainter
{
public:
    // The path's own colours, the same in both views (the tests read them).
    static QColor outline(); // running segments' outline
    static QColor queuedHatch(); // queued and idle spans
    static QColor blockerTint(); // translucent, over the blockers
    static QColor wakeArrow();
    static QColor veil(); // translucent, over everything off the path
    // The outline's thickness inside a running segment's rect, px.
    static constexpr double kOutline = 2.0;

    // Where a task's lane is, in paint coordinates (only its top and height
    // are read), or an empty rect if it has none on screen.
    using LaneOf = std::function<QRectF(MeasurementId)>;
    // Where an interval's box is, in paint coordinates (x not clipped), or
    // an empty rect if it is not laid out.
    using BoxOf = std::function<QRectF(IntervalId)>;

    // `left` is where the time area starts in paint coordinates and
    // `timeWidth` its width; the axis gives the visible range.
    CriticalPathPainter(const Profile& profile, const CriticalPathState& state, const TimeAxis& axis, double left,
                        double timeWidth)
        : m_profile(profile), m_state(state), m_axis(axis), m_left(left), m_width(timeWidth)
    {
    }

    // Over the lanes in `area` (the time area below the legend): the
    // running segments outlined on the named measurement's lane (else the
    // path measurement's: a synchronous call has no lane), queued and idle
    // spans hatched on the ready task's lane, the blockers' lanes tinted,
    // the wake arrows; the rest veiled. Nothing if no path is shown.
    void paintLanes(QPainter& p, const QRectF& area, const LaneOf& laneOf) const;
    // Over the icicle's `area`: the named measurement's boxes outlined over
    // each running segment, the blockers' boxes tinted over each queued
    // one; the rest veiled.
    void paintIcicle(QPainter& p, const QRectF& area, const BoxOf& boxOf) const;

    // What one view marks over the visible range, in paint coordinates, in
    // time order on each row. A mark that meets (or overlaps) the last one
    // of its list on the same row (same top and height) is merged into it,
    // except an outlined one: two segments side by side keep their own
    // outlines while there is room to see them.
    struct Marks {
        std::vector<QRectF> outlined; // running, wider than two outlines
        std::vector<QRectF> solid; // running, too narrow for a hollow outline: filled with it
        std::vector<QRectF> hatched; // queued or idle, on the ready task
        std::vector<QRectF> tinted; // the blockers
        std::vector<QRectF> plain; // on the path, drawn as it is (waiting)
    };
    Marks lanesMarks(const LaneOf& laneOf) const;
    Marks icicleMarks(const BoxOf& boxOf) const;
    // The veil: the pixels of `area` outside every mark (each mark widened
    // to whole pixels), as disjoint rectangles, top to bottom and left to
    // right, rows of the same gaps joined.
    static std::vector<QRect> veilRects(const QRect& area, const Marks& marks);

private:
    // The veil over `area` but the marks, then the marks.
    static void paintMarks(QPainter& p, const QRectF& area, const Marks& marks);
    // The x of an instant in paint coordinates, held a little outside the
    // area (QPainter's coordinates must stay small).
    double xOf(Time t) const;
    // [x(start), x(end)) at least a pixel wide, over `band`'s rows.
    QRectF spanRect(Time start, Time end, const QRectF& band) const;
    static void outlineRect(QPainter& p, const QRectF& r, const QColor& color);
    // Calls `f` with the box of each interval of `m` that overlaps
    // [from, to), cut to that span; boxes not laid out are skipped.
    void forBoxes(MeasurementId m, Time from, Time to, const BoxOf& boxOf, const std::function<void(const QRectF&)>& f) const;

    const Profile& m_profile;
    const CriticalPathState& m_state;
    const TimeAxis& m_axis;
    double m_left;
    double m_width;
};

} // namespace runlane
