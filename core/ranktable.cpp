#include "ranktable.h"

#include "execsegments.h"

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

RankTable RankTable::compute(const MeasurementMetrics& metrics, std::optional<TimeRange> range)
{
    const Profile& profile = metrics.profile();
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
        clippedTotal = MeasurementMetrics::totalsFrom(profile, clippedExec);
    }
    auto execOf = [&](MeasurementId id) { return range ? clippedExec[id] : metrics.exec(id); };
    auto totalOf = [&](MeasurementId id) { return range ? clippedTotal[id] : metrics.total(id); };
    auto inRange = [&](const Measurement& m) {
        if (!range)
            return true;
        if (m.created == m.finished)
            return range->contains(m.created);
        return m.created < range->to && m.finished > range->from;
    };

    std::vector<RankRow> rows(profile.labelCount());
    std::vector<std::uint32_t> sampleStart(profile.labelCount() + 1, 0);
    std::vector<Time> walls(count, 0);
    std::vector<std::uint8_t> sampled(count, 0);
    for (MeasurementId id = 0; id < count; ++id) {
        const Measurement& m = profile.measurement(id);
        if (!inRange(m))
            continue;
        RankRow& row = rows[m.label];
        const bool ran = !profile.intervalsOf(id).empty();
        if (m.finalState() == FinalState::Unfinished) {
            ++row.unfinished;
        } else {
            ++row.calls;
            if (!ran)
                ++row.stillborn;
        }
        row.exec += execOf(id);
        if (!metrics.nestedInSameLabel(id))
            row.total += totalOf(id);
        walls[id] = range ? overlap(m.created, m.finished, *range) : m.finished - m.created;
        row.wall += walls[id];
        const bool stillborn = !ran && m.finalState() != FinalState::Unfinished;
        if (!stillborn) {
            sampled[id] = 1;
            ++sampleStart[m.label + 1];
        }
    }

    // Per-call distributions: values grouped by label (counting sort).
    for (std::size_t l = 0; l < rows.size(); ++l)
        sampleStart[l + 1] += sampleStart[l];
    std::vector<Time> execSamples(sampleStart.back());
    std::vector<Time> wallSamples(sampleStart.back());
    {
        std::vector<std::uint32_t> cursor(sampleStart.begin(), sampleStart.end() - 1);
        for (MeasurementId id = 0; id < count; ++id) {
            if (!sampled[id])
                continue;
            const std::uint32_t at = cursor[profile.measurement(id).label]++;
            execSamples[at] = execOf(id);
            wallSamples[at] = walls[id];
        }
    }

    for (LabelId l = 0; l < rows.size(); ++l) {
        RankRow& row = rows[l];
        if (row.calls + row.unfinished == 0)
            continue;
        row.label = l;
        Time* execs = execSamples.data() + sampleStart[l];
        Time* wallValues = wallSamples.data() + sampleStart[l];
        const std::size_t n = sampleStart[l + 1] - sampleStart[l];
        if (n > 0) {
            std::sort(execs, execs + n);
            std::sort(wallValues, wallValues + n);
            row.max = execs[n - 1];
            Time sum = 0;
            for (std::size_t k = 0; k < n; ++k)
                sum += execs[k];
            row.mean = sum / Time(n);
            row.p50 = percentile(execs, n, 0.50);
            row.p90 = percentile(execs, n, 0.90);
            row.p99 = percentile(execs, n, 0.99);
            row.wallMax = wallValues[n - 1];
            row.wallP50 = percentile(wallValues, n, 0.50);
            row.wallP90 = percentile(wallValues, n, 0.90);
            row.wallP99 = percentile(wallValues, n, 0.99);
        }
        table.m_busy += row.exec;
        table.m_rows.push_back(row);
    }
    for (RankRow& row : table.m_rows)
        row.busyShare = table.m_busy > 0 ? double(row.exec) / double(table.m_busy) : 0.0;
    table.sort(profile, RankSortKey::Exec);
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
