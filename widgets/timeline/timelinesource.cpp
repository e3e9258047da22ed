#include "timelinesource.h"

#include "measurementmetrics.h"
#include "valueformat.h"

#include <algorithm>

namespace runlane {

TimelineSource::TimelineSource(const Profile& profile, const MeasurementMetrics& metrics)
    : m_profile(profile), m_metrics(metrics)
{
}

std::string TimelineSource::describe(std::uint32_t id) const
{
    const Interval& iv = m_profile.interval(id);
    const Measurement& m = m_profile.measurement(iv.measurement);
    const ValueUnit unit = m_profile.unit();
    const int depth = m_profile.depthOf(id);
    // This interval's own exec: its length less its children's.
    Time covered = 0;
    const TrackId track = m_profile.trackOf(id);
    const auto children = m_profile.depthSlice(track, depth + 1);
    for (auto it = std::partition_point(children.begin(), children.end(),
                                        [&iv](const Interval& c) { return c.start < iv.start; });
         it != children.end() && it->start < iv.end; ++it) {
        if (it->parent == id)
            covered += std::min(it->end, iv.end) - it->start;
    }
    std::string text = m_profile.labelText(m.label);
    text += "\nstart " + ValueFormat::point(iv.start - m_profile.startTime(), unit) + ", duration "
        + ValueFormat::text(iv.end - iv.start, unit);
    text += "\nexec " + ValueFormat::text(iv.end - iv.start - covered, unit) + " in this interval";
    const auto intervals = m_profile.intervalsOf(iv.measurement);
    if (intervals.size() > 1)
        text += ", " + ValueFormat::text(m_metrics.exec(iv.measurement), unit) + " in all "
            + std::to_string(intervals.size()) + " intervals";
    text += "\ndepth " + std::to_string(depth) + ", " + std::string(finalStateName(m.finalState()));
    if (m.isAsync())
        text += ", async";
    return text;
}

} // namespace runlane
