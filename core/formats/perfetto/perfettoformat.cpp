#include "perfettoformat.h"

#include "chunkedfilereader.h"
#include "loaderror.h"
#include "perfettoreader.h"
#include "profilebuilder.h"
#include "protowirereader.h"

#include <algorithm>

namespace runlane {

namespace {

using WireType = ProtoWireReader::WireType;

// TracePacket's fields that are varints; the rest it has are messages or
// bytes (and extensions the probe does not judge).
bool varintField(std::uint32_t field)
{
    switch (field) {
    case 3: // trusted_uid
    case 8: // timestamp
    case 10: // trusted_packet_sequence_id
    case 13: // sequence_flags
    case 41: // incremental_state_cleared
    case 42: // previous_packet_dropped
    case 58: // timestamp_clock_id
    case 79: // trusted_pid
    case 87: // first_packet_on_sequence
    case 98: // machine_id
        return true;
    default:
        return false;
    }
}

bool messageField(std::uint32_t field)
{
    return (field >= 1 && field <= 2) || (field >= 4 && field <= 7) || field == 9 || field == 11 || field == 12
        || (field >= 33 && field <= 40) || (field >= 43 && field <= 54) || field == 57 || field == 59
        || field == 60;
}

// A TracePacket: every field of a known number has the schema's wire type,
// and it has at least one field the schema knows. profile.proto's
// sample_type (field 1 too) holds varints 1 and 2, which a TracePacket
// holds as messages: pprof is never taken for a trace.
bool looksLikePacket(const ProtoWireReader& field, bool complete)
{
    ProtoWireReader r = field.message();
    bool known = false;
    try {
        while (r.next()) {
            if (varintField(r.field())) {
                if (r.wireType() != WireType::Varint)
                    return false;
                known = true;
            } else if (messageField(r.field())) {
                if (r.wireType() != WireType::Len)
                    return false;
                known = true;
            }
        }
    } catch (const FormatError&) {
        return !complete && r.ranOut() && known;
    }
    return known;
}

} // namespace

std::string_view PerfettoFormat::id() const
{
    return "perfetto";
}

std::string_view PerfettoFormat::name() const
{
    return "Perfetto trace";
}

std::vector<std::string_view> PerfettoFormat::fileNamePatterns() const
{
    return {"*.pftrace", "*.perfetto-trace", "*.pb"};
}

// The first field is a Trace's packet (field 1, length-delimited) that
// reads as a TracePacket, and so is every field after it in the prefix; the
// last may be cut by the prefix's end.
InputFormat::Probe PerfettoFormat::probe(const FormatPrefix& prefix) const
{
    ProtoWireReader r(prefix.bytes());
    int packets = 0;
    try {
        while (r.next()) {
            if (r.field() != 1 || r.wireType() != WireType::Len || !looksLikePacket(r, true))
                return Probe::notMine();
            ++packets;
        }
    } catch (const FormatError&) {
        // The prefix ends inside a packet: what there is of it must look
        // like one.
        if (prefix.complete() || !r.ranOut())
            return packets > 0 ? Probe::mine(0) : Probe::notMine();
        const std::string_view rest = prefix.bytes().substr(std::size_t(r.fieldOffset()));
        if (packets == 0 && (rest.empty() || rest[0] != 0x0a))
            return Probe::notMine();
    }
    return packets > 0 || !prefix.complete() ? Probe::mine(0) : Probe::notMine();
}

// The builder's intervals and measurements per slice; a packet is only in
// memory while it is read.
double PerfettoFormat::memoryPerInputByte() const
{
    return 16.0;
}

bool PerfettoFormat::isJson() const
{
    return false;
}

bool PerfettoFormat::isBinary() const
{
    return true;
}

// Slices reach the builder as they end, so the previews of a load show
// them (LoadControl::preview), and its async tasks as they begin; a time
// is said complete only while the track events come in time order
// (PerfettoTracks::completeUpTo). A load stopped and kept
// (LoadControl::keepPartial) keeps the packets read before the cut, its
// tracks ended as at the end of a file.
void PerfettoFormat::read(ChunkedFileReader& input, ProfileBuilder& builder) const
{
    builder.startPreviews(); // before the reader, whose tracks then follow the previews
    // A track event's packet takes about 24 bytes at least (its timestamp,
    // sequence, type, interned name and track): room for that many, as the
    // Chrome reader makes. Grown by doubling instead, the model's arrays
    // took fresh memory at each step and copied themselves into it, and on
    // a virtual machine a 1 M-event load spent a fifth of its reading in
    // the kernel's zeroing of those pages, the producer waiting meanwhile
    // (docs/performance.md). Only address space until used. A gzip-wrapped
    // trace is sized by what its trailer states.
    builder.reserve(std::size_t(std::max<std::int64_t>(0, input.textSizeHint()) / 24));
    PerfettoReader reader(builder);
    try {
        reader.read(input);
    } catch (const LoadCancelled&) {
        if (!input.control().keepsWhatWasRead())
            throw;
        builder.stopPreviews();
        PartialLoad cut;
        cut.completeUpTo = reader.completeUpTo(); // before finish() ends what is open
        reader.finish();
        cut.eventsRead = reader.packetCount();
        builder.setPartial(cut);
        return;
    }
    builder.endOfFile(reader.packetCount());
    reader.finish();
}

} // namespace runlane
