#include "chrometracebuilder.h"

#include "asynciotasks.h"
#include "loaderror.h"
#include "numberparse.h"
#include "texthash.h"

#include <algorithm>

namespace runlane {

namespace {

// Ids named by strings (a `pid: "renderer"`) get numbers above any real id.
constexpr std::int64_t kFirstStringId = std::int64_t(1) << 48;
// At equal timestamps, E events may be reordered within this many events to
// find the ones that match; more would let a hostile file cost O(n^2).
constexpr std::size_t kReorderWindow = 64;

std::string display(std::string_view text)
{
    std::string out = "'";
    out.append(text.substr(0, 80));
    if (text.size() > 80)
        out += "...";
    out += "'";
    return out;
}

std::string valueText(const ChromeEvent::Value& value)
{
    return value.kind == ChromeEvent::Value::Number ? std::to_string(value.number) : std::string(value.text);
}

} // namespace

ChromeTraceBuilder::ChromeTraceBuilder(ProfileBuilder& builder)
    : m_builder(builder), m_diagnostics(builder.diagnostics())
{
}

std::uint32_t ChromeTraceBuilder::orderOf(std::uint64_t index)
{
    return index < kNone - 1 ? std::uint32_t(index) : kNone - 1;
}

Time ChromeTraceBuilder::requireTs(const ChromeEvent& e, std::uint64_t index)
{
    switch (e.ts.kind) {
    case ChromeEvent::TimeValue::Ok:
        m_builder.extendSpan(e.ts.ns);
        return e.ts.ns;
    case ChromeEvent::TimeValue::Absent:
        throw FormatError("missing 'ts' (the timestamp in microseconds) in a '" + std::string(e.ph) + "' event",
                          std::int64_t(index));
    case ChromeEvent::TimeValue::OutOfRange:
        throw FormatError("'ts' " + std::string(e.ts.text) + " is out of range (more than 292 years from 0)", std::int64_t(index));
    case ChromeEvent::TimeValue::Invalid:
        break;
    }
    throw FormatError("'ts' must be a number of microseconds, found " + std::string(e.ts.text), std::int64_t(index));
}

std::int64_t ChromeTraceBuilder::resolveId(const ChromeEvent::Value& value, std::string_view field,
                                           std::uint64_t index, std::int64_t fallback, StringId* nameOut)
{
    switch (value.kind) {
    case ChromeEvent::Value::Absent:
        return fallback;
    case ChromeEvent::Value::Number:
        return value.number;
    case ChromeEvent::Value::Invalid:
        throw FormatError("'" + std::string(field) + "' must be a number or a string, found " + std::string(value.text),
                          std::int64_t(index));
    case ChromeEvent::Value::String:
        break;
    }
    std::int64_t number = 0;
    if (parseInteger(value.text, number))
        return number;
    auto it = m_stringIds.find(value.text);
    if (it == m_stringIds.end())
        it = m_stringIds.emplace(value.text, kFirstStringId + std::int64_t(m_stringIds.size())).first;
    if (nameOut)
        *nameOut = m_builder.intern(value.text);
    return it->second;
}

void ChromeTraceBuilder::resolvePidTid(const ChromeEvent& e, std::uint64_t index, std::int64_t& pid,
                                       std::int64_t& tid)
{
    StringId pidName = kEmptyString;
    StringId tidName = kEmptyString;
    pid = resolveId(e.pid, "pid", index, 0, &pidName);
    // A missing tid means the process's main thread, as in Perfetto.
    tid = resolveId(e.tid, "tid", index, pid, &tidName);
    // A string id doubles as a name unless metadata names it.
    if (pidName != kEmptyString && process(pid).name == kEmptyString)
        process(pid).name = pidName;
    if (tidName != kEmptyString) {
        ThreadMeta& meta = m_threadMeta[{pid, tid}];
        if (meta.name == kEmptyString)
            meta.name = tidName;
    }
}

ChromeTraceBuilder::Process& ChromeTraceBuilder::process(std::int64_t pid)
{
    return m_processes[pid];
}

ChromeTraceBuilder::Thread& ChromeTraceBuilder::thread(std::int64_t pid, std::int64_t tid)
{
    const std::pair<std::int64_t, std::int64_t> key{pid, tid};
    if (m_lastThread != kNone && m_lastThreadKey == key)
        return m_threads[m_lastThread];
    auto it = m_threadIndex.find(key);
    if (it == m_threadIndex.end()) {
        TrackInfo info;
        info.kind = TrackKind::Thread;
        info.pid = pid;
        info.tid = tid;
        Thread t;
        t.track = m_builder.addTrack(info);
        m_threads.push_back(std::move(t));
        it = m_threadIndex.emplace(key, std::uint32_t(m_threads.size() - 1)).first;
        process(pid);
    }
    m_lastThreadKey = key;
    m_lastThread = it->second;
    return m_threads[it->second];
}

StringId ChromeTraceBuilder::nameFor(const ChromeEvent& e)
{
    return e.hasName ? m_builder.intern(e.name, e.nameHash) : kEmptyString;
}

LabelId ChromeTraceBuilder::labelFor(const ChromeEvent& e)
{
    static const std::string_view kUnnamed = "(unnamed)";
    static const std::uint64_t kUnnamedHash = hashText(kUnnamed);
    const std::string_view name = e.hasName ? std::string_view(e.name) : kUnnamed;
    if (e.hasCold && !e.argFile.empty())
        return m_builder.label(name, e.argFile, std::int32_t(e.argLine));
    const std::uint64_t hash = e.hasName ? e.nameHash : kUnnamedHash;
    if ((m_nameCount + 1) * 2 > m_nameSlots.size()) {
        // Grow to keep the table at most half full.
        std::vector<NameSlot> old(std::max<std::size_t>(64, m_nameSlots.size() * 2));
        old.swap(m_nameSlots);
        const std::size_t mask = m_nameSlots.size() - 1;
        for (const NameSlot& slot : old) {
            if (slot.label == kNone)
                continue;
            std::size_t i = slot.hash & mask;
            while (m_nameSlots[i].label != kNone)
                i = (i + 1) & mask;
            m_nameSlots[i] = slot;
        }
    }
    const std::size_t mask = m_nameSlots.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
        NameSlot& slot = m_nameSlots[i];
        if (slot.label == kNone) {
            const StringId id = m_builder.intern(name, hash);
            const std::string_view kept = m_builder.string(id);
            slot = NameSlot{hash, kept.data(), std::uint32_t(kept.size()), m_builder.label(id)};
            ++m_nameCount;
            return slot.label;
        }
        if (slot.hash == hash && std::string_view(slot.text, slot.size) == name)
            return slot.label;
    }
}

void ChromeTraceBuilder::addEvent(const ChromeEvent& e, std::uint64_t index)
{
    // Previews due (of the events before this one) and the pages ahead of
    // the builder's arrays, with previews or without.
    m_builder.pollPreview(index);
    if (m_partial)
        m_partial->event(e, index);
    if (!e.isObject)
        throw FormatError("expected an event object, found " + e.notObjectText, std::int64_t(index));
    if (!e.hasPh) {
        if (e.empty) {
            m_diagnostics.skipped("empty event {}");
            return;
        }
        throw FormatError("missing 'ph' (the event phase)", std::int64_t(index));
    }
    if (!e.phIsString)
        throw FormatError("'ph' must be a one-letter string, found " + std::string(e.ph), std::int64_t(index));
    if (e.ph.size() != 1) {
        m_diagnostics.skipped("phase '" + std::string(e.ph.substr(0, 20)) + "'");
        return;
    }
    const char ph = e.ph[0];
    if (e.hasCold && e.hasArgData && (ph == 'P' || ph == 'I' || ph == 'i') && ChromeEvent::isProfileName(e.name)) {
        std::int64_t pid = 0;
        std::int64_t tid = 0;
        resolvePidTid(e, index, pid, tid);
        m_samples.add(e, pid, tid, index);
        return;
    }
    switch (ph) {
    case 'X':
        addComplete(e, index);
        return;
    case 'B':
    case 'E': {
        const Time ts = requireTs(e, index);
        std::int64_t pid = 0;
        std::int64_t tid = 0;
        resolvePidTid(e, index, pid, tid);
        Thread& t = thread(pid, tid);
        const bool begin = ph == 'B';
        if (begin && ChromeFlowCollector::hasBinding(e))
            m_flows.deferSlice(e, orderOf(index), ts);
        const LabelId label = begin ? labelFor(e) : 0;
        t.events.push_back(BeginEnd{ts, orderOf(index), label, nameFor(e), begin, false});
        if (m_partial)
            m_partial->beginEnd(t.track, ts, label, begin, orderOf(index));
        return;
    }
    case 'i':
    case 'I':
    case 'R':
        addInstant(e, index);
        return;
    case 'C':
        addCounter(e, index);
        return;
    case 'M':
        addMetadata(e, index);
        return;
    case 'b':
    case 'e':
    case 'n':
        addAsync(e, index, ph, false);
        return;
    case 'S':
        addAsync(e, index, 'b', true);
        return;
    case 'F':
        addAsync(e, index, 'e', true);
        return;
    case 'T':
    case 'p':
        addAsync(e, index, 'n', true);
        return;
    case 's':
    case 't':
    case 'f':
        addFlow(e, index, ph);
        return;
    default:
        m_diagnostics.skipped(std::string("phase '") + ph + "'");
        return;
    }
}

void ChromeTraceBuilder::addComplete(const ChromeEvent& e, std::uint64_t index)
{
    const Time ts = requireTs(e, index);
    const ChromeEvent::TimeValue& dur = e.dur.kind != ChromeEvent::TimeValue::Absent ? e.dur : e.tdur;
    Time length = 0;
    switch (dur.kind) {
    case ChromeEvent::TimeValue::Ok:
        length = dur.ns;
        break;
    case ChromeEvent::TimeValue::Absent:
        m_diagnostics.warnWith("X without duration", [&] {
            return "X event #" + std::to_string(index) + " " + display(e.name) + " has no 'dur'; taken as 0";
        });
        break;
    case ChromeEvent::TimeValue::OutOfRange:
        throw FormatError("'dur' " + std::string(dur.text) + " is out of range", std::int64_t(index));
    case ChromeEvent::TimeValue::Invalid:
        throw FormatError("'dur' must be a number of microseconds, found " + std::string(dur.text), std::int64_t(index));
    }
    if (length < 0) {
        m_diagnostics.warnWith("negative duration", [&] {
            return "X event #" + std::to_string(index) + " " + display(e.name) + " has a negative 'dur'; taken as 0";
        });
        length = 0;
    }
    if (ts > kTimeMax - 1 - length)
        throw FormatError("'ts' + 'dur' is out of range", std::int64_t(index));
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    resolvePidTid(e, index, pid, tid);
    const TrackId track = thread(pid, tid).track;
    const MeasurementId call = m_builder.addCall(track, labelFor(e), ts, ts + length, orderOf(index));
    if (ChromeFlowCollector::hasBinding(e))
        m_flows.addSlice(e, orderOf(index), ts, track, call);
}

void ChromeTraceBuilder::addFlow(const ChromeEvent& e, std::uint64_t index, char ph)
{
    // A flow event marks a point of a slice: its time does not extend the
    // profile's span, nor does its thread get a track of its own.
    if (e.ts.kind != ChromeEvent::TimeValue::Ok) {
        m_diagnostics.warnWith("flow event without time", [&] {
            return std::string("'") + ph + "' event #" + std::to_string(index) + " " + display(e.name)
                + " has no valid 'ts'; ignored";
        });
        return;
    }
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    resolvePidTid(e, index, pid, tid);
    m_flows.addFlowEvent(e, orderOf(index), ph, pid, tid, e.ts.ns);
}

void ChromeTraceBuilder::addInstant(const ChromeEvent& e, std::uint64_t index)
{
    Mark mark;
    mark.time = requireTs(e, index);
    if (e.cat == kSpanCategory)
        return;
    mark.name = nameFor(e);
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    resolvePidTid(e, index, pid, tid);
    mark.pid = pid;
    if (e.instantScope == "g") {
        mark.scope = MarkScope::Global;
    } else if (e.instantScope == "p") {
        mark.scope = MarkScope::Process;
        process(pid);
    } else {
        mark.scope = MarkScope::Thread;
        mark.track = thread(pid, tid).track;
    }
    m_builder.addMark(mark);
}

void ChromeTraceBuilder::addCounter(const ChromeEvent& e, std::uint64_t index)
{
    const Time ts = requireTs(e, index);
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    resolvePidTid(e, index, pid, tid);
    std::string base(e.hasName ? e.name : std::string_view("(unnamed)"));
    if (e.id.kind == ChromeEvent::Value::Number || e.id.kind == ChromeEvent::Value::String)
        base += "[" + valueText(e.id) + "]";
    for (std::size_t i = 0; i < e.numericArgCount; ++i) {
        const auto& [key, value] = e.numericArgs[i];
        m_keyBuffer = std::to_string(pid) + '\x1f' + base + '\x1f' + std::string(key);
        auto it = m_counterIndex.find(m_keyBuffer);
        if (it == m_counterIndex.end()) {
            const std::size_t series = m_builder.addCounter(m_builder.intern(base), m_builder.intern(key), pid);
            it = m_counterIndex.emplace(m_keyBuffer, series).first;
        }
        m_builder.addCounterPoint(it->second, ts, value);
    }
}

void ChromeTraceBuilder::addMetadata(const ChromeEvent& e, std::uint64_t index)
{
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    resolvePidTid(e, index, pid, tid);
    if (e.name == "process_name") {
        if (!e.argName.empty())
            process(pid).name = m_builder.intern(e.argName);
    } else if (e.name == "thread_name") {
        if (!e.argName.empty())
            m_threadMeta[{pid, tid}].name = m_builder.intern(e.argName);
    } else if (e.name == "process_sort_index") {
        if (e.hasArgSortIndex)
            process(pid).sortIndex = e.argSortIndex;
    } else if (e.name == "thread_sort_index") {
        if (e.hasArgSortIndex)
            m_threadMeta[{pid, tid}].sortIndex = e.argSortIndex;
    } else if (e.name == "runlane_worker_pool") {
        process(pid).workerPool = true;
    } else {
        m_diagnostics.skipped("metadata '" + std::string(e.name.substr(0, 40)) + "'");
    }
}

// Async slices sharing an id form one task (semantics.md §8). The id is
// scoped by category and `scope`; a process-local id (id2.local) also by pid.
// Legacy S/T/p/F events are matched by (category, name, id) as catapult does.
void ChromeTraceBuilder::addAsync(const ChromeEvent& e, std::uint64_t index, char kind, bool legacy)
{
    const Time ts = requireTs(e, index);
    const bool asyncHooks = !legacy && ChromeEvent::isAsyncHooksCategory(e.cat);
    if (m_partial)
        m_partial->async(kind, ts, asyncHooks);
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    resolvePidTid(e, index, pid, tid);
    if (asyncHooks) {
        const bool resourceBegin = kind == 'b' && !NodeAsyncHooks::isCallback(e.name);
        m_asyncHooks.add(e, kind, ts, orderOf(index), thread(pid, tid).track, resourceBegin ? labelFor(e) : kNone,
                         nameFor(e));
        return;
    }
    std::string& key = m_keyBuffer;
    key.clear();
    key += legacy ? 'L' : 'N';
    key += e.cat;
    key += '\x1f';
    key += e.scope;
    key += '\x1f';
    if (!e.appendScopedId(key, pid, valueText)) {
        m_diagnostics.warnWith("async event without id", [&] {
            return "'" + std::string(e.ph) + "' event #" + std::to_string(index) + " " + display(e.name)
                + " has no 'id' or 'id2'; ignored";
        });
        return;
    }
    if (legacy) {
        key += '\x1f';
        key += e.name;
    }
    auto it = m_asyncIndex.find(key);
    if (it == m_asyncIndex.end()) {
        AsyncTask task;
        task.pid = pid;
        task.tid = tid;
        task.onThread = e.cat == kThreadTaskCategory;
        m_asyncTasks.push_back(std::move(task));
        it = m_asyncIndex.emplace(key, std::uint32_t(m_asyncTasks.size() - 1)).first;
        if ((m_asyncTasks.back().onThread || e.cat == kAsyncTaskCategory) && e.id.kind == ChromeEvent::Value::Number)
            m_tasksById.emplace(e.id.number, it->second);
    }
    AsyncTask& task = m_asyncTasks[it->second];
    if (task.onThread && e.hasArgCreatorTid) {
        task.hasCreatorTid = true;
        task.creatorTid = e.argCreatorTid;
        m_threadTaskLinks = true;
    }
    if ((task.onThread || e.cat == kAsyncTaskCategory) && (e.argCreator >= 0 || e.argTrigger >= 0)) {
        task.creatorId = e.argCreator >= 0 ? e.argCreator : task.creatorId;
        task.triggerId = e.argTrigger >= 0 ? e.argTrigger : task.triggerId;
        m_threadTaskLinks = true;
    }
    FinalState state = FinalState::Completed;
    const std::int8_t stateCode = e.argState.empty()                   ? kNoState
        : parseFinalState(e.argState, state) ? std::int8_t(state)
                                               : kOtherState;
    task.add(AsyncEvent{ts, orderOf(index), labelFor(e), nameFor(e), kind, stateCode,
                        kind == 'n' ? e.argWake : std::int16_t(-1)});
    if (m_partial)
        m_partial->touched(it->second);
    if ((kind == 'b' || kind == 'n') && ChromeFlowCollector::hasBinding(e))
        m_flows.deferSlice(e, orderOf(index), ts); // an 'n' stays unbound: no slice
}

TrackId ChromeTraceBuilder::asyncTrack(std::int64_t pid)
{
    Process& p = process(pid);
    if (p.asyncTrack == kNone) {
        TrackInfo info;
        info.kind = TrackKind::Async;
        info.pid = pid;
        info.tid = 0;
        p.asyncTrack = m_builder.addTrack(info);
    }
    return p.asyncTrack;
}

void ChromeTraceBuilder::finish()
{
    // A slice is woken by its incoming flows; Node's async_hooks resources
    // by their creators (NodeAsyncHooks); see the end for recorded wakes.
    m_builder.setWakeSource(WakeSource::Flows);
    // A second at 50 M events: told as the share of the begins and ends
    // matched, on all threads.
    std::uint64_t total = 0;
    for (const Thread& t : m_threads)
        total += t.events.size();
    BuildProgress::Share matching(m_builder.buildProgress(), "matching begins and ends");
    std::uint64_t done = 0;
    for (Thread& t : m_threads) {
        const std::size_t size = t.events.size();
        matchBeginEnd(t, [&](std::size_t k) { matching.at(done + k, total); });
        done += size;
    }
    std::vector<std::uint32_t>().swap(m_openBegins);
    for (AsyncTask& task : m_asyncTasks)
        buildAsyncTask(task);
    linkThreadTasks();
    m_asyncHooks.finish();
    m_samples.finish();
    m_flows.finish([this](std::int64_t pid, std::int64_t tid) {
        const auto it = m_threadIndex.find({pid, tid});
        return it == m_threadIndex.end() ? kNone : m_threads[it->second].track;
    });

    // Names and sort order come from metadata that may follow the events.
    for (std::size_t id = 0; id < m_builder.trackCount(); ++id)
        nameTrack(m_builder.trackInfo(TrackId(id)));
    if (m_viztracer) {
        std::vector<TrackId> tasks;
        for (const Thread& t : m_threads) {
            if (AsyncioTasks::isTaskName(m_builder.string(m_builder.trackInfo(t.track).threadName)))
                tasks.push_back(t.track);
        }
        AsyncioTasks::build(m_builder, tasks);
    }
    // A converted tokio recording keeps tokio's rule: its wakes say who
    // woke a task, where its flows (the spawns) do not.
    if (m_recordedWakes)
        m_builder.setWakeSource(WakeSource::Wakes);
}

void ChromeTraceBuilder::nameTrack(TrackInfo& info) const
{
    const auto p = m_processes.find(info.pid);
    if (p != m_processes.end()) {
        info.processName = p->second.name;
        info.processSortIndex = p->second.sortIndex;
        if (info.kind == TrackKind::Async && p->second.workerPool)
            info.workerPool = true;
    }
    if (info.kind != TrackKind::Async) {
        const auto meta = m_threadMeta.find({info.pid, info.tid});
        if (meta != m_threadMeta.end()) {
            info.threadName = meta->second.name;
            info.threadSortIndex = meta->second.sortIndex;
        }
    }
}

void ChromeTraceBuilder::followPartial()
{
    // buildAsyncTask's track if the source has it yet: it is made only at
    // the end, so that the final profile's tracks do not depend on previews.
    auto track = [this](const AsyncTask& task) {
        if (task.onThread) {
            const auto it = m_threadIndex.find({task.pid, task.tid});
            return it == m_threadIndex.end() ? kNone : m_threads[it->second].track;
        }
        const auto it = m_processes.find(task.pid);
        return it == m_processes.end() ? kNone : it->second.asyncTrack;
    };
    m_partial = std::make_unique<ChromePreviewPairs>(
        m_builder, [this](TrackInfo& info) { nameTrack(info); }, ChromePreviewPairs::Tasks{m_asyncTasks, track});
}

void ChromeTraceBuilder::addTopLevelKey(std::string_view key)
{
    if (key == "viztracer_metadata")
        m_viztracer = true;
}

// Matches B and E of one thread on a stack after a stable sort by time, so
// equal timestamps keep file order. An E ends the innermost open B, as in
// catapult; a different name is a warning. But the order of events with
// equal timestamps carries no meaning, so within such a run an E whose name
// does not match the innermost B is first matched by reordering: a later E
// of the run that does match goes first, or a later B of the run with the
// E's name opens first (a zero-length call written E-before-B).
//
// Except a stray: an E written after events of later times on its thread
// (out of timestamp order) whose name is that of no open B. Its place in
// time order was found by sorting, not written by the tracer, and its
// name ties it to nothing open, so ending the innermost B with it would cut
// a call short at the stray's time: it is ignored, with a warning. (In
// speedscope's too-many-end-events.json, alpha 0-14 µs and beta 1-13 µs are
// followed by E "gamma" and E "delta" at 5 µs: catapult, which reads in file
// order, Perfetto and speedscope keep 14 and 12 µs, and so does this.) An E
// written in order ends the innermost B whatever its name, as in catapult:
// catapult's own simple_trace.json ends "Asub with a name that wont fit"
// with an E named "Asub".
void ChromeTraceBuilder::matchBeginEnd(Thread& t, const std::function<void(std::size_t)>& matched)
{
    std::vector<BeginEnd> events = t.events.take();
    // Events arrive in file order.
    Time latest = kTimeMin;
    bool anyLate = false;
    for (BeginEnd& ev : events) {
        ev.late = ev.ts < latest;
        anyLate = anyLate || ev.late;
        latest = std::max(latest, ev.ts);
    }
    // Written in time order (most tracers do), they are sorted already.
    if (anyLate)
        std::stable_sort(events.begin(), events.end(), [](const BeginEnd& a, const BeginEnd& b) { return a.ts < b.ts; });
    std::vector<BeginEnd> stack;
    // Open Bs per name (indexed by StringId, back to zero between threads).
    std::vector<std::uint32_t>& openCount = m_openBegins;
    auto push = [&](const BeginEnd& ev) {
        if (ev.name >= openCount.size())
            openCount.resize(std::max<std::size_t>(ev.name + 1, openCount.size() * 2), 0);
        ++openCount[ev.name];
        stack.push_back(ev);
    };
    auto pop = [&]() {
        --openCount[stack.back().name];
        stack.pop_back();
    };
    auto close = [&](const BeginEnd& open, Time at) {
        m_flows.sliceBuilt(open.order, t.track, m_builder.addCall(t.track, open.label, open.ts, at, open.order));
    };
    auto nameOf = [&](const BeginEnd& ev) { return m_builder.string(ev.name); };

    std::size_t told = 0;
    for (std::size_t runStart = 0; runStart < events.size();) {
        if (runStart - told >= 65536) {
            matched(runStart);
            told = runStart;
        }
        std::size_t runEnd = runStart;
        while (runEnd < events.size() && events[runEnd].ts == events[runStart].ts)
            ++runEnd;
        for (std::size_t i = runStart; i < runEnd; ++i) {
            BeginEnd ev = events[i];
            if (ev.begin) {
                push(ev);
                continue;
            }
            // Moves the first later event of this run (within the window)
            // that satisfies `match` to position i, to be handled first.
            const std::size_t window = std::min(runEnd, i + 1 + kReorderWindow);
            auto pullForward = [&](auto&& match) {
                std::size_t j = i + 1;
                while (j < window && !match(events[j]))
                    ++j;
                if (j == window)
                    return false;
                std::rotate(events.begin() + std::ptrdiff_t(i), events.begin() + std::ptrdiff_t(j),
                            events.begin() + std::ptrdiff_t(j + 1));
                return true;
            };
            const bool mismatch = ev.name != kEmptyString && (stack.empty() || ev.name != stack.back().name);
            // (a) a later E of this run closes the innermost B: take it first;
            // (b) a later B of this run has this E's name: open it first.
            if (mismatch
                && ((!stack.empty() && pullForward([&](const BeginEnd& x) { return !x.begin && x.name == stack.back().name; }))
                    || pullForward([&](const BeginEnd& x) { return x.begin && x.name == ev.name; }))) {
                --i;
                continue;
            }
            if (stack.empty()) {
                m_diagnostics.warnWith("E without B", [&] {
                    return "E " + display(nameOf(ev)) + " (event #" + std::to_string(ev.order)
                        + ") has no open B on its thread; ignored";
                });
                continue;
            }
            if (ev.name != kEmptyString && ev.name != stack.back().name) {
                if (ev.late && (ev.name >= openCount.size() || openCount[ev.name] == 0)) {
                    m_diagnostics.warnWith("E without B", [&] {
                        return "E " + display(nameOf(ev)) + " (event #" + std::to_string(ev.order)
                            + ") comes after later events and matches no open B on its thread; ignored";
                    });
                    continue;
                }
                // As in catapult, an E ends the innermost B.
                m_diagnostics.warnWith("E name mismatch", [&] {
                    return "E " + display(nameOf(ev)) + " ends B " + display(nameOf(stack.back()));
                });
            }
            close(stack.back(), ev.ts);
            pop();
        }
        runStart = runEnd;
    }
    for (const BeginEnd& open : stack) {
        m_diagnostics.warnWith("B never closed", [&] {
            return "B " + display(nameOf(open)) + " is never closed; it ends with the profile";
        });
        m_flows.sliceBuilt(open.order, t.track,
                           m_builder.addCall(t.track, open.label, open.ts, ProfileBuilder::kOpen, open.order));
    }
    while (!stack.empty())
        pop();
}

// One async id = one task (walkAsyncTask's rules). Its top-level slices are
// its active intervals; nested slices are measurements it created. It
// exists from its first event to its last, and the last event's
// args.state, if any, says how it ended.
void ChromeTraceBuilder::buildAsyncTask(AsyncTask& task)
{
    std::vector<AsyncEvent>& events = task.events;
    std::stable_sort(events.begin(), events.end(), [](const AsyncEvent& a, const AsyncEvent& b) { return a.ts < b.ts; });
    if (events.empty())
        return;
    struct Open {
        MeasurementId measurement;
        Time start;
        std::uint32_t order;
        StringId name;
    };
    struct Build {
        ChromeTraceBuilder& chrome;
        const AsyncTask& of;
        TrackId track;
        MeasurementId id = kNone;
        std::vector<Open> stack{};
        std::vector<const AsyncEvent*> wakes{};

        void task(const AsyncEvent& first)
        {
            // Stated finished by its first event and never run: born finished.
            const bool bornFinished = of.events.front().state >= 0 && !of.anyBegin;
            id = chrome.m_builder.addMeasurement(track, first.label, of.events.front().ts,
                                                 of.onThread ? ProfileBuilder::kAutoCreator : kNone,
                                                 AsyncMeasurement | (bornFinished ? BornFinished : 0));
        }
        void begin(const AsyncEvent& ev, std::size_t depth)
        {
            const MeasurementId owner =
                depth == 0 ? id : chrome.m_builder.addMeasurement(track, ev.label, ev.ts, stack.back().measurement);
            stack.push_back(Open{owner, ev.ts, ev.order, ev.name});
        }
        void end(const AsyncEvent& ev, std::size_t, bool forced)
        {
            const Open open = stack.back();
            stack.pop_back();
            if (forced)
                chrome.m_diagnostics.warnWith("async begin without end", [&] {
                    return "async 'b' " + display(chrome.m_builder.string(open.name)) + " has no 'e'; it ends with "
                        + display(chrome.m_builder.string(ev.name));
                });
            chrome.m_builder.addInterval(open.measurement, open.start, ev.ts, open.order);
            chrome.m_flows.sliceBuilt(open.order, track, open.measurement);
            if (open.measurement != id)
                chrome.m_builder.finish(open.measurement, ev.ts, FinalState::Completed);
        }
        void unmatched(const AsyncEvent& ev, bool anyOpen)
        {
            chrome.m_diagnostics.warnWith("async end without begin", [&] {
                return "an async 'e' " + display(chrome.m_builder.string(ev.name))
                    + (anyOpen ? " matches no open 'b'; ignored" : " has no open 'b'; ignored");
            });
        }
        void wake(const AsyncEvent& ev) { wakes.push_back(&ev); }
        void mark(const AsyncEvent& ev)
        {
            Mark mark;
            mark.time = ev.ts;
            mark.track = track;
            mark.pid = of.pid;
            mark.name = ev.name;
            chrome.m_builder.addMark(mark);
        }
    };
    Build build{*this, task, task.onThread ? thread(task.pid, task.tid).track : asyncTrack(task.pid)};
    walkAsyncTask(events, task.anyFinalState, build);
    const MeasurementId taskId = build.id;
    task.measurement = taskId;
    if (taskId == kNone)
        return;
    for (const AsyncEvent* w : build.wakes) {
        m_builder.addWake(Wake{w->ts, taskId, std::uint8_t(w->wake)});
        m_recordedWakes = m_recordedWakes || (w->wake & Wake::Inferred) == 0;
    }
    if (!build.stack.empty()) {
        for (const Open& open : build.stack) {
            m_builder.addInterval(open.measurement, open.start, ProfileBuilder::kOpen, open.order);
            m_flows.sliceBuilt(open.order, build.track, open.measurement);
        }
        m_diagnostics.warnWith("async slice never ended", [&] {
            return "async slice " + display(m_builder.string(build.stack.back().name)) + " never ends; it ends with the profile";
        });
        return; // the task stays unfinished
    }
    const AsyncEvent& last = events.back();
    const FinalState state = last.state >= 0 ? FinalState(last.state) : FinalState::Completed;
    if (state != FinalState::Unfinished)
        m_builder.finish(taskId, last.ts, state);
    std::vector<AsyncEvent>().swap(events);
}

// Creators and triggers that args name by task id (ChromeTraceWriter
// writes them where deriving the creator would not find it): a named
// creator replaces the derived one, the task's own id says it has none.
// An id that names no task is ignored.
void ChromeTraceBuilder::linkThreadTasks()
{
    if (!m_threadTaskLinks)
        return;
    auto measurementOf = [this](std::int64_t id) {
        const auto it = m_tasksById.find(id);
        return it == m_tasksById.end() ? kNone : m_asyncTasks[it->second].measurement;
    };
    for (const AsyncTask& task : m_asyncTasks) {
        if (task.measurement == kNone)
            continue;
        if (task.hasCreatorTid)
            m_builder.setCreatedOn(task.measurement, m_builder.measurement(task.measurement).created,
                                   thread(task.pid, task.creatorTid).track);
        // A task naming itself was created by nothing (ChromeTraceWriter).
        if (const MeasurementId creator = measurementOf(task.creatorId); creator != kNone)
            m_builder.setCreator(task.measurement, creator == task.measurement ? kNone : creator);
        if (const MeasurementId trigger = measurementOf(task.triggerId); trigger != kNone && trigger != task.measurement)
            m_builder.addTrigger(task.measurement, trigger);
    }
}

} // namespace runlane
