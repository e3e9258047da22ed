#include "perfettoreader.h"

#include "chunkedfilereader.h"
#include "loaderror.h"
#include "perfettoannotations.h"
#include "perfettodecompressor.h"
#include "perfettofield.h"
#include "perfettopacketnames.h"
#include "perfettotrackevent.h"
#include "profilebuilder.h"
#include "protowirereader.h"

#include <algorithm>
#include <bit>
#include <optional>
#include <vector>

namespace runlane {

namespace {

constexpr std::uint32_t kIncrementalStateCleared = 1; // TracePacket.SequenceFlags
constexpr std::uint32_t kNeedsIncrementalState = 2;
constexpr const char* kPacket = "TracePacket";

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

enum class VarintRead { Ok, End, TooLong };

// A varint from the stream; End if the file ends inside it.
VarintRead readVarint(ChunkedFileReader& in, std::uint64_t& out)
{
    out = 0;
    for (int i = 0; i < 10; ++i) {
        const int c = in.get();
        if (c < 0)
            return VarintRead::End;
        if (i == 9 && c > 1)
            return VarintRead::TooLong;
        out |= std::uint64_t(c & 0x7f) << (7 * i);
        if ((c & 0x80) == 0)
            return VarintRead::Ok;
    }
    return VarintRead::TooLong;
}

} // namespace

// The fields of one TracePacket the reader looks at, in one pass: its data
// is read after the sequence's state is brought up to date, whatever the
// order of the fields.
struct PerfettoReader::Packet {
    std::int64_t offset = 0;
    bool hasTimestamp = false;
    std::uint64_t timestamp = 0;
    std::uint32_t clock = 0; // 0: the sequence's default
    std::uint32_t sequence = 0;
    std::uint32_t flags = 0;
    bool dropped = false;
    std::optional<ProtoWireReader> interned;
    std::optional<ProtoWireReader> defaults;
    std::optional<ProtoWireReader> data;
};

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
    for (;;) {
        if (in.atEnd())
            return;
        const std::int64_t start = in.offset();
        std::uint64_t tag = 0;
        VarintRead got = readVarint(in, tag);
        if (got == VarintRead::End)
            return cutShort(start, "the file ends inside a field tag");
        const auto fail = [&](const std::string& why) {
            // Nothing read yet: this is no trace. Later: the rest is.
            if (m_packets == 0)
                throw FormatError("not a Perfetto trace: " + why, -1, start);
            m_builder.diagnostics().warn("unreadable rest", "the trace is unreadable after packet "
                                             + grouped(m_packets) + " at byte " + std::to_string(start) + ": "
                                             + why + "; the rest of the file is ignored");
        };
        if (got == VarintRead::TooLong)
            return fail("a field tag longer than 10 bytes");
        const std::uint64_t field = tag >> 3;
        const unsigned type = unsigned(tag & 7);
        if (m_packets == 0 && m_otherTraceFields == 0 && (field != 1 || type != 2))
            throw FormatError("not a Perfetto trace: it starts with field " + std::to_string(field) + " of wire type "
                                  + std::to_string(type) + ", not a packet (field 1, length-delimited)",
                              -1, start);
        if (field == 0 || field > 0x1fffffff)
            return fail("invalid field number " + std::to_string(field));
        std::uint64_t value = 0;
        switch (type) {
        case 0:
            got = readVarint(in, value);
            if (got == VarintRead::End)
                return cutShort(start, "the file ends inside a varint");
            if (got == VarintRead::TooLong)
                return fail("field " + std::to_string(field) + ": a varint longer than 10 bytes");
            ++m_otherTraceFields;
            continue;
        case 1:
        case 5:
            for (int i = type == 1 ? 8 : 4; i > 0; --i) {
                if (in.get() < 0)
                    return cutShort(start, "the file ends inside a fixed-size value");
            }
            ++m_otherTraceFields;
            continue;
        case 2:
            break;
        default:
            return fail("field " + std::to_string(field) + " has wire type " + std::to_string(type)
                        + ", which a Trace never holds");
        }
        got = readVarint(in, value);
        if (got == VarintRead::End)
            return cutShort(start, "the file ends inside a packet's length");
        if (got == VarintRead::TooLong || value > std::uint64_t(INT64_MAX))
            return fail("field " + std::to_string(field) + ": "
                        + (got == VarintRead::TooLong ? std::string("a length longer than 10 bytes")
                                                      : "negative length " + std::to_string(std::int64_t(value))));
        const std::int64_t payloadStart = in.offset();
        // A packet whole in the buffer is read where it is: no copy.
        if (const std::string_view whole = in.buffered(); field == 1 && whole.size() >= value) {
            m_packetStart = start;
            packet(whole.substr(0, std::size_t(value)), payloadStart, 0);
            in.consume(std::size_t(value));
            continue;
        }
        // Else filled as the bytes arrive: a hostile length allocates no
        // more than the file holds.
        m_buffer.clear();
        std::uint64_t received = 0;
        while (received < value) {
            const std::string_view chunk = in.buffered();
            if (chunk.empty())
                break;
            const std::size_t take = std::size_t(std::min<std::uint64_t>(chunk.size(), value - received));
            if (field == 1) // another field is only counted
                m_buffer.append(chunk.data(), take);
            received += take;
            in.consume(take);
        }
        if (in.failed())
            return; // the loader reports the read error
        if (received < value)
            return cutShort(start, "packet " + grouped(m_packets + 1) + " is " + grouped(value) + " bytes long and "
                                       + grouped(received) + " are left");
        if (field != 1) {
            ++m_otherTraceFields;
            continue;
        }
        m_packetStart = start;
        packet(m_buffer, payloadStart, 0);
    }
}

void PerfettoReader::packet(std::string_view bytes, std::int64_t offset, int depth)
{
    m_builder.pollPreview(m_packets); // a preview of the packets before this one
    ++m_packets;
    try {
        readPacket(bytes, offset, depth);
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

void PerfettoReader::readPacket(std::string_view bytes, std::int64_t offset, int depth)
{
    Packet p;
    p.offset = offset;
    ProtoWireReader r(bytes, offset, 1);
    bool cleared = false;
    while (r.next()) {
        switch (r.field()) {
        case 8:
            p.timestamp = PerfettoField::varint(r, kPacket);
            p.hasTimestamp = true;
            break;
        case 58:
            p.clock = std::uint32_t(PerfettoField::varint(r, kPacket));
            break;
        case 10:
            p.sequence = std::uint32_t(PerfettoField::varint(r, kPacket));
            break;
        case 13:
            p.flags = std::uint32_t(PerfettoField::varint(r, kPacket));
            break;
        case 41:
            cleared = PerfettoField::varint(r, kPacket) != 0;
            break;
        case 42:
            p.dropped = PerfettoField::varint(r, kPacket) != 0;
            break;
        case 12:
            PerfettoField::bytes(r, kPacket);
            p.interned = r;
            break;
        case 6: // the data fields read here: messages or bytes, never else
        case 11:
        case 43:
        case 44:
        case 50:
        case 60:
        case 133:
            PerfettoField::bytes(r, kPacket);
            p.data = r;
            break;
        case 59:
            PerfettoField::bytes(r, kPacket);
            p.defaults = r;
            break;
        default:
            // The data oneof holds messages and bytes; the other varints
            // (trusted_uid, trusted_pid, machine_id, ...) say nothing here.
            // A field it does not know never hides one it reads.
            if (r.wireType() == ProtoWireReader::WireType::Len && !p.data)
                p.data = r;
            break;
        }
    }
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
    if ((p.flags & kIncrementalStateCleared) != 0 || cleared)
        seq.clearIncrementalState();
    if (seq.lost && (p.flags & kNeedsIncrementalState) != 0) {
        ++m_skippedAfterLoss;
        return;
    }
    if (p.defaults)
        packetDefaults(seq, *p.defaults);
    if (p.interned)
        internedData(seq, *p.interned);
    if (!p.data) {
        // A packet with a timestamp and nothing else bounds the trace, as
        // every timestamp does in Perfetto (PerfettoTraceWriter writes the
        // profile's span so, where its events end before it).
        Time time = 0;
        const std::uint32_t clock = p.clock != 0 ? p.clock : seq.defaultClock != 0 ? seq.defaultClock : m_clocks.traceClock();
        if (p.hasTimestamp && p.interned == std::nullopt && p.defaults == std::nullopt
            && m_clocks.toTrace(p.sequence, clock, p.timestamp, time))
            m_builder.extendSpan(time);
        return;
    }
    const ProtoWireReader& data = *p.data;
    // Its own timestamp is on the clock it defines: never converted.
    if (data.field() == 6)
        return clockSnapshot(p, data);
    // Every timestamp moves an incremental clock, whatever the packet holds.
    Time time = 0;
    std::uint32_t clock = p.clock != 0 ? p.clock : seq.defaultClock != 0 ? seq.defaultClock : m_clocks.traceClock();
    const bool timed = p.hasTimestamp && m_clocks.toTrace(p.sequence, clock, p.timestamp, time);
    switch (data.field()) {
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
        return trackEvent(p, seq, time);
    case 60:
        return m_tracks.describe(data);
    case 50:
        return compressed(data.payload(), offset, depth, false);
    case 133:
        return compressed(data.payload(), offset, depth, true);
    case 44:
        return legacyThread(seq, data);
    case 43:
        return legacyProcess(data);
    case 36: // synchronization_marker: framing for readers of a ring buffer
        return;
    default:
        ++m_skipped[data.field()];
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

void PerfettoReader::trackEvent(const Packet& p, PerfettoSequence& seq, Time time)
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
    for (ProtoWireReader r = p.data->message(); r.next();) {
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
    if (e.type == PerfettoTrackEvent::Type::Unspecified) {
        // Chrome's legacy events (phases of the JSON format) and TYPE_STATE.
        ++m_skipped[legacy ? 0x10000 + 6 : 0x10000];
        return;
    }
    if (!hasTrack) {
        if (seq.hasDefaultTrack) {
            e.track = seq.defaultTrack;
        } else if (seq.hasLegacyTrack) {
            e.track = seq.legacyTrack;
        } else {
            m_builder.diagnostics().warnWith("track event without a track", [&] {
                return "the track event at byte " + std::to_string(p.offset)
                    + " names no track and its sequence has no default track; dropped";
            });
            return;
        }
    }
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

void PerfettoReader::clockSnapshot(const Packet& p, const ProtoWireReader& field)
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
