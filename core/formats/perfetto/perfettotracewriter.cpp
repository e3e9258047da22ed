#include "perfettotracewriter.h"

#include "perfettotasknotes.h"
#include "perfettotracklayout.h"
#include "profile.h"
#include "protowirewriter.h"

#include <QSaveFile>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <unordered_map>
#include <vector>

namespace runlane {

namespace {

// Field numbers of google/perfetto's protos/perfetto/trace/perfetto_trace.proto.
namespace Trace {
constexpr std::uint32_t kPacket = 1;
} // namespace Trace
namespace Packet {
constexpr std::uint32_t kTimestamp = 8;
constexpr std::uint32_t kSequenceId = 10; // trusted_packet_sequence_id
constexpr std::uint32_t kTrackEvent = 11;
constexpr std::uint32_t kInternedData = 12;
constexpr std::uint32_t kSequenceFlags = 13;
constexpr std::uint32_t kTrackDescriptor = 60;
constexpr std::uint64_t kIncrementalStateCleared = 1; // SequenceFlags
constexpr std::uint64_t kNeedsIncrementalState = 2;
} // namespace Packet
namespace Descriptor {
constexpr std::uint32_t kUuid = 1;
constexpr std::uint32_t kName = 2;
constexpr std::uint32_t kProcess = 3;
constexpr std::uint32_t kThread = 4;
constexpr std::uint32_t kParent = 5;
constexpr std::uint32_t kCounter = 8;
constexpr std::uint32_t kSiblingMergeBehavior = 15;
constexpr std::uint32_t kSiblingMergeKey = 16;
constexpr std::uint64_t kBySiblingMergeKey = 3; // SiblingMergeBehavior
constexpr std::uint32_t kPid = 1; // Process- and ThreadDescriptor
constexpr std::uint32_t kTid = 2; // ThreadDescriptor
constexpr std::uint32_t kThreadName = 5;
constexpr std::uint32_t kProcessName = 6;
} // namespace Descriptor
namespace Event {
constexpr std::uint32_t kDebugAnnotations = 4;
constexpr std::uint32_t kType = 9;
constexpr std::uint32_t kNameIid = 10;
constexpr std::uint32_t kTrackUuid = 11;
constexpr std::uint32_t kSourceLocationIid = 34;
constexpr std::uint32_t kDoubleCounterValue = 44;
constexpr std::uint32_t kFlowIds = 47; // fixed64
constexpr std::uint32_t kTerminatingFlowIds = 48; // fixed64
constexpr std::uint64_t kSliceBegin = 1; // TrackEvent.Type
constexpr std::uint64_t kSliceEnd = 2;
constexpr std::uint64_t kInstant = 3;
constexpr std::uint64_t kCounter = 4;
} // namespace Event
namespace Interned {
constexpr std::uint32_t kEventNames = 2;
constexpr std::uint32_t kAnnotationNames = 3;
constexpr std::uint32_t kSourceLocations = 4;
constexpr std::uint32_t kIid = 1; // EventName and SourceLocation
constexpr std::uint32_t kName = 2; // EventName.name, SourceLocation.file_name
constexpr std::uint32_t kLine = 4; // SourceLocation.line_number
} // namespace Interned
namespace Annotation {
constexpr std::uint32_t kNameIid = 1;
constexpr std::uint32_t kName = 10;
constexpr std::uint32_t kBoolValue = 2;
constexpr std::uint32_t kUintValue = 3;
constexpr std::uint32_t kIntValue = 4;
constexpr std::uint32_t kDoubleValue = 5;
constexpr std::uint32_t kStringValue = 6;
constexpr std::uint32_t kLegacyJsonValue = 9;
} // namespace Annotation
using Notes = PerfettoTaskNotes;

constexpr std::uint64_t kSequence = 1;
constexpr std::size_t kChunk = std::size_t(1) << 20;

using Layout = PerfettoTrackLayout;

class Writer
{
public:
    Writer(const Profile& profile, const PerfettoTraceWriter::Sink& sink)
        : m_profile(profile), m_sink(sink), m_layout(profile), m_w(m_out)
    {
    }

    bool run(std::string& error)
    {
        const auto& events = m_layout.events();
        const Time first = std::min(m_profile.startTime(), events.empty() ? kTimeMax : events.front().time);
        if (first < 0) {
            error = "cannot write a Perfetto trace: its timestamps are unsigned and the profile has a time before 0 ("
                + std::to_string(first) + " ns)";
            return false;
        }
        m_nameIid.assign(m_profile.labelCount(), 0);
        m_locationIid.assign(m_profile.labelCount(), 0);
        collectTasks();
        collectFlows();
        for (const Layout::TrackOut& track : m_layout.tracks())
            descriptor(track);
        // The span where the events do not reach its ends (work that was
        // read but had nothing to show; what is open ends with the span).
        if (events.empty() || m_profile.startTime() < events.front().time)
            spanPacket(m_profile.startTime());
        for (const Layout::Event& e : events) {
            event(e);
            if (m_out.size() >= kChunk && !flush())
                break;
        }
        if (events.empty() || m_profile.endTime() > events.back().time)
            spanPacket(m_profile.endTime());
        if (!flush() || !m_tooLarge.empty()) {
            error = m_tooLarge.empty() ? "the output could not be written" : m_tooLarge;
            return false;
        }
        return true;
    }

private:
    bool flush()
    {
        if (m_ok && !m_out.empty())
            m_ok = m_sink(m_out);
        m_out.clear();
        return m_ok;
    }

    std::size_t beginPacket()
    {
        const std::size_t packet = m_w.beginMessage(Trace::kPacket);
        m_w.varint(Packet::kSequenceId, kSequence);
        if (m_first) {
            m_w.varint(Packet::kSequenceFlags, Packet::kIncrementalStateCleared);
            m_first = false;
        }
        return packet;
    }

    void end(std::size_t message)
    {
        if (!m_w.endMessage(message) && m_tooLarge.empty())
            m_tooLarge = "a packet of the trace would be larger than 256 MiB";
    }

    // A packet of a timestamp alone: it bounds the trace, as every
    // timestamp does in Perfetto.
    void spanPacket(Time t)
    {
        const std::size_t packet = beginPacket();
        m_w.varint(Packet::kTimestamp, std::uint64_t(t));
        end(packet);
    }

    void descriptor(const Layout::TrackOut& t)
    {
        const std::size_t packet = beginPacket();
        const std::size_t d = m_w.beginMessage(Packet::kTrackDescriptor);
        m_w.varint(Descriptor::kUuid, t.uuid);
        if (t.parent != 0)
            m_w.varint(Descriptor::kParent, t.parent);
        switch (t.kind) {
        case Layout::Kind::Process: {
            const std::size_t p = m_w.beginMessage(Descriptor::kProcess);
            m_w.varint(Descriptor::kPid, std::uint64_t(t.pid));
            if (!t.name.empty())
                m_w.bytes(Descriptor::kProcessName, t.name);
            end(p);
            break;
        }
        case Layout::Kind::Thread: {
            const std::size_t th = m_w.beginMessage(Descriptor::kThread);
            m_w.varint(Descriptor::kPid, std::uint64_t(t.pid));
            m_w.varint(Descriptor::kTid, std::uint64_t(t.tid));
            if (!t.name.empty())
                m_w.bytes(Descriptor::kThreadName, t.name);
            end(th);
            break;
        }
        case Layout::Kind::Counter:
            m_w.bytes(Descriptor::kName, t.name);
            end(m_w.beginMessage(Descriptor::kCounter)); // an empty CounterDescriptor: plain values
            break;
        case Layout::Kind::Async:
        case Layout::Kind::Global:
            m_w.bytes(Descriptor::kName, t.name);
            if (!t.mergeKey.empty()) {
                m_w.varint(Descriptor::kSiblingMergeBehavior, Descriptor::kBySiblingMergeKey);
                m_w.bytes(Descriptor::kSiblingMergeKey, t.mergeKey);
            }
            break;
        }
        end(d);
        end(packet);
    }

    // The profile's flows and the creators of async tasks, as flow ids
    // 1.. by the interval each starts and ends at.
    void collectFlows()
    {
        std::uint64_t id = 0;
        for (const Flow& f : m_profile.flows()) {
            ++id;
            m_flowOut.emplace_back(f.from, id);
            m_in.emplace_back(f.to, id);
        }
        for (MeasurementId m = 0; m < m_profile.measurementCount(); ++m) {
            const Measurement& task = m_profile.measurement(m);
            if (!task.isAsync() || task.creator == kNone || task.creator == m)
                continue;
            const auto ivs = m_profile.intervalsOf(m);
            const auto creator = m_profile.intervalsOf(task.creator);
            if (ivs.empty() || creator.empty())
                continue;
            // The creator's slice running at the creation, or its last one before.
            auto from = std::partition_point(creator.begin(), creator.end(), [&](IntervalId c) {
                return m_profile.interval(c).start <= task.created;
            });
            const IntervalId source = from == creator.begin() ? creator.front() : *(from - 1);
            // Drawn only if the source begins while the task's slice is
            // still open (a flow must start before it ends): its note
            // names the creator anyway.
            const Time targetEnd = m_layout.isOpen(ivs.front()) ? kTimeMax : m_profile.interval(ivs.front()).end;
            if (m_profile.interval(source).start >= targetEnd)
                continue;
            ++id;
            m_flowOut.emplace_back(source, id);
            m_in.emplace_back(ivs.front(), id);
            m_creatorFlows.emplace_back(ivs.front(), id);
        }
        std::sort(m_flowOut.begin(), m_flowOut.end());
        std::sort(m_in.begin(), m_in.end());
        std::sort(m_creatorFlows.begin(), m_creatorFlows.end());
        m_started.assign(id + 1, false);
    }

    template <class Each>
    static void idsOf(const std::vector<std::pair<IntervalId, std::uint64_t>>& list, IntervalId at, Each each)
    {
        if (list.empty())
            return;
        for (auto it = std::lower_bound(list.begin(), list.end(), std::make_pair(at, std::uint64_t(0)));
             it != list.end() && it->first == at; ++it)
            each(it->second);
    }

    // The string's event name id, interned in this packet if new.
    std::uint64_t internName(StringId name)
    {
        const auto [it, added] = m_namesByString.emplace(name, m_nameStrings.size() + 1);
        if (added) {
            m_nameStrings.push_back(m_profile.string(name));
            m_newNames.push_back(it->second);
        }
        return it->second;
    }

    // The label's name and source location as interned ids, interning
    // what is new in this packet.
    void internLabel(LabelId label, std::uint64_t& nameIid, std::uint64_t& locationIid)
    {
        const Label& l = m_profile.label(label);
        if (m_nameIid[label] == 0)
            m_nameIid[label] = internName(l.name);
        nameIid = m_nameIid[label];
        locationIid = 0;
        if (l.file == kEmptyString && l.line == 0)
            return;
        if (m_locationIid[label] == 0) {
            const std::uint64_t key = (std::uint64_t(l.file) << 32) | std::uint32_t(l.line);
            const auto [it, added] = m_locationsByKey.emplace(key, m_locationsByKey.size() + 1);
            if (added)
                m_newLocations.push_back(label);
            m_locationIid[label] = it->second;
        }
        locationIid = m_locationIid[label];
    }

    void internedData()
    {
        if (m_newNames.empty() && m_newLocations.empty() && m_newAnnotationNames.empty())
            return;
        const std::size_t data = m_w.beginMessage(Packet::kInternedData);
        for (const std::uint64_t iid : m_newNames) {
            const std::size_t name = m_w.beginMessage(Interned::kEventNames);
            m_w.varint(Interned::kIid, iid);
            m_w.bytes(Interned::kName, m_nameStrings[iid - 1]);
            end(name);
        }
        for (const std::uint64_t iid : m_newAnnotationNames) {
            const std::size_t name = m_w.beginMessage(Interned::kAnnotationNames);
            m_w.varint(Interned::kIid, iid);
            m_w.bytes(Interned::kName, Notes::kNames[iid - 1]);
            end(name);
        }
        for (const LabelId label : m_newLocations) {
            const Label& l = m_profile.label(label);
            const std::size_t location = m_w.beginMessage(Interned::kSourceLocations);
            m_w.varint(Interned::kIid, m_locationIid[label]);
            m_w.bytes(Interned::kName, m_profile.string(l.file));
            if (l.line > 0)
                m_w.varint(Interned::kLine, std::uint64_t(l.line));
            end(location);
        }
        end(data);
        m_newNames.clear();
        m_newLocations.clear();
        m_newAnnotationNames.clear();
    }

    void event(const Layout::Event& e)
    {
        std::uint64_t nameIid = 0;
        std::uint64_t locationIid = 0;
        MeasurementId task = kNone;
        if (e.kind == Layout::EventKind::Begin) {
            task = m_profile.interval(e.ref).measurement;
            internLabel(m_profile.measurement(task).label, nameIid, locationIid);
        } else if (e.kind == Layout::EventKind::Created) {
            task = e.ref;
            internLabel(m_profile.measurement(task).label, nameIid, locationIid);
        } else if (e.kind == Layout::EventKind::Wake) {
            if (m_wakeIid == 0) {
                m_nameStrings.push_back("wake");
                m_wakeIid = m_nameStrings.size();
                m_newNames.push_back(m_wakeIid);
            }
            nameIid = m_wakeIid;
        }
        const Mark* mark = e.kind == Layout::EventKind::Instant ? &m_profile.marks()[e.ref] : nullptr;
        const std::size_t packet = beginPacket();
        m_w.varint(Packet::kTimestamp, std::uint64_t(e.time));
        const std::size_t te = m_w.beginMessage(Packet::kTrackEvent);
        m_w.varint(Event::kTrackUuid, e.track);
        switch (e.kind) {
        case Layout::EventKind::Begin:
        case Layout::EventKind::Created:
            m_w.varint(Event::kType, e.kind == Layout::EventKind::Begin ? Event::kSliceBegin : Event::kInstant);
            m_w.varint(Event::kNameIid, nameIid);
            if (locationIid != 0)
                m_w.varint(Event::kSourceLocationIid, locationIid);
            if (m_annotated[task])
                taskNotes(task);
            if (e.kind == Layout::EventKind::Begin && m_profile.intervalsOf(task).front() == e.ref)
                args(task);
            if (e.kind == Layout::EventKind::Begin) {
                idsOf(m_creatorFlows, e.ref, [&](std::uint64_t flow) { note(Notes::CreatorFlow, flow); });
                beginFlows(e.ref);
            }
            break;
        case Layout::EventKind::End:
            m_w.varint(Event::kType, Event::kSliceEnd);
            endFlows(e.ref);
            break;
        case Layout::EventKind::Instant: {
            m_w.varint(Event::kType, Event::kInstant);
            m_w.varint(Event::kNameIid, internName(mark->name));
            if (mark->detail != kEmptyString) {
                const std::size_t a = m_w.beginMessage(Event::kDebugAnnotations);
                m_w.bytes(Annotation::kName, "detail");
                m_w.bytes(Annotation::kStringValue, m_profile.string(mark->detail));
                end(a);
            }
            break;
        }
        case Layout::EventKind::Wake: {
            const Wake& wake = m_profile.wakes()[e.ref];
            m_w.varint(Event::kType, Event::kInstant);
            m_w.varint(Event::kNameIid, nameIid);
            note(Notes::Wake, std::uint64_t(wake.task) + 1);
            if (wake.flags != 0)
                note(Notes::WakeFlags, wake.flags);
            break;
        }
        case Layout::EventKind::Counter:
            m_w.varint(Event::kType, Event::kCounter);
            m_w.doubleValue(Event::kDoubleCounterValue, m_profile.counters()[e.ref].values[e.point]);
            break;
        }
        end(te);
        const bool interned = e.kind != Layout::EventKind::End && e.kind != Layout::EventKind::Counter;
        internedData();
        if (interned)
            m_w.varint(Packet::kSequenceFlags, Packet::kNeedsIncrementalState);
        end(packet);
    }

    // Whether reading the measurement back from its slices alone gives it
    // again: one interval, created as it starts, completed as it ends (or
    // still open), a call on a thread or a task (or a slice in one) on an
    // async track, its creator the slice it runs in (none for a task).
    bool plain(MeasurementId id) const
    {
        const Measurement& m = m_profile.measurement(id);
        const auto ivs = m_profile.intervalsOf(id);
        if (ivs.size() != 1)
            return false;
        const Interval& iv = m_profile.interval(ivs[0]);
        const bool ended = m.finalState() == FinalState::Completed && m.finished == iv.end;
        if (m.created != iv.start || (m_layout.isOpen(ivs[0]) ? m.finalState() != FinalState::Unfinished : !ended))
            return false;
        const MeasurementId enclosing = iv.parent == kNone ? kNone : m_profile.interval(iv.parent).measurement;
        const std::uint32_t flags = m.flags & ~std::uint32_t(SingleInterval);
        if (m_profile.track(m.track).kind != TrackKind::Async)
            return flags == Call && m.creator == enclosing;
        if (iv.parent == kNone)
            return flags == AsyncMeasurement && m.creator == kNone;
        return flags == 0 && m.creator == enclosing;
    }

    // The measurements whose events carry notes (PerfettoTaskNotes): what
    // is not plain, the tasks woken, and their creators up to the root
    // (a note names its creator by the creator's own note).
    void collectTasks()
    {
        m_annotated.assign(m_profile.measurementCount(), false);
        m_described.assign(m_profile.measurementCount(), false);
        const auto noted = [this](MeasurementId m) {
            for (int hops = 0; m != kNone && !m_annotated[m] && hops < 1'000'000; ++hops) {
                m_annotated[m] = true;
                m = m_profile.measurement(m).creator;
            }
        };
        for (MeasurementId m = 0; m < m_profile.measurementCount(); ++m) {
            if (!plain(m))
                noted(m);
        }
        for (const Wake& wake : m_profile.wakes())
            noted(wake.task);
    }

    // A debug annotation of the notes, its name interned as the SDK does
    // (iid: the name's index + 1, defined in the packet of its first use).
    std::size_t beginNote(Notes::Name name)
    {
        if (m_annotationIid[name] == 0) {
            m_annotationIid[name] = std::uint64_t(name) + 1;
            m_newAnnotationNames.push_back(m_annotationIid[name]);
        }
        const std::size_t a = m_w.beginMessage(Event::kDebugAnnotations);
        m_w.varint(Annotation::kNameIid, m_annotationIid[name]);
        return a;
    }

    void note(Notes::Name name, std::uint64_t value, std::uint32_t field = Annotation::kUintValue)
    {
        const std::size_t a = beginNote(name);
        m_w.varint(field, value);
        end(a);
    }

    void noteText(Notes::Name name, std::string_view text)
    {
        const std::size_t a = beginNote(name);
        m_w.bytes(Annotation::kStringValue, text);
        end(a);
    }

    // A measurement's args (a Perfetto slice's debug annotations, read
    // back as they were) on its first slice, one annotation per key.
    void args(MeasurementId id)
    {
        const StringId text = m_profile.argsOf(id);
        if (text == kEmptyString)
            return;
        // Ordered: the keys come back in the order the file gave them.
        const nlohmann::ordered_json object = nlohmann::ordered_json::parse(m_profile.string(text), nullptr, false);
        if (!object.is_object())
            return;
        for (const auto& [key, value] : object.items()) {
            const std::size_t a = m_w.beginMessage(Event::kDebugAnnotations);
            m_w.bytes(Annotation::kName, key);
            if (value.is_string())
                m_w.bytes(Annotation::kStringValue, value.get_ref<const std::string&>());
            else if (value.is_boolean())
                m_w.varint(Annotation::kBoolValue, value.get<bool>() ? 1 : 0);
            else if (value.is_number_unsigned())
                m_w.varint(Annotation::kUintValue, value.get<std::uint64_t>());
            else if (value.is_number_integer())
                m_w.varint(Annotation::kIntValue, std::uint64_t(value.get<std::int64_t>()));
            else if (value.is_number_float())
                m_w.doubleValue(Annotation::kDoubleValue, value.get<double>());
            else
                m_w.bytes(Annotation::kLegacyJsonValue, value.dump());
            end(a);
        }
    }

    // The task's id on each of its events; the rest on its first.
    void taskNotes(MeasurementId id)
    {
        note(Notes::Task, std::uint64_t(id) + 1);
        if (m_described[id])
            return;
        m_described[id] = true;
        const Measurement& m = m_profile.measurement(id);
        note(Notes::Created, std::uint64_t(m.created), Annotation::kIntValue);
        note(Notes::Finished, std::uint64_t(m.finished), Annotation::kIntValue);
        noteText(Notes::State, finalStateName(m.finalState()));
        if (m.creator != kNone)
            note(Notes::Creator, std::uint64_t(m.creator) + 1);
        if (const std::uint32_t flags = m.flags & ~std::uint32_t(SingleInterval); flags != 0)
            note(Notes::Flags, flags);
    }

    void beginFlows(IntervalId id)
    {
        idsOf(m_flowOut, id, [&](std::uint64_t flow) {
            m_w.fixed64(Event::kFlowIds, flow);
            m_started[flow] = true;
        });
        idsOf(m_in, id, [&](std::uint64_t flow) {
            if (m_started[flow])
                m_w.fixed64(Event::kTerminatingFlowIds, flow);
            else
                m_deferred.emplace_back(id, flow);
        });
    }

    // A flow whose source begins after its target's begin ends at the
    // target's end: reading a stream, the id must be known by then.
    void endFlows(IntervalId id)
    {
        for (auto it = m_deferred.begin(); it != m_deferred.end();) {
            if (it->first != id) {
                ++it;
                continue;
            }
            if (m_started[it->second])
                m_w.fixed64(Event::kTerminatingFlowIds, it->second);
            it = m_deferred.erase(it);
        }
    }

    const Profile& m_profile;
    const PerfettoTraceWriter::Sink& m_sink;
    PerfettoTrackLayout m_layout;
    std::string m_out;
    ProtoWireWriter m_w;
    bool m_first = true;
    bool m_ok = true;
    std::string m_tooLarge;
    // Interning: per label its ids (0: not yet), names by string.
    std::vector<std::uint64_t> m_nameIid;
    std::vector<std::uint64_t> m_locationIid;
    std::unordered_map<StringId, std::uint64_t> m_namesByString;
    std::vector<std::string_view> m_nameStrings; // by iid - 1
    std::uint64_t m_wakeIid = 0;
    std::array<std::uint64_t, Notes::kNameCount> m_annotationIid{};
    std::vector<std::uint64_t> m_newAnnotationNames;
    // Per measurement: whether its events carry notes, and whether its
    // first one was written.
    std::vector<bool> m_annotated;
    std::vector<bool> m_described;
    std::unordered_map<std::uint64_t, std::uint64_t> m_locationsByKey;
    std::vector<std::uint64_t> m_newNames;
    std::vector<LabelId> m_newLocations;
    // Flows by (interval, id), sorted; ends waiting for their source.
    std::vector<std::pair<IntervalId, std::uint64_t>> m_flowOut;
    std::vector<std::pair<IntervalId, std::uint64_t>> m_in;
    std::vector<bool> m_started;
    std::vector<std::pair<IntervalId, std::uint64_t>> m_deferred;
    // The flows that stand for an async task's creator, by the task's slice.
    std::vector<std::pair<IntervalId, std::uint64_t>> m_creatorFlows;
};

} // namespace

bool PerfettoTraceWriter::write(const Profile& profile, const Sink& sink, std::string& error)
{
    return Writer(profile, sink).run(error);
}

std::string PerfettoTraceWriter::toString(const Profile& profile, std::string* error)
{
    std::string all;
    std::string why;
    const bool ok = write(
        profile,
        [&all](const std::string& chunk) {
            all += chunk;
            return true;
        },
        why);
    if (error)
        *error = why;
    return ok ? all : std::string();
}

bool PerfettoTraceWriter::writeFile(const Profile& profile, const QString& path, std::string& error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        error = "cannot write " + path.toStdString() + ": " + file.errorString().toStdString();
        return false;
    }
    std::string why;
    const bool ok = write(
        profile,
        [&file](const std::string& chunk) {
            return file.write(chunk.data(), qint64(chunk.size())) == qint64(chunk.size());
        },
        why);
    if (!ok || !file.commit()) {
        error = !why.empty() && why != "the output could not be written"
            ? why
            : "cannot write " + path.toStdString() + ": " + file.errorString().toStdString();
        return false;
    }
    return true;
}

} // namespace runlane
