#include "differentialsource.h"

#include "diffcolors.h"
#include "valueformat.h"

#include <cmath>
#include <cstdio>

namespace runlane {

DifferentialSource::DifferentialSource(const Profile& profile, const CallTree& tree, std::shared_ptr<const CallTreeDiff> diff,
                                       double threshold, double floor)
    : AggregatedSource(profile, tree), m_profile(profile), m_tree(tree), m_diff(std::move(diff)), m_threshold(threshold),
      m_floor(floor)
{
}

bool DifferentialSource::fillOf(const Interval& span, QRgb& color) const
{
    const std::uint32_t node = span.measurement;
    if (node >= m_diff->pathCount())
        return false;
    if (m_diff->isNew(node)) {
        color = DiffColors::newPath().rgb();
        return true;
    }
    const double base = m_diff->path(node).baseSelf;
    const double delta = double(m_tree.node(node).self) - base;
    color = DiffColors::forDelta(delta, base, m_threshold, m_floor).rgb();
    return true;
}

std::string DifferentialSource::describe(std::uint32_t id) const
{
    std::string text = AggregatedSource::describe(id);
    const std::uint32_t node = span(id).measurement;
    if (node >= m_diff->pathCount())
        return text;
    const ValueUnit unit = m_profile.unit();
    const CallTreeDiff::Path& path = m_diff->path(node);
    if (m_diff->isNew(node))
        return text + "\nnew: this call path is in none of the base runs";
    const double self = double(m_tree.node(node).self);
    const double delta = self - path.baseSelf;
    const auto time = [unit](double v) { return ValueFormat::text(Time(std::llround(std::fabs(v))), unit); };
    char pct[32];
    if (path.baseSelf > 0)
        std::snprintf(pct, sizeof pct, "%+.1f %%", 100 * delta / path.baseSelf);
    else
        std::snprintf(pct, sizeof pct, "%s", delta > 0 ? "new self time" : "±0");
    text += "\nself: base " + time(path.baseSelf) + ", new " + time(self) + ", Δ " + (delta < 0 ? "−" : "+") + time(delta)
        + " (" + pct + ")";
    text += "\ntotal: base " + time(path.baseTotal) + ", new " + time(double(m_tree.node(node).total));
    if (m_diff->baseRunCount() > 1)
        text += "\nbase: median of " + std::to_string(m_diff->baseRunCount()) + " runs (in "
            + std::to_string(path.baseRuns) + " of them)";
    return text;
}

} // namespace runlane
