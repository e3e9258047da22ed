#include "ranktable.h"

#include "execsegments.h"
#include "loaderror.h"

#include <algorithm>
#include <cmath>

namespace runlane {

namespace {

// Nearest-rank percentile of sorted values.
Time percentile(const Time* sorted, std::size_t n, double q)
{
    if (n == 0)
        return 0;
    std::size_t rank = std::size_t(std::ceil(q * double(n)));
    rank = std::clamp<std::size_t>(rank, 1, n);
    return sorted[rank - 1];
}

Time overlap(Time a, Time b, const TimeRange& r)
{
    return std::max<Time>(0, std::min(b, r.to) - std::max(a, r.from));
}

} // namespace

RankTable RankTable::compute(const MeasurementMetrics& metrics, std::optional<TimeRange> range,
                             const std::atomic<bool>* cancel)
{
    auto checkCancel = [cancel] {
        if (cancel && cancel->load(std::memory_order_relaxed))
            throw LoadCancelled();
    };
    const Profile& profile = metrics.profile();
    if (profile.measurementCount() == 0 && !profile.snapshots().empty())
        return fromSnapshots(profile, range);
    const std::size_t count = profile.measurementCount();
    RankTable table;
    table.m_range = range;

    std::vector<Time> clippedExec;
    std::vector<Time> clippedTotal;
    if (range) {
        clippedExec.assign(count, 0);
        for (TrackId t = 0; t < profile.trackCount(); ++t) {
            ExecSegments::forEach(profile, t, range->from, range->to,
                                  [&clippedExec](MeasurementId m, IntervalId, Time s, Time e) { clippedExec[m] += e - s; });
        }
        checkCancel();
        clippedTotal = MeasurementMetrics::totalsFrom(profile, clippedExec);
    }
    checkCancel();
    auto execOf = [&](MeasurementId id) { return range ? clippedExec[id] : metrics.exec(id); };
    auto totalOf = [&](MeasurementId id) { return range ? clippedTotal[id] : metrics.total(id); };
    auto inRange = [&](const Measurement& m) {
        if (!range)
            return true;
        if (m.created == m.finished)
            return range->contains(m.created);
        return m.created < range->to && m.finished > range->from;
    };

    // Per-call distributions: exec over the calls that ran, wall over all
    // but the stillborn; values grouped by label with a counting sort.
    enum : std::uint8_t { InRange = 1, ExecSample = 2, WallSample = 4 };
    std::vector<RankRow> rows(profile.labelCount());
    std::vector<std::uint8_t> role(count, 0);
    std::vector<Time> walls(count, 0);
    std::vector<std::uint32_t> execStart(profile.labelCount() + 1, 0);
    std::vector<std::uint32_t> wallStart(profile.labelCount() + 1, 0);
    for (MeasurementId id = 0; id < count; ++id) {
        const Measurement& m = profile.measurement(id);
        if (!inRange(m))
            continue;
        RankRow& row = rows[m.label];
        const bool ran = !profile.intervalsOf(id).empty();
        const FinalState state = m.finalState();
        if (state == FinalState::Unfinished) {
            ++row.unfinished;
        } else {
            ++row.calls;
            if (m.isBornFinished())
                ++row.stillborn;
            else if (!ran)
                ++row.primitive;
        }
        row.failed += state == FinalState::Failed ? 1 : 0;
        row.cancelled += state == FinalState::Cancelled ? 1 : 0;
        row.exec += execOf(id);
        if (!metrics.nestedInSameLabel(id))
            row.total += totalOf(id);
        walls[id] = range ? overlap(m.created, m.finished, *range) : m.finished - m.created;
        row.wall += walls[id];
        role[id] = InRange;
        if (ran) {
            role[id] |= ExecSample;
            ++execStart[m.label + 1];
        }
        if (!m.isBornFinished()) {
            role[id] |= WallSample;
            ++wallStart[m.label + 1];
        }
    }
    for (std::size_t l = 0; l < rows.size(); ++l) {
        execStart[l + 1] += execStart[l];
        wallStart[l + 1] += wallStart[l];
    }
    checkCancel();
    std::vector<Time> execSamples(execStart.back());
    std::vector<Time> wallSamples(wallStart.back());
    {
        std::vector<std::uint32_t> execAt(execStart.begin(), execStart.end() - 1);
        std::vector<std::uint32_t> wallAt(wallStart.begin(), wallStart.end() - 1);
        for (MeasurementId id = 0; id < count; ++id) {
            const LabelId label = profile.measurement(id).label;
            if (role[id] & ExecSample)
                execSamples[execAt[label]++] = execOf(id);
            if (role[id] & WallSample)
                wallSamples[wallAt[label]++] = walls[id];
        }
    }

    checkCancel();
    for (LabelId l = 0; l < rows.size(); ++l) {
        RankRow& row = rows[l];
        if (row.calls + row.unfinished == 0)
            continue;
        row.label = l;
        Time* execs = execSamples.data() + execStart[l];
        const std::size_t n = execStart[l + 1] - execStart[l];
        if (n > 0) {
            std::sort(execs, execs + n);
            Time sum = 0;
            for (std::size_t k = 0; k < n; ++k)
                sum += execs[k];
            row.max = execs[n - 1];
            row.mean = sum / Time(n);
            row.p50 = percentile(execs, n, 0.50);
            row.p90 = percentile(execs, n, 0.90);
            row.p99 = percentile(execs, n, 0.99);
        }
        Time* wallValues = wallSamples.data() + wallStart[l];
        const std::size_t w = wallStart[l + 1] - wallStart[l];
        if (w > 0) {
            std::sort(wallValues, wallValues + w);
            row.wallMax = wallValues[w - 1];
            row.wallP50 = percentile(wallValues, w, 0.50);
            row.wallP90 = percentile(wallValues, w, 0.90);
            row.wallP99 = percentile(wallValues, w, 0.99);
        }
        table.m_rows.push_back(row);
    }
    table.finish(profile);
    return table;
}

void RankTable::finish(const Profile& profile)
{
    m_busy = 0;
    for (const RankRow& row : m_rows)
        m_busy += row.exec;
    for (RankRow& row : m_rows)
        row.busyShare = m_busy > 0 ? double(row.exec) / double(m_busy) : 0.0;
    sort(profile, RankSortKey::Exec);
}

// Chroprof: each proc's figures from the last snapshot it appears in (a
// proc that drops out of the exported top-k is not zero), or for a range
// those at its end less those at its start. Counters that went down were
// reset in between; the later value is all that is known then.
RankTable RankTable::fromSnapshots(const Profile& profile, std::optional<TimeRange> range)
{
    RankTable table;
    table.m_range = range;
    const bool clip = range && profile.snapshotsAreTimed();
    std::vector<const AggregateRow*> atEnd(profile.labelCount(), nullptr);
    std::vector<const AggregateRow*> atStart(profile.labelCount(), nullptr);
    std::vector<LabelId> order; // labels in order of first appearance
    for (const Snapshot& s : profile.snapshots()) {
        if (clip && s.time > range->to)
            break;
        for (const AggregateRow& r : s.rows) {
            if (!atEnd[r.label])
                order.push_back(r.label);
            atEnd[r.label] = &r;
            if (clip && s.time <= range->from)
                atStart[r.label] = &r;
        }
    }
    auto minus = [](auto later, auto earlier) { return later >= earlier ? later - earlier : later; };
    const AggregateRow zero;
    for (const LabelId label : order) {
        const AggregateRow& r = *atEnd[label];
        const AggregateRow& b = atStart[label] ? *atStart[label] : zero;
        RankRow row;
        row.label = label;
        row.hasDistribution = false;
        row.calls = minus(r.calls, b.calls);
        row.stillborn = minus(r.stillborn, b.stillborn);
        row.zombieEvents = minus(r.zombieEvents, b.zombieEvents);
        row.exec = minus(r.exec, b.exec);
        row.total = row.exec + minus(r.childrenExec, b.childrenExec);
        row.wall = minus(r.wall, b.wall);
        row.max = r.execMax;
        row.mean = row.calls > 0 ? row.exec / Time(row.calls) : 0;
        if (clip && row.calls + row.stillborn + row.zombieEvents == 0 && row.exec == 0 && row.wall == 0)
            continue;
        table.m_rows.push_back(row);
    }
    table.finish(profile);
    return table;
}

void RankTable::sort(const Profile& profile, RankSortKey key, bool descending)
{
    auto value = [key](const RankRow& r) -> Time {
        switch (key) {
        case RankSortKey::Exec:
            return r.exec;
        case RankSortKey::Total:
            return r.total;
        case RankSortKey::Wall:
            return r.wall;
        case RankSortKey::Calls:
            return Time(r.calls);
        case RankSortKey::Max:
            return r.max;
        case RankSortKey::Mean:
            return r.mean;
        case RankSortKey::Name:
            break;
        }
        return 0;
    };
    std::stable_sort(m_rows.begin(), m_rows.end(), [&](const RankRow& a, const RankRow& b) {
        if (key == RankSortKey::Name) {
            const std::string_view x = profile.labelName(a.label);
            const std::string_view y = profile.labelName(b.label);
            if (x != y)
                return descending ? x > y : x < y;
            return descending ? a.label > b.label : a.label < b.label;
        }
        const Time x = value(a);
        const Time y = value(b);
        if (x != y)
            return descending ? x > y : x < y;
        return a.label < b.label;
    });
}

bool RankTable::parseSortKey(std::string_view text, RankSortKey& key)
{
    static constexpr std::pair<std::string_view, RankSortKey> keys[] = {
        {"exec", RankSortKey::Exec}, {"total", RankSortKey::Total}, {"wall", RankSortKey::Wall},
        {"calls", RankSortKey::Calls}, {"max", RankSortKey::Max}, {"mean", RankSortKey::Mean},
        {"name", RankSortKey::Name},
    };
    for (const auto& [name, value] : keys) {
        if (name == text) {
            key = value;
            return true;
        }
    }
    return false;
}

} // namespace runlane
