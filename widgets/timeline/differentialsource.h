#pragma once

#include "aggregatedsource.h"
#include "calltreediff.h"

#include <memory>

namespace runlane {

// The differential flame graph: the new profile's aggregated flame graph
// (box widths are the new profile's), each box coloured by the change of
// its call path's self time against the base runs (DiffColors: red slower,
// blue faster, grey within the threshold or under the floor, green for a
// path the base runs never had). Its tooltip gives base, new, Δ and Δ%.
class DifferentialSource : public AggregatedSource
{
public:
    DifferentialSource(const Profile& profile, const CallTree& tree, std::shared_ptr<const CallTreeDiff> diff,
                       double threshold, double floor);

    bool fillOf(const Interval& span, QRgb& color) const override;
    // What its colours were chosen by (an exported image's legend says it).
    double threshold() const { return m_threshold; }
    double floor() const { return m_floor; }
    ValueUnit unit() const { return m_profile.unit(); }
    std::string describe(std::uint32_t id) const override;

private:
    const Profile& m_profile;
    const CallTree& m_tree;
    std::shared_ptr<const CallTreeDiff> m_diff;
    double m_threshold;
    double m_floor;
};

} // namespace runlane
