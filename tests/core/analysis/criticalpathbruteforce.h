#pragma once

// What semantics.md §9 says, written from the text alone and as plainly as
// possible, for the critical path's property tests: every search a scan of
// the whole profile, recursion where §9 recurses. Time is cut at every
// instant the profile names (starts, ends, creations, finishes, wakes):
// between two of them nothing the walk looks at changes, so a path is a
// map from each such piece's start to what explains it.

#include "criticalpath.h"
#include "testsupport.h"

#include <QtTest>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace runlane::test {

struct Tick {
    CriticalPath::Kind kind = CriticalPath::Kind::Running;
    MeasurementId named = kNone;
    MeasurementId path = kNone;
    friend bool operator==(const Tick&, const Tick&) = default;
};

struct Span {
    Time start = 0;
    Time end = 0;
    Tick tick;
    friend bool operator==(const Span&, const Span&) = default;
};

class BruteForce
{
public:
    using Kind = CriticalPath::Kind;
    using Source = CriticalPath::WakeSource;

    BruteForce(const Profile& p, Source source) : m_p(p), m_source(source)
    {
        std::set<Time> cuts;
        for (IntervalId id = 0; id < p.intervalCount(); ++id) {
            cuts.insert(p.interval(id).start);
            cuts.insert(p.interval(id).end);
        }
        for (MeasurementId m = 0; m < p.measurementCount(); ++m) {
            cuts.insert(p.measurement(m).created);
            cuts.insert(p.measurement(m).finished);
        }
        for (const Wake& w : p.wakes())
            cuts.insert(w.time);
        m_cuts.assign(cuts.begin(), cuts.end());
    }

    // The path of `m` over its life: piece start -> what explains it.
    std::map<Time, Tick> of(MeasurementId m)
    {
        m_out.clear();
        walk(m, m_p.measurement(m).created, m_p.measurement(m).finished);
        return m_out;
    }

    // of() as segments: neighbouring pieces that say the same are one.
    std::vector<Span> spans(MeasurementId m)
    {
        const std::map<Time, Tick> pieces = of(m);
        std::vector<Span> out;
        for (auto it = pieces.begin(); it != pieces.end(); ++it) {
            const auto next = std::next(it);
            const Time end = next == pieces.end() ? m_p.measurement(m).finished : next->first;
            if (!out.empty() && out.back().end == it->first && out.back().tick == it->second)
                out.back().end = end;
            else
                out.push_back({it->first, end, it->second});
        }
        return out;
    }

private:
    template<typename F>
    void forPieces(Time from, Time to, F&& f) const
    {
        for (auto it = std::lower_bound(m_cuts.begin(), m_cuts.end(), from); it != m_cuts.end() && *it < to; ++it)
            f(*it);
    }

    // The deepest interval of `track` running over the piece at x.
    MeasurementId innermost(TrackId track, Time x) const
    {
        MeasurementId found = kNone;
        int depth = -1;
        for (IntervalId id = 0; id < m_p.intervalCount(); ++id) {
            const Interval& iv = m_p.interval(id);
            if (m_p.trackOf(id) == track && iv.start <= x && x < iv.end && m_p.depthOf(id) > depth) {
                depth = m_p.depthOf(id);
                found = iv.measurement;
            }
        }
        return found;
    }

    void set(Time from, Time to, Kind kind, MeasurementId named, MeasurementId path)
    {
        forPieces(from, to, [&](Time x) { m_out[x] = {kind, named, path}; });
    }

    void queued(Time from, Time to, MeasurementId m)
    {
        const TrackId track = m_p.measurement(m).track;
        forPieces(from, to, [&](Time x) {
            const MeasurementId blocker = innermost(track, x);
            m_out[x] = {blocker == kNone ? Kind::Idle : Kind::Queued, blocker, m};
        });
    }

    // The waker of m's gap [g0, t] and when it woke it; false: none known.
    // `first`: the time before m's first run (g0 = created).
    bool waker(MeasurementId m, Time g0, Time t, bool first, MeasurementId& x, Time& w) const
    {
        switch (m_source) {
        case Source::None:
            return false;
        case Source::Children: {
            // The child finishing latest in the gap (ties: created last).
            if (first)
                return false;
            x = kNone;
            for (MeasurementId c = 0; c < m_p.measurementCount(); ++c) {
                const Measurement& child = m_p.measurement(c);
                if (child.creator != m || child.finished < g0 || child.finished > t)
                    continue;
                if (x == kNone) {
                    x = c;
                    continue;
                }
                const Measurement& best = m_p.measurement(x);
                if (std::tie(child.finished, child.created, c) > std::tie(best.finished, best.created, x))
                    x = c;
            }
            if (x == kNone)
                return false;
            w = m_p.measurement(x).finished;
            return true;
        }
        case Source::Wakes: {
            // tokio: the first wake in the gap, as the scheduling delay counts
            // it (one during the poll before the gap makes m ready at g0);
            // its waker is the one task being polled then.
            if (first)
                return false;
            Time pollStart = kTimeMin;
            for (const IntervalId id : m_p.intervalsOf(m))
                if (m_p.interval(id).start < g0)
                    pollStart = std::max(pollStart, m_p.interval(id).start);
            for (const Wake& wake : m_p.wakes())
                if (wake.task == m && wake.time >= pollStart && wake.time < g0) {
                    x = kNone;
                    w = g0;
                    return true;
                }
            bool found = false;
            for (const Wake& wake : m_p.wakes())
                if (wake.task == m && wake.time >= g0 && wake.time <= t && (!found || wake.time < w)) {
                    w = wake.time;
                    found = true;
                }
            if (!found)
                return false;
            std::set<MeasurementId> polled;
            for (IntervalId id = 0; id < m_p.intervalCount(); ++id) {
                const Interval& iv = m_p.interval(id);
                if (iv.measurement != m && iv.start < w && w <= iv.end)
                    polled.insert(iv.measurement);
            }
            x = polled.size() == 1 ? *polled.begin() : kNone;
            return true;
        }
        case Source::Flows: {
            // The slice resuming at t: the source of an incoming flow, at
            // the source's end capped to the gap; the latest such.
            IntervalId resume = kNone;
            for (const IntervalId id : m_p.intervalsOf(m))
                if (m_p.interval(id).start == t && resume == kNone)
                    resume = id;
            bool found = false;
            for (const Flow& f : m_p.flows()) {
                if (resume == kNone || f.to != resume || m_p.interval(f.from).measurement == m)
                    continue;
                const Time at = std::clamp(m_p.interval(f.from).end, g0, t);
                if (!found || at > w) {
                    x = m_p.interval(f.from).measurement;
                    w = at;
                    found = true;
                }
            }
            return found;
        }
        case Source::Creators: {
            // Before its first callback: the creator, running at m's init.
            const Measurement& self = m_p.measurement(m);
            if (!first || self.creator >= m_p.measurementCount())
                return false;
            for (const IntervalId id : m_p.intervalsOf(self.creator)) {
                const Interval& iv = m_p.interval(id);
                if (iv.start <= self.created && self.created <= iv.end) {
                    x = self.creator;
                    w = std::clamp(iv.end, g0, t);
                    return true;
                }
            }
            return false;
        }
        }
        return false;
    }

    void walk(MeasurementId m, Time a, Time b)
    {
        const Measurement& self = m_p.measurement(m);
        const auto ivs = m_p.intervalsOf(m);
        Time t = b;
        while (t > a) {
            // Rule 1: m running just before t.
            bool ran = false;
            for (const IntervalId id : ivs) {
                const Interval& iv = m_p.interval(id);
                if (iv.start < t && t <= iv.end) {
                    forPieces(std::max(iv.start, a), t,
                              [&](Time x) { m_out[x] = {Kind::Running, innermost(self.track, x), m}; });
                    t = std::max(iv.start, a);
                    ran = true;
                    break;
                }
            }
            if (ran)
                continue;
            // Rule 3: never ran at all: waiting, itself.
            if (ivs.empty()) {
                set(a, t, Kind::Waiting, m, m);
                return;
            }
            // Rule 2: t ends a gap that starts at the previous run's end
            // (rule 3: at the creation, before the first run).
            Time g0 = kTimeMin;
            for (const IntervalId id : ivs)
                if (m_p.interval(id).start < t)
                    g0 = std::max(g0, m_p.interval(id).end);
            const bool first = g0 == kTimeMin;
            if (first)
                g0 = self.created;
            const Time lo = std::max(g0, a);
            MeasurementId x = kNone;
            Time w = 0;
            if (!waker(m, g0, t, first, x, w)) {
                if (first)
                    queued(lo, t, m);
                else
                    set(lo, t, Kind::Waiting, m, m);
                t = lo;
                continue;
            }
            w = std::clamp(w, g0, t);
            queued(std::max(w, a), t, m);
            if (w > lo) {
                const Time xFrom = x == kNone || x == m ? w : std::max(lo, m_p.measurement(x).created);
                if (xFrom < w)
                    walk(x, xFrom, w);
                set(lo, std::min(xFrom, w), Kind::Waiting, m, m);
            }
            t = lo;
        }
    }

    const Profile& m_p;
    Source m_source;
    std::vector<Time> m_cuts;
    std::map<Time, Tick> m_out;
};

// Every measurement's path in `p`: its segments follow each other over
// [created, finished) with no gap or overlap, add up to the wall time,
// name a measurement running on the segment's track where they say one
// ran (so no two claim one track's running at once), and equal the brute
// force's segments exactly (unless `brute` is false: overlapping polls on
// one track, where "the innermost running measurement" has no single
// answer). QFAILs naming `what`, the measurement and the segment. Counts
// into `woken` the segments explained by a waker (depth > 0), so that a
// test can tell its workload exercised the wake rule.
inline void checkAgainstBruteForce(const Profile& p, const CriticalPath& path, const QString& what, bool brute = true,
                                   std::size_t* woken = nullptr)
{
    using Kind = CriticalPath::Kind;
    BruteForce bruteForce(p, path.wakeSource());
    // m's intervals on `track` cover [from, to) (back-to-back runs merge).
    auto ranOn = [&p](MeasurementId m, TrackId track, Time from, Time to) {
        for (bool extended = true; extended && from < to;) {
            extended = false;
            for (const IntervalId id : p.intervalsOf(m)) {
                const Interval& iv = p.interval(id);
                if (p.trackOf(id) == track && iv.start <= from && from < iv.end) {
                    from = iv.end;
                    extended = true;
                }
            }
        }
        return from >= to;
    };
    for (MeasurementId m = 0; m < p.measurementCount(); ++m) {
        const Measurement& mm = p.measurement(m);
        const auto segments = path.of(m);
        const QString where = QStringLiteral("%1, measurement %2").arg(what).arg(m);
        Time cursor = mm.created;
        Time sum = 0;
        for (const auto& s : segments) {
            QVERIFY2(s.start == cursor && s.end > s.start, qPrintable(where));
            cursor = s.end;
            sum += s.duration();
            if (woken && s.depth > 0)
                ++*woken;
            if (s.kind == Kind::Running || s.kind == Kind::Queued)
                QVERIFY2(ranOn(s.named, s.track, s.start, s.end),
                         qPrintable(QStringLiteral("%1: %2 segment %3-%4 names %5, not running on track %6")
                                        .arg(where, qstr(CriticalPath::kindName(s.kind)))
                                        .arg(s.start)
                                        .arg(s.end)
                                        .arg(s.named)
                                        .arg(s.track)));
        }
        QVERIFY2(cursor == std::max(mm.created, mm.finished), qPrintable(where));
        QVERIFY2(sum == std::max(mm.created, mm.finished) - mm.created, qPrintable(where));
        if (!brute)
            continue;
        // The segment lists, exactly: the brute force's pieces merged where
        // they say the same.
        std::vector<Span> got;
        for (const auto& seg : segments)
            got.push_back({seg.start, seg.end, {seg.kind, seg.named, seg.pathMeasurement}});
        const std::vector<Span> expected = bruteForce.spans(m);
        for (std::size_t i = 0; i < std::max(got.size(), expected.size()); ++i) {
            if (i < got.size() && i < expected.size() && got[i] == expected[i])
                continue;
            auto text = [](const std::vector<Span>& list, std::size_t i) {
                if (i >= list.size())
                    return QStringLiteral("nothing");
                return QStringLiteral("%1-%2 kind %3 named %4 path %5")
                    .arg(list[i].start)
                    .arg(list[i].end)
                    .arg(int(list[i].tick.kind))
                    .arg(list[i].tick.named)
                    .arg(list[i].tick.path);
            };
            QFAIL(qPrintable(QStringLiteral("%1, segment %2: %3, brute force %4")
                                 .arg(where)
                                 .arg(i)
                                 .arg(text(got, i), text(expected, i))));
        }
    }
}

} // namespace runlane::test
