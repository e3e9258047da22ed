#pragma once

#include "iciclesource.h"

namespace runlane {

class MeasurementMetrics;

// The timeline: the profile's own active intervals, nested by time.
class TimelineSource : public IcicleSource
{
public:
    TimelineSource(const Profile& profile, const MeasurementMetrics& metrics);

    std::size_t trackCount() const override { return m_profile.trackCount(); }
    int depthCount(TrackId track) const override { return m_profile.track(track).depthCount(); }
    std::span<const Interval> depthSlice(TrackId track, int depth) const override
    {
        return m_profile.depthSlice(track, depth);
    }
    const Interval& span(std::uint32_t id) const override { return m_profile.interval(id); }
    std::uint32_t idOf(const Interval& span) const override
    {
        return std::uint32_t(&span - m_profile.intervals().data());
    }
    LabelId labelOf(const Interval& span) const override { return m_profile.labelOf(span.measurement); }
    MeasurementId measurementOf(const Interval& span) const override { return span.measurement; }
    int depthOf(std::uint32_t id) const override { return m_profile.depthOf(id); }
    TrackId trackOf(std::uint32_t id) const override { return m_profile.trackOf(id); }
    std::string describe(std::uint32_t id) const override;
    bool nestsByTime(TrackId track) const override { return m_profile.track(track).kind != TrackKind::Async; }
    std::string trackName(TrackId track) const override { return std::string(m_profile.string(m_profile.track(track).name)); }

private:
    const Profile& m_profile;
    const MeasurementMetrics& m_metrics;
};

} // namespace runlane
