#include "criticalpathsummary.h"

#include "loaderror.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace runlane {

namespace {

using Kind = CriticalPath::Kind;

bool largerFirst(const CriticalPathSummary::Entry& x, const CriticalPathSummary::Entry& y)
{
    if (x.ns != y.ns)
        return x.ns > y.ns;
    if (x.kind != y.kind)
        return x.kind < y.kind;
    return x.label < y.label;
}

std::uint64_t entryKey(Kind kind, LabelId label)
{
    return (std::uint64_t(kind) << 32) | label;
}

} // namespace

std::vector<MeasurementId> CriticalPathSummary::tasksOf(const Profile& profile, std::span<const LabelId> labels,
                                                        std::optional<TimeRange> range)
{
    std::vector<bool> wanted(profile.labelCount(), false);
    for (const LabelId l : labels)
        if (l < wanted.size())
            wanted[l] = true;
    std::vector<MeasurementId> tasks;
    for (MeasurementId id = 0; id < profile.measurementCount(); ++id) {
        const Measurement& m = profile.measurement(id);
        if (!wanted[m.label] || m.finalState() == FinalState::Unfinished || m.isBornFinished())
            continue;
        // A life overlaps [from, to) when it starts before `to` and ends
        // after `from`; an instant life counts where it lies.
        if (range && !(m.created < range->to && (m.finished > range->from || m.created >= range->from)))
            continue;
        tasks.push_back(id);
    }
    std::stable_sort(tasks.begin(), tasks.end(), [&profile](MeasurementId x, MeasurementId y) {
        return profile.measurement(x).created < profile.measurement(y).created;
    });
    return tasks;
}

std::vector<MeasurementId> CriticalPathSummary::slowest(const Profile& profile, std::vector<MeasurementId> tasks,
                                                        std::size_t count)
{
    auto life = [&profile](MeasurementId id) {
        return profile.measurement(id).finished - profile.measurement(id).created;
    };
    // `tasks` is in creation order: a stable sort keeps the earlier first in a tie.
    std::stable_sort(tasks.begin(), tasks.end(), [&](MeasurementId x, MeasurementId y) { return life(x) > life(y); });
    if (tasks.size() > count)
        tasks.resize(count);
    std::stable_sort(tasks.begin(), tasks.end(), [&profile](MeasurementId x, MeasurementId y) {
        return profile.measurement(x).created < profile.measurement(y).created;
    });
    return tasks;
}

std::vector<CriticalPathSummary::Entry> CriticalPathSummary::breakdownOf(
    const Profile& profile, std::span<const CriticalPath::Segment> segments)
{
    // Sorted by (kind, label) and summed in runs: a path has a few dozen
    // segments, and a map's node per entry cost more than the walk
    // (a saturating sum of durations is the same in any order).
    std::vector<std::pair<std::uint64_t, Time>> keyed;
    keyed.reserve(segments.size());
    for (const auto& s : segments) {
        const LabelId label = s.named == kNone ? kNone : profile.measurement(s.named).label;
        keyed.emplace_back(entryKey(s.kind, label), s.duration());
    }
    std::sort(keyed.begin(), keyed.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<Entry> out;
    for (std::size_t i = 0; i < keyed.size();) {
        Time ns = 0;
        std::size_t j = i;
        for (; j < keyed.size() && keyed[j].first == keyed[i].first; ++j)
            ns = addClamped(ns, keyed[j].second);
        out.push_back({Kind(keyed[i].first >> 32), LabelId(keyed[i].first & 0xffffffffu), ns});
        i = j;
    }
    std::sort(out.begin(), out.end(), largerFirst);
    return out;
}

CriticalPathSummary CriticalPathSummary::compute(const CriticalPath& path, std::vector<MeasurementId> tasks,
                                                 bool keepSegments, const std::atomic<bool>* cancel,
                                                 const std::function<void(std::size_t, std::size_t)>& progress)
{
    const Profile& p = path.profile();
    CriticalPathSummary out;
    out.m_source = path.wakeSource();
    // Sums by (kind, label), kNone last: an array, not a map, since every
    // segment of every task adds to one.
    const std::size_t labelSlots = p.labelCount() + 1;
    std::vector<Time> sums(4 * labelSlots, 0);
    std::vector<bool> used(4 * labelSlots, false);
    auto slot = [labelSlots](Kind kind, LabelId label) {
        return std::size_t(kind) * labelSlots + (label == kNone ? labelSlots - 1 : std::size_t(label));
    };
    std::vector<Time> byTrack(p.trackCount(), 0);
    // The call tree: a node per (parent node, label); a measurement's node
    // is found once by its creation path and remembered.
    std::map<std::pair<std::uint32_t, LabelId>, std::uint32_t> children;
    std::unordered_map<MeasurementId, std::uint32_t> nodeOf;
    auto node = [&](MeasurementId m) {
        // Walk up to the nearest ancestor with a node (or the root), then
        // give the chain its nodes top-down. A creation chain is a tree in a
        // sound file; a cycle a file claims stops where it comes back.
        std::vector<MeasurementId> chain;
        std::unordered_set<MeasurementId> inChain;
        std::uint32_t parent = kNone;
        for (MeasurementId c = m; c != kNone && c < p.measurementCount(); c = p.measurement(c).creator) {
            if (const auto it = nodeOf.find(c); it != nodeOf.end()) {
                parent = it->second;
                break;
            }
            if (!inChain.insert(c).second)
                break;
            chain.push_back(c);
        }
        for (auto c = chain.rbegin(); c != chain.rend(); ++c) {
            const LabelId label = p.measurement(*c).label;
            auto [it, added] = children.try_emplace({parent, label}, std::uint32_t(out.m_tree.size()));
            if (added)
                out.m_tree.push_back({label, parent, 0, 0});
            parent = it->second;
            nodeOf.emplace(*c, parent);
        }
        return parent;
    };
    out.m_tasks.reserve(tasks.size());
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        throwIfCancelled(cancel);
        if (progress && (i & 255) == 0)
            progress(i, tasks.size());
        const MeasurementId id = tasks[i];
        const Measurement& m = p.measurement(id);
        out.m_wall = addClamped(out.m_wall, m.finished - m.created);
        std::vector<CriticalPath::Segment> segments = path.of(id, cancel);
        for (const auto& s : segments) {
            const LabelId label = s.named == kNone ? kNone : p.measurement(s.named).label;
            const std::size_t at = slot(s.kind, label);
            sums[at] = addClamped(sums[at], s.duration());
            used[at] = true;
            byTrack[s.track] = addClamped(byTrack[s.track], s.duration());
            out.m_kindTotals[std::size_t(s.kind)] = addClamped(out.m_kindTotals[std::size_t(s.kind)], s.duration());
            if (s.kind == Kind::Running && s.named != kNone)
            {
                Time& self = out.m_tree[node(s.named)].self;
                self = addClamped(self, s.duration());
            }
        }
        Task task{id, {}, breakdownOf(p, segments)};
        if (keepSegments)
            task.segments = std::move(segments);
        out.m_tasks.push_back(std::move(task));
    }
    if (progress)
        progress(tasks.size(), tasks.size());
    for (std::size_t at = 0; at < sums.size(); ++at)
        if (used[at])
            out.m_breakdown.push_back({Kind(at / labelSlots),
                                       at % labelSlots == labelSlots - 1 ? kNone : LabelId(at % labelSlots), sums[at]});
    std::sort(out.m_breakdown.begin(), out.m_breakdown.end(), largerFirst);
    std::map<std::int64_t, std::size_t> process;
    for (TrackId t = 0; t < byTrack.size(); ++t) {
        if (byTrack[t] == 0)
            continue;
        out.m_byTrack.push_back({t, byTrack[t]});
        const Track& track = p.track(t);
        auto [it, added] = process.try_emplace(track.pid, out.m_byProcess.size());
        if (added)
            out.m_byProcess.push_back({track.pid, track.processName, 0});
        out.m_byProcess[it->second].ns = addClamped(out.m_byProcess[it->second].ns, byTrack[t]);
    }
    auto byNs = [](const auto& x, const auto& y) { return x.ns > y.ns; };
    std::stable_sort(out.m_byTrack.begin(), out.m_byTrack.end(), byNs);
    std::stable_sort(out.m_byProcess.begin(), out.m_byProcess.end(), byNs);
    // Parents come before their children: totals add up from the leaves.
    for (Node& n : out.m_tree)
        n.total = n.self;
    for (std::size_t i = out.m_tree.size(); i-- > 0;)
        if (out.m_tree[i].parent != kNone)
            out.m_tree[out.m_tree[i].parent].total = addClamped(out.m_tree[out.m_tree[i].parent].total, out.m_tree[i].total);
    return out;
}

} // namespace runlane
