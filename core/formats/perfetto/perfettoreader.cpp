#include "perfettoreader.h"

#include "blockpipeline.h"
#include "chunkedfilereader.h"
#include "loaderror.h"
#include "perfettoannotations.h"
#include "perfettodecompressor.h"
#include "perfettofield.h"
#include "perfettopacketnames.h"
#include "perfettopacketsplitter.h"
#include "perfettotrackevent.h"
#include "profilebuilder.h"
#include "protowirereader.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <optional>
#include <vector>

namespace runlane {

namespace {

constexpr std::uint32_t kIncrementalStateCleared = 1; // TracePacket.SequenceFlags
constexpr std::uint32_t kNeedsIncrementalState = 2;

// "7,475"
std::string grouped(std::uint64_t n)
{
    const std::string digits = std::to_string(n);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

} // namespace

PerfettoReader::PerfettoReader(ProfileBuilder& builder) : m_builder(builder), m_tracks(builder)
{
}

void PerfettoReader::cutShort(std::int64_t start, const std::string& what)
{
    m_builder.diagnostics().warn("truncated file", "the trace is cut short after packet " + grouped(m_packets)
                                     + " at byte " + std::to_string(start) + ": " + what
                                     + "; what came before is read");
}

void PerfettoReader::read(ChunkedFileReader& in)
{
    using End = PerfettoPacketBlock::End;
    const std::atomic<bool>* cancel = in.control().cancel;
    BlockPipeline<PerfettoPacketSplitter> pipeline(in);
    while (const PerfettoPacketBlock* block = pipeline.next()) {
        m_otherTraceFields += block->otherTraceFields;
        const bool scanned = !block->scanned.empty();
        for (std::size_t i = 0; i < block->packets.size(); ++i) {
            const PerfettoPacketBlock::Packet& p = block->packets[i];
            m_packetStart = p.start;
            packet(block->packet(p), p.offset, 0, scanned && block->scanned[i] ? &block->scans[i] : nullptr);
        }
        switch (block->end) {
        case End::None:
            break;
        case End::CutShort:
            return cutShort(block->endAt, block->what);
        case End::CutInPacket:
            return cutShort(block->endAt, "packet " + grouped(m_packets + 1) + " is " + grouped(block->length)
                                              + " bytes long and " + grouped(block->received) + " are left");
        case End::Unreadable:
            // The splitter throws when nothing was read: this is no trace.
            m_builder.diagnostics().warn("unreadable rest", "the trace is unreadable after packet "
                                             + grouped(m_packets) + " at byte " + std::to_string(block->endAt)
                                             + ": " + block->what + "; the rest of the file is ignored");
            return;
        }
        // The producer checks once per chunk it reads, ahead of this
        // thread: this keeps Cancel as prompt as it was. A load stopped to
        // keep what was read keeps every packet before the producer's stop
        // (the cut's byte): those blocks are read first.
        if (cancel && cancel->load(std::memory_order_relaxed) && !in.control().keepsWhatWasRead())
            throw LoadCancelled();
    }
}

void PerfettoReader::packet(std::string_view bytes, std::int64_t offset, int depth, const PerfettoPacketScan* scanned)
{
    m_builder.pollPreview(m_packets); // a preview of the packets before this one
    ++m_packets;
    try {
        if (scanned != nullptr) {
            readPacket(*scanned, bytes, depth);
        } else {
            PerfettoPacketScan scan;
            scan.read(bytes, offset);
            readPacket(scan, bytes, depth);
        }
    } catch (const FormatError& e) {
        m_builder.diagnostics().warnWith("malformed packet", [&] {
            std::string where = m_compressedAt >= 0
                ? "packet " + grouped(m_packets) + " (compressed in the packet at byte " + std::to_string(m_compressedAt)
                    + ")"
                : "packet " + grouped(m_packets) + " at byte " + std::to_string(m_packetStart);
            // Where inside it, when that is not its start.
            if (m_compressedAt < 0 && e.byteOffset() > offset)
                where += " (byte " + std::to_string(e.byteOffset()) + ")";
            return where + ": " + std::string(e.what()) + "; skipped";
        });
    }
}

void PerfettoReader::readPacket(const PerfettoPacketScan& p, std::string_view bytes, int depth)
{
    const std::int64_t offset = p.offset;
    // Packets come in runs of one sequence: the last one's state is kept
    // at hand (nodes of m_sequences never move, and none is erased).
    if (m_lastSequence == nullptr || m_lastSequenceId != p.sequence) {
        m_lastSequence = &m_sequences[p.sequence];
        m_lastSequenceId = p.sequence;
    }
    PerfettoSequence& seq = *m_lastSequence;
    if (p.dropped) {
        ++m_lossReports;
        seq.lost = true;
    }
    if ((p.flags & kIncrementalStateCleared) != 0 || p.cleared)
        seq.clearIncrementalState();
    if (seq.lost && (p.flags & kNeedsIncrementalState) != 0) {
        ++m_skippedAfterLoss;
        return;
    }
    if (p.defaults != PerfettoPacketScan::kAbsent)
        packetDefaults(seq, p.fieldAt(bytes, p.defaults));
    if (p.interned != PerfettoPacketScan::kAbsent)
        internedData(seq, p.fieldAt(bytes, p.interned));
    if (p.data == PerfettoPacketScan::kAbsent) {
        // A packet with a timestamp and nothing else bounds the trace, as
        // every timestamp does in Perfetto (PerfettoTraceWriter writes the
        // profile's span so, where its events end before it).
        Time time = 0;
        const std::uint32_t clock = p.clock != 0 ? p.clock : seq.defaultClock != 0 ? seq.defaultClock : m_clocks.traceClock();
        if (p.hasTimestamp && p.interned == PerfettoPacketScan::kAbsent && p.defaults == PerfettoPacketScan::kAbsent
            && m_clocks.toTrace(p.sequence, clock, p.timestamp, time))
            m_builder.extendSpan(time);
        return;
    }
    // Read again where it is needed: a track event the splitter read needs
    // nothing more of it.
    const auto data = [&] { return p.fieldAt(bytes, p.data); };
    // Its own timestamp is on the clock it defines: never converted.
    if (p.dataField == 6)
        return clockSnapshot(p, data());
    // Every timestamp moves an incremental clock, whatever the packet holds.
    Time time = 0;
    std::uint32_t clock = p.clock != 0 ? p.clock : seq.defaultClock != 0 ? seq.defaultClock : m_clocks.traceClock();
    const bool timed = p.hasTimestamp && m_clocks.toTrace(p.sequence, clock, p.timestamp, time);
    switch (p.dataField) {
    case 11:
        if (!p.hasTimestamp) {
            m_builder.diagnostics().warnWith("track event without timestamp", [&] {
                return "the track event at byte " + std::to_string(offset) + " has no timestamp; dropped";
            });
            return;
        }
        if (!timed) {
            m_builder.diagnostics().warnWith("unknown clock", [&] {
                return "the track event at byte " + std::to_string(offset) + " is on clock " + std::to_string(clock)
                    + ", which no clock snapshot relates to the trace clock; dropped";
            });
            return;
        }
        if (p.simpleEvent)
            return simpleTrackEvent(p, seq, time);
        return trackEvent(p, data(), seq, time);
    case 60:
        return m_tracks.describe(data());
    case 50:
        return compressed(data().payload(), offset, depth, false);
    case 133:
        return compressed(data().payload(), offset, depth, true);
    case 44:
        return legacyThread(seq, data());
    case 43:
        return legacyProcess(data());
    case 36: // synchronization_marker: framing for readers of a ring buffer
        return;
    default:
        ++m_skipped[p.dataField];
        return;
    }
}

void PerfettoReader::packetDefaults(PerfettoSequence& seq, const ProtoWireReader& field)
{
    // The defaults replace those before them.
    seq.hasDefaultTrack = false;
    seq.defaultClock = 0;
    seq.defaultExtraCounterTracks.clear();
    seq.defaultExtraDoubleCounterTracks.clear();
    for (ProtoWireReader r = field.message(); r.next();) {
        if (r.field() == 58) {
            seq.defaultClock = std::uint32_t(PerfettoField::varint(r, "TracePacketDefaults"));
        } else if (r.field() == 11) {
            PerfettoField::bytes(r, "TracePacketDefaults");
            for (ProtoWireReader d = r.message(); d.next();) {
                if (d.field() == 11) {
                    seq.defaultTrack = PerfettoField::varint(d, "TrackEventDefaults");
                    seq.hasDefaultTrack = true;
                } else if (d.field() == 31) {
                    PerfettoField::varints(d, "TrackEventDefaults", seq.defaultExtraCounterTracks);
                } else if (d.field() == 45) {
                    PerfettoField::varints(d, "TrackEventDefaults", seq.defaultExtraDoubleCounterTracks);
                }
            }
        }
    }
}

void PerfettoReader::internedData(PerfettoSequence& seq, const ProtoWireReader& field)
{
    for (ProtoWireReader r = field.message(); r.next();) {
        // Event names (2), annotation names (3) and string values (29),
        // source locations (4); categories, frames, ...: not used.
        if (r.field() != 2 && r.field() != 3 && r.field() != 4 && r.field() != 29)
            continue;
        PerfettoField::bytes(r, "InternedData");
        std::uint64_t iid = 0;
        std::string_view name;
        std::string_view file;
        std::uint64_t line = 0;
        for (ProtoWireReader e = r.message(); e.next();) {
            if (e.field() == 1)
                iid = PerfettoField::varint(e, "InternedData entry");
            else if (e.field() == 2)
                (r.field() == 4 ? file : name) = PerfettoField::bytes(e, "InternedData entry");
            else if (e.field() == 4 && r.field() == 4)
                line = PerfettoField::varint(e, "SourceLocation");
        }
        if (r.field() == 2)
            seq.eventNames.set(iid, m_builder.intern(name));
        else if (r.field() == 3)
            seq.annotationNames[iid] = m_builder.intern(name);
        else if (r.field() == 29)
            seq.annotationStrings[iid] = m_builder.intern(name);
        else
            seq.sourceLocations[iid] = {m_builder.intern(file), std::int32_t(std::min<std::uint64_t>(line, INT32_MAX))};
    }
}

StringId PerfettoReader::eventName(const PerfettoSequence& seq, std::uint64_t iid, std::int64_t offset)
{
    if (const std::optional<StringId> found = seq.eventNames.find(iid))
        return *found;
    m_builder.diagnostics().warnWith("undefined interned name", [&] {
        return "the track event at byte " + std::to_string(offset) + " names event name " + std::to_string(iid)
            + ", which its sequence never interned; it is unnamed";
    });
    return kEmptyString;
}

void PerfettoReader::trackEvent(const PerfettoPacketScan& p, const ProtoWireReader& data, PerfettoSequence& seq,
                                Time time)
{
    constexpr const char* kWhat = "TrackEvent";
    PerfettoTrackEvent e;
    e.time = time;
    e.offset = p.offset;
    bool hasTrack = false;
    bool legacy = false;
    std::vector<std::uint64_t> extraTracks;
    std::vector<std::uint64_t> extraValues;
    std::vector<std::uint64_t> extraDoubleTracks;
    std::vector<std::uint64_t> extraDoubleValues;
    std::vector<ProtoWireReader> annotations;
    bool ownExtraTracks = false;
    bool ownExtraDoubleTracks = false;
    for (ProtoWireReader r = data.message(); r.next();) {
        switch (r.field()) {
        case 9: {
            const std::uint64_t type = PerfettoField::varint(r, kWhat);
            e.type = type <= 4 ? PerfettoTrackEvent::Type(type) : PerfettoTrackEvent::Type::Unspecified;
            break;
        }
        case 10:
            e.name = eventName(seq, PerfettoField::varint(r, kWhat), p.offset);
            break;
        case 23:
            e.name = m_builder.intern(PerfettoField::bytes(r, kWhat));
            break;
        case 11:
            e.track = PerfettoField::varint(r, kWhat);
            hasTrack = true;
            break;
        case 30:
            e.counter = double(std::int64_t(PerfettoField::varint(r, kWhat)));
            e.hasCounter = true;
            break;
        case 44:
            e.counter = PerfettoField::number(r, kWhat);
            e.hasCounter = true;
            break;
        case 31:
            PerfettoField::varints(r, kWhat, extraTracks);
            ownExtraTracks = true;
            break;
        case 12:
            PerfettoField::varints(r, kWhat, extraValues);
            break;
        case 45:
            PerfettoField::varints(r, kWhat, extraDoubleTracks);
            ownExtraDoubleTracks = true;
            break;
        case 46:
            PerfettoField::fixed64s(r, kWhat, extraDoubleValues);
            break;
        case 36:
            PerfettoField::varints(r, kWhat, e.flows);
            break;
        case 47:
            PerfettoField::fixed64s(r, kWhat, e.flows);
            break;
        case 42:
            PerfettoField::varints(r, kWhat, e.terminatingFlows);
            break;
        case 48:
            PerfettoField::fixed64s(r, kWhat, e.terminatingFlows);
            break;
        case 33:
            PerfettoField::bytes(r, kWhat);
            for (ProtoWireReader s = r.message(); s.next();) {
                if (s.field() == 2)
                    e.file = m_builder.intern(PerfettoField::bytes(s, "SourceLocation"));
                else if (s.field() == 4)
                    e.line = std::int32_t(std::min<std::uint64_t>(PerfettoField::varint(s, "SourceLocation"), INT32_MAX));
            }
            break;
        case 34: {
            const auto found = seq.sourceLocations.find(PerfettoField::varint(r, kWhat));
            if (found != seq.sourceLocations.end()) {
                e.file = found->second.file;
                e.line = found->second.line;
            }
            break;
        }
        case 4:
            PerfettoField::bytes(r, kWhat);
            annotations.push_back(r);
            break;
        case 6:
            legacy = true;
            break;
        default:
            break;
        }
    }
    // Runlane's own notes, which rebuild its tasks (PerfettoTaskNotes).
    if (!annotations.empty())
        e.notes = PerfettoTaskNotes::read(annotations, seq.annotationNames, seq.annotationStrings, m_builder);
    // An instant's are its mark's details, a slice's its measurement's args
    // (those on a slice's end are not read, as Runlane has no room to merge them).
    if ((e.type == PerfettoTrackEvent::Type::Instant || e.type == PerfettoTrackEvent::Type::SliceBegin)
        && !annotations.empty()) {
        const std::string args = PerfettoAnnotations::json(annotations, seq.annotationNames, seq.annotationStrings, m_builder);
        if (args != "{}")
            e.args = m_builder.intern(args);
    }
    if (!onTrack(e, hasTrack, legacy, seq))
        return;
    const std::vector<std::uint64_t>& tracks = ownExtraTracks ? extraTracks : seq.defaultExtraCounterTracks;
    const std::vector<std::uint64_t>& doubleTracks =
        ownExtraDoubleTracks ? extraDoubleTracks : seq.defaultExtraDoubleCounterTracks;
    if (extraValues.size() > tracks.size() || extraDoubleValues.size() > doubleTracks.size())
        m_builder.diagnostics().warnWith("extra counter values without tracks", [&] {
            return "the track event at byte " + std::to_string(p.offset)
                + " has more extra counter values than tracks for them; the rest are ignored";
        });
    for (std::size_t i = 0; i < std::min(extraValues.size(), tracks.size()); ++i)
        e.extraCounters.emplace_back(tracks[i], double(std::int64_t(extraValues[i])));
    for (std::size_t i = 0; i < std::min(extraDoubleValues.size(), doubleTracks.size()); ++i)
        e.extraCounters.emplace_back(doubleTracks[i], std::bit_cast<double>(extraDoubleValues[i]));
    m_tracks.event(e);
}

void PerfettoReader::simpleTrackEvent(const PerfettoPacketScan& p, PerfettoSequence& seq, Time time)
{
    // Its fields read already, each once: what trackEvent's loop does with
    // them; it has no annotations, flows nor extra counters.
    const PerfettoPacketScan::Event& simple = p.event;
    // One event reused: constructing one (26 words cleared) was a third of
    // this function. What a simple event lacks stays as constructed:
    // event() only clears its extra counters and changes its type.
    PerfettoTrackEvent& e = m_simpleEvent;
    e.time = time;
    e.offset = p.offset;
    e.type = simple.type;
    if (simple.hasNameIid)
        e.name = eventName(seq, simple.nameIid, p.offset);
    else if (simple.hasName)
        e.name = m_builder.intern(simple.name);
    else
        e.name = kEmptyString;
    e.track = simple.track;
    e.counter = simple.counter;
    e.hasCounter = simple.hasCounter;
    if (onTrack(e, simple.hasTrack, false, seq))
        m_tracks.event(e);
}

bool PerfettoReader::onTrack(PerfettoTrackEvent& e, bool hasTrack, bool legacy, const PerfettoSequence& seq)
{
    if (e.type == PerfettoTrackEvent::Type::Unspecified) {
        // Chrome's legacy events (phases of the JSON format) and TYPE_STATE.
        ++m_skipped[legacy ? 0x10000 + 6 : 0x10000];
        return false;
    }
    if (hasTrack)
        return true;
    if (seq.hasDefaultTrack) {
        e.track = seq.defaultTrack;
    } else if (seq.hasLegacyTrack) {
        e.track = seq.legacyTrack;
    } else {
        m_builder.diagnostics().warnWith("track event without a track", [&] {
            return "the track event at byte " + std::to_string(e.offset)
                + " names no track and its sequence has no default track; dropped";
        });
        return false;
    }
    return true;
}

void PerfettoReader::clockSnapshot(const PerfettoPacketScan& p, const ProtoWireReader& field)
{
    std::vector<PerfettoClocks::Reading> clocks;
    std::uint32_t primary = 0;
    for (ProtoWireReader r = field.message(); r.next();) {
        if (r.field() == 2) {
            primary = std::uint32_t(PerfettoField::varint(r, "ClockSnapshot"));
            continue;
        }
        if (r.field() != 1)
            continue;
        PerfettoField::bytes(r, "ClockSnapshot");
        PerfettoClocks::Reading clock;
        for (ProtoWireReader c = r.message(); c.next();) {
            switch (c.field()) {
            case 1:
                clock.id = std::uint32_t(PerfettoField::varint(c, "ClockSnapshot.Clock"));
                break;
            case 2:
                clock.value = PerfettoField::varint(c, "ClockSnapshot.Clock");
                break;
            case 3:
                clock.incremental = PerfettoField::varint(c, "ClockSnapshot.Clock") != 0;
                break;
            case 4:
                clock.unitNs = PerfettoField::varint(c, "ClockSnapshot.Clock");
                break;
            default:
                break;
            }
        }
        clocks.push_back(clock);
    }
    if (!m_clocks.snapshot(p.sequence, clocks, primary))
        m_builder.diagnostics().warnWith("clock snapshot without the trace clock", [&] {
            return "the clock snapshot at byte " + std::to_string(p.offset) + " does not hold the trace clock ("
                + std::to_string(m_clocks.traceClock()) + "); its clocks are not related to it";
        });
}

void PerfettoReader::legacyThread(PerfettoSequence& seq, const ProtoWireReader& field)
{
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    StringId name = kEmptyString;
    for (ProtoWireReader t = field.message(); t.next();) {
        if (t.field() == 1)
            pid = std::int32_t(PerfettoField::varint(t, "ThreadDescriptor"));
        else if (t.field() == 2)
            tid = std::int64_t(PerfettoField::varint(t, "ThreadDescriptor"));
        else if (t.field() == 5)
            name = m_builder.intern(PerfettoField::bytes(t, "ThreadDescriptor"));
    }
    seq.legacyTrack = m_tracks.legacyThread(pid, tid, name);
    seq.hasLegacyTrack = true;
}

void PerfettoReader::legacyProcess(const ProtoWireReader& field)
{
    std::int64_t pid = 0;
    StringId name = kEmptyString;
    for (ProtoWireReader t = field.message(); t.next();) {
        if (t.field() == 1)
            pid = std::int32_t(PerfettoField::varint(t, "ProcessDescriptor"));
        else if (t.field() == 6)
            name = m_builder.intern(PerfettoField::bytes(t, "ProcessDescriptor"));
    }
    m_tracks.legacyProcess(pid, name);
}

void PerfettoReader::compressed(std::string_view bytes, std::int64_t offset, int depth, bool zstd)
{
    if (depth + 1 > kMaxCompressedDepth)
        throw FormatError("compressed packets nested more than " + std::to_string(kMaxCompressedDepth) + " deep", -1,
                          offset);
    // A Trace, deflated or in one zstd frame; either holds the other.
    const std::string out =
        zstd ? PerfettoDecompressor::zstd(bytes, offset) : PerfettoDecompressor::inflate(bytes, offset);
    const std::int64_t outer = m_compressedAt;
    m_compressedAt = outer >= 0 ? outer : m_packetStart;
    // The inner packets are read on; an error in one skips it alone, and
    // an error in the framing of the run ends the run.
    try {
        for (ProtoWireReader r(out, 0, 0); r.next();) {
            if (r.field() == 1 && r.wireType() == ProtoWireReader::WireType::Len)
                packet(r.payload(), offset, depth + 1);
        }
    } catch (const FormatError& e) {
        m_compressedAt = outer;
        throw FormatError("in compressed packets: " + std::string(e.what()), -1, offset);
    }
    m_compressedAt = outer;
}

void PerfettoReader::finish()
{
    m_tracks.finish();
    Diagnostics& diagnostics = m_builder.diagnostics();
    if (m_lossReports > 0)
        diagnostics.warn("packets lost", grouped(m_lossReports) + (m_lossReports == 1 ? " packet says" : " packets say")
                                             + " packets before it were lost (previous_packet_dropped); "
                                             + grouped(m_skippedAfterLoss)
                                             + " packets that need their sequence's incremental state were skipped "
                                               "until its next reset");
    std::vector<std::pair<std::uint64_t, std::string>> skipped;
    for (const auto& [field, count] : m_skipped) {
        const std::string name = field == 0x10000 + 6 ? "legacy track_event"
            : field == 0x10000                        ? "untyped track_event"
                                                      : PerfettoPacketNames::name(field);
        skipped.emplace_back(count, name);
        diagnostics.skipped(name, count);
    }
    if (skipped.empty() && m_otherTraceFields == 0)
        return;
    std::stable_sort(skipped.begin(), skipped.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string text;
    for (const auto& [count, name] : skipped)
        text += (text.empty() ? "" : ", ") + grouped(count) + " " + name + (count == 1 ? " packet" : " packets");
    if (m_otherTraceFields > 0)
        text += (text.empty() ? "" : ", ") + grouped(m_otherTraceFields) + " Trace field"
            + (m_otherTraceFields == 1 ? "" : "s") + " other than packets";
    diagnostics.warn("packets not read", text + " not read (Runlane reads track events, their tracks and clocks)");
}

} // namespace runlane
