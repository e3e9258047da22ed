#include "measurementmetrics.h"

#include "parallel.h"

#include <algorithm>

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
    auto busyPart = [&](const Interval& iv) { return !idleLabels || !profile.isIdle(profile.measurement(iv.measurement).label); };
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

MeasurementMetrics::MeasurementMetrics(const Profile& profile)
    : m_profile(profile), m_exec(profile.measurementCount(), 0), m_busy(profile.trackCount(), 0)
{
    // The recursion flags need no exec time: they are found while the
    // tracks' exec is (item 0 first, the largest, then the tracks; a
    // measurement's intervals are all on its track, so tracks in parallel).
    parallelFor(profile.trackCount() + 1, [&](std::size_t item) {
        if (item == 0)
            findNested();
        else
            m_busy[item - 1] = execOfTrack(profile, TrackId(item - 1), &m_exec);
    });
    // Neither of these depends on the other.
    parallelFor(2, [&](std::size_t part) {
        if (part == 0)
            m_total = totalsFrom(profile, m_exec);
        else
            findBlockMaxFinished();
    });
}

void MeasurementMetrics::findBlockMaxFinished()
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

void MeasurementMetrics::findNested()
{
    const Profile& profile = m_profile;
    // Recursion: walk the creation tree depth first, counting per label how
    // many measurements of that label are on the current path.
    const std::size_t count = profile.measurementCount();
    m_nested.assign(count, false);
    std::vector<std::uint32_t> childStart(count + 1, 0);
    for (const Measurement& m : profile.measurements()) {
        if (m.creator != kNone)
            ++childStart[m.creator + 1];
    }
    for (std::size_t i = 0; i < count; ++i)
        childStart[i + 1] += childStart[i];
    std::vector<MeasurementId> children(childStart.back());
    {
        std::vector<std::uint32_t> cursor(childStart.begin(), childStart.end() - 1);
        for (MeasurementId id = 0; id < count; ++id) {
            const MeasurementId creator = profile.measurement(id).creator;
            if (creator != kNone)
                children[cursor[creator]++] = id;
        }
    }
    std::vector<std::uint32_t> onPath(profile.labelCount(), 0);
    struct Frame {
        MeasurementId id;
        std::uint32_t next; // index of the next child to visit
    };
    std::vector<Frame> stack;
    for (MeasurementId root = 0; root < count; ++root) {
        if (profile.measurement(root).creator != kNone)
            continue;
        stack.push_back(Frame{root, childStart[root]});
        ++onPath[profile.measurement(root).label];
        while (!stack.empty()) {
            Frame& top = stack.back();
            if (top.next == childStart[top.id + 1]) {
                --onPath[profile.measurement(top.id).label];
                stack.pop_back();
                continue;
            }
            const MeasurementId child = children[top.next++];
            const LabelId label = profile.measurement(child).label;
            m_nested[child] = onPath[label] > 0;
            ++onPath[label];
            stack.push_back(Frame{child, childStart[child]});
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
