#include "perfettotracklayout.h"

#include "profile.h"

#include <algorithm>
#include <map>
#include <set>

namespace runlane {

PerfettoTrackLayout::PerfettoTrackLayout(const Profile& profile) : m_profile(profile)
{
    m_trackUuid.assign(profile.trackCount(), 0);
    m_measurementUuid.assign(profile.measurementCount(), 0);
    // A thread is (pid, tid) in a trace: a second Thread or Samples track
    // with the same pair is written under a tid of its own.
    std::set<std::pair<std::int64_t, std::int64_t>> used;
    std::int64_t highest = 0;
    for (const Track& t : profile.tracks())
        highest = std::max(highest, t.tid);
    for (TrackId t = 0; t < profile.trackCount(); ++t) {
        const Track& track = profile.track(t);
        if (track.kind == TrackKind::Async) {
            asyncTrack(t);
            continue;
        }
        std::int64_t tid = track.tid;
        if (!used.insert({track.pid, tid}).second && highest < INT64_MAX) {
            tid = ++highest;
            used.insert({track.pid, tid});
        }
        threadTrack(t, tid);
    }
    marksAndCounters();
    createdAndWakes();
    std::stable_sort(m_events.begin(), m_events.end(), [](const Event& a, const Event& b) { return a.time < b.time; });
}

bool PerfettoTrackLayout::isOpen(IntervalId id) const
{
    const Interval& iv = m_profile.interval(id);
    const Measurement& m = m_profile.measurement(iv.measurement);
    if (m.finalState() != FinalState::Unfinished || iv.end != m_profile.endTime() || m.finished != m_profile.endTime())
        return false;
    const auto ivs = m_profile.intervalsOf(iv.measurement);
    return !ivs.empty() && ivs.back() == id;
}

std::uint64_t PerfettoTrackLayout::addTrack(TrackOut track)
{
    track.uuid = m_tracks.size() + 1;
    m_tracks.push_back(std::move(track));
    return m_tracks.back().uuid;
}

std::uint64_t PerfettoTrackLayout::processTrack(std::int64_t pid)
{
    for (const auto& [known, uuid] : m_processes) {
        if (known == pid)
            return uuid;
    }
    TrackOut process;
    process.kind = Kind::Process;
    process.pid = pid;
    for (const Track& t : m_profile.tracks()) {
        if (t.pid == pid && t.processName != kEmptyString) {
            process.name = m_profile.string(t.processName);
            break;
        }
    }
    const std::uint64_t uuid = addTrack(std::move(process));
    m_processes.emplace_back(pid, uuid);
    return uuid;
}

void PerfettoTrackLayout::childrenOf(TrackId t)
{
    const Track& track = m_profile.track(t);
    const std::size_t n = track.end - track.begin;
    m_trackBegin = track.begin;
    m_childBegin.assign(n + 1, 0);
    for (IntervalId id = track.begin; id < track.end; ++id) {
        if (const IntervalId parent = m_profile.interval(id).parent; parent != kNone)
            ++m_childBegin[parent - track.begin + 1];
    }
    for (std::size_t i = 0; i < n; ++i)
        m_childBegin[i + 1] += m_childBegin[i];
    m_children.assign(m_childBegin.back(), kNone);
    std::vector<std::uint32_t> filled(m_childBegin.begin(), m_childBegin.end() - 1);
    for (IntervalId id = track.begin; id < track.end; ++id) {
        if (const IntervalId parent = m_profile.interval(id).parent; parent != kNone)
            m_children[filled[parent - track.begin]++] = id;
    }
    // Siblings by start, then end: a zero-length one first.
    const auto byStart = [this](IntervalId a, IntervalId b) {
        const Interval& x = m_profile.interval(a);
        const Interval& y = m_profile.interval(b);
        return x.start != y.start ? x.start < y.start : x.end != y.end ? x.end < y.end : a < b;
    };
    for (std::size_t i = 0; i < n; ++i) {
        if (m_childBegin[i + 1] - m_childBegin[i] > 1)
            std::sort(m_children.begin() + m_childBegin[i], m_children.begin() + m_childBegin[i + 1], byStart);
    }
}

void PerfettoTrackLayout::walk(const std::vector<IntervalId>& roots, std::uint64_t uuid)
{
    struct Frame {
        IntervalId id;
        std::uint32_t next;
    };
    std::vector<Frame> stack;
    const auto beginOf = [&](IntervalId id) {
        m_events.push_back(Event{m_profile.interval(id).start, uuid, id, 0, EventKind::Begin});
        if (std::uint64_t& first = m_measurementUuid[m_profile.interval(id).measurement]; first == 0)
            first = uuid;
        stack.push_back(Frame{id, m_childBegin[id - m_trackBegin]});
    };
    for (const IntervalId root : roots) {
        beginOf(root);
        while (!stack.empty()) {
            Frame& top = stack.back();
            if (top.next < m_childBegin[top.id - m_trackBegin + 1]) {
                const IntervalId child = m_children[top.next++];
                beginOf(child);
                continue;
            }
            if (!isOpen(top.id))
                m_events.push_back(Event{m_profile.interval(top.id).end, uuid, top.id, 0, EventKind::End});
            stack.pop_back();
        }
    }
}

void PerfettoTrackLayout::threadTrack(TrackId t, std::int64_t tid)
{
    const Track& track = m_profile.track(t);
    TrackOut thread;
    thread.kind = Kind::Thread;
    thread.pid = track.pid;
    thread.tid = tid;
    thread.parent = processTrack(track.pid);
    // A moved thread is named after the one it was, a sampled one says so
    // (Perfetto shows the process's name before it, as Runlane does).
    thread.name = m_profile.string(track.threadName);
    // A reader that names its track as a whole (Chronos' event loop) gives
    // no thread name: that name is the thread's, or Perfetto and the read
    // back call it by its tid alone. Not when it is the process's name
    // (Enso's "Ide"): the process says it already.
    if (thread.name.empty() && track.displayName != kEmptyString && track.displayName != track.processName)
        thread.name = m_profile.string(track.displayName);
    if (tid != track.tid || track.kind == TrackKind::Samples) {
        if (thread.name.empty())
            thread.name = track.displayName != kEmptyString ? std::string(m_profile.string(track.displayName))
                                                            : "tid " + std::to_string(track.tid);
        if (track.kind == TrackKind::Samples && !thread.name.ends_with(" (samples)"))
            thread.name += " (samples)";
    }
    m_trackUuid[t] = addTrack(std::move(thread));
    childrenOf(t);
    std::vector<IntervalId> roots;
    for (IntervalId id = track.begin; id < track.end; ++id) {
        if (m_profile.interval(id).parent == kNone)
            roots.push_back(id);
    }
    walk(roots, m_trackUuid[t]);
}

void PerfettoTrackLayout::asyncTrack(TrackId t)
{
    const Track& track = m_profile.track(t);
    childrenOf(t);
    // The outermost intervals by their measurement (a task's intervals, or
    // a slice alone), groups in the order they start.
    std::map<MeasurementId, std::vector<IntervalId>> byMeasurement;
    for (IntervalId id = track.begin; id < track.end; ++id) {
        if (m_profile.interval(id).parent == kNone)
            byMeasurement[m_profile.interval(id).measurement].push_back(id);
    }
    struct Group {
        Time start;
        Time end;
        const std::vector<IntervalId>* roots;
    };
    std::vector<Group> groups;
    for (auto& [m, roots] : byMeasurement) {
        std::sort(roots.begin(), roots.end(), [this](IntervalId a, IntervalId b) {
            return m_profile.interval(a).start < m_profile.interval(b).start;
        });
        Time end = kTimeMin;
        for (const IntervalId id : roots)
            end = std::max(end, isOpen(id) ? kTimeMax : m_profile.interval(id).end);
        groups.push_back(Group{m_profile.interval(roots.front()).start, end, &roots});
    }
    std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.start < b.start; });
    std::vector<Time> laneEnd;
    std::vector<std::vector<IntervalId>> laneRoots;
    for (const Group& g : groups) {
        std::size_t lane = 0;
        while (lane < laneEnd.size() && laneEnd[lane] > g.start)
            ++lane;
        if (lane == laneEnd.size()) {
            laneEnd.push_back(kTimeMin);
            laneRoots.emplace_back();
        }
        laneEnd[lane] = g.end;
        laneRoots[lane].insert(laneRoots[lane].end(), g.roots->begin(), g.roots->end());
    }
    for (const std::vector<IntervalId>& roots : laneRoots) {
        const std::uint64_t uuid = addLane(t);
        if (m_trackUuid[t] == 0)
            m_trackUuid[t] = uuid;
        walk(roots, uuid);
    }
}

std::uint64_t PerfettoTrackLayout::addLane(TrackId t)
{
    const Track& track = m_profile.track(t);
    TrackOut lane;
    lane.kind = Kind::Async;
    lane.pid = track.pid;
    lane.parent = processTrack(track.pid);
    lane.name = m_profile.string(track.name);
    lane.mergeKey = "runlane track " + std::to_string(t);
    return addTrack(std::move(lane));
}

std::uint64_t PerfettoTrackLayout::emptyLane(TrackId t)
{
    if (m_trackUuid[t] == 0)
        m_trackUuid[t] = addLane(t);
    return m_trackUuid[t];
}

std::uint64_t PerfettoTrackLayout::trackOf(MeasurementId m)
{
    return m_measurementUuid[m] != 0 ? m_measurementUuid[m] : emptyLane(m_profile.measurement(m).track);
}

void PerfettoTrackLayout::createdAndWakes()
{
    for (MeasurementId m = 0; m < m_profile.measurementCount(); ++m) {
        if (m_profile.intervalsOf(m).empty())
            m_events.push_back(Event{m_profile.measurement(m).created, trackOf(m), m, 0, EventKind::Created});
    }
    const std::vector<Wake>& wakes = m_profile.wakes();
    for (std::uint32_t i = 0; i < wakes.size(); ++i)
        m_events.push_back(Event{wakes[i].time, trackOf(wakes[i].task), i, 0, EventKind::Wake});
}

void PerfettoTrackLayout::marksAndCounters()
{
    const std::vector<Mark>& marks = m_profile.marks();
    for (std::uint32_t i = 0; i < marks.size(); ++i) {
        const Mark& mark = marks[i];
        std::uint64_t uuid = 0;
        if (mark.track != kNone) {
            uuid = emptyLane(mark.track);
        } else if (mark.scope == MarkScope::Global) {
            if (m_globalUuid == 0) {
                TrackOut global;
                global.kind = Kind::Global;
                global.name = "global marks";
                m_globalUuid = addTrack(std::move(global));
            }
            uuid = m_globalUuid;
        } else {
            uuid = processTrack(mark.pid);
        }
        m_events.push_back(Event{mark.time, uuid, i, 0, EventKind::Instant});
    }
    const std::vector<CounterSeries>& counters = m_profile.counters();
    for (std::uint32_t c = 0; c < counters.size(); ++c) {
        const CounterSeries& series = counters[c];
        TrackOut counter;
        counter.kind = Kind::Counter;
        counter.pid = series.pid;
        counter.parent = processTrack(series.pid);
        // One name: Runlane shows a series as "name key".
        counter.name = m_profile.string(series.name);
        if (series.key != kEmptyString) {
            counter.name += ' ';
            counter.name += m_profile.string(series.key);
        }
        counter.counter = c;
        const std::uint64_t uuid = addTrack(std::move(counter));
        for (std::uint32_t i = 0; i < series.times.size(); ++i)
            m_events.push_back(Event{series.times[i], uuid, c, i, EventKind::Counter});
    }
}

} // namespace runlane
