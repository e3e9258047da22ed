#include "criticalpath.h"

#include "execsegments.h"
#include "loaderror.h"

#include <algorithm>
#include <unordered_set>

namespace runlane {

std::string_view CriticalPath::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Running:
        return "running";
    case Kind::Queued:
        return "queued";
    case Kind::Idle:
        return "idle";
    case Kind::Waiting:
        return "waiting";
    }
    return "running";
}

std::string_view CriticalPath::wakeSourceName(WakeSource source)
{
    switch (source) {
    case WakeSource::None:
        return "none";
    case WakeSource::Children:
        return "children";
    case WakeSource::Wakes:
        return "wakes";
    case WakeSource::Flows:
        return "flows";
    case WakeSource::Creators:
        return "creators";
    }
    return "none";
}

std::string_view CriticalPath::whyNoWakers(WakeSource source, bool preview)
{
    if (source == WakeSource::None && preview)
        return "flows, wakes and creators are bound when the load ends, so in this preview a pause is waiting, not "
               "the time of whoever ended it";
    if (source == WakeSource::None)
        return "this format records no wakes (no children that wake their parent, no wakers, flows or "
               "creators): a pause is waiting, not the time of whoever ended it";
    return {};
}

CriticalPath::CriticalPath(const Profile& profile, WakeSource source)
    : m_profile(profile)
    , m_source(source)
{
    if (source != WakeSource::Children)
        return;
    const auto& ms = profile.measurements();
    m_childOffsets.assign(ms.size() + 1, 0);
    for (const Measurement& m : ms)
        if (m.creator < ms.size())
            ++m_childOffsets[m.creator + 1];
    for (std::size_t i = 1; i < m_childOffsets.size(); ++i)
        m_childOffsets[i] += m_childOffsets[i - 1];
    m_children.resize(m_childOffsets.back());
    std::vector<std::uint32_t> fill(m_childOffsets.begin(), m_childOffsets.end() - 1);
    for (MeasurementId id = 0; id < ms.size(); ++id)
        if (ms[id].creator < ms.size())
            m_children[fill[ms[id].creator]++] = id;
    for (std::size_t c = 0; c + 1 < m_childOffsets.size(); ++c)
        std::sort(m_children.begin() + m_childOffsets[c], m_children.begin() + m_childOffsets[c + 1],
                  [&ms](MeasurementId x, MeasurementId y) {
                      if (ms[x].finished != ms[y].finished)
                          return ms[x].finished < ms[y].finished;
                      if (ms[x].created != ms[y].created)
                          return ms[x].created < ms[y].created;
                      return x < y;
                  });
}

bool CriticalPath::findWaker(MeasurementId m, Time g0, Time g1, bool first, Waker& waker) const
{
    switch (m_source) {
    case WakeSource::None:
        return false;
    case WakeSource::Children:
        // Before the first run the task was ready from its creation (rule 3).
        return !first && childWaker(m, g0, g1, waker);
    case WakeSource::Wakes:
        // tokio's first poll after the spawn has no wake before it.
        return !first && wakeWaker(m, g0, g1, waker);
    case WakeSource::Flows:
        return flowWaker(m, g0, g1, waker);
    case WakeSource::Creators:
        return first && creatorWaker(m, g0, g1, waker);
    }
    return false;
}

bool CriticalPath::childWaker(MeasurementId m, Time g0, Time g1, Waker& waker) const
{
    const auto& ms = m_profile.measurements();
    const auto begin = m_children.begin() + m_childOffsets[m];
    const auto end = m_children.begin() + m_childOffsets[m + 1];
    // The last child finishing at or before g1; the sort puts the one
    // created last at the end of a tie.
    const auto it = std::partition_point(begin, end, [&](MeasurementId c) { return ms[c].finished <= g1; });
    if (it == begin)
        return false;
    const MeasurementId child = *(it - 1);
    if (ms[child].finished < g0)
        return false;
    waker = {child, ms[child].finished};
    return true;
}

MeasurementId CriticalPath::polledAt(Time t, MeasurementId except) const
{
    MeasurementId found = kNone;
    if (t == kTimeMin)
        return kNone; // no poll begins before it
    for (TrackId track = 0; track < m_profile.trackCount(); ++track) {
        if (m_profile.track(track).depthCount() == 0)
            continue;
        // A poll that has begun and not yet returned: start < t <= end.
        const auto [first, last] = m_profile.overlapping(track, 0, t - 1, t);
        for (IntervalId id = first; id < last; ++id) {
            const Interval& iv = m_profile.interval(id);
            if (iv.start >= t || iv.end < t || iv.measurement == except || iv.measurement == found)
                continue;
            if (found != kNone)
                return kNone; // several: no single waker
            found = iv.measurement;
        }
    }
    return found;
}

bool CriticalPath::wakeWaker(MeasurementId m, Time g0, Time g1, Waker& waker) const
{
    const auto wakes = m_profile.wakesOf(m);
    // As the scheduling delay counts it (SchedulingDelays): the first wake
    // in the gap; one during the poll before it makes the task ready when
    // that poll returns, at g0.
    const auto it = std::partition_point(wakes.begin(), wakes.end(), [g0](const Wake& w) { return w.time < g0; });
    if (it != wakes.begin()) {
        const auto ivs = m_profile.intervalsOf(m);
        const auto prev = std::partition_point(ivs.begin(), ivs.end(),
                                               [&](IntervalId id) { return m_profile.interval(id).start < g0; });
        if (prev != ivs.begin() && (it - 1)->time >= m_profile.interval(*(prev - 1)).start) {
            waker = {kNone, g0};
            return true;
        }
    }
    if (it == wakes.end() || it->time > g1)
        return false;
    waker = {polledAt(it->time, m), it->time};
    return true;
}

bool CriticalPath::flowWaker(MeasurementId m, Time g0, Time g1, Waker& waker) const
{
    // The slice that resumes at g1 and what its incoming flows came from:
    // the source ending last (capped to the gap) woke it.
    const auto ivs = m_profile.intervalsOf(m);
    const auto it = std::partition_point(ivs.begin(), ivs.end(),
                                         [&](IntervalId id) { return m_profile.interval(id).start < g1; });
    if (it == ivs.end() || m_profile.interval(*it).start != g1)
        return false;
    bool found = false;
    for (const std::uint32_t f : m_profile.flowsInto(*it)) {
        const Interval& source = m_profile.interval(m_profile.flows()[f].from);
        if (source.measurement == m)
            continue;
        const Time at = std::clamp(source.end, g0, g1);
        if (!found || at > waker.at) {
            waker = {source.measurement, at};
            found = true;
        }
    }
    return found;
}

bool CriticalPath::creatorWaker(MeasurementId m, Time g0, Time g1, Waker& waker) const
{
    // The execution context at the resource's init: the creator's callback
    // running then; the resource could not run before it returned.
    const Measurement& self = m_profile.measurement(m);
    if (self.creator >= m_profile.measurementCount())
        return false;
    for (const IntervalId id : m_profile.intervalsOf(self.creator)) {
        const Interval& iv = m_profile.interval(id);
        if (iv.start <= self.created && self.created <= iv.end) {
            waker = {self.creator, std::clamp(iv.end, g0, g1)};
            return true;
        }
    }
    return false;
}

// One walk: a stack of frames, each explaining [a, t) of one measurement
// backwards; an emit frame holds a segment to give once the frames above
// it are done. Segments are collected latest first and reversed at the end.
struct CriticalPath::Frame {
    MeasurementId measurement = kNone;
    Time a = 0;
    Time t = 0;
    std::uint32_t depth = 0;
    bool emitOnly = false;
    Segment segment;
};

class CriticalPath::Walk
{
public:
    Walk(const CriticalPath& path, const std::atomic<bool>* cancel)
        : m_path(path)
        , m_profile(path.m_profile)
        , m_cancel(cancel)
    {
    }

    std::vector<Segment> run(MeasurementId m, Time from, Time to)
    {
        m_stack.push_back(Frame{m, from, to, 0, false, {}});
        m_descended.insert(m);
        while (!m_stack.empty()) {
            if (m_cancel && (++m_steps & 1023) == 0 && m_cancel->load(std::memory_order_relaxed))
                throw LoadCancelled();
            Frame& f = m_stack.back();
            if (f.emitOnly) {
                const Segment s = f.segment;
                m_stack.pop_back();
                emit(s);
            } else if (f.t <= f.a) {
                m_stack.pop_back();
            } else {
                step(m_stack.size() - 1);
            }
        }
        std::reverse(m_out.begin(), m_out.end());
        return merged();
    }

private:
    void emit(const Segment& s)
    {
        if (s.start >= s.end)
            return;
        m_out.push_back(s);
        // Time was explained: wakers descended into before may be met again
        // (two tasks waking each other in turn), just not at this instant.
        m_descended.clear();
    }

    Segment segment(Time start, Time end, Kind kind, MeasurementId named, TrackId track, const Frame& f) const
    {
        return Segment{start, end, kind, named, track, f.measurement, f.depth};
    }

    void step(std::size_t index)
    {
        const Frame f = m_stack[index];
        const MeasurementId m = f.measurement;
        const Measurement& self = m_profile.measurement(m);
        const auto ivs = m_profile.intervalsOf(m);
        // Rule 1: running just before t (an interval with start < t <= end).
        const auto it = std::partition_point(ivs.begin(), ivs.end(),
                                             [&](IntervalId id) { return m_profile.interval(id).start < f.t; });
        Time g0 = self.created;
        bool first = true;
        if (it != ivs.begin()) {
            const Interval& iv = m_profile.interval(*(it - 1));
            if (iv.end >= f.t) {
                const Time from = std::max(iv.start, f.a);
                m_stack[index].t = from;
                running(*(it - 1), from, f.t, f);
                return;
            }
            g0 = iv.end;
            first = false;
        } else if (ivs.empty()) {
            // Rule 3: never ran (a timer, an I/O future): waiting, itself.
            m_stack[index].t = f.a;
            emit(segment(f.a, f.t, Kind::Waiting, m, self.track, f));
            return;
        }
        // Rules 2 and 3: t ends a gap [g0, t] (a resume, the finish, or the
        // first run after the creation).
        const Time lo = std::max(g0, f.a);
        m_stack[index].t = lo;
        Waker waker;
        if (!m_path.findWaker(m, g0, f.t, first, waker)) {
            if (first)
                queued(lo, f.t, f); // ready from its creation
            else
                emit(segment(lo, f.t, Kind::Waiting, m, self.track, f));
            return;
        }
        const Time at = std::clamp(waker.at, g0, f.t);
        queued(std::max(at, f.a), f.t, f);
        if (at <= lo)
            return;
        const MeasurementId x = waker.measurement;
        if (x != kNone && x != m && !m_descended.contains(x)) {
            const Time xFrom = std::max(lo, m_profile.measurement(x).created);
            if (xFrom < at) {
                // Before the waker existed the task waited, itself; then the
                // waker's own path explains [xFrom, at).
                m_stack.push_back(Frame{m, 0, 0, f.depth, true, segment(lo, xFrom, Kind::Waiting, m, self.track, f)});
                m_stack.push_back(Frame{x, xFrom, at, f.depth + 1, false, {}});
                m_descended.insert(x);
                return;
            }
        }
        // A wake with no known waker, or one that cannot explain the span.
        emit(segment(lo, at, Kind::Waiting, m, self.track, f));
    }

    // [from, to) inside interval `id` of the path measurement: split by the
    // innermost running measurement (a call inside the task names itself).
    void running(IntervalId id, Time from, Time to, const Frame& f)
    {
        const TrackId track = m_profile.trackOf(id);
        const bool async = m_profile.track(track).kind == TrackKind::Async;
        m_pieces.clear();
        ExecSegments::forEach(m_profile, track, from, to, [&](MeasurementId m, IntervalId iv, Time s, Time e) {
            // On a thread everything running inside the interval nests in
            // it; an async track also runs other tasks at the same time.
            if (async && !within(iv, id))
                return;
            m_pieces.push_back({s, e, m});
        });
        emitCovering(from, to, Kind::Running, m_profile.interval(id).measurement, track, f);
    }

    // [from, to) ready but not running: named after the innermost running
    // measurement of the task's track (the blocker), idle where none ran.
    void queued(Time from, Time to, const Frame& f)
    {
        if (from >= to)
            return;
        const TrackId track = m_profile.measurement(f.measurement).track;
        m_pieces.clear();
        ExecSegments::forEach(m_profile, track, from, to,
                              [&](MeasurementId m, IntervalId, Time s, Time e) { m_pieces.push_back({s, e, m}); });
        emitCovering(from, to, Kind::Queued, kNone, track, f);
    }

    // Emits m_pieces over [from, to), latest first, filling what they leave
    // uncovered with `fill` (idle for queued). Where pieces overlap (tasks
    // running at once on an async track) the one that started first keeps
    // the time.
    void emitCovering(Time from, Time to, Kind kind, MeasurementId fill, TrackId track, const Frame& f)
    {
        std::sort(m_pieces.begin(), m_pieces.end(),
                  [](const Piece& x, const Piece& y) { return x.start != y.start ? x.start < y.start : x.end > y.end; });
        m_ordered.clear();
        Time cursor = from;
        const Kind gapKind = kind == Kind::Queued ? Kind::Idle : kind;
        for (const Piece& p : m_pieces) {
            if (p.end <= cursor)
                continue;
            if (p.start > cursor)
                m_ordered.push_back(segment(cursor, p.start, gapKind, fill, track, f));
            m_ordered.push_back(segment(std::max(p.start, cursor), p.end, kind, p.measurement, track, f));
            cursor = p.end;
        }
        if (cursor < to)
            m_ordered.push_back(segment(cursor, to, gapKind, fill, track, f));
        for (auto s = m_ordered.rbegin(); s != m_ordered.rend(); ++s)
            emit(*s);
    }

    bool within(IntervalId id, IntervalId ancestor) const
    {
        for (IntervalId i = id; i != kNone; i = m_profile.interval(i).parent)
            if (i == ancestor)
                return true;
        return false;
    }

    // Adjacent pieces of one kind, name, track and path measurement are one
    // segment (a task's run split only by a zero-length call).
    std::vector<Segment> merged()
    {
        std::vector<Segment> out;
        out.reserve(m_out.size());
        for (const Segment& s : m_out) {
            if (!out.empty()) {
                Segment& last = out.back();
                if (last.end == s.start && last.kind == s.kind && last.named == s.named && last.track == s.track
                    && last.pathMeasurement == s.pathMeasurement && last.depth == s.depth) {
                    last.end = s.end;
                    continue;
                }
            }
            out.push_back(s);
        }
        return out;
    }

    struct Piece {
        Time start;
        Time end;
        MeasurementId measurement;
    };

    const CriticalPath& m_path;
    const Profile& m_profile;
    const std::atomic<bool>* m_cancel;
    std::vector<Frame> m_stack;
    std::vector<Segment> m_out;
    std::vector<Piece> m_pieces;
    std::vector<Segment> m_ordered;
    std::unordered_set<MeasurementId> m_descended;
    std::uint64_t m_steps = 0;
};

std::vector<CriticalPath::Segment> CriticalPath::of(MeasurementId measurement, const std::atomic<bool>* cancel) const
{
    const Measurement& m = m_profile.measurement(measurement);
    return over(measurement, m.created, m.finished, cancel);
}

std::vector<CriticalPath::Segment> CriticalPath::over(MeasurementId measurement, Time from, Time to,
                                                      const std::atomic<bool>* cancel) const
{
    if (measurement >= m_profile.measurementCount() || from >= to)
        return {};
    return Walk(*this, cancel).run(measurement, from, to);
}

} // namespace runlane
