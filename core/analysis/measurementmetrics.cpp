#include "measurementmetrics.h"

#include "parallel.h"

#include <algorithm>
#include <atomic>
#include <optional>

namespace runlane {

namespace {

// Σ exec of a track (its busy time), adding each measurement's exec to
// `exec` if given: each interval's length less the parts of it its children
// cover. The children of one interval never overlap each other (they share
// a depth), so subtracting each child's part inside its parent is exact.
// A sampled thread's "(idle)" has exec but is not busy time.
Time execOfTrack(const Profile& profile, TrackId t, std::vector<Time>* exec)
{
    const auto intervals = profile.intervals();
    const Track& track = profile.track(t);
    const bool idleLabels = profile.hasIdleLabels();
    auto busyPart = [&](const Interval& iv) { return !idleLabels || !profile.isIdle(profile.labelOf(iv.measurement)); };
    Time busy = 0;
    for (IntervalId id = track.begin; id < track.end; ++id) {
        const Interval& iv = intervals[id];
        const Time length = iv.end - iv.start;
        if (exec)
            (*exec)[iv.measurement] = addClamped((*exec)[iv.measurement], length);
        if (busyPart(iv))
            busy = addClamped(busy, length);
        if (iv.parent != kNone) {
            const Interval& parent = intervals[iv.parent];
            const Time covered = std::max<Time>(0, std::min(iv.end, parent.end) - std::max(iv.start, parent.start));
            if (exec)
                (*exec)[parent.measurement] = addClamped((*exec)[parent.measurement], -covered);
            if (busyPart(parent))
                busy = addClamped(busy, -covered);
        }
    }
    return busy;
}

} // namespace

// The creation tree as one flat array: per measurement its first child,
// its next sibling and its label, so that the walk reads one 12-byte node
// per step rather than a 32-byte Measurement and two index arrays. Built
// in one backward pass (creators come before what they create), which
// leaves every list of children in id order.
struct MeasurementMetrics::CreationForest {
    struct Node {
        MeasurementId firstChild = kNone;
        MeasurementId nextSibling = kNone;
        LabelId label = 0;
    };
    std::vector<Node> nodes;
    std::vector<MeasurementId> roots;
    // The two walks take roots in chunks from here until none are left.
    std::atomic<std::size_t> nextRoot{0};
    static constexpr std::size_t kRootChunk = 64;

    explicit CreationForest(const Profile& profile)
        : nodes(profile.measurementCount())
    {
        for (std::size_t id = nodes.size(); id-- > 0;) {
            const Measurement& m = profile.measurement(MeasurementId(id));
            nodes[id].label = m.label;
            if (m.creator == kNone) {
                roots.push_back(MeasurementId(id));
                continue;
            }
            nodes[id].nextSibling = nodes[m.creator].firstChild;
            nodes[m.creator].firstChild = MeasurementId(id);
        }
    }
};

MeasurementMetrics::MeasurementMetrics(const Profile& profile)
    : m_profile(profile), m_exec(profile.measurementCount(), 0), m_nested(profile.measurementCount(), 0),
      m_busy(profile.trackCount(), 0)
{
    // Item 0, the largest, lays the creation tree out while the tracks'
    // exec is found (a measurement's intervals are all on its track, so
    // tracks in parallel).
    std::optional<CreationForest> forest;
    parallelFor(profile.trackCount() + 1, [&](std::size_t item) {
        if (item == 0)
            forest.emplace(profile);
        else
            m_busy[item - 1] = execOfTrack(profile, TrackId(item - 1), &m_exec);
    });
    // The recursion flags and the totals: two walks sharing the roots.
    m_total.resize(profile.measurementCount());
    parallelFor(2, [&](std::size_t) { walkCreationTree(*forest); });
}

void MeasurementMetrics::findBlockMaxFinished() const
{
    const std::size_t count = m_profile.measurementCount();
    m_blockMaxFinished.assign((count + kBlock - 1) / kBlock, kTimeMin);
    for (std::size_t id = 0; id < count; ++id) {
        Time& block = m_blockMaxFinished[id / kBlock];
        block = std::max(block, m_profile.measurement(MeasurementId(id)).finished);
    }
}

std::vector<MeasurementId> MeasurementMetrics::aliveIn(Time from, Time to) const
{
    std::call_once(m_blocksFound, [this] { findBlockMaxFinished(); });
    const Profile& p = m_profile;
    const auto& all = p.measurements();
    // Ids are in creation order: those created at or after `to` are a suffix.
    const std::size_t upper = std::size_t(
        std::partition_point(all.begin(), all.end(), [to](const Measurement& m) { return m.created < to; }) - all.begin());
    std::vector<MeasurementId> alive;
    for (std::size_t block = 0; block * kBlock < upper; ++block) {
        if (m_blockMaxFinished[block] < from)
            continue; // all of them over before the range
        const std::size_t end = std::min(upper, (block + 1) * kBlock);
        for (std::size_t id = block * kBlock; id < end; ++id) {
            const Measurement& m = all[id];
            const bool in = m.created == m.finished ? m.created >= from : m.finished > from;
            if (in)
                alive.push_back(MeasurementId(id));
        }
    }
    return alive;
}

std::vector<Time> MeasurementMetrics::busyPerTrack(const Profile& profile)
{
    std::vector<Time> busy(profile.trackCount(), 0);
    parallelFor(profile.trackCount(), [&](std::size_t t) { busy[t] = execOfTrack(profile, TrackId(t), nullptr); });
    return busy;
}

void MeasurementMetrics::walkCreationTree(CreationForest& forest)
{
    // Depth first: per label, how many measurements of it are on the
    // current path (recursion); a measurement's total is whole once its
    // last child is done, and goes to its creator's then. The same sums as
    // totalsFrom's backward pass: saturating sums of times that are never
    // negative do not depend on the order.
    const std::vector<CreationForest::Node>& nodes = forest.nodes;
    std::vector<std::uint32_t> onPath(m_profile.labelCount(), 0);
    std::vector<MeasurementId> path;
    auto enter = [&](MeasurementId id, LabelId label) {
        m_nested[id] = onPath[label] > 0 ? 1 : 0;
        ++onPath[label];
        m_total[id] = m_exec[id];
        path.push_back(id);
    };
    for (;;) {
        const std::size_t from = forest.nextRoot.fetch_add(CreationForest::kRootChunk);
        if (from >= forest.roots.size())
            return;
        const std::size_t to = std::min(forest.roots.size(), from + CreationForest::kRootChunk);
        for (std::size_t r = from; r < to; ++r) {
            const MeasurementId root = forest.roots[r];
            enter(root, nodes[root].label);
            MeasurementId next = nodes[root].firstChild;
            while (!path.empty()) {
                if (next != kNone) {
                    enter(next, nodes[next].label);
                    next = nodes[next].firstChild;
                    continue;
                }
                const MeasurementId done = path.back();
                path.pop_back();
                --onPath[nodes[done].label];
                if (path.empty())
                    break; // a root's siblings are other roots: not its to walk
                m_total[path.back()] = addClamped(m_total[path.back()], m_total[done]);
                next = nodes[done].nextSibling;
            }
        }
    }
}

Time MeasurementMetrics::wall(MeasurementId id) const
{
    const Measurement& m = m_profile.measurement(id);
    return m.finished - m.created;
}

std::vector<Time> MeasurementMetrics::totalsFrom(const Profile& profile, const std::vector<Time>& exec)
{
    // Measurements are numbered creators first (ProfileBuilder guarantees
    // creator < id), so one backward pass adds every subtree to its creator.
    std::vector<Time> total = exec;
    for (std::size_t id = profile.measurementCount(); id-- > 0;) {
        const MeasurementId creator = profile.measurement(MeasurementId(id)).creator;
        if (creator != kNone)
            total[creator] = addClamped(total[creator], total[id]);
    }
    return total;
}

} // namespace runlane
