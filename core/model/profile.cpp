#include "profile.h"

#include "freshmemory.h"
#include "loaderror.h"
#include "parallel.h"
#include "prefetchdistance.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <utility>

namespace runlane {

std::string Profile::nameOf(const TrackInfo& track, const StringPool& strings)
{
    if (track.displayName != kEmptyString)
        return std::string(strings.view(track.displayName));
    std::string name = track.processName != kEmptyString ? std::string(strings.view(track.processName))
                                                         : "pid " + std::to_string(track.pid);
    name += kTrackNameSeparator;
    if (track.kind == TrackKind::Async)
        name += "async";
    else if (track.threadName != kEmptyString)
        name += strings.view(track.threadName);
    else
        name += "tid " + std::to_string(track.tid);
    if (track.kind == TrackKind::Samples)
        name += " (samples)";
    return name;
}

void CounterSeries::sortByTime()
{
    std::vector<std::size_t> order(times.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [this](std::size_t a, std::size_t b) { return times[a] < times[b]; });
    std::vector<Time> sortedTimes;
    std::vector<double> sortedValues;
    sortedTimes.reserve(order.size());
    sortedValues.reserve(order.size());
    for (std::size_t i : order) {
        sortedTimes.push_back(times[i]);
        sortedValues.push_back(values[i]);
    }
    times = std::move(sortedTimes);
    values = std::move(sortedValues);
}

std::string_view finalStateName(FinalState state)
{
    switch (state) {
    case FinalState::Completed:
        return "completed";
    case FinalState::Failed:
        return "failed";
    case FinalState::Cancelled:
        return "cancelled";
    case FinalState::Ended:
        return "ended";
    case FinalState::Unfinished:
        return "unfinished";
    }
    return "unknown";
}

bool parseFinalState(std::string_view text, FinalState& state)
{
    static constexpr FinalState all[] = {FinalState::Completed, FinalState::Failed, FinalState::Cancelled,
                                         FinalState::Ended, FinalState::Unfinished};
    for (FinalState candidate : all) {
        const std::string_view name = finalStateName(candidate);
        if (name.size() == text.size()
            && std::equal(name.begin(), name.end(), text.begin(), [](char a, char b) {
                   return a == (b >= 'A' && b <= 'Z' ? char(b - 'A' + 'a') : b);
               })) {
            state = candidate;
            return true;
        }
    }
    return false;
}

std::string Profile::labelText(LabelId id) const
{
    const Label& l = m_labels[id];
    std::string text(labelName(id));
    if (l.file != kEmptyString) {
        text += " (";
        text += string(l.file);
        if (l.line > 0) {
            text += ':';
            text += std::to_string(l.line);
        }
        text += ')';
    }
    return text;
}

std::span<const Interval> Profile::depthSlice(TrackId trackId, int depth) const
{
    const Track& t = m_tracks[trackId];
    if (depth < 0 || depth >= t.depthCount())
        return {};
    return std::span<const Interval>(m_intervals.data() + t.depthOffsets[depth],
                                     t.depthOffsets[depth + 1] - t.depthOffsets[depth]);
}

std::pair<IntervalId, IntervalId> Profile::overlapping(TrackId trackId, int depth, Time from, Time to) const
{
    const Track& t = m_tracks[trackId];
    if (depth < 0 || depth >= t.depthCount() || to < from)
        return {0, 0};
    const Interval* first = m_intervals.data() + t.depthOffsets[depth];
    const Interval* last = m_intervals.data() + t.depthOffsets[depth + 1];
    // Within one depth intervals are disjoint and start-sorted, hence also
    // end-sorted: find the first that ends after `from` (or is empty at it).
    const Interval* lo = std::partition_point(first, last, [from](const Interval& iv) {
        return iv.end < from || (iv.end == from && iv.start < from);
    });
    // A point query (from == to) returns what contains that instant.
    const bool point = from == to;
    const Interval* hi = std::partition_point(lo, last, [to, point](const Interval& iv) {
        return iv.start < to || (point && iv.start == to);
    });
    return {IntervalId(lo - m_intervals.data()), IntervalId(hi - m_intervals.data())};
}

TrackId Profile::trackOfSearched(IntervalId id) const
{
    // Tracks own consecutive slices of the interval array, in track order.
    auto it = std::upper_bound(m_tracks.begin(), m_tracks.end(), id,
                               [](IntervalId value, const Track& t) { return value < t.end; });
    return TrackId(it - m_tracks.begin());
}

void Profile::indexTracks()
{
    m_trackAtBlock.resize((m_intervals.size() + (std::size_t(1) << kTrackBlockShift) - 1) >> kTrackBlockShift);
    for (std::size_t b = 0; b < m_trackAtBlock.size(); ++b)
        m_trackAtBlock[b] = trackOfSearched(IntervalId(b << kTrackBlockShift));
}

// A plain call, all of which its one interval says, as its label and that
// interval: 6 bytes (8 with over 65,536 labels); any other measurement
// whole besides, 32 more (measurement()). Each part runs on every core and
// gives what one loop would.
void Profile::keepMeasurements(std::vector<Measurement>&& measurements, std::size_t labelCount)
{
    const std::size_t count = measurements.size();
    const bool wide = labelCount > std::size_t(std::numeric_limits<std::uint16_t>::max()) + 1;
    assignFresh(m_measurementRefs, count);
    if (wide)
        assignFresh(m_measurementLabelsWide, count);
    else
        assignFresh(m_measurementLabels, count);
    // Plain when the interval rebuilds it exactly; an interval id with the
    // top bit set (2^31 intervals, 48 GB of them) could not say so.
    std::vector<std::size_t> wholeBegin = parallelSlices(count, [&](std::size_t from, std::size_t to) {
        std::size_t whole = 0;
        for (std::size_t id = from; id < to; ++id) {
            // The interval a plain call is rebuilt from lies far from the
            // last one's, in one of hundreds of (track, depth) runs.
            const std::size_t ahead = id + kPrefetchDistance;
            if (ahead < to && measurements[ahead].intervalRef < m_intervals.size())
                __builtin_prefetch(&m_intervals[measurements[ahead].intervalRef]);
            const Measurement& m = measurements[id];
            const bool plain = (m.flags & SingleInterval) && !(m.intervalRef & kKeptWhole)
                && isPlainCall(m);
            m_measurementRefs[id] = plain ? m.intervalRef : kKeptWhole;
            if (wide)
                m_measurementLabelsWide[id] = m.label;
            else
                m_measurementLabels[id] = std::uint16_t(m.label);
            whole += plain ? 0 : 1;
        }
        return whole;
    });
    std::size_t total = 0;
    for (std::size_t& begin : wholeBegin)
        total += std::exchange(begin, total);
    if (total > kKeptWhole)
        throw FormatError("too many measurements");
    m_wholeMeasurements.resize(total);
    m_wholeIds.resize(total);
    parallelSlices(count, [&](std::size_t from, std::size_t to) {
        std::size_t next = wholeBegin[from / kParallelSlice];
        for (std::size_t id = from; id < to; ++id) {
            if (m_measurementRefs[id] != kKeptWhole)
                continue;
            m_wholeMeasurements[next] = measurements[id];
            m_wholeIds[next] = MeasurementId(id);
            m_measurementRefs[id] = kKeptWhole | std::uint32_t(next++);
        }
    });
    std::vector<Measurement>().swap(measurements);
}

std::vector<MeasurementId> Profile::createdBy(MeasurementId id) const
{
    std::vector<MeasurementId> created;
    if (id >= measurementCount())
        return created;
    for (std::size_t k = 0; k < m_wholeMeasurements.size(); ++k) {
        if (m_wholeMeasurements[k].creator == id)
            created.push_back(m_wholeIds[k]);
    }
    // A plain call's creator is the measurement of its interval's parent
    // (plainCall), one depth above it on its track and around it.
    for (const IntervalId parent : intervalsOf(id)) {
        const Interval& around = m_intervals[parent];
        const TrackId track = trackOf(parent);
        // Up to its end included: a call of no length may end it.
        const Time to = around.end == kTimeMax ? around.end : around.end + 1;
        const auto [first, last] = overlapping(track, depthOf(parent) + 1, around.start, to);
        for (IntervalId child = first; child < last; ++child) {
            const Interval& iv = m_intervals[child];
            if (iv.parent == parent && !(m_measurementRefs[iv.measurement] & kKeptWhole))
                created.push_back(iv.measurement);
        }
    }
    std::sort(created.begin(), created.end());
    created.erase(std::unique(created.begin(), created.end()), created.end());
    return created;
}

int Profile::depthOf(IntervalId id) const
{
    const Track& t = m_tracks[trackOf(id)];
    auto it = std::upper_bound(t.depthOffsets.begin(), t.depthOffsets.end(), id);
    return int(it - t.depthOffsets.begin()) - 1;
}

std::span<const Flow> Profile::flowsOutOf(IntervalId first, IntervalId last) const
{
    const auto lo = std::partition_point(m_flows.begin(), m_flows.end(), [first](const Flow& f) { return f.from < first; });
    const auto hi = std::partition_point(lo, m_flows.end(), [last](const Flow& f) { return f.from < last; });
    return std::span<const Flow>(lo, hi);
}

std::span<const std::uint32_t> Profile::flowsInto(IntervalId first, IntervalId last) const
{
    const auto lo = std::partition_point(m_flowsByTarget.begin(), m_flowsByTarget.end(),
                                         [this, first](std::uint32_t f) { return m_flows[f].to < first; });
    const auto hi = std::partition_point(lo, m_flowsByTarget.end(),
                                         [this, last](std::uint32_t f) { return m_flows[f].to < last; });
    return std::span<const std::uint32_t>(lo, hi);
}

std::span<const Wake> Profile::wakesOf(MeasurementId task) const
{
    const auto [first, last] = std::equal_range(m_wakes.begin(), m_wakes.end(), Wake{0, task, 0},
                                                [](const Wake& a, const Wake& b) { return a.task < b.task; });
    return {first, last};
}

std::vector<Profile::MemoryPart> Profile::memoryBreakdown() const
{
    std::size_t tracks = 0;
    std::size_t depthOffsets = 0;
    for (const Track& t : m_tracks) {
        tracks += sizeof(Track);
        depthOffsets += t.depthOffsets.capacity() * sizeof(IntervalId);
    }
    std::size_t snapshots = 0;
    for (const Snapshot& s : m_snapshots)
        snapshots += s.memoryBytes();
    std::size_t counters = 0;
    for (const CounterSeries& c : m_counters)
        counters += sizeof(CounterSeries) + c.times.capacity() * sizeof(Time) + c.values.capacity() * sizeof(double);
    return {
        {"intervals", m_intervals.capacity() * sizeof(Interval)},
        {"measurements: label", m_measurementLabels.capacity() * sizeof(std::uint16_t)
                                    + m_measurementLabelsWide.capacity() * sizeof(LabelId)},
        {"measurements: interval", m_measurementRefs.capacity() * sizeof(std::uint32_t)},
        {"measurements kept whole", m_wholeMeasurements.capacity() * sizeof(Measurement)
                                        + m_wholeIds.capacity() * sizeof(MeasurementId)},
        {"track of each 4,096th interval", m_trackAtBlock.capacity() * sizeof(TrackId)},
        {"interval lists", m_intervalLists.capacity() * sizeof(IntervalId)},
        {"tracks", tracks},
        {"tracks' depth offsets", depthOffsets},
        {"labels", m_labels.capacity() * sizeof(Label)},
        {"marks", m_marks.capacity() * sizeof(Mark)},
        {"args", m_args.capacity() * sizeof(Args)},
        {"wakes", m_wakes.capacity() * sizeof(Wake)},
        {"flows", m_flows.capacity() * sizeof(Flow)},
        {"flows by target", m_flowsByTarget.capacity() * sizeof(std::uint32_t)},
        {"counters", counters},
        {"snapshots", snapshots},
        {"the Profile itself", sizeof(Profile)},
    };
}

std::size_t Profile::modelMemoryUsage() const
{
    std::size_t bytes = 0;
    for (const MemoryPart& part : memoryBreakdown())
        bytes += part.bytes;
    return bytes;
}

MeasurementId Profile::triggeredBy(MeasurementId id) const
{
    const auto it = std::lower_bound(m_triggers.begin(), m_triggers.end(), id,
                                     [](const Trigger& t, MeasurementId m) { return t.measurement < m; });
    return it != m_triggers.end() && it->measurement == id ? it->triggeredBy : kNone;
}

StringId Profile::argsOf(MeasurementId id) const
{
    const auto it = std::lower_bound(m_args.begin(), m_args.end(), id,
                                     [](const Args& a, MeasurementId m) { return a.measurement < m; });
    return it != m_args.end() && it->measurement == id ? it->json : kEmptyString;
}

} // namespace runlane
