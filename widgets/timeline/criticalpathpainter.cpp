#include "criticalpathpainter.h"

#include "colorscheme.h"
#include "criticalpathstate.h"
#include "flowpainter.h"
#include "timeaxis.h"

#include <QPainter>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace runlane {

namespace {

using Kind = CriticalPath::Kind;

// Gathers a view's marks, merging each into the last one of its list on
// the same row when they meet: at a wide range a path's thousands of
// segments become as many marks as there are runs of pixels. Marks arrive
// in time order, so the last one of a row is its rightmost.
class MarksBuilder
{
public:
    void running(const QRectF& r)
    {
        // Outlined inside the rect (outlineRect), a rect at most two
        // outlines wide or high is filled: solid, it merges like a fill.
        constexpr double kHollow = 2 * CriticalPathPainter::kOutline;
        if (r.width() > kHollow && r.height() > kHollow)
            m_marks.outlined.push_back(r);
        else
            add(Solid, r);
    }
    void hatched(const QRectF& r) { add(Hatched, r); }
    void tinted(const QRectF& r) { add(Tinted, r); }
    void plain(const QRectF& r) { add(Plain, r); }
    CriticalPathPainter::Marks take() { return std::move(m_marks); }

private:
    enum List { Solid, Hatched, Tinted, Plain, kLists };
    std::vector<QRectF>& rects(List list)
    {
        switch (list) {
        case Solid:
            return m_marks.solid;
        case Hatched:
            return m_marks.hatched;
        case Tinted:
            return m_marks.tinted;
        default:
            return m_marks.plain;
        }
    }
    void add(List list, const QRectF& r)
    {
        std::vector<QRectF>& out = rects(list);
        const auto [last, first] = m_lastOnRow[list].try_emplace({r.top(), r.height()}, out.size());
        if (!first) {
            QRectF& mark = out[last->second];
            if (r.left() <= mark.right() && r.right() >= mark.left()) {
                const double left = std::min(mark.left(), r.left());
                mark = QRectF(left, mark.top(), std::max(mark.right(), r.right()) - left, mark.height());
                return;
            }
            last->second = out.size();
        }
        out.push_back(r);
    }

    CriticalPathPainter::Marks m_marks;
    // Per list, a row's (top, height) to the index of its last mark.
    std::map<std::pair<double, double>, std::size_t> m_lastOnRow[kLists];
};

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

void CriticalPathPainter::outlineRect(QPainter& p, const QRectF& r, const QColor& c)
{
    // Filled edges inside the rect, not a stroked pen across its border: the
    // outline's pixels are the rect's own, whatever the antialiasing.
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

std::vector<QRect> CriticalPathPainter::veilRects(const QRect& area, const Marks& marks)
{
    // The marks widened to whole pixels, cut to the area, by top.
    std::vector<QRect> holes;
    for (const std::vector<QRectF>* rects : {&marks.outlined, &marks.solid, &marks.hatched, &marks.tinted, &marks.plain}) {
        for (const QRectF& r : *rects) {
            if (const QRect hole = r.toAlignedRect() & area; !hole.isEmpty())
                holes.push_back(hole);
        }
    }
    std::sort(holes.begin(), holes.end(), [](const QRect& a, const QRect& b) { return a.top() < b.top(); });
    // Bands between the holes' tops and bottoms: in each, the holes across
    // it are the same, and the veil is the gaps between them.
    std::vector<int> ys{area.top(), area.top() + area.height()};
    for (const QRect& h : holes) {
        ys.push_back(h.top());
        ys.push_back(h.top() + h.height());
    }
    std::sort(ys.begin(), ys.end());
    ys.erase(std::unique(ys.begin(), ys.end()), ys.end());
    std::vector<QRect> veil;
    std::vector<QRect> across; // the holes across the band
    std::vector<std::pair<int, int>> spans, gaps, previousGaps;
    std::size_t previousFirst = 0; // the previous band's gaps in `veil`
    std::size_t next = 0;
    for (std::size_t k = 0; k + 1 < ys.size(); ++k) {
        const int y0 = ys[k];
        const int y1 = ys[k + 1];
        std::erase_if(across, [y0](const QRect& h) { return h.top() + h.height() <= y0; });
        for (; next < holes.size() && holes[next].top() <= y0; ++next)
            across.push_back(holes[next]);
        spans.clear();
        for (const QRect& h : across)
            spans.emplace_back(h.left(), h.left() + h.width());
        std::sort(spans.begin(), spans.end());
        gaps.clear();
        int x = area.left();
        for (const auto& [left, right] : spans) {
            if (left > x)
                gaps.emplace_back(x, left);
            x = std::max(x, right);
        }
        if (const int right = area.left() + area.width(); x < right)
            gaps.emplace_back(x, right);
        if (k > 0 && gaps == previousGaps) {
            // The same gaps as the band above: its rects grow down.
            for (std::size_t i = previousFirst; i < veil.size(); ++i)
                veil[i].setBottom(y1 - 1);
            continue;
        }
        previousFirst = veil.size();
        for (const auto& [left, right] : gaps)
            veil.emplace_back(left, y0, right - left, y1 - y0);
        std::swap(previousGaps, gaps);
    }
    return veil;
}

void CriticalPathPainter::paintMarks(QPainter& p, const QRectF& area, const Marks& marks)
{
    // The veil covers all but the marks: what is on the path keeps its own
    // colours under its outline, hatch or tint. Its rects, not a clip
    // region: a QRegion of many marks is slow to build and to clip by.
    const QColor veilColor = veil();
    for (const QRect& r : veilRects(area.toAlignedRect(), marks))
        p.fillRect(r, veilColor);
    p.setClipRect(area);
    const QColor tint = blockerTint();
    for (const QRectF& r : marks.tinted)
        p.fillRect(r, tint);
    const QBrush hatch(queuedHatch(), Qt::FDiagPattern);
    for (const QRectF& r : marks.hatched)
        p.fillRect(r, hatch);
    const QColor line = outline();
    for (const QRectF& r : marks.solid)
        p.fillRect(r, line);
    for (const QRectF& r : marks.outlined)
        outlineRect(p, r, line);
}

CriticalPathPainter::Marks CriticalPathPainter::lanesMarks(const LaneOf& laneOf) const
{
    if (!m_state.isActive())
        return {};
    MarksBuilder marks;
    auto band = [&](MeasurementId m) {
        const QRectF lane = m == kNone ? QRectF() : laneOf(m);
        return lane.isEmpty() ? QRectF() : lane.adjusted(0, 1, 0, -1);
    };
    for (const CriticalPath::Segment& s : m_state.segmentsIn(m_axis.visibleStart(), m_axis.visibleEnd())) {
        QRectF lane;
        switch (s.kind) {
        case Kind::Running:
            lane = band(s.named);
            if (lane.isEmpty())
                lane = band(s.pathMeasurement);
            if (!lane.isEmpty())
                marks.running(spanRect(s.start, s.end, lane));
            break;
        case Kind::Queued:
        case Kind::Idle:
            if (const QRectF blocker = band(s.named); !blocker.isEmpty())
                marks.tinted(spanRect(s.start, s.end, blocker));
            if (lane = band(s.pathMeasurement); !lane.isEmpty())
                marks.hatched(spanRect(s.start, s.end, lane));
            break;
        case Kind::Waiting:
            // The waiter stays in plain sight: nothing ran for the path.
            if (lane = band(s.named); !lane.isEmpty())
                marks.plain(spanRect(s.start, s.end, lane));
            break;
        }
    }
    return marks.take();
}

CriticalPathPainter::Marks CriticalPathPainter::icicleMarks(const BoxOf& boxOf) const
{
    if (!m_state.isActive())
        return {};
    const Time from = m_axis.visibleStart();
    const Time to = m_axis.visibleEnd();
    MarksBuilder marks;
    for (const CriticalPath::Segment& s : m_state.segmentsIn(from, to)) {
        const Time a = std::max(s.start, from);
        const Time b = std::min(s.end, to);
        if (s.kind == Kind::Running)
            forBoxes(s.named, a, b, boxOf, [&](const QRectF& r) { marks.running(r); });
        else if (s.kind == Kind::Queued)
            forBoxes(s.named, a, b, boxOf, [&](const QRectF& r) { marks.tinted(r); });
    }
    return marks.take();
}

void CriticalPathPainter::paintLanes(QPainter& p, const QRectF& area, const LaneOf& laneOf) const
{
    if (!m_state.isActive())
        return;
    const Time from = m_axis.visibleStart();
    const Time to = m_axis.visibleEnd();
    p.save();
    paintMarks(p, area, lanesMarks(laneOf));
    // The wakes: in time order of `at`, each from the waker's lane at its
    // end to the woken task's lane at its resume; only those whose arrow
    // overlaps the visible range, both lanes on screen. A path has a few
    // wakes per segment: they are not worth an index of their own. At a
    // wide range many fall on the same pixels: each is drawn once.
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(wakeArrow(), 2.0));
    std::set<std::tuple<int, int, int, int>> drawn;
    for (const CriticalPathState::WakeEdge& w : m_state.wakes()) {
        if (w.at > to)
            break;
        if (w.resume < from)
            continue;
        const QRectF a = laneOf(w.waker);
        const QRectF b = laneOf(w.woken);
        if (a.isEmpty() || b.isEmpty())
            continue;
        const QLineF line(xOf(w.at), a.center().y(), xOf(w.resume), b.center().y());
        const QLine pixels = line.toLine();
        if (drawn.emplace(pixels.x1(), pixels.y1(), pixels.x2(), pixels.y2()).second)
            FlowPainter::paintArrow(p, line);
    }
    p.restore();
}

void CriticalPathPainter::paintIcicle(QPainter& p, const QRectF& area, const BoxOf& boxOf) const
{
    if (!m_state.isActive())
        return;
    p.save();
    paintMarks(p, area, icicleMarks(boxOf));
    p.restore();
}

} // namespace runlane
