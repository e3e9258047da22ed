#pragma once

#include "calltree.h"
#include "iciclesource.h"

namespace runlane {

// The aggregated flame graph: the call tree's layout, one span per path.
class AggregatedSource : public IcicleSource
{
public:
    AggregatedSource(const Profile& profile, const CallTree& tree);

    std::size_t trackCount() const override { return m_tree.trackCount(); }
    int depthCount(TrackId track) const override { return m_tree.depthCount(track); }
    std::span<const Interval> depthSlice(TrackId track, int depth) const override
    {
        return m_tree.depthSlice(track, depth);
    }
    const Interval& span(std::uint32_t id) const override { return m_tree.spans()[id]; }
    std::uint32_t idOf(const Interval& span) const override
    {
        return std::uint32_t(&span - m_tree.spans().data());
    }
    LabelId labelOf(const Interval& span) const override { return m_tree.node(span.measurement).label; }
    MeasurementId measurementOf(const Interval&) const override { return kNone; }
    int depthOf(std::uint32_t id) const override;
    TrackId trackOf(std::uint32_t id) const override { return m_tree.node(span(id).measurement).track; }
    std::string describe(std::uint32_t id) const override;
    bool nestsByTime(TrackId) const override { return true; }
    std::string trackName(TrackId track) const override { return std::string(m_profile.string(m_profile.track(track).name)); }

private:
    const Profile& m_profile;
    const CallTree& m_tree;
};

} // namespace runlane
