#include "criticalpathpainter.h"

#include "colorscheme.h"
#include "criticalpathstate.h"
#include "flowpainter.h"
#include "timeaxis.h"

#include <QPainter>
#include <QRegion>

#include <algorithm>
#include <vector>

namespace runlane {

namespace {

using Kind = CriticalPath::Kind;

} // namespace

QColor CriticalPathPainter::outline()
{
    return ColorScheme::isDark() ? QColor(255, 214, 64) : QColor(196, 24, 24);
}

QColor CriticalPathPainter::queuedHatch()
{
    return ColorScheme::isDark() ? QColor(255, 150, 60) : QColor(214, 106, 0);
}

QColor CriticalPathPainter::blockerTint()
{
    QColor tint = queuedHatch();
    tint.setAlpha(96);
    return tint;
}

QColor CriticalPathPainter::wakeArrow()
{
    return ColorScheme::isDark() ? QColor(120, 176, 255) : QColor(32, 84, 212);
}

QColor CriticalPathPainter::veil()
{
    // About ColorScheme::dimmed's three parts of background to one of the
    // colour: what is off the path looks like what emphasis leaves out.
    QColor veil = ColorScheme::background();
    veil.setAlpha(191);
    return veil;
}

double CriticalPathPainter::xOf(Time t) const
{
    return m_left + std::clamp(m_axis.xFor(t, m_width), -10.0, m_width + 10);
}

QRectF CriticalPathPainter::spanRect(Time start, Time end, const QRectF& band) const
{
    const double x0 = xOf(start);
    return QRectF(x0, band.top(), std::max(1.0, xOf(end) - x0), band.height());
}

void CriticalPathPainter::outlineRect(QPainter& p, const QRectF& r)
{
    // Filled edges inside the rect, not a stroked pen across its border: the
    // outline's pixels are the rect's own, whatever the antialiasing.
    const QColor c = outline();
    const double t = std::min({kOutline, r.width() / 2, r.height() / 2});
    p.fillRect(QRectF(r.left(), r.top(), r.width(), t), c);
    p.fillRect(QRectF(r.left(), r.bottom() - t, r.width(), t), c);
    p.fillRect(QRectF(r.left(), r.top(), t, r.height()), c);
    p.fillRect(QRectF(r.right() - t, r.top(), t, r.height()), c);
}

void CriticalPathPainter::forBoxes(MeasurementId m, Time from, Time to, const BoxOf& boxOf,
                                   const std::function<void(const QRectF&)>& f) const
{
    if (m == kNone || m >= m_profile.measurementCount())
        return;
    // A measurement's intervals (its active ones) are in start order and do
    // not overlap each other, so their ends are in order too: those that
    // overlap [from, to) are one run, found by two binary searches.
    const auto ids = m_profile.intervalsOf(m);
    const auto last = std::partition_point(ids.begin(), ids.end(),
                                           [&](IntervalId id) { return m_profile.interval(id).start < to; });
    auto it = std::partition_point(ids.begin(), last, [&](IntervalId id) { return m_profile.interval(id).end <= from; });
    const double x0 = xOf(from);
    const double x1 = std::max(x0 + 1, xOf(to));
    for (; it != last; ++it) {
        const QRectF box = boxOf(*it);
        if (box.isEmpty())
            continue;
        const double left = std::max(box.left(), x0);
        const double right = std::min(box.right(), x1);
        if (right > left)
            f(QRectF(left, box.top(), right - left, box.height()));
    }
}

void CriticalPathPainter::paintMarks(QPainter& p, const QRectF& area, const Marks& marks)
{
    // The veil covers all but the marks: what is on the path keeps its own
    // colours under its outline, hatch or tint.
    QRegion keep = marks.plain;
    for (const std::vector<QRectF>* rects : {&marks.outlined, &marks.hatched, &marks.tinted}) {
        for (const QRectF& r : *rects)
            keep += r.toAlignedRect();
    }
    p.setClipRegion(QRegion(area.toAlignedRect()) - keep);
    p.fillRect(area, veil());
    p.setClipRect(area);
    for (const QRectF& r : marks.tinted)
        p.fillRect(r, blockerTint());
    for (const QRectF& r : marks.hatched)
        p.fillRect(r, QBrush(queuedHatch(), Qt::FDiagPattern));
    for (const QRectF& r : marks.outlined)
        outlineRect(p, r);
}

void CriticalPathPainter::paintLanes(QPainter& p, const QRectF& area, const LaneOf& laneOf) const
{
    if (!m_state.isActive())
        return;
    const Time from = m_axis.visibleStart();
    const Time to = m_axis.visibleEnd();
    Marks marks;
    auto band = [&](MeasurementId m) {
        const QRectF lane = m == kNone ? QRectF() : laneOf(m);
        return lane.isEmpty() ? QRectF() : lane.adjusted(0, 1, 0, -1);
    };
    for (const CriticalPath::Segment& s : m_state.segmentsIn(from, to)) {
        QRectF lane;
        switch (s.kind) {
        case Kind::Running:
            lane = band(s.named);
            if (lane.isEmpty())
                lane = band(s.pathMeasurement);
            if (!lane.isEmpty())
                marks.outlined.push_back(spanRect(s.start, s.end, lane));
            break;
        case Kind::Queued:
        case Kind::Idle:
            if (const QRectF blocker = band(s.named); !blocker.isEmpty())
                marks.tinted.push_back(spanRect(s.start, s.end, blocker));
            if (lane = band(s.pathMeasurement); !lane.isEmpty())
                marks.hatched.push_back(spanRect(s.start, s.end, lane));
            break;
        case Kind::Waiting:
            // The waiter stays in plain sight: nothing ran for the path.
            if (lane = band(s.named); !lane.isEmpty())
                marks.plain += spanRect(s.start, s.end, lane).toAlignedRect();
            break;
        }
    }
    p.save();
    paintMarks(p, area, marks);
    // The wakes: in time order of `at`, each from the waker's lane at its
    // end to the woken task's lane at its resume; only those whose arrow
    // overlaps the visible range, both lanes on screen. A path has a few
    // wakes per segment: they are not worth an index of their own.
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(wakeArrow(), 2.0));
    for (const CriticalPathState::WakeEdge& w : m_state.wakes()) {
        if (w.at > to)
            break;
        if (w.resume < from)
            continue;
        const QRectF a = laneOf(w.waker);
        const QRectF b = laneOf(w.woken);
        if (a.isEmpty() || b.isEmpty())
            continue;
        FlowPainter::paintArrow(p, QLineF(xOf(w.at), a.center().y(), xOf(w.resume), b.center().y()));
    }
    p.restore();
}

void CriticalPathPainter::paintIcicle(QPainter& p, const QRectF& area, const BoxOf& boxOf) const
{
    if (!m_state.isActive())
        return;
    const Time from = m_axis.visibleStart();
    const Time to = m_axis.visibleEnd();
    Marks marks;
    for (const CriticalPath::Segment& s : m_state.segmentsIn(from, to)) {
        const Time a = std::max(s.start, from);
        const Time b = std::min(s.end, to);
        if (s.kind == Kind::Running)
            forBoxes(s.named, a, b, boxOf, [&](const QRectF& r) { marks.outlined.push_back(r); });
        else if (s.kind == Kind::Queued)
            forBoxes(s.named, a, b, boxOf, [&](const QRectF& r) { marks.tinted.push_back(r); });
    }
    p.save();
    paintMarks(p, area, marks);
    p.restore();
}

} // namespace runlane
