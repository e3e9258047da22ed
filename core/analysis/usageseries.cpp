#include "usageseries.h"

#include "execsegments.h"
#include "trackexecindex.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace runlane {

Time UsageSeries::defaultBinWidth(Time span)
{
    return std::max<Time>(1, span / 200);
}

template<typename ForEachSpan>
UsageSeries UsageSeries::fromSpans(const Profile& profile, TrackId track, Time binWidth, std::size_t topK, TimeRange r,
                                   const std::vector<LabelId>* chosen, ForEachSpan&& forEachSpan)
{
    if (binWidth <= 0)
        throw std::invalid_argument("the bin width must be positive");
    UsageSeries series;
    series.m_track = track;
    series.m_start = r.from;
    series.m_binWidth = binWidth;
    if (r.to <= r.from)
        return series;
    const Time span = r.to - r.from;
    const std::size_t bins = std::size_t(span / binWidth + (span % binWidth != 0 ? 1 : 0));
    if (bins > kMaxBins)
        throw std::invalid_argument("the bin width gives " + std::to_string(bins) + " bins; at most "
                                    + std::to_string(kMaxBins) + " are allowed");
    series.m_binCount = bins;

    // Exec a span puts inside [a, b), spread evenly over the span.
    auto part = [](const Span& span, Time a, Time b) {
        const Time lo = std::max(span.from, a);
        const Time hi = std::min(span.to, b);
        if (hi <= lo)
            return 0.0;
        return span.to == span.from ? span.exec : span.exec * double(hi - lo) / double(span.to - span.from);
    };

    // Pass 1: exec per label inside the range picks the top k.
    std::vector<LabelId> order;
    if (chosen) {
        order = *chosen;
    } else {
        std::vector<double> perLabel(profile.labelCount(), 0.0);
        forEachSpan([&](const Span& span) { perLabel[span.label] += part(span, r.from, r.to); });
        for (LabelId l = 0; l < perLabel.size(); ++l) {
            if (perLabel[l] > 0)
                order.push_back(l);
        }
        std::stable_sort(order.begin(), order.end(), [&](LabelId a, LabelId b) { return perLabel[a] > perLabel[b]; });
        if (order.size() > topK)
            order.resize(topK);
    }
    series.m_labels = order;
    std::vector<std::uint32_t> seriesOf(profile.labelCount(), std::uint32_t(order.size()));
    for (std::uint32_t k = 0; k < order.size(); ++k)
        seriesOf[order[k]] = k;

    // Pass 2: spread each span over the bins it touches.
    const std::size_t columns = series.seriesCount();
    std::vector<double> exec(bins * columns, 0.0);
    forEachSpan([&](const Span& span) {
        const Time from = std::max(span.from, r.from);
        const Time to = std::min(span.to, r.to);
        if (to <= from)
            return;
        const std::size_t column = seriesOf[span.label];
        for (std::size_t bin = std::size_t((from - r.from) / binWidth); bin < bins; ++bin) {
            const Time binStart = r.from + Time(bin) * binWidth;
            if (binStart >= to)
                break;
            exec[bin * columns + column] += part(span, binStart, binStart + binWidth);
        }
    });
    series.m_shares.resize(bins * columns);
    series.m_busy.assign(bins, 0.0);
    for (std::size_t b = 0; b < bins; ++b) {
        for (std::size_t c = 0; c < columns; ++c) {
            const double share = exec[b * columns + c] / double(binWidth);
            series.m_shares[b * columns + c] = share;
            series.m_busy[b] += share;
        }
    }
    return series;
}

namespace {

// De-accumulation of metric snapshots (semantics.md §6): between a proc's
// consecutive samples, exec grew by the difference. A drop means the
// counters were reset: that step has no value. A proc missing from a
// snapshot is not zero there: its next step spans from its last sample.
//
// Only steps that end after r.from can reach into the range: the scan
// starts at the first snapshot after it, with each label's sample before
// that found by looking back only as far as needed (one snapshot, unless a
// proc was away), so following the end of a long live recording costs the
// range, not the recording. The steps are not kept: each pass of the
// usage scans them again (5,000 procs over 5 minutes are 1.5 M steps).
class SnapshotSteps
{
public:
    SnapshotSteps(const Profile& profile, TimeRange r) : m_snapshots(profile.snapshots()), m_range(r)
    {
        m_first = std::size_t(std::upper_bound(m_snapshots.begin(), m_snapshots.end(), r.from,
                                               [](Time t, const Snapshot& s) { return t < s.time; })
                              - m_snapshots.begin());
        m_before.assign(profile.labelCount(), {kTimeMin, 0});
        std::vector<std::uint8_t> wanted(profile.labelCount(), 0); // 1: seen from m_first on, 2: its sample before found
        std::size_t missing = 0;
        for (std::size_t i = m_first; i < m_snapshots.size(); ++i) {
            for (const AggregateRow& row : m_snapshots[i].rows) {
                if (!wanted[row.label]) {
                    wanted[row.label] = 1;
                    ++missing;
                }
            }
        }
        for (std::size_t i = m_first; i-- > 0 && missing > 0;) {
            for (const AggregateRow& row : m_snapshots[i].rows) {
                if (wanted[row.label] == 1) {
                    wanted[row.label] = 2;
                    m_before[row.label] = {m_snapshots[i].time, row.exec};
                    --missing;
                }
            }
        }
    }

    // fn(label, from, to, exec) for each step reaching into the range.
    template<typename Fn>
    void forEach(Fn&& fn) const
    {
        std::vector<std::pair<Time, Time>> last = m_before;
        for (std::size_t i = m_first; i < m_snapshots.size(); ++i) {
            const Snapshot& snapshot = m_snapshots[i];
            for (const AggregateRow& row : snapshot.rows) {
                const auto [t0, e0] = last[row.label];
                if (t0 != kTimeMin && snapshot.time > t0 && row.exec >= e0 && t0 < m_range.to)
                    fn(row.label, t0, snapshot.time, double(row.exec - e0));
                last[row.label] = {snapshot.time, row.exec};
            }
        }
    }

private:
    const SnapshotList& m_snapshots;
    TimeRange m_range;
    std::size_t m_first = 0;
    std::vector<std::pair<Time, Time>> m_before; // per label: its last sample before m_first
};

bool fromSnapshots(const Profile& profile)
{
    return profile.measurementCount() == 0 && profile.snapshotsAreTimed();
}

} // namespace

std::vector<UsageSeries::Span> UsageSeries::spansOf(const Profile& profile, TrackId track, TimeRange r)
{
    std::vector<Span> spans;
    if (r.to > r.from) {
        // A sampled thread's "(idle)" is time it had nothing to do.
        ExecSegments::forEach(profile, track, r.from, r.to, [&](MeasurementId m, IntervalId, Time s, Time e) {
            const LabelId label = profile.measurement(m).label;
            if (!profile.isIdle(label))
                spans.push_back(Span{label, s, e, double(e - s)});
        });
    }
    return spans;
}

UsageSeries UsageSeries::compute(const Profile& profile, TrackId track, Time binWidth, std::size_t topK,
                                 std::optional<TimeRange> range)
{
    const TimeRange r = range.value_or(TimeRange{profile.startTime(), profile.endTime()});
    if (fromSnapshots(profile)) {
        const SnapshotSteps steps(profile, r);
        return fromSpans(profile, track, binWidth, topK, r, nullptr, [&steps](auto&& fn) {
            steps.forEach([&fn](LabelId l, Time from, Time to, double exec) { fn(Span{l, from, to, exec}); });
        });
    }
    const std::vector<Span> spans = spansOf(profile, track, r);
    return fromSpans(profile, track, binWidth, topK, r, nullptr, [&spans](auto&& fn) {
        for (const Span& span : spans)
            fn(span);
    });
}

UsageSeries UsageSeries::compute(const Profile& profile, TrackId track, Time binWidth, const std::vector<LabelId>& labels,
                                 std::optional<TimeRange> range)
{
    const TimeRange r = range.value_or(TimeRange{profile.startTime(), profile.endTime()});
    if (fromSnapshots(profile)) {
        const SnapshotSteps steps(profile, r);
        return fromSpans(profile, track, binWidth, labels.size(), r, &labels, [&steps](auto&& fn) {
            steps.forEach([&fn](LabelId l, Time from, Time to, double exec) { fn(Span{l, from, to, exec}); });
        });
    }
    const std::vector<Span> spans = spansOf(profile, track, r);
    return fromSpans(profile, track, binWidth, labels.size(), r, &labels, [&spans](auto&& fn) {
        for (const Span& span : spans)
            fn(span);
    });
}

TrackId UsageSeries::busiestTrack(const Profile& profile, const std::vector<LabelId>& labels)
{
    std::vector<bool> counted(profile.labelCount(), false);
    for (const LabelId l : labels)
        counted[l] = true;
    TrackId best = kNone;
    Time bestExec = 0;
    for (TrackId t = 0; t < profile.trackCount(); ++t) {
        Time exec = 0;
        ExecSegments::forEach(profile, t, profile.startTime(), kTimeMax, [&](MeasurementId m, IntervalId, Time s, Time e) {
            if (counted[profile.measurement(m).label])
                exec = addClamped(exec, e - s);
        });
        if (exec > bestExec) {
            bestExec = exec;
            best = t;
        }
    }
    return best;
}

UsageSeries UsageSeries::compute(const Profile& profile, const TrackExecIndex& index, Time binWidth, std::size_t topK,
                                 std::optional<TimeRange> range)
{
    if (fromSnapshots(profile))
        return compute(profile, index.track(), binWidth, topK, range); // snapshots have no segments
    const TimeRange r = range.value_or(TimeRange{profile.startTime(), profile.endTime()});
    return fromSpans(profile, index.track(), binWidth, topK, r, nullptr, [&index, r](auto&& fn) {
        index.forEach(r.from, r.to, [&fn](LabelId label, Time s, Time e) { fn(Span{label, s, e, double(e - s)}); });
    });
}

} // namespace runlane
