#include "trackexecindex.h"

#include "execsegments.h"

namespace runlane {

TrackExecIndex::TrackExecIndex(const Profile& profile, TrackId track) : m_track(track)
{
    // ExecSegments walks depth by depth, each depth in order of start: the
    // array is a few sorted runs, merged pairwise (log runs passes) rather
    // than sorted from scratch.
    std::vector<std::size_t> runs{0};
    // A sampled thread's "(idle)" is left out: the index serves the usage,
    // where it is not busy time (as in UsageSeries::spansOf).
    ExecSegments::forEach(profile, track, kTimeMin, kTimeMax, [&](MeasurementId m, IntervalId, Time s, Time e) {
        const LabelId label = profile.labelOf(m);
        if (profile.isIdle(label))
            return;
        if (!m_segments.empty() && s < m_segments.back().start)
            runs.push_back(m_segments.size()); // a new run (the next depth)
        m_segments.push_back(Segment{s, e, label});
    });
    runs.push_back(m_segments.size());
    auto byStart = [](const Segment& a, const Segment& b) { return a.start < b.start; };
    while (runs.size() > 2) {
        std::vector<std::size_t> merged{0};
        for (std::size_t r = 0; r + 2 < runs.size(); r += 2) {
            std::inplace_merge(m_segments.begin() + std::ptrdiff_t(runs[r]), m_segments.begin() + std::ptrdiff_t(runs[r + 1]),
                               m_segments.begin() + std::ptrdiff_t(runs[r + 2]), byStart);
            merged.push_back(runs[r + 2]);
        }
        if (runs.size() % 2 == 0) // an odd number of runs: the last waits for the next pass
            merged.push_back(runs.back());
        runs = std::move(merged);
    }
    m_maxEnd.reserve(m_segments.size());
    Time latest = kTimeMin;
    for (const Segment& s : m_segments) {
        latest = std::max(latest, s.end);
        m_maxEnd.push_back(latest);
    }
}

} // namespace runlane
