#include "flowpainter.h"

#include "colorscheme.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace runlane {

std::vector<std::uint32_t> FlowPainter::flowsInView(std::span<const Row> rows, Time from, Time to,
                                                    IntervalId selected, std::size_t limit) const
{
    std::vector<std::uint32_t> out;
    const Flow* base = m_profile.flows().data();
    bool tooMany = false;
    for (const Row& row : rows) {
        const auto [first, last] = m_profile.overlapping(row.track, row.depth, from, to);
        if (first == last)
            continue;
        const auto leaving = m_profile.flowsOutOf(first, last);
        const auto entering = m_profile.flowsInto(first, last);
        if (out.size() + leaving.size() + entering.size() > 2 * limit) {
            tooMany = true;
            break;
        }
        for (const Flow& f : leaving)
            out.push_back(std::uint32_t(&f - base));
        out.insert(out.end(), entering.begin(), entering.end());
    }
    if (!tooMany && m_spans) {
        // Arrows over the whole range: neither end in it, so not met above.
        tooMany = !m_spans->forEachCrossing(from, to, [&](std::uint32_t k) {
            if (crossesArea(base[k]))
                out.push_back(k);
            return out.size() <= 2 * limit;
        });
    }
    if (!tooMany) {
        // A flow with both ends in view was met twice.
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
        tooMany = out.size() > limit;
    }
    if (tooMany)
        out.clear();
    if (selected != kNone && selected < m_profile.intervalCount()) {
        for (const Flow& f : m_profile.flowsOutOf(selected))
            out.push_back(std::uint32_t(&f - base));
        const auto entering = m_profile.flowsInto(selected);
        out.insert(out.end(), entering.begin(), entering.end());
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

bool FlowPainter::crossesArea(const Flow& flow) const
{
    const QRectF a = m_locate(flow.from);
    const QRectF b = m_locate(flow.to);
    if (a.isEmpty() || b.isEmpty())
        return false;
    const QLineF line = arrowLine(a, b);
    return std::max(line.y1(), line.y2()) >= 0 && std::min(line.y1(), line.y2()) < m_height;
}

QLineF FlowPainter::arrowLine(const QRectF& from, const QRectF& to)
{
    const double x0 = std::clamp(to.left(), from.left(), std::max(from.left(), from.right()));
    return QLineF(QPointF(x0, from.center().y()), QPointF(to.left(), to.center().y()));
}

void FlowPainter::paintArrow(QPainter& p, const QLineF& line)
{
    p.drawLine(line);
    if (line.length() < 1)
        return;
    // A head of 7 px at the target, along the line.
    const double angle = std::atan2(line.dy(), line.dx());
    const QPointF tip = line.p2();
    constexpr double kHead = 7.0;
    constexpr double kSpread = 0.45;
    QPainterPath head(tip);
    head.lineTo(tip - QPointF(kHead * std::cos(angle - kSpread), kHead * std::sin(angle - kSpread)));
    head.lineTo(tip - QPointF(kHead * std::cos(angle + kSpread), kHead * std::sin(angle + kSpread)));
    head.closeSubpath();
    p.fillPath(head, p.pen().color());
}

void FlowPainter::paint(QPainter& p, std::span<const Row> rows, Time from, Time to, IntervalId selected,
                        std::size_t limit) const
{
    const std::vector<std::uint32_t> flows = flowsInView(rows, from, to, selected, limit);
    if (flows.empty())
        return;
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    std::vector<QLineF> highlighted;
    p.setPen(QPen(ColorScheme::flow(), 1.2));
    for (const std::uint32_t k : flows) {
        const Flow& f = m_profile.flows()[k];
        const QRectF a = m_locate(f.from);
        const QRectF b = m_locate(f.to);
        if (a.isEmpty() || b.isEmpty())
            continue;
        const QLineF line = arrowLine(a, b);
        if (f.from == selected || f.to == selected)
            highlighted.push_back(line);
        else
            paintArrow(p, line);
    }
    p.setPen(QPen(ColorScheme::selection(), 2.0));
    for (const QLineF& line : highlighted)
        paintArrow(p, line);
    p.restore();
}

} // namespace runlane
