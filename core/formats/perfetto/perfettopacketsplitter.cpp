#include "perfettopacketsplitter.h"

#include "chunkedfilereader.h"
#include "loaderror.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

namespace runlane {

namespace {

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

PerfettoPacketSplitter::PerfettoPacketSplitter(ChunkedFileReader& input, std::size_t blockBytes)
    : m_input(input), m_blockBytes(blockBytes)
{
}

bool PerfettoPacketSplitter::endWith(PerfettoPacketBlock& block, PerfettoPacketBlock::End end, std::int64_t at,
                                     std::string what)
{
    // Nothing read yet: this is no trace. Later, the reader tells (the
    // rest is ignored, or the file is cut short).
    if (end == PerfettoPacketBlock::End::Unreadable && m_fields == 0)
        throw FormatError("not a Perfetto trace: " + what, -1, at);
    block.end = end;
    block.endAt = at;
    block.what = std::move(what);
    return false;
}

bool PerfettoPacketSplitter::field(PerfettoPacketBlock& block)
{
    using End = PerfettoPacketBlock::End;
    ChunkedFileReader& in = m_input;
    if (in.atEnd())
        return false;
    const std::int64_t start = in.offset();
    std::uint64_t tag = 0;
    VarintRead got = readVarint(in, tag);
    if (got == VarintRead::End)
        return endWith(block, End::CutShort, start, "the file ends inside a field tag");
    if (got == VarintRead::TooLong)
        return endWith(block, End::Unreadable, start, "a field tag longer than 10 bytes");
    const std::uint64_t number = tag >> 3;
    const unsigned type = unsigned(tag & 7);
    if (m_fields == 0 && (number != 1 || type != 2))
        throw FormatError("not a Perfetto trace: it starts with field " + std::to_string(number) + " of wire type "
                              + std::to_string(type) + ", not a packet (field 1, length-delimited)",
                          -1, start);
    if (number == 0 || number > 0x1fffffff)
        return endWith(block, End::Unreadable, start, "invalid field number " + std::to_string(number));
    std::uint64_t value = 0;
    switch (type) {
    case 0:
        got = readVarint(in, value);
        if (got == VarintRead::End)
            return endWith(block, End::CutShort, start, "the file ends inside a varint");
        if (got == VarintRead::TooLong)
            return endWith(block, End::Unreadable, start,
                           "field " + std::to_string(number) + ": a varint longer than 10 bytes");
        ++block.otherTraceFields;
        ++m_fields;
        return true;
    case 1:
    case 5:
        for (int i = type == 1 ? 8 : 4; i > 0; --i) {
            if (in.get() < 0)
                return endWith(block, End::CutShort, start, "the file ends inside a fixed-size value");
        }
        ++block.otherTraceFields;
        ++m_fields;
        return true;
    case 2:
        break;
    default:
        return endWith(block, End::Unreadable, start,
                       "field " + std::to_string(number) + " has wire type " + std::to_string(type)
                           + ", which a Trace never holds");
    }
    got = readVarint(in, value);
    if (got == VarintRead::End)
        return endWith(block, End::CutShort, start, "the file ends inside a packet's length");
    if (got == VarintRead::TooLong || value > std::uint64_t(INT64_MAX))
        return endWith(block, End::Unreadable, start,
                       "field " + std::to_string(number) + ": "
                           + (got == VarintRead::TooLong ? std::string("a length longer than 10 bytes")
                                                         : "negative length " + std::to_string(std::int64_t(value))));
    const std::int64_t payloadStart = in.offset();
    const std::size_t begin = block.bytes.size();
    // Filled as the bytes arrive: a hostile length allocates no more than
    // the file holds. A packet whole in the chunk is one copy.
    std::uint64_t received = 0;
    while (received < value) {
        const std::string_view chunk = in.buffered();
        if (chunk.empty())
            break;
        const std::size_t take = std::size_t(std::min<std::uint64_t>(chunk.size(), value - received));
        if (number == 1) // another field is only counted
            block.bytes.insert(block.bytes.end(), chunk.data(), chunk.data() + take);
        received += take;
        in.consume(take);
    }
    if (in.failed()) {
        block.bytes.resize(begin);
        return false; // the loader reports the read error
    }
    if (received < value) {
        block.bytes.resize(begin);
        endWith(block, End::CutInPacket, start, {});
        block.length = value;
        block.received = received;
        return false;
    }
    ++m_fields;
    if (number != 1) {
        ++block.otherTraceFields;
        return true;
    }
    block.packets.push_back({start, payloadStart, begin, std::size_t(value)});
    return true;
}

bool PerfettoPacketSplitter::next(PerfettoPacketBlock& block, bool scan)
{
    block.clear();
    if (!m_end.more())
        return false;
    m_end.fill(
        [&] {
            block.bytes.reserve(m_blockBytes + 256);
            while (block.bytes.size() < m_blockBytes) {
                if (!field(block)) {
                    m_end.reached();
                    break;
                }
            }
        },
        [&] { return !block.packets.empty() || block.otherTraceFields > 0; });
    if (scan) {
        block.scans.resize(block.packets.size());
        block.scanned.resize(block.packets.size());
        for (std::size_t i = 0; i < block.packets.size(); ++i) {
            try {
                block.scans[i].read(block.packet(block.packets[i]), block.packets[i].offset);
                block.scanned[i] = true;
            } catch (const FormatError&) {
                // The reader reads it again and skips it with a warning.
            }
        }
    }
    return !block.packets.empty() || block.otherTraceFields > 0 || block.end != PerfettoPacketBlock::End::None;
}

} // namespace runlane
