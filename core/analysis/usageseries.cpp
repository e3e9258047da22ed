#include "usageseries.h"

#include "execsegments.h"
#include "snapshotreader.h"
#include "trackexecindex.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace runlane {

Time UsageSeries::defaultBinWidth(Time span)
{
    return std::max<Time>(1, span / 200);
}

namespace {

// The labels with exec, the k largest, largest first (ties in order of id).
std::vector<LabelId> topLabels(const std::vector<double>& perLabel, std::size_t topK)
{
    std::vector<LabelId> order;
    for (LabelId l = 0; l < perLabel.size(); ++l) {
        if (perLabel[l] > 0)
            order.push_back(l);
    }
    std::stable_sort(order.begin(), order.end(), [&](LabelId a, LabelId b) { return perLabel[a] > perLabel[b]; });
    if (order.size() > topK)
        order.resize(topK);
    return order;
}

// The grid line at or before `from` of a grid of `width` from `origin`;
// `from` itself where that would pass the time scale's ends.
Time gridStart(Time from, Time origin, Time width)
{
    Time offset = 0;
    if (__builtin_sub_overflow(from, origin, &offset))
        return from;
    Time steps = offset / width;
    if (offset % width < 0)
        --steps; // rounded down, not towards 0: the range's start is in the first bin
    Time start = 0;
    if (__builtin_mul_overflow(steps, width, &offset) || __builtin_add_overflow(origin, offset, &start))
        return from;
    return start;
}

} // namespace

TimeRange UsageSeries::binPart(std::size_t bin) const
{
    const Time binStart = m_start + Time(bin) * m_binWidth;
    // The last bin may end past the largest time (a profile near 2^63 ns):
    // held there, as nothing lies beyond it to count.
    // A bin outside what is counted has an empty part at its nearer end.
    const Time from = std::clamp(binStart, m_counted.from, m_counted.to);
    return TimeRange{from, std::clamp(addClamped(binStart, m_binWidth), from, m_counted.to)};
}

UsageSeries UsageSeries::binned(const Profile& profile, TrackId track, Time binWidth, TimeRange r, Time origin)
{
    if (binWidth <= 0)
        throw std::invalid_argument("the bin width must be positive");
    UsageSeries series;
    series.m_track = track;
    series.m_start = r.from;
    series.m_binWidth = binWidth;
    if (r.to <= r.from)
        return series;
    const Time first = gridStart(r.from, origin, binWidth);
    // Unsigned: from a grid line before the range, its span may pass 2^63.
    const std::uint64_t span = std::uint64_t(r.to) - std::uint64_t(first);
    const std::uint64_t width = std::uint64_t(binWidth);
    const std::uint64_t binsWanted = span / width + (span % width != 0 ? 1 : 0);
    if (binsWanted > kMaxBins)
        throw std::invalid_argument("the bin width gives " + std::to_string(binsWanted) + " bins; at most "
                                    + std::to_string(kMaxBins) + " are allowed");
    const std::size_t bins = std::size_t(binsWanted);
    series.m_start = first;
    series.m_binCount = bins;
    // Exec lies inside the profile (its span covers every time it
    // mentions), so clipping to the profile only takes the bins' time.
    series.m_counted = {std::max(r.from, profile.startTime()), std::min(r.to, profile.endTime())};
    if (series.m_counted.to < series.m_counted.from)
        series.m_counted.to = series.m_counted.from;
    return series;
}

void UsageSeries::share(const std::vector<double>& exec)
{
    // Each bin's shares are of its part counted; a bin wholly outside it
    // (past the profile's end) has none, and no exec to share.
    const std::size_t bins = m_binCount;
    const std::size_t columns = seriesCount();
    m_shares.resize(bins * columns);
    m_busy.assign(bins, 0.0);
    std::vector<double> total(columns, 0.0);
    for (std::size_t b = 0; b < bins; ++b) {
        const TimeRange inside = binPart(b);
        const double length = double(inside.to - inside.from);
        for (std::size_t c = 0; c < columns; ++c) {
            const double e = exec[b * columns + c];
            const double share = length > 0 ? e / length : 0.0;
            m_shares[b * columns + c] = share;
            m_busy[b] += share;
            total[c] += e;
        }
    }
    const double counted = double(m_counted.to - m_counted.from);
    m_mean.resize(columns);
    for (std::size_t c = 0; c < columns; ++c)
        m_mean[c] = counted > 0 ? total[c] / counted : 0.0;
}

UsageSeries UsageSeries::fromSums(const Profile& profile, const TrackExecIndex& index, Time binWidth, std::size_t topK,
                                  TimeRange r, Time origin)
{
    UsageSeries series = binned(profile, index.track(), binWidth, r, origin);
    if (series.m_binCount == 0)
        return series;
    // The top k by exec inside the range, as from the spans: the same
    // whole nanoseconds, summed exactly, so the same order.
    std::vector<double> perLabel(profile.labelCount(), 0.0);
    for (const LabelId l : index.labels()) {
        if (l < perLabel.size())
            perLabel[l] = double(index.exec(l, r.from, r.to));
    }
    series.m_labels = topLabels(perLabel, topK);
    // Bin b counts [edge b, edge b + 1): the bins' bounds held inside the
    // range. Each series' exec before each edge is one search, and "other"
    // is the track's busy time less the labels', all in whole nanoseconds.
    const std::size_t bins = series.m_binCount;
    std::vector<Time> edges(bins + 1);
    edges[0] = r.from;
    for (std::size_t b = 1; b <= bins; ++b) {
        // Past 2^63 (a range over most of the time scale) is past the range.
        Time offset = 0;
        Time edge = 0;
        const bool past = __builtin_mul_overflow(Time(b), binWidth, &offset)
            || __builtin_add_overflow(series.m_start, offset, &edge);
        edges[b] = past ? r.to : std::clamp(edge, r.from, r.to);
    }
    const std::size_t columns = series.seriesCount();
    const std::size_t other = columns - 1;
    std::vector<double> exec(bins * columns, 0.0);
    // The edges rise: each search goes on from the last one's answer.
    std::vector<Time> busy(bins);
    std::size_t cursor = 0;
    Time before = index.busyBefore(edges[0], &cursor);
    for (std::size_t b = 0; b < bins; ++b) {
        const Time next = index.busyBefore(edges[b + 1], &cursor);
        busy[b] = next - before;
        before = next;
    }
    for (std::size_t k = 0; k < other; ++k) {
        const LabelId label = series.m_labels[k];
        cursor = 0;
        before = index.execBefore(label, edges[0], &cursor);
        for (std::size_t b = 0; b < bins; ++b) {
            const Time next = index.execBefore(label, edges[b + 1], &cursor);
            busy[b] -= next - before;
            exec[b * columns + k] = double(next - before);
            before = next;
        }
    }
    for (std::size_t b = 0; b < bins; ++b)
        exec[b * columns + other] = double(busy[b]);
    series.share(exec);
    return series;
}

template<typename ForEachSpan>
UsageSeries UsageSeries::fromSpans(const Profile& profile, TrackId track, Time binWidth, std::size_t topK, TimeRange r,
                                   Time origin, const std::vector<LabelId>* chosen, const std::vector<LabelId>& likely,
                                   ForEachSpan&& forEachSpan)
{
    UsageSeries series = binned(profile, track, binWidth, r, origin);
    if (series.m_binCount == 0)
        return series;
    const Time first = series.m_start;
    const std::size_t bins = series.m_binCount;
    const std::uint64_t width = std::uint64_t(binWidth);

    // Exec a span puts inside [a, b), spread evenly over the span. An
    // exec segment's (exec = its length) is the time itself, exactly:
    // exec × (b − a) / exec may round above 2^53, and the sums of whole
    // nanoseconds stay exact, so that the mean is the same for any bins.
    auto part = [](const Span& span, Time a, Time b) {
        const Time lo = std::max(span.from, a);
        const Time hi = std::min(span.to, b);
        if (hi <= lo)
            return 0.0;
        if (span.exec == double(span.to - span.from))
            return double(hi - lo);
        return span.to == span.from ? span.exec : span.exec * double(hi - lo) / double(span.to - span.from);
    };

    // Pass 1: exec per label inside the range picks the top k.
    std::vector<LabelId> order;
    // Spreads a span over the bins it touches: add(bin, exec in it), only
    // what lies inside the range.
    auto spread = [&](const Span& span, auto&& add) {
        const Time from = std::max(span.from, r.from);
        const Time to = std::min(span.to, r.to);
        if (to <= from)
            return;
        for (std::size_t bin = std::size_t((std::uint64_t(from) - std::uint64_t(first)) / width); bin < bins; ++bin) {
            const Time binStart = first + Time(bin) * binWidth;
            if (binStart >= to)
                break;
            add(bin, part(span, std::max(binStart, r.from), std::min(addClamped(binStart, binWidth), r.to)));
        }
    };
    // Two passes over the spans rather than one that keeps every label's
    // bins: for a live recording's 5,000 procs that was a 12 MB buffer a
    // recompute, which the allocator's arenas kept (40 MB of RSS after 10
    // minutes) and which cost as much to fault in as the second pass of
    // the exec column (SnapshotReader::Columns::Exec) costs to read.
    const std::size_t labels = profile.labelCount();
    // The labels `likely` to be the top k (those of the series shown, for
    // the next version of a live recording or the next zoom): their bins
    // are kept from pass 1, and the others' summed as "rest", so that when
    // the top k are among them, as they nearly always are, the second pass
    // is not needed. A live recording's 5,000 procs over 5 minutes are
    // 1.5 M steps decoded per pass (issue 19: 22 ms a scrape on a worker).
    // "other" is the same sum either way: the rest in the spans' order,
    // plus the likely labels not chosen, in their order.
    constexpr std::uint32_t kNoSlot = UINT32_MAX;
    std::vector<std::uint32_t> slotOf(labels, kNoSlot);
    std::size_t slots = 0;
    if (!chosen) {
        for (const LabelId l : likely) {
            if (l < labels && slotOf[l] == kNoSlot)
                slotOf[l] = std::uint32_t(slots++);
        }
    }
    std::vector<double> likelyExec(bins * slots, 0.0);
    std::vector<double> rest(bins, 0.0);
    if (chosen) {
        order = *chosen;
    } else {
        std::vector<double> perLabel(labels, 0.0);
        forEachSpan([&](const Span& span) {
            perLabel[span.label] += part(span, r.from, r.to);
            if (slots == 0)
                return;
            if (const std::uint32_t slot = slotOf[span.label]; slot != kNoSlot)
                spread(span, [&](std::size_t bin, double e) { likelyExec[bin * slots + slot] += e; });
            else
                spread(span, [&](std::size_t bin, double e) { rest[bin] += e; });
        });
        order = topLabels(perLabel, topK);
    }
    series.m_labels = order;
    std::vector<std::uint32_t> seriesOf(labels, std::uint32_t(order.size()));
    for (std::uint32_t k = 0; k < order.size(); ++k)
        seriesOf[order[k]] = k;

    // Pass 2: spread each span of a label without a slot over the bins it
    // touches, into its series or the rest; not needed when pass 1 had
    // slots for every label chosen (its rest is then the same sum).
    const std::size_t columns = series.seriesCount();
    std::vector<double> exec(bins * columns, 0.0);
    const bool onePass = slots > 0 && std::all_of(order.begin(), order.end(), [&](LabelId l) { return slotOf[l] != kNoSlot; });
    if (!onePass) {
        std::fill(rest.begin(), rest.end(), 0.0);
        forEachSpan([&](const Span& span) {
            if (slotOf[span.label] != kNoSlot)
                return;
            if (const std::size_t column = seriesOf[span.label]; column < order.size())
                spread(span, [&](std::size_t bin, double e) { exec[bin * columns + column] += e; });
            else
                spread(span, [&](std::size_t bin, double e) { rest[bin] += e; });
        });
    }
    // The chosen labels with a slot take their bins from it; "other" is
    // the rest plus the slotted labels not chosen, in slot order.
    std::vector<bool> slotChosen(slots, false);
    for (std::size_t k = 0; k < order.size(); ++k) {
        const std::uint32_t slot = slotOf[order[k]];
        if (slot == kNoSlot)
            continue;
        slotChosen[slot] = true;
        for (std::size_t b = 0; b < bins; ++b)
            exec[b * columns + k] = likelyExec[b * slots + slot];
    }
    const std::size_t other = columns - 1;
    for (std::size_t b = 0; b < bins; ++b) {
        double sum = rest[b];
        for (std::size_t slot = 0; slot < slots; ++slot) {
            if (!slotChosen[slot])
                sum += likelyExec[b * slots + slot];
        }
        exec[b * columns + other] = sum;
    }
    series.share(exec);
    return series;
}

namespace {

// De-accumulation of metric snapshots (semantics.md §6): between a proc's
// consecutive samples, exec grew by the difference. A drop means the
// counters were reset: that step has no value. A proc missing from a
// snapshot is not zero there: its next step spans from its last sample.
//
// Only steps that end after r.from can reach into the range: the scan
// starts at the first snapshot after it, so following the end of a long
// live recording costs the range, not the recording. Each label's sample
// before that is in the snapshot just before, found while scanning; the
// few labels absent from it (a proc back in the top-k) are looked for
// further back once the scan is done, and their first steps come last.
// The steps are not kept: 5,000 procs over 5 minutes are 1.5 M steps,
// decoded (exec only) from the stored changes, so the range is read once.
class SnapshotSteps
{
public:
    SnapshotSteps(const Profile& profile, TimeRange r)
        : m_snapshots(profile.snapshots()), m_range(r), m_labels(profile.labelCount())
    {
        m_first = std::size_t(std::upper_bound(m_snapshots.begin(), m_snapshots.end(), r.from,
                                               [](Time t, const Snapshot& s) { return t < s.time(); })
                              - m_snapshots.begin());
    }

    // fn(label, from, to, exec) for each step reaching into the range.
    template<typename Fn>
    void forEach(Fn&& fn) const
    {
        auto step = [&](LabelId label, Time t0, Time e0, Time t1, Time e1) {
            if (t0 != kTimeMin && t1 > t0 && e1 >= e0 && t0 < m_range.to)
                fn(label, t0, t1, double(e1 - e0));
        };
        SnapshotReader reader(m_snapshots, SnapshotReader::Columns::Exec);
        // Per label: its last sample; kTimeMin before any.
        std::vector<std::pair<Time, Time>> last(m_labels, {kTimeMin, 0});
        if (m_first > 0) {
            const Time time = reader.snapshot(m_first - 1).time();
            const SnapshotReader::Exec before = reader.exec(m_first - 1);
            for (std::size_t k = 0; k < before.labels.size(); ++k)
                last[before.labels[k]] = {time, before.exec[k]};
        }
        // Labels first seen in the range without a sample just before it:
        // their first sample there, for the step from an older one.
        std::vector<std::pair<LabelId, std::pair<Time, Time>>> unresolved;
        for (std::size_t i = m_first; i < reader.size(); ++i) {
            const Time time = reader.snapshot(i).time();
            const SnapshotReader::Exec rows = reader.exec(i);
            for (std::size_t k = 0; k < rows.labels.size(); ++k) {
                const LabelId label = rows.labels[k];
                const Time exec = rows.exec[k];
                auto& [t0, e0] = last[label];
                if (t0 == kTimeMin && m_first > 1)
                    unresolved.push_back({label, {time, exec}});
                step(label, t0, e0, time, exec);
                t0 = time;
                e0 = exec;
            }
        }
        if (unresolved.empty())
            return;
        // Their last samples before the snapshot before the range, from the
        // newest back a block at a time (each read forward).
        std::vector<std::uint32_t> slot(m_labels, UINT32_MAX);
        for (std::uint32_t k = 0; k < unresolved.size(); ++k)
            slot[unresolved[k].first] = k;
        std::vector<std::pair<Time, Time>> older(unresolved.size(), {kTimeMin, 0});
        std::size_t missing = unresolved.size();
        reader.forEachBlockBackward(m_first - 1, [&](std::size_t first, std::size_t end) {
            std::vector<std::pair<Time, Time>> inBlock(unresolved.size(), {kTimeMin, 0});
            for (std::size_t i = first; i < end; ++i) {
                const Time time = reader.snapshot(i).time();
                const SnapshotReader::Exec rows = reader.exec(i);
                for (std::size_t r = 0; r < rows.labels.size(); ++r) {
                    const std::uint32_t k = slot[rows.labels[r]];
                    if (k != UINT32_MAX && older[k].first == kTimeMin)
                        inBlock[k] = {time, rows.exec[r]};
                }
            }
            for (std::size_t k = 0; k < unresolved.size(); ++k) {
                if (older[k].first == kTimeMin && inBlock[k].first != kTimeMin) {
                    older[k] = inBlock[k];
                    --missing;
                }
            }
            return missing > 0;
        });
        for (std::size_t k = 0; k < unresolved.size(); ++k) {
            const auto& [label, first] = unresolved[k];
            step(label, older[k].first, older[k].second, first.first, first.second);
        }
    }

private:
    const SnapshotList& m_snapshots;
    TimeRange m_range;
    std::size_t m_labels;
    std::size_t m_first = 0;
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
            const LabelId label = profile.labelOf(m);
            if (!profile.isIdle(label))
                spans.push_back(Span{label, s, e, double(e - s)});
        });
    }
    return spans;
}

UsageSeries UsageSeries::compute(const Profile& profile, TrackId track, Time binWidth, std::size_t topK,
                                 std::optional<TimeRange> range, const std::vector<LabelId>& likely,
                                 std::optional<Time> origin)
{
    const TimeRange r = range.value_or(TimeRange{profile.startTime(), profile.endTime()});
    const Time grid = origin.value_or(r.from);
    if (fromSnapshots(profile)) {
        const SnapshotSteps steps(profile, r);
        return fromSpans(profile, track, binWidth, topK, r, grid, nullptr, likely, [&steps](auto&& fn) {
            steps.forEach([&fn](LabelId l, Time from, Time to, double exec) { fn(Span{l, from, to, exec}); });
        });
    }
    const std::vector<Span> spans = spansOf(profile, track, r);
    return fromSpans(profile, track, binWidth, topK, r, grid, nullptr, likely, [&spans](auto&& fn) {
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
        return fromSpans(profile, track, binWidth, labels.size(), r, r.from, &labels, {}, [&steps](auto&& fn) {
            steps.forEach([&fn](LabelId l, Time from, Time to, double exec) { fn(Span{l, from, to, exec}); });
        });
    }
    const std::vector<Span> spans = spansOf(profile, track, r);
    return fromSpans(profile, track, binWidth, labels.size(), r, r.from, &labels, {}, [&spans](auto&& fn) {
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
            if (counted[profile.labelOf(m)])
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
                                 std::optional<TimeRange> range, const std::vector<LabelId>& likely,
                                 std::optional<Time> origin)
{
    if (fromSnapshots(profile))
        return compute(profile, index.track(), binWidth, topK, range, likely, origin); // snapshots have no segments
    const TimeRange r = range.value_or(TimeRange{profile.startTime(), profile.endTime()});
    if (index.summed())
        return fromSums(profile, index, binWidth, topK, r, origin.value_or(r.from));
    return fromSpans(profile, index.track(), binWidth, topK, r, origin.value_or(r.from), nullptr, likely, [&index, r](auto&& fn) {
        index.forEach(r.from, r.to, [&fn](LabelId label, Time s, Time e) { fn(Span{label, s, e, double(e - s)}); });
    });
}

} // namespace runlane
