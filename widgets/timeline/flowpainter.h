#pragma once

#include "flowspans.h"
#include "profile.h"

#include <QLineF>
#include <QRectF>

#include <algorithm>
#include <functional>
#include <span>
#include <vector>

class QPainter;

namespace runlane {

// The arrows of flows ("because of whom", Profile::flows) over the icicle
// plot, from the box of the interval that caused the work to the box of the
// interval that did it. Only two kinds of flows are looked at: those with an
// end among the rows on screen (per visible row, the run of intervals in
// the visible range is one id range, and the flows leaving or entering it
// one binary search each: Profile::flowsOutOf, flowsInto), and those whose
// arrow crosses the whole visible range, both ends out of it (FlowSpans, as
// Perfetto draws them), so a frame costs O(rows × log n + flows met),
// whatever the profile holds.
class FlowPainter
{
public:
    // Beyond one flow in view per this many pixels of width (zoomed out over
    // a busy trace) the arrows are a blur that hides the boxes: only the
    // selected interval's are drawn.
    static constexpr double kPixelsPerFlow = 4.0;
    static std::size_t maxFlows(double timeWidth) { return std::size_t(std::max(1.0, timeWidth / kPixelsPerFlow)); }

    struct Row {
        TrackId track;
        int depth;
    };
    // Where an interval's box is, in paint coordinates (x not clipped to the
    // view), or an empty rect if it is not laid out: its track collapsed,
    // or hidden inside a collapsed box.
    using Locate = std::function<QRectF(IntervalId)>;

    // `spans` (may be null: none such) finds the arrows that cross the
    // visible range with both ends out of it; those are drawn if both ends
    // are laid out and the arrow passes within y in [0, height), the rows'
    // paint area.
    FlowPainter(const Profile& profile, Locate locate, const FlowSpans* spans = nullptr, double height = 0)
        : m_profile(profile), m_locate(std::move(locate)), m_spans(spans), m_height(height)
    {
    }

    // Indices into Profile::flows() of the flows with an end among `rows`
    // within [from, to), or whose arrow crosses [from, to) on screen (see
    // the constructor), each once, in index order; the flows of `selected`
    // always, the others only if there are at most `limit`.
    std::vector<std::uint32_t> flowsInView(std::span<const Row> rows, Time from, Time to, IntervalId selected,
                                           std::size_t limit) const;
    // The arrow between two boxes: from the source's middle row, at the
    // target's start where the source spans it (else the source's nearer
    // end), to the middle of the target's left edge.
    static QLineF arrowLine(const QRectF& from, const QRectF& to);
    // Draws the arrows of flowsInView() whose both ends are laid out; those
    // of `selected` in the selection's colour, over the others.
    void paint(QPainter& p, std::span<const Row> rows, Time from, Time to, IntervalId selected, std::size_t limit) const;
    // An arrow along `line` in the pen's colour, its head at p2 (the
    // critical path's wakes are drawn the same way).
    static void paintArrow(QPainter& p, const QLineF& line);

private:
    // Whether both ends of `flow` are laid out and its arrow passes within
    // the rows' paint area.
    bool crossesArea(const Flow& flow) const;

    const Profile& m_profile;
    Locate m_locate;
    const FlowSpans* m_spans;
    double m_height;
};

} // namespace runlane
