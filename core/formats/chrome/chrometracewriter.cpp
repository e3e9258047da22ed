#include "chrometracewriter.h"

#include "jsontext.h"
#include "snapshotreader.h"

#include <QSaveFile>

#include <algorithm>
#include <map>
#include <set>

namespace runlane {

namespace {

// Nanoseconds as exact microseconds: 1234567 -> "1234.567".
void appendMicros(std::string& out, Time ns)
{
    // Unsigned magnitude: -(INT64_MIN) does not fit an int64.
    const std::uint64_t magnitude = ns < 0 ? 0 - std::uint64_t(ns) : std::uint64_t(ns);
    if (ns < 0)
        out += '-';
    out += std::to_string(magnitude / 1000);
    unsigned frac = unsigned(magnitude % 1000);
    if (frac == 0)
        return;
    out += '.';
    for (unsigned divisor = 100; frac != 0; divisor /= 10) {
        out += char('0' + frac / divisor);
        frac %= divisor;
    }
}

class Writer
{
public:
    Writer(const Profile& profile, const ChromeTraceWriter::Sink& sink) : m_profile(profile), m_sink(sink) { }

    bool run()
    {
        for (MeasurementId m = 0; m < m_profile.measurementCount(); ++m) {
            if (m_profile.intervalsOf(m).empty())
                m_neverRan.push_back(m);
        }
        assignTids();
        m_out = "{\"traceEvents\":[";
        writeMetadata();
        for (TrackId t = 0; t < m_profile.trackCount() && m_ok; ++t) {
            if (m_profile.track(t).kind == TrackKind::Async)
                writeAsyncTrack(t);
            else if (m_profile.track(t).kind == TrackKind::Samples)
                writeSampleTrack(t);
            else
                writeThreadTrack(t);
        }
        writeWakes();
        writeMarksAndCounters();
        writeFlows();
        writeSnapshots();
        writeSpan();
        m_out += "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"runlane\",\"source\":";
        JsonText::appendString(m_out, m_profile.sourcePath());
        m_out += ",\"format\":";
        JsonText::appendString(m_out, m_profile.formatName());
        m_out += "}}\n";
        flush();
        return m_ok;
    }

private:
    void flush()
    {
        if (m_ok && !m_out.empty())
            m_ok = m_sink(m_out);
        m_out.clear();
    }

    // Starts an event object with the fields every event has.
    void begin(char ph, std::string_view name, std::int64_t pid, std::int64_t tid, Time ts)
    {
        if (ph != 'M') {
            m_firstTs = std::min(m_firstTs, ts);
            m_lastTs = std::max(m_lastTs, ts);
        }
        if (m_out.size() > (1u << 20))
            flush();
        m_out += m_first ? "\n{\"ph\":\"" : ",\n{\"ph\":\"";
        m_first = false;
        m_out += ph;
        m_out += "\",\"name\":";
        JsonText::appendString(m_out, name);
        m_out += ",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid);
        if (ph != 'M') {
            m_out += ",\"ts\":";
            appendMicros(m_out, ts);
        }
    }

    // `links`: more members, each starting with a comma.
    void labelArgs(LabelId label, std::string_view state = {}, std::string_view links = {})
    {
        const Label& l = m_profile.label(label);
        if (l.file == kEmptyString && state.empty() && links.empty())
            return;
        m_out += ",\"args\":{";
        bool comma = false;
        if (l.file != kEmptyString) {
            m_out += "\"file\":";
            JsonText::appendString(m_out, m_profile.string(l.file));
            if (l.line > 0)
                m_out += ",\"line\":" + std::to_string(l.line);
            comma = true;
        }
        if (!state.empty()) {
            m_out += comma ? ",\"state\":" : "\"state\":";
            JsonText::appendString(m_out, state);
            comma = true;
        }
        if (!links.empty())
            m_out += comma ? links : links.substr(1);
        m_out += '}';
    }

    // A thread is (pid, tid) in a trace: a second Thread track with the
    // same pair (Firefox's overlapping markers get one) would merge with
    // the first when read back, so it is written under a tid of its own.
    void assignTids()
    {
        std::set<std::pair<std::int64_t, std::int64_t>> used;
        std::int64_t highest = 0;
        for (const Track& t : m_profile.tracks())
            highest = std::max(highest, t.tid);
        for (const Track& t : m_profile.tracks()) {
            std::int64_t tid = t.tid;
            if (t.kind == TrackKind::Thread && !used.insert({t.pid, tid}).second && highest < INT64_MAX) {
                tid = ++highest;
                used.insert({t.pid, tid});
            }
            m_tids.push_back(tid);
        }
    }
    std::int64_t tidOf(const Track& track) const { return m_tids[std::size_t(&track - m_profile.tracks().data())]; }

    void writeMetadata()
    {
        std::set<std::int64_t> processes;
        for (const Track& t : m_profile.tracks()) {
            if (processes.insert(t.pid).second) {
                if (t.processName != kEmptyString) {
                    begin('M', "process_name", t.pid, 0, 0);
                    m_out += ",\"args\":{\"name\":";
                    JsonText::appendString(m_out, m_profile.string(t.processName));
                    m_out += "}}";
                }
                if (t.processSortIndex != 0) {
                    begin('M', "process_sort_index", t.pid, 0, 0);
                    m_out += ",\"args\":{\"sort_index\":" + std::to_string(t.processSortIndex) + "}}";
                }
            }
            if (t.kind == TrackKind::Async && t.workerPool) {
                // tokio's tasks, polled by workers the file does not name
                // (TrackInfo::workerPool): no task nests in another.
                begin('M', "runlane_worker_pool", t.pid, 0, 0);
                m_out += '}';
            }
            if (t.kind != TrackKind::Thread)
                continue;
            const bool moved = tidOf(t) != t.tid;
            if (t.threadName != kEmptyString || moved) {
                begin('M', "thread_name", t.pid, tidOf(t), 0);
                m_out += ",\"args\":{\"name\":";
                JsonText::appendString(m_out, m_profile.string(moved ? t.name : t.threadName));
                m_out += "}}";
            }
            if (t.threadSortIndex != 0) {
                begin('M', "thread_sort_index", t.pid, tidOf(t), 0);
                m_out += ",\"args\":{\"sort_index\":" + std::to_string(t.threadSortIndex) + "}}";
            }
        }
    }

    // The name itself, not how it is shown: an empty name is written empty.
    std::string_view nameOf(MeasurementId m) const
    {
        return m_profile.string(m_profile.label(m_profile.measurement(m).label).name);
    }

    // A plain synchronous call: created as it started by what encloses it,
    // one interval, ended with it. `open`: still running when the profile
    // ends. Reading an `X` back makes what encloses it its creator, so one
    // created by something else (an Enso `@highlight` that runs at its end
    // only) is written as a task that names its creator.
    bool isCall(MeasurementId id, bool& open) const
    {
        const Measurement& m = m_profile.measurement(id);
        const auto ivs = m_profile.intervalsOf(id);
        open = false;
        if (m.isAsync() || ivs.size() != 1)
            return false;
        const Interval& iv = m_profile.interval(ivs[0]);
        if (m.created != iv.start)
            return false;
        if (m.creator != (iv.parent == kNone ? kNone : m_profile.interval(iv.parent).measurement))
            return false;
        if (m.finalState() == FinalState::Unfinished) {
            open = iv.end == m_profile.endTime() && m.finished == m_profile.endTime();
            return open;
        }
        return m.finished == iv.end;
    }

    bool lastIsOpen(MeasurementId id) const
    {
        const Measurement& m = m_profile.measurement(id);
        const auto ivs = m_profile.intervalsOf(id);
        return m.finalState() == FinalState::Unfinished && !ivs.empty()
            && m_profile.interval(ivs.back()).end == m_profile.endTime() && m.finished == m_profile.endTime();
    }

    void asyncEvent(char ph, const char* cat, std::uint64_t taskId, MeasurementId m, const Track& track, Time ts,
                    std::string_view state = {}, std::string_view links = {})
    {
        begin(ph, nameOf(m), track.pid, tidOf(track), ts);
        m_out += ",\"cat\":\"";
        m_out += cat;
        m_out += "\",\"id\":" + std::to_string(taskId);
        labelArgs(m_profile.measurement(m).label, state, links);
        m_out += '}';
    }

    // A task whose creator is another task, or that has a trigger
    // (Profile::triggers), names them by their ids: reading back derives a
    // creator on a thread from what ran at the creation, which is not where
    // a format's own creator (Node's executionAsyncId) always is, and of a
    // concurrent task from the slice it is written in, which a task it
    // created (tokio's spawn) is not.
    std::string taskLinks(MeasurementId m) const
    {
        std::string links;
        const MeasurementId creator = m_profile.measurement(m).creator;
        if (m_profile.track(m_profile.measurement(m).track).kind != TrackKind::Thread) {
            if (creator != kNone && m_profile.measurement(creator).isAsync())
                links += ",\"creator\":" + std::to_string(creator);
            return links;
        }
        bool creatorOpen = false;
        if (creator != kNone && (m_profile.measurement(creator).isAsync() || !isCall(creator, creatorOpen)))
            links += ",\"creator\":" + std::to_string(creator);
        else if (creator == kNone && (m_profile.measurement(m).flags & CreatorUnknown) == 0)
            // Created by nothing, though something may run then (an Enso
            // measurement whose parent is the root): a task naming itself
            // has no creator, none is derived.
            links += ",\"creator\":" + std::to_string(m);
        else if (creator != kNone && m_profile.measurement(creator).track != m_profile.measurement(m).track)
            // Created by a call on another thread (a Python asyncio task):
            // reading back finds the call running there at the creation.
            links += ",\"creator_tid\":" + std::to_string(tidOf(m_profile.track(m_profile.measurement(creator).track)));
        if (const MeasurementId trigger = m_profile.triggeredBy(m); trigger != kNone)
            links += ",\"trigger\":" + std::to_string(trigger);
        return links;
    }

    // The task's first event: its creation when it was created before it
    // ran (or never ran), else its first slice, which `b` then writes.
    // Returns the links for that `b` if they were not written here.
    std::string taskCreation(const char* cat, MeasurementId m, const Track& track)
    {
        const Measurement& mm = m_profile.measurement(m);
        const auto ivs = m_profile.intervalsOf(m);
        // A task that never ran states its creation unless it was born
        // finished: the reader tells stillborn from primitive tasks by that.
        std::string links = taskLinks(m);
        if (ivs.empty() ? !mm.isBornFinished() : mm.created < m_profile.interval(ivs.front()).start) {
            asyncEvent('n', cat, m, m, track, mm.created, "pending", links);
            links.clear();
        }
        return links;
    }

    void taskEnd(const char* cat, MeasurementId m, const Track& track, std::string_view links = {})
    {
        if (lastIsOpen(m))
            return;
        const Measurement& mm = m_profile.measurement(m);
        asyncEvent('n', cat, m, m, track, mm.finished, finalStateName(mm.finalState()), links);
    }

    std::vector<IntervalId> sortedIntervals(const Track& track) const
    {
        std::vector<IntervalId> ids(track.end - track.begin);
        for (IntervalId i = 0; i < ids.size(); ++i)
            ids[i] = track.begin + i;
        // Start order, outer first: parents precede children, which keeps the
        // nesting of equal intervals when the file is read back.
        std::stable_sort(ids.begin(), ids.end(), [this](IntervalId a, IntervalId b) {
            const Interval& x = m_profile.interval(a);
            const Interval& y = m_profile.interval(b);
            if (x.start != y.start)
                return x.start < y.start;
            if (x.end != y.end)
                return x.end > y.end;
            return a < b; // ids are depth-major within a track
        });
        return ids;
    }

    void writeThreadTrack(TrackId t)
    {
        static constexpr const char* cat = "runlane.task";
        const Track& track = m_profile.track(t);
        for (const IntervalId id : sortedIntervals(track)) {
            const Interval& iv = m_profile.interval(id);
            const MeasurementId m = iv.measurement;
            bool open = false;
            if (isCall(m, open)) {
                begin(open ? 'B' : 'X', nameOf(m), track.pid, tidOf(track), iv.start);
                if (!open) {
                    m_out += ",\"dur\":";
                    appendMicros(m_out, iv.end - iv.start);
                }
                labelArgs(m_profile.measurement(m).label);
                m_out += '}';
                continue;
            }
            const auto ivs = m_profile.intervalsOf(m);
            const std::string links = id == ivs.front() ? taskCreation(cat, m, track) : std::string();
            asyncEvent('b', cat, m, m, track, iv.start, {}, links);
            const bool last = id == ivs.back();
            if (!(last && lastIsOpen(m)))
                asyncEvent('e', cat, m, m, track, iv.end);
            if (last)
                taskEnd(cat, m, track);
        }
        writeTasksWithoutIntervals(t, cat);
    }

    // A sampled track as DevTools writes one (formats.md (f)): a Profile
    // event, then ProfileChunks with the call tree and samples. A sample is
    // written per exec segment (a stretch with one innermost interval) and
    // lasts until the next, so reading it back merges them into the same
    // intervals; gaps are samples of the root alone.
    void writeSampleTrack(TrackId t)
    {
        const Track& track = m_profile.track(t);
        if (track.begin == track.end)
            return;
        // Nodes: one per distinct call path; intervals come parents first.
        std::vector<std::uint32_t> nodeOf(track.end - track.begin, 0);
        std::map<std::pair<std::uint32_t, LabelId>, std::uint32_t> nodes; // (parent node, label) -> node
        std::vector<std::pair<std::uint32_t, LabelId>> nodeList{{0, 0}}; // node 1 is the root
        std::vector<std::vector<IntervalId>> children(track.end - track.begin);
        for (IntervalId id = track.begin; id < track.end; ++id) {
            const Interval& iv = m_profile.interval(id);
            const std::uint32_t parent = iv.parent == kNone ? 1 : nodeOf[iv.parent - track.begin];
            const LabelId label = m_profile.measurement(iv.measurement).label;
            const auto [it, added] = nodes.emplace(std::make_pair(parent, label), std::uint32_t(nodeList.size() + 1));
            if (added)
                nodeList.emplace_back(parent, label);
            nodeOf[id - track.begin] = it->second;
            if (iv.parent != kNone)
                children[iv.parent - track.begin].push_back(id);
        }
        // Exec segments (start, end, node), a zero-length call one of its own.
        struct Segment {
            Time start;
            Time end;
            std::uint32_t node;
        };
        std::vector<Segment> segments;
        for (IntervalId id = track.begin; id < track.end; ++id) {
            const Interval& iv = m_profile.interval(id);
            const std::uint32_t node = nodeOf[id - track.begin];
            Time cursor = iv.start;
            for (const IntervalId c : children[id - track.begin]) {
                const Interval& child = m_profile.interval(c);
                if (child.start > cursor)
                    segments.push_back(Segment{cursor, child.start, node});
                cursor = std::max(cursor, child.end);
            }
            if (cursor < iv.end || (iv.start == iv.end && children[id - track.begin].empty()))
                segments.push_back(Segment{cursor, iv.end, node});
        }
        std::stable_sort(segments.begin(), segments.end(), [](const Segment& a, const Segment& b) {
            return a.start != b.start ? a.start < b.start : (a.end - a.start) < (b.end - b.start);
        });
        // Samples: a segment each, and the root where nothing runs.
        std::vector<std::pair<Time, std::uint32_t>> samples;
        Time reached = segments.front().start;
        for (const Segment& s : segments) {
            if (s.start > reached)
                samples.emplace_back(reached, 1);
            samples.emplace_back(s.start, s.node);
            reached = std::max(reached, s.end);
        }
        // And the root where the last segment ends: a reader gives the
        // last sample only the profile's median interval (no more than to
        // endTime), so the last segment must not be the last sample.
        if (reached > samples.back().first)
            samples.emplace_back(reached, 1);
        const Time first = samples.front().first;
        // startTime in whole µs, the rest in the first delta: exact when
        // read back, where a large time with a fraction would not be.
        const Time startMicros = first >= 0 ? first / 1000 : -((-first + 999) / 1000);
        const std::string id = "\"0x" + std::to_string(t + 1) + "\"";
        begin('P', "Profile", track.pid, track.tid, first);
        m_out += ",\"cat\":\"disabled-by-default-v8.cpu_profiler\",\"id\":" + id + ",\"args\":{\"data\":{\"startTime\":"
            + std::to_string(startMicros) + "}}}";
        constexpr std::size_t kChunk = 50000;
        Time previous = startMicros * 1000;
        for (std::size_t from = 0; from < samples.size(); from += kChunk) {
            const std::size_t to = std::min(samples.size(), from + kChunk);
            begin('P', "ProfileChunk", track.pid, track.tid, samples[from].first);
            m_out += ",\"cat\":\"disabled-by-default-v8.cpu_profiler\",\"id\":" + id + ",\"args\":{\"data\":{\"cpuProfile\":{";
            if (from == 0) {
                m_out += "\"nodes\":[";
                for (std::size_t n = 0; n < nodeList.size(); ++n) {
                    m_out += n == 0 ? "{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"url\":\"\",\"lineNumber\":-1}}"
                                    : ",{\"id\":" + std::to_string(n + 1) + ",\"parent\":" + std::to_string(nodeList[n].first)
                            + ",\"callFrame\":";
                    if (n == 0)
                        continue;
                    const Label& l = m_profile.label(nodeList[n].second);
                    m_out += "{\"functionName\":";
                    JsonText::appendString(m_out, m_profile.string(l.name));
                    m_out += ",\"url\":";
                    JsonText::appendString(m_out, m_profile.string(l.file));
                    m_out += ",\"lineNumber\":" + std::to_string(std::int64_t(l.line) - 1) + "}}";
                }
                m_out += "],";
            }
            m_out += "\"samples\":[";
            for (std::size_t i = from; i < to; ++i) {
                if (i != from)
                    m_out += ',';
                m_out += std::to_string(samples[i].second);
            }
            m_out += ']';
            if (to == samples.size()) {
                m_out += ",\"endTime\":";
                appendMicros(m_out, reached);
            }
            m_out += "},\"timeDeltas\":[";
            for (std::size_t i = from; i < to; ++i) {
                if (i > from)
                    m_out += ',';
                appendMicros(m_out, samples[i].first - previous);
                previous = samples[i].first;
            }
            m_out += "]}}}";
        }
    }

    void writeTasksWithoutIntervals(TrackId t, const char* cat)
    {
        const Track& track = m_profile.track(t);
        for (const MeasurementId m : m_neverRan) {
            const Measurement& mm = m_profile.measurement(m);
            if (mm.track != t)
                continue;
            if (track.kind == TrackKind::Async && !mm.isAsync() && mm.creator != kNone
                && m_profile.measurement(mm.creator).track == t)
                continue; // nested in a task: not expressible without a slice
            const std::string links = taskCreation(cat, m, track);
            taskEnd(cat, m, track, links);
        }
    }

    // Wakes (tokio's wakers, Chronos' inferred ones) as instants of their
    // task, its flags in args.wake.
    void writeWakes()
    {
        for (const Wake& w : m_profile.wakes()) {
            const Track& track = m_profile.track(m_profile.measurement(w.task).track);
            const char* cat = track.kind == TrackKind::Async ? "runlane.async" : "runlane.task";
            asyncEvent('n', cat, w.task, w.task, track, w.time, {}, ",\"wake\":" + std::to_string(w.flags));
        }
    }

    // Concurrent tasks: each task with the slices it created, depth first,
    // so that a slice's `e` is written before its enclosing slice's `e`.
    void writeAsyncTrack(TrackId t)
    {
        static constexpr const char* cat = "runlane.async";
        const Track& track = m_profile.track(t);
        // A slice belongs to the task that created it; a task is its own.
        auto root = [&](MeasurementId m) {
            MeasurementId r = m;
            while (!m_profile.measurement(r).isAsync() && m_profile.measurement(r).creator != kNone
                   && m_profile.measurement(m_profile.measurement(r).creator).track == t)
                r = m_profile.measurement(r).creator;
            return r;
        };
        std::vector<IntervalId> ids = sortedIntervals(track);
        std::vector<MeasurementId> group(ids.size());
        for (std::size_t k = 0; k < ids.size(); ++k)
            group[k] = root(m_profile.interval(ids[k]).measurement);
        std::vector<std::size_t> order(ids.size());
        for (std::size_t k = 0; k < order.size(); ++k)
            order[k] = k;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return m_profile.measurement(group[a]).created != m_profile.measurement(group[b]).created
                ? m_profile.measurement(group[a]).created < m_profile.measurement(group[b]).created
                : group[a] < group[b];
        });
        std::vector<IntervalId> stack;
        auto closeTop = [&](MeasurementId task) {
            const IntervalId top = stack.back();
            stack.pop_back();
            const MeasurementId m = m_profile.interval(top).measurement;
            const auto ivs = m_profile.intervalsOf(m);
            if (!(top == ivs.back() && lastIsOpen(m)))
                asyncEvent('e', cat, task, m, track, m_profile.interval(top).end);
        };
        for (std::size_t k = 0; k < order.size();) {
            const MeasurementId task = group[order[k]];
            taskCreation(cat, task, track);
            for (; k < order.size() && group[order[k]] == task; ++k) {
                const IntervalId id = ids[order[k]];
                const Interval& iv = m_profile.interval(id);
                while (!stack.empty() && stack.back() != iv.parent)
                    closeTop(task);
                asyncEvent('b', cat, task, iv.measurement, track, iv.start);
                stack.push_back(id);
            }
            while (!stack.empty())
                closeTop(task);
            taskEnd(cat, task, track);
        }
        writeTasksWithoutIntervals(t, cat);
    }

    // The profile may span more than its events (events that were read but
    // had nothing to show); unfinished work ends at the span's end, so keep it.
    void writeSpan()
    {
        for (const Time t : {m_profile.startTime(), m_profile.endTime()}) {
            if (t < m_firstTs || t > m_lastTs) {
                begin('i', t == m_profile.startTime() ? "profile start" : "profile end", 0, 0, t);
                m_out += ",\"s\":\"g\",\"cat\":\"runlane.span\"}";
            }
        }
    }

    // The first instant at or after `from` where `id` is the innermost
    // interval of its thread, or kTimeMax if there is none: its children
    // (and a zero-length child, its instant) cover the rest.
    Time innermostFrom(IntervalId id, Time from) const
    {
        const Interval& iv = m_profile.interval(id);
        const TrackId track = m_profile.trackOf(id);
        const auto children = m_profile.depthSlice(track, m_profile.depthOf(id) + 1);
        if (iv.start == iv.end && iv.start < from)
            return kTimeMax;
        Time cursor = std::max(from, iv.start);
        auto it = std::partition_point(children.begin(), children.end(),
                                       [&iv](const Interval& c) { return c.start < iv.start; });
        for (; it != children.end() && it->start <= cursor; ++it) {
            if (it->end > cursor)
                cursor = it->end;
            else if (it->start == cursor && it->end == cursor)
                cursor = cursor + 1; // a zero-length child holds its instant
        }
        const bool inside = iv.start == iv.end ? cursor == iv.start : cursor < iv.end;
        return inside ? cursor : kTimeMax;
    }

    // Flows as v1 `s` and `f` (bound to the enclosing slice), one id each:
    // each at an instant where its interval is the innermost of its thread,
    // the `f` no earlier than the `s` (a chain follows time). Flows that
    // cannot be said so are left out: one that touches an async lane (a
    // `s`/`f` binds to a thread), or that ends wholly before it starts.
    void writeFlows()
    {
        const auto& flows = m_profile.flows();
        for (std::size_t k = 0; k < flows.size() && m_ok; ++k) {
            const Flow& f = flows[k];
            const Track& from = m_profile.track(m_profile.trackOf(f.from));
            const Track& to = m_profile.track(m_profile.trackOf(f.to));
            if (from.kind != TrackKind::Thread || to.kind != TrackKind::Thread)
                continue;
            const Time sourceAt = innermostFrom(f.from, kTimeMin);
            const Time targetAt = sourceAt == kTimeMax ? kTimeMax : innermostFrom(f.to, sourceAt);
            if (targetAt == kTimeMax)
                continue;
            const std::string_view name = m_profile.string(f.name);
            begin('s', name, from.pid, tidOf(from), sourceAt);
            m_out += ",\"cat\":\"runlane.flow\",\"id\":" + std::to_string(k) + "}";
            begin('f', name, to.pid, tidOf(to), targetAt);
            m_out += ",\"cat\":\"runlane.flow\",\"id\":" + std::to_string(k) + ",\"bp\":\"e\"}";
        }
    }

    // Pre-aggregated metrics have no timeline; as counters, their cumulative
    // values chart over time in any trace viewer.
    void writeSnapshots()
    {
        SnapshotReader reader(m_profile.snapshots());
        for (std::size_t i = 0; i < reader.size(); ++i) {
            const Time time = reader.snapshot(i).time();
            for (const AggregateRow& r : reader.rows(i)) {
                begin('C', m_profile.labelText(r.label), 0, 0, m_profile.snapshotsAreTimed() ? time : 0);
                m_out += ",\"cat\":\"runlane.metrics\",\"args\":{\"exec_ns\":" + std::to_string(r.exec)
                    + ",\"children_exec_ns\":" + std::to_string(r.childrenExec) + ",\"wall_ns\":"
                    + std::to_string(r.wall) + ",\"calls\":" + std::to_string(r.calls) + "}}";
            }
        }
    }

    void writeMarksAndCounters()
    {
        for (const Mark& mark : m_profile.marks()) {
            std::int64_t pid = mark.pid;
            std::int64_t tid = 0;
            if (mark.track != kNone) {
                pid = m_profile.track(mark.track).pid;
                tid = m_profile.track(mark.track).tid;
            }
            begin('i', m_profile.string(mark.name), pid, tid, mark.time);
            m_out += mark.scope == MarkScope::Global ? ",\"s\":\"g\"" : mark.scope == MarkScope::Process ? ",\"s\":\"p\"" : ",\"s\":\"t\"";
            if (mark.detail != kEmptyString) {
                m_out += ",\"args\":{\"detail\":";
                JsonText::appendString(m_out, m_profile.string(mark.detail));
                m_out += '}';
            }
            m_out += '}';
        }
        for (const CounterSeries& c : m_profile.counters()) {
            for (std::size_t i = 0; i < c.times.size(); ++i) {
                begin('C', m_profile.string(c.name), c.pid, 0, c.times[i]);
                char value[64];
                std::snprintf(value, sizeof value, "%.17g", c.values[i]);
                m_out += ",\"args\":{";
                JsonText::appendString(m_out, m_profile.string(c.key));
                m_out += ':';
                m_out += value;
                m_out += "}}";
            }
        }
    }

    const Profile& m_profile;
    const ChromeTraceWriter::Sink& m_sink;
    std::vector<MeasurementId> m_neverRan;
    std::vector<std::int64_t> m_tids; // per track: the tid it is written under (assignTids)
    Time m_firstTs = kTimeMax;
    Time m_lastTs = kTimeMin;
    std::string m_out;
    bool m_first = true;
    bool m_ok = true;
};

} // namespace

bool ChromeTraceWriter::write(const Profile& profile, const Sink& sink)
{
    return Writer(profile, sink).run();
}

std::string ChromeTraceWriter::toString(const Profile& profile)
{
    std::string all;
    write(profile, [&all](const std::string& chunk) {
        all += chunk;
        return true;
    });
    return all;
}

bool ChromeTraceWriter::writeFile(const Profile& profile, const QString& path, std::string& error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        error = "cannot write " + path.toStdString() + ": " + file.errorString().toStdString();
        return false;
    }
    const bool ok = write(profile, [&file](const std::string& chunk) {
        return file.write(chunk.data(), qint64(chunk.size())) == qint64(chunk.size());
    });
    if (!ok || !file.commit()) {
        error = "cannot write " + path.toStdString() + ": " + file.errorString().toStdString();
        return false;
    }
    return true;
}

} // namespace runlane
