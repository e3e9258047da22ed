#pragma once

// The rank of a range computed the slow, obvious way, straight from the
// definitions of semantics.md §3-§5, to hold RankTable::compute to. It shares
// nothing with the core's analyses but the loaded model: exec from each
// interval less the union of its children, time with children by walking
// every creator chain, percentiles by sorting.

#include "profile.h"
#include "ranktable.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace runlane::test {

inline Time clipTo(Time a, Time b, Time from, Time to)
{
    return std::max<Time>(0, std::min(b, to) - std::max(a, from));
}

inline Time nearestRank(std::vector<Time> values, double q)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const std::size_t rank = std::clamp<std::size_t>(std::size_t(std::ceil(q * double(values.size()))), 1, values.size());
    return values[rank - 1];
}

// Rows by label, for [from, to); a range that holds the whole profile gives
// the rank of the whole profile.
inline std::map<LabelId, RankRow> bruteForceRank(const Profile& p, Time from, Time to)
{
    // Exec: the part of each interval inside the range less the union of the
    // parts of its children (the intervals nested in it) inside the range.
    const auto intervals = p.intervals();
    std::vector<std::vector<std::pair<Time, Time>>> children(intervals.size());
    for (const Interval& iv : intervals) {
        if (iv.parent != kNone)
            children[iv.parent].push_back({std::max(iv.start, from), std::min(iv.end, to)});
    }
    std::vector<Time> exec(p.measurementCount(), 0);
    for (std::size_t id = 0; id < intervals.size(); ++id) {
        const Interval& iv = intervals[id];
        Time own = clipTo(iv.start, iv.end, from, to);
        auto& kids = children[id];
        std::sort(kids.begin(), kids.end());
        Time reached = kTimeMin;
        for (auto [s, e] : kids) {
            s = std::max({s, reached, iv.start});
            e = std::min(e, iv.end);
            if (e > s) {
                own -= e - s;
                reached = e;
            }
        }
        exec[iv.measurement] += own;
    }

    std::map<LabelId, RankRow> rows;
    // Time with children: each measurement's clipped exec goes to every
    // label on its creator chain (itself included), once per label, wherever
    // the measurements on the chain lived.
    for (MeasurementId id = 0; id < p.measurementCount(); ++id) {
        if (exec[id] == 0)
            continue;
        std::vector<LabelId> labels;
        for (MeasurementId m = id; m != kNone; m = p.measurement(m).creator)
            labels.push_back(p.measurement(m).label);
        std::sort(labels.begin(), labels.end());
        labels.erase(std::unique(labels.begin(), labels.end()), labels.end());
        for (const LabelId label : labels)
            rows[label].total += exec[id];
    }

    // Everything else: over the measurements whose lifetime [created,
    // finished) overlaps the range (one of no length: lies in it).
    std::map<LabelId, std::pair<std::vector<Time>, std::vector<Time>>> samples;
    for (MeasurementId id = 0; id < p.measurementCount(); ++id) {
        const Measurement& m = p.measurement(id);
        const bool alive = m.created == m.finished ? m.created >= from && m.created < to
                                                   : m.created < to && m.finished > from;
        if (!alive)
            continue;
        RankRow& row = rows[m.label];
        const bool ran = !p.intervalsOf(id).empty();
        if (m.finalState() == FinalState::Unfinished) {
            ++row.unfinished;
        } else {
            ++row.calls;
            row.stillborn += m.isBornFinished() ? 1 : 0;
            row.primitive += !m.isBornFinished() && !ran ? 1 : 0;
        }
        row.failed += m.finalState() == FinalState::Failed ? 1 : 0;
        row.cancelled += m.finalState() == FinalState::Cancelled ? 1 : 0;
        row.exec += exec[id];
        const Time wall = clipTo(m.created, m.finished, from, to);
        row.wall += wall;
        if (ran)
            samples[m.label].first.push_back(exec[id]);
        if (!m.isBornFinished())
            samples[m.label].second.push_back(wall);
    }
    for (auto& [label, row] : rows) {
        row.label = label;
        const auto& [execs, walls] = samples[label];
        Time sum = 0;
        for (const Time e : execs)
            sum += e;
        row.mean = execs.empty() ? 0 : sum / Time(execs.size());
        row.max = execs.empty() ? 0 : *std::max_element(execs.begin(), execs.end());
        row.p50 = nearestRank(execs, 0.5);
        row.p90 = nearestRank(execs, 0.9);
        row.p99 = nearestRank(execs, 0.99);
        row.wallMax = walls.empty() ? 0 : *std::max_element(walls.begin(), walls.end());
        row.wallP50 = nearestRank(walls, 0.5);
        row.wallP90 = nearestRank(walls, 0.9);
        row.wallP99 = nearestRank(walls, 0.99);
    }
    return rows;
}

// The first difference between a computed table and the expected rows, as
// "label: field computed, expected"; empty when they agree in every field.
// Also checks the one inequality of semantics.md §5: total is never below exec.
inline std::string rankDifference(const Profile& p, const RankTable& table, const std::map<LabelId, RankRow>& expected)
{
    if (table.rows().size() != expected.size())
        return std::to_string(table.rows().size()) + " rows, expected " + std::to_string(expected.size());
    for (const RankRow& row : table.rows()) {
        const std::string name = p.labelText(row.label);
        if (row.total < row.exec)
            return name + ": total " + std::to_string(row.total) + " below exec " + std::to_string(row.exec);
        const auto it = expected.find(row.label);
        if (it == expected.end())
            return name + ": not expected";
        const RankRow& want = it->second;
        const std::pair<const char*, std::pair<std::uint64_t, std::uint64_t>> counts[] = {
            {"calls", {row.calls, want.calls}},           {"unfinished", {row.unfinished, want.unfinished}},
            {"stillborn", {row.stillborn, want.stillborn}}, {"primitive", {row.primitive, want.primitive}},
            {"failed", {row.failed, want.failed}},         {"cancelled", {row.cancelled, want.cancelled}},
        };
        for (const auto& [field, values] : counts) {
            if (values.first != values.second)
                return name + ": " + field + " " + std::to_string(values.first) + ", expected "
                    + std::to_string(values.second);
        }
        const std::pair<const char*, std::pair<Time, Time>> times[] = {
            {"exec", {row.exec, want.exec}},          {"total", {row.total, want.total}},
            {"wall", {row.wall, want.wall}},          {"max", {row.max, want.max}},
            {"mean", {row.mean, want.mean}},          {"p50", {row.p50, want.p50}},
            {"p90", {row.p90, want.p90}},             {"p99", {row.p99, want.p99}},
            {"wallMax", {row.wallMax, want.wallMax}}, {"wallP50", {row.wallP50, want.wallP50}},
            {"wallP90", {row.wallP90, want.wallP90}}, {"wallP99", {row.wallP99, want.wallP99}},
        };
        for (const auto& [field, values] : times) {
            if (values.first != values.second)
                return name + ": " + field + " " + std::to_string(values.first) + ", expected "
                    + std::to_string(values.second);
        }
    }
    return {};
}

} // namespace runlane::test
