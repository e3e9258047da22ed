#include "perfettotracks.h"

#include "perfettofield.h"
#include "previewtarget.h"
#include "profilebuilder.h"
#include "protowirereader.h"

#include <algorithm>

namespace runlane {

namespace {

// Parents are followed this far: a cycle of parent_uuids ends here.
constexpr int kMaxAncestors = 32;
constexpr std::uint64_t kBySiblingMergeKey = 3; // TrackDescriptor.SiblingMergeBehavior

} // namespace

PerfettoTracks::PerfettoTracks(ProfileBuilder& builder) : m_builder(builder)
{
    if (PreviewSettings* settings = builder.previewSettings()) {
        m_previewing = true;
        settings->nameTrack = [this](TrackInfo& info) { nameTrack(info); };
        settings->addTasks = [this](PreviewTarget& target) { return addTasks(target); };
        settings->completeUpTo = [this] { return completeUpTo(); };
    }
}

void PerfettoTracks::describe(const ProtoWireReader& field)
{
    ProtoWireReader r = field.message();
    constexpr const char* kWhat = "TrackDescriptor";
    std::uint64_t uuid = 0;
    Descriptor d;
    d.described = true;
    StringId cmdline = kEmptyString;
    bool mergeByKey = false;
    StringId mergeKey = kEmptyString;
    while (r.next()) {
        switch (r.field()) {
        case 1:
            uuid = PerfettoField::varint(r, kWhat);
            break;
        case 5:
            d.parent = PerfettoField::varint(r, kWhat);
            break;
        case 2: // name, static_name, atrace_name
        case 10:
        case 13:
            d.name = m_builder.intern(PerfettoField::bytes(r, kWhat));
            break;
        case 3: {
            PerfettoField::bytes(r, kWhat);
            d.isProcess = true;
            for (ProtoWireReader p = r.message(); p.next();) {
                if (p.field() == 1)
                    d.pid = std::int32_t(PerfettoField::varint(p, "ProcessDescriptor"));
                else if (p.field() == 6)
                    d.processName = m_builder.intern(PerfettoField::bytes(p, "ProcessDescriptor"));
                else if (p.field() == 2 && cmdline == kEmptyString)
                    cmdline = m_builder.intern(PerfettoField::bytes(p, "ProcessDescriptor"));
            }
            break;
        }
        case 4: {
            PerfettoField::bytes(r, kWhat);
            d.isThread = true;
            for (ProtoWireReader t = r.message(); t.next();) {
                if (t.field() == 1)
                    d.pid = std::int32_t(PerfettoField::varint(t, "ThreadDescriptor"));
                else if (t.field() == 2)
                    d.tid = std::int64_t(PerfettoField::varint(t, "ThreadDescriptor"));
                else if (t.field() == 5)
                    d.threadName = m_builder.intern(PerfettoField::bytes(t, "ThreadDescriptor"));
            }
            break;
        }
        case 15:
            mergeByKey = PerfettoField::varint(r, kWhat) == kBySiblingMergeKey;
            break;
        case 16:
            mergeKey = m_builder.intern(PerfettoField::bytes(r, kWhat));
            break;
        case 8: {
            PerfettoField::bytes(r, kWhat);
            d.isCounter = true;
            for (ProtoWireReader c = r.message(); c.next();) {
                if (c.field() == 4) {
                    const auto m = std::int64_t(PerfettoField::varint(c, "CounterDescriptor"));
                    d.multiplier = m == 0 ? 1.0 : double(m);
                } else if (c.field() == 5) {
                    d.incremental = PerfettoField::varint(c, "CounterDescriptor") != 0;
                }
            }
            break;
        }
        default:
            break;
        }
    }
    if (mergeByKey)
        d.mergeKey = mergeKey;
    // As Perfetto: a process without a name is called by its command line.
    if (d.isProcess && d.processName == kEmptyString)
        d.processName = cmdline;
    if (d.isProcess && d.processName != kEmptyString)
        m_processNames[d.pid] = d.processName;
    // A thread track's own name is the thread's, if it gives one.
    if (d.isThread && d.name != kEmptyString && d.threadName == kEmptyString)
        d.threadName = d.name;
    ++m_namesVersion;
    // Descriptors are written again after every reset of a sequence: what
    // a track became at its first event stays.
    Descriptor& existing = descriptor(uuid);
    if (existing.bound) {
        existing.described = true;
        existing.name = d.name;
        existing.threadName = d.threadName;
        existing.processName = d.processName;
        return;
    }
    d.stack = std::move(existing.stack);
    existing = std::move(d);
    replay(uuid);
}

PerfettoTracks::Descriptor& PerfettoTracks::descriptor(std::uint64_t uuid)
{
    if (m_lastDescriptor == nullptr || m_lastUuid != uuid) {
        m_lastDescriptor = &m_tracks[uuid];
        m_lastUuid = uuid;
    }
    return *m_lastDescriptor;
}

bool PerfettoTracks::mustWait(std::uint64_t uuid)
{
    if (m_giveUpWaiting)
        return false;
    if (m_lastDescriptor == nullptr || m_lastUuid != uuid) {
        const auto found = m_tracks.find(uuid);
        if (found == m_tracks.end())
            return true;
        m_lastDescriptor = &found->second;
        m_lastUuid = uuid;
    }
    return !(m_lastDescriptor->described || m_lastDescriptor->bound);
}

void PerfettoTracks::keep(std::uint64_t uuid, PerfettoTrackEvent e)
{
    auto [it, added] = m_waiting.try_emplace(uuid);
    if (added)
        m_waitingOrder.push_back(uuid);
    it->second.push_back(std::move(e));
}

void PerfettoTracks::replay(std::uint64_t uuid)
{
    const auto found = m_waiting.find(uuid);
    if (found == m_waiting.end())
        return;
    std::vector<PerfettoTrackEvent> events = std::move(found->second);
    m_waiting.erase(found);
    const bool replaying = m_replaying;
    m_replaying = true;
    for (PerfettoTrackEvent& e : events)
        event(e);
    m_replaying = replaying;
}

std::uint64_t PerfettoTracks::legacyThread(std::int64_t pid, std::int64_t tid, StringId name)
{
    // Not a uuid any writer gives out: the top bit and the thread.
    const std::uint64_t uuid = (std::uint64_t(1) << 63) ^ (std::uint64_t(std::uint32_t(pid)) << 32)
        ^ std::uint64_t(std::uint32_t(tid));
    Descriptor& d = descriptor(uuid);
    if (!d.bound) {
        d.described = true;
        d.isThread = true;
        d.pid = pid;
        d.tid = tid;
    }
    if (name != kEmptyString) {
        d.threadName = name;
        ++m_namesVersion;
    }
    return uuid;
}

void PerfettoTracks::legacyProcess(std::int64_t pid, StringId name)
{
    if (name != kEmptyString) {
        m_processNames[pid] = name;
        ++m_namesVersion;
    }
}

TrackId PerfettoTracks::threadTrack(std::int64_t pid, std::int64_t tid)
{
    const auto [it, added] = m_threads.emplace(std::make_pair(pid, tid), kNone);
    if (added) {
        TrackInfo info;
        info.kind = TrackKind::Thread;
        info.pid = pid;
        info.tid = tid;
        it->second = m_builder.addTrack(info);
    }
    return it->second;
}

std::string PerfettoTracks::trackText(std::uint64_t uuid) const
{
    const auto found = m_tracks.find(uuid);
    if (found != m_tracks.end() && found->second.name != kEmptyString)
        return "track " + std::to_string(uuid) + " " + Diagnostics::quoted(m_builder.string(found->second.name));
    return "track " + std::to_string(uuid);
}

PerfettoTracks::Descriptor& PerfettoTracks::bind(std::uint64_t uuid)
{
    Descriptor& d = descriptor(uuid);
    if (!d.bound)
        bindTrack(uuid, d);
    return d;
}

void PerfettoTracks::bindTrack(std::uint64_t uuid, Descriptor& d)
{
    d.bound = true;
    ++m_namesVersion;
    if (!d.described)
        m_builder.diagnostics().warnWith("track without descriptor", [&] {
            return "events on track " + std::to_string(uuid) + ", which no TrackDescriptor describes: an async track";
        });
    if (d.isThread) {
        d.track = threadTrack(d.pid, d.tid);
        return;
    }
    // The process (or thread) it belongs to: itself or its nearest ancestor.
    std::int64_t pid = 0;
    const Descriptor* at = &d;
    for (int hop = 0; at != nullptr && hop < kMaxAncestors; ++hop) {
        if (at->isProcess || at->isThread) {
            pid = at->pid;
            break;
        }
        const auto parent = at->parent != 0 ? m_tracks.find(at->parent) : m_tracks.end();
        at = parent != m_tracks.end() ? &parent->second : nullptr;
    }
    if (d.isCounter) {
        const StringId name = d.name != kEmptyString ? d.name : m_builder.intern("counter " + std::to_string(uuid));
        d.counter = m_builder.addCounter(name, kEmptyString, pid);
        return;
    }
    d.async = true;
    TrackId* merged = nullptr;
    if (d.mergeKey != kEmptyString) {
        merged = &m_merged.try_emplace({d.parent, d.mergeKey}, kNone).first->second;
        if (*merged != kNone) {
            d.track = *merged;
            return;
        }
    }
    TrackInfo info;
    info.kind = TrackKind::Async;
    info.pid = pid;
    // Async tracks of one process are told apart and kept in file order.
    info.tid = std::int64_t(m_builder.trackCount());
    d.track = m_builder.addTrack(info);
    if (merged)
        *merged = d.track;
}

void PerfettoTracks::event(PerfettoTrackEvent& e)
{
    if (!m_replaying) {
        m_inOrder = m_inOrder && e.time >= m_latest;
        m_latest = std::max(m_latest, e.time);
    }
    // Extra counter values on tracks not described yet wait as counter
    // events of their own.
    for (auto extra = e.extraCounters.begin(); extra != e.extraCounters.end();) {
        PerfettoTrackEvent value;
        value.type = PerfettoTrackEvent::Type::Counter;
        value.time = e.time;
        value.track = extra->first;
        value.hasCounter = true;
        value.counter = extra->second;
        value.offset = e.offset;
        if (mustWait(extra->first)) {
            keep(extra->first, std::move(value));
            extra = e.extraCounters.erase(extra);
        } else {
            ++extra;
        }
    }
    // Copied only to wait: nearly every event's track is known.
    if (e.type != PerfettoTrackEvent::Type::Unspecified && mustWait(e.track)) {
        PerfettoTrackEvent alone = e;
        alone.extraCounters.clear(); // they go on now
        keep(e.track, std::move(alone));
        e.type = PerfettoTrackEvent::Type::Unspecified;
    }
    switch (e.type) {
    case PerfettoTrackEvent::Type::Counter:
        if (e.hasCounter)
            counterPoint(e.track, e.time, e.counter, e.offset);
        break;
    case PerfettoTrackEvent::Type::SliceBegin:
        begin(bind(e.track), e);
        break;
    case PerfettoTrackEvent::Type::SliceEnd:
        end(bind(e.track), e);
        break;
    case PerfettoTrackEvent::Type::Instant:
        instant(bind(e.track), e);
        break;
    case PerfettoTrackEvent::Type::Unspecified:
        break;
    }
    for (const auto& [track, value] : e.extraCounters)
        counterPoint(track, e.time, value, e.offset);
}

void PerfettoTracks::counterPoint(std::uint64_t uuid, Time t, double value, std::int64_t offset)
{
    // Not bound first: a value on a thread must not make its track.
    Descriptor& d = descriptor(uuid);
    if (!d.isCounter) {
        m_builder.diagnostics().warnWith("counter value on a track that is no counter", [&] {
            return "a counter value at byte " + std::to_string(offset) + " is on " + trackText(uuid)
                + ", which has no CounterDescriptor; ignored";
        });
        return;
    }
    if (!d.bound)
        bindTrack(uuid, d);
    value *= d.multiplier;
    if (d.incremental) {
        d.counterValue += value;
        value = d.counterValue;
    }
    m_builder.addCounterPoint(d.counter, t, value);
    m_builder.extendSpan(t);
}

void PerfettoTracks::flowKeys(const PerfettoTrackEvent& e, Open& open)
{
    for (const std::uint64_t id : e.flows) {
        const auto [it, added] = m_flowKeys.emplace(id, m_nextFlowKey);
        if (added)
            ++m_nextFlowKey;
        open.flows.push_back(it->second);
    }
    // A terminated id starts a new flow when it is used again, as in Perfetto.
    for (const std::uint64_t id : e.terminatingFlows) {
        const auto found = m_flowKeys.find(id);
        if (found == m_flowKeys.end())
            continue; // a flow that was never started: nothing to end
        if (id == open.creatorFlow)
            m_creatorKeys.insert(found->second); // the task's creator, not a flow
        else
            open.terminatingFlows.push_back(found->second);
        m_flowKeys.erase(found);
    }
}

void PerfettoTracks::flowPoints(const Descriptor& d, MeasurementId measurement, Time at, const Open& open, bool slice)
{
    FlowBinder::Point point;
    point.time = at;
    point.order = open.order;
    point.track = d.track;
    point.measurement = measurement;
    point.binding = slice ? FlowBinder::Binding::Slice : FlowBinder::Binding::Enclosing;
    point.role = FlowBinder::Role::Step;
    for (const std::uint32_t key : open.flows) {
        point.key = key;
        m_flowPoints.push_back(point);
    }
    point.role = FlowBinder::Role::End;
    for (const std::uint32_t key : open.terminatingFlows) {
        point.key = key;
        m_flowPoints.push_back(point);
    }
}

void PerfettoTracks::begin(Descriptor& d, const PerfettoTrackEvent& e)
{
    if (d.isCounter) {
        m_builder.diagnostics().warnWith("slice on a counter track", [&] {
            return "a slice at byte " + std::to_string(e.offset) + " is on counter " + trackText(e.track) + "; ignored";
        });
        return;
    }
    // The span so far covers what was read (an open slice's end is the
    // span's, in a preview too); the final span is the intervals' anyway.
    m_builder.extendSpan(e.time);
    Open open;
    open.label = m_builder.label(e.name, e.file, e.line);
    open.start = e.time;
    open.order = m_order++;
    open.args = e.args;
    open.task = e.notes.task;
    open.creatorFlow = e.notes.creatorFlow;
    flowKeys(e, open);
    if (open.task != 0) {
        // A call is made whole at its end, as on a thread.
        Task& task = noteTask(e.notes);
        if (task.measurement == kNone && (task.notes.flags & Call) == 0)
            task.measurement = m_builder.addMeasurement(d.track, open.label,
                                                        task.notes.described ? task.notes.created : e.time, kNone,
                                                        task.notes.flags);
        open.measurement = task.measurement;
    } else if (d.async) {
        const bool task = d.stack.empty();
        open.measurement = m_builder.addMeasurement(d.track, open.label, e.time,
                                                    task ? kNone : d.stack.back().measurement,
                                                    task ? AsyncMeasurement : 0);
        if (task && m_previewing && !m_noteTasks) {
            open.previewTask = std::uint32_t(m_previewTasks.size());
            m_previewTasks.push_back(PreviewTask{open.measurement, open.order, ProfileBuilder::kOpen});
            m_selection.touch(open.previewTask);
        }
    }
    d.stack.push_back(std::move(open));
}

void PerfettoTracks::end(Descriptor& d, const PerfettoTrackEvent& e)
{
    if (d.isCounter)
        return; // its begin was already refused
    if (d.stack.empty()) {
        m_builder.diagnostics().warnWith("slice end without begin", [&] {
            return "a slice end at byte " + std::to_string(e.offset) + " on " + trackText(e.track)
                + " has no open slice; ignored";
        });
        return;
    }
    Open open = std::move(d.stack.back());
    d.stack.pop_back();
    // Flow ids on the end belong to the slice it ends.
    flowKeys(e, open);
    Time at = e.time;
    if (at < open.start) {
        m_builder.diagnostics().warnWith("slice ends before it begins", [&] {
            return "a slice end at byte " + std::to_string(e.offset) + " on " + trackText(e.track)
                + " is earlier than its begin; the slice is given no length";
        });
        at = open.start;
    }
    m_builder.extendSpan(at);
    close(d, open, at);
}

void PerfettoTracks::close(Descriptor& d, const Open& open, Time at)
{
    MeasurementId measurement = open.measurement;
    if (open.task != 0) {
        Task& task = m_tasks[open.task];
        if (task.measurement == kNone)
            task.measurement = m_builder.addCall(d.track, open.label, open.start, at, open.order);
        else
            m_builder.addInterval(task.measurement, open.start, at, open.order);
        measurement = task.measurement;
    } else if (d.async) {
        m_builder.addInterval(measurement, open.start, at, open.order);
        if (at != ProfileBuilder::kOpen)
            m_builder.finish(measurement, at, FinalState::Completed);
        if (open.previewTask != kNone && !m_noteTasks) {
            m_previewTasks[open.previewTask].end = at;
            m_selection.touch(open.previewTask);
        }
    } else {
        measurement = m_builder.addCall(d.track, open.label, open.start, at, open.order);
    }
    if (open.args != kEmptyString)
        m_builder.setArgs(measurement, open.args);
    flowPoints(d, measurement, open.start, open, true);
}

void PerfettoTracks::instant(Descriptor& d, const PerfettoTrackEvent& e)
{
    if (d.isCounter) {
        m_builder.diagnostics().warnWith("instant on a counter track", [&] {
            return "an instant at byte " + std::to_string(e.offset) + " is on counter " + trackText(e.track)
                + "; ignored";
        });
        return;
    }
    if (e.notes.wake != 0) {
        m_noteTasks = true;
        m_wakes.push_back(PendingWake{e.time, e.notes.wake, e.notes.wakeFlags});
        return;
    }
    if (e.notes.task != 0) { // a task that never ran, at its creation
        Task& task = noteTask(e.notes);
        if (task.measurement == kNone)
            task.measurement = m_builder.addMeasurement(d.track, m_builder.label(e.name, e.file, e.line),
                                                        task.notes.described ? task.notes.created : e.time, kNone,
                                                        task.notes.flags);
        return;
    }
    Mark mark;
    mark.time = e.time;
    mark.track = d.track;
    mark.pid = m_builder.trackInfo(d.track).pid;
    mark.name = e.name;
    mark.detail = e.args;
    m_builder.addMark(mark);
    m_builder.extendSpan(e.time);
    Open open;
    open.order = m_order++;
    flowKeys(e, open);
    flowPoints(d, kNone, e.time, open, false);
}

PerfettoTracks::Task& PerfettoTracks::noteTask(const PerfettoTaskNotes& notes)
{
    m_noteTasks = true;
    Task& task = m_tasks[notes.task];
    if (notes.described && !task.notes.described)
        task.notes = notes;
    return task;
}

void PerfettoTracks::finishTasks()
{
    for (const auto& [id, task] : m_tasks) {
        if (task.measurement == kNone || !task.notes.described)
            continue;
        const auto creator = task.notes.creator != 0 ? m_tasks.find(task.notes.creator) : m_tasks.end();
        m_builder.setCreator(task.measurement, creator != m_tasks.end() ? creator->second.measurement : kNone);
        const bool open = task.notes.state == FinalState::Unfinished;
        m_builder.finish(task.measurement, open ? ProfileBuilder::kOpen : task.notes.finished, task.notes.state);
    }
    for (const PendingWake& wake : m_wakes) {
        const auto task = m_tasks.find(wake.task);
        if (task == m_tasks.end() || task->second.measurement == kNone) {
            m_builder.diagnostics().warnWith("wake of no task", [&] {
                return "a wake at " + std::to_string(wake.time) + " ns names task " + std::to_string(wake.task)
                    + ", which no event is of; ignored";
            });
            continue;
        }
        m_builder.addWake(Wake{wake.time, task->second.measurement, wake.flags});
    }
    if (!m_wakes.empty())
        m_builder.setWakeSource(WakeSource::Wakes);
}

void PerfettoTracks::finish()
{
    m_giveUpWaiting = true;
    for (const std::uint64_t uuid : m_waitingOrder)
        replay(uuid);
    std::uint64_t unended = 0;
    for (auto& [uuid, d] : m_tracks) {
        for (const Open& open : d.stack)
            close(d, open, ProfileBuilder::kOpen);
        unended += d.stack.size();
        d.stack.clear();
    }
    const TrackNames names = trackNames();
    for (const auto& [track, name] : names.async)
        m_builder.trackInfo(track).displayName = name;
    for (const auto& [thread, name] : names.threads) {
        const auto found = m_threads.find(thread);
        if (found != m_threads.end())
            m_builder.trackInfo(found->second).threadName = name;
    }
    finishTasks();
    for (const FlowBinder::Point& point : m_flowPoints) {
        if (!m_creatorKeys.contains(point.key))
            m_builder.addFlowPoint(point);
    }
    if (unended > 0)
        m_builder.diagnostics().warn("slice never ended", std::to_string(unended)
                                         + (unended == 1 ? " slice has" : " slices have")
                                         + " a begin and no end; they end with the profile");
    for (const auto& [key, track] : m_threads) {
        const auto name = m_processNames.find(key.first);
        if (name != m_processNames.end())
            m_builder.trackInfo(track).processName = name->second;
    }
}

Time PerfettoTracks::completeUpTo() const
{
    if (!m_inOrder)
        return kTimeMin;
    Time complete = m_latest;
    for (const auto& [uuid, d] : m_tracks) {
        if (!d.stack.empty())
            complete = std::min(complete, d.stack.front().start);
    }
    // In time order, a track's first waiting event is its earliest.
    for (const auto& [uuid, events] : m_waiting) {
        if (!events.empty())
            complete = std::min(complete, events.front().time);
    }
    return complete;
}

// One pass over the descriptors, in the map's order: where several name
// one track (merged siblings, a thread described again), the last one
// read in that order names it, in the previews as at the end.
PerfettoTracks::TrackNames PerfettoTracks::trackNames() const
{
    TrackNames names;
    for (const auto& [uuid, d] : m_tracks) {
        if (d.async && d.bound)
            names.async[d.track] = d.name != kEmptyString ? d.name
                : d.isProcess && d.processName != kEmptyString ? d.processName
                                                               : m_builder.intern(trackText(uuid));
        if (d.isThread && d.threadName != kEmptyString)
            names.threads[{d.pid, d.tid}] = d.threadName;
    }
    return names;
}

// A preview's track, named as finish() will name it from the descriptors
// read so far. They are looked at again only after one changed: a preview
// names every track.
void PerfettoTracks::nameTrack(TrackInfo& info) const
{
    if (m_previewNamesVersion != m_namesVersion) {
        m_previewNames = trackNames();
        m_previewNamesVersion = m_namesVersion;
    }
    if (info.kind == TrackKind::Async) {
        // An async track's tid is its id (bindTrack).
        const auto name = m_previewNames.async.find(TrackId(info.tid));
        if (name != m_previewNames.async.end())
            info.displayName = name->second;
        return;
    }
    const auto thread = m_previewNames.threads.find({info.pid, info.tid});
    if (thread != m_previewNames.threads.end())
        info.threadName = thread->second;
    const auto process = m_processNames.find(info.pid);
    if (process != m_processNames.end())
        info.processName = process->second;
}

// The outermost slices of the async tracks so far, as finish() would make
// them of the events read: a slice still open is a task not yet finished.
// Their nested slices are left to the final profile, as Chrome's are.
std::optional<std::uint64_t> PerfettoTracks::addTasks(PreviewTarget& target)
{
    if (m_noteTasks)
        return std::nullopt;
    // A task still open lives until the latest time read, but its end may
    // come with an earlier time (sequences interleave): not settled.
    const Time now = m_builder.spanSoFar().second;
    const std::uint64_t leftOut = m_selection.select(
        target.taskBudget(),
        [this, now](std::uint32_t i) -> std::optional<LongestLivedTasks::Life> {
            const PreviewTask& task = m_previewTasks[i];
            const Time start = m_builder.measurement(task.measurement).created;
            if (task.end != ProfileBuilder::kOpen)
                return LongestLivedTasks::Life{std::uint64_t(task.end) - std::uint64_t(start)};
            return LongestLivedTasks::Life{std::uint64_t(std::max(start, now)) - std::uint64_t(start), false};
        },
        m_kept);
    ProfileBuilder& preview = target.profile();
    for (const LongestLivedTasks::Kept& kept : m_kept) {
        const PreviewTask& task = m_previewTasks[kept.task];
        const Measurement& m = m_builder.measurement(task.measurement);
        const MeasurementId id = preview.addMeasurement(TrackId(m.track), target.label(m.label), m.created, kNone,
                                                        AsyncMeasurement);
        preview.addInterval(id, m.created, task.end, task.order);
        if (task.end != ProfileBuilder::kOpen)
            preview.finish(id, task.end, FinalState::Completed);
    }
    return leftOut;
}

} // namespace runlane
