#include "perfettopacketscan.h"

#include "loaderror.h"
#include "perfettofield.h"

#include <bit>
#include <cstring>

namespace runlane {

namespace {

constexpr const char* kPacket = "TracePacket";

using Byte = unsigned char;

// A varint at `p`, which it moves past it; false if it is not whole before
// `end` or is longer than protobuf allows (ProtoWireReader tells which).
inline bool varint(const Byte*& p, const Byte* end, std::uint64_t& out)
{
    if (p < end && *p < 0x80) {
        out = *p++;
        return true;
    }
    std::uint64_t value = 0;
    for (int i = 0; i < 10 && p + i < end; ++i) {
        const Byte b = p[i];
        if (i == 9 && b > 1)
            return false;
        value |= std::uint64_t(b & 0x7f) << (7 * i);
        if (b < 0x80) {
            p += i + 1;
            out = value;
            return true;
        }
    }
    return false;
}

constexpr std::uint64_t tag(std::uint64_t field, std::uint64_t wireType)
{
    return field << 3 | wireType;
}

} // namespace

void PerfettoPacketScan::read(std::string_view bytes, std::int64_t bytesOffset)
{
    offset = bytesOffset;
    std::string_view event;
    if (!readCommon(bytes, event)) {
        *this = PerfettoPacketScan();
        offset = bytesOffset;
        readAll(bytes);
        if (dataField == 11)
            event = fieldAt(bytes, data).payload();
    }
    if (dataField == 11)
        readEvent(event);
}

// The packet of nearly every track event: its sequence, timestamp, flags
// and clock, and the event. Read on the bytes, each field as the schema
// has it, in a fraction of the general loop's time; any other field, or a
// field that would fail there, leaves the packet to that loop.
bool PerfettoPacketScan::readCommon(std::string_view bytes, std::string_view& event)
{
    const Byte* const first = reinterpret_cast<const Byte*>(bytes.data());
    const Byte* const end = first + bytes.size();
    const Byte* p = first;
    while (p < end) {
        const Byte* const start = p;
        std::uint64_t key = 0;
        std::uint64_t value = 0; // a varint, or a length
        if (!varint(p, end, key) || !varint(p, end, value))
            return false;
        switch (key) {
        case tag(8, 0):
            timestamp = value;
            hasTimestamp = true;
            break;
        case tag(10, 0):
            sequence = std::uint32_t(value);
            break;
        case tag(13, 0):
            flags = std::uint32_t(value);
            break;
        case tag(58, 0):
            clock = std::uint32_t(value);
            break;
        case tag(41, 0):
            cleared = value != 0;
            break;
        case tag(42, 0):
            dropped = value != 0;
            break;
        case tag(11, 2):
            if (value > std::uint64_t(end - p))
                return false;
            data = std::uint32_t(start - first);
            dataField = 11;
            event = {reinterpret_cast<const char*>(p), std::size_t(value)};
            p += value;
            break;
        default:
            return false;
        }
    }
    return true;
}

void PerfettoPacketScan::readAll(std::string_view bytes)
{
    const std::int64_t bytesOffset = offset;
    ProtoWireReader r(bytes, bytesOffset, 1);
    const auto here = [&] { return std::uint32_t(r.fieldOffset() - bytesOffset); };
    while (r.next()) {
        switch (r.field()) {
        case 8:
            timestamp = PerfettoField::varint(r, kPacket);
            hasTimestamp = true;
            break;
        case 58:
            clock = std::uint32_t(PerfettoField::varint(r, kPacket));
            break;
        case 10:
            sequence = std::uint32_t(PerfettoField::varint(r, kPacket));
            break;
        case 13:
            flags = std::uint32_t(PerfettoField::varint(r, kPacket));
            break;
        case 41:
            cleared = PerfettoField::varint(r, kPacket) != 0;
            break;
        case 42:
            dropped = PerfettoField::varint(r, kPacket) != 0;
            break;
        case 12:
            PerfettoField::bytes(r, kPacket);
            interned = here();
            break;
        case 6: // the data fields read here: messages or bytes, never else
        case 11:
        case 43:
        case 44:
        case 50:
        case 60:
        case 133:
            PerfettoField::bytes(r, kPacket);
            data = here();
            dataField = r.field();
            break;
        case 59:
            PerfettoField::bytes(r, kPacket);
            defaults = here();
            break;
        default:
            // The data oneof holds messages and bytes; the other varints
            // (trusted_uid, trusted_pid, machine_id, ...) say nothing here.
            // A field it does not know never hides one it reads.
            if (r.wireType() == ProtoWireReader::WireType::Len && data == kAbsent) {
                data = here();
                dataField = r.field();
            }
            break;
        }
    }
}

ProtoWireReader PerfettoPacketScan::fieldAt(std::string_view bytes, std::uint32_t at) const
{
    ProtoWireReader r(bytes.substr(at), offset + std::int64_t(at), 1);
    r.next(); // read before: it does not throw
    return r;
}

// Only what cannot fail nor warn but as the reader's own loop would: any
// other field, a field twice, a wire type not the schema's or a malformed
// field leaves the event to that loop (simpleEvent false).
void PerfettoPacketScan::readEvent(std::string_view payload)
{
    Event e;
    std::uint32_t seen = 0; // a bit per field read
    const auto once = [&](unsigned bit) {
        if ((seen & (1u << bit)) != 0)
            return false;
        seen |= 1u << bit;
        return true;
    };
    const Byte* p = reinterpret_cast<const Byte*>(payload.data());
    const Byte* const end = p + payload.size();
    while (p < end) {
        std::uint64_t key = 0;
        std::uint64_t value = 0;
        if (!varint(p, end, key))
            return;
        if (key == tag(44, 1)) { // a double
            if (end - p < 8 || !once(3))
                return;
            std::memcpy(&value, p, 8); // little-endian, as the wire format
            p += 8;
            e.counter = std::bit_cast<double>(value);
            e.hasCounter = true;
            continue;
        }
        if ((key & 7) != 0 && (key & 7) != 2)
            return;
        if (!varint(p, end, value))
            return;
        switch (key) {
        case tag(9, 0):
            if (!once(0))
                return;
            e.type = value <= 4 ? PerfettoTrackEvent::Type(value) : PerfettoTrackEvent::Type::Unspecified;
            break;
        case tag(10, 0): // name_iid or name: the last one wins there, so not both here
            if (!once(1))
                return;
            e.hasNameIid = true;
            e.nameIid = value;
            break;
        case tag(23, 2):
            if (value > std::uint64_t(end - p) || !once(1))
                return;
            e.hasName = true;
            e.name = {reinterpret_cast<const char*>(p), std::size_t(value)};
            p += value;
            break;
        case tag(11, 0):
            if (!once(2))
                return;
            e.hasTrack = true;
            e.track = value;
            break;
        case tag(30, 0):
        case tag(44, 0):
            if (!once(3))
                return;
            e.counter = double(std::int64_t(value));
            e.hasCounter = true;
            break;
        default:
            return;
        }
    }
    event = e;
    simpleEvent = true;
}

} // namespace runlane
