#include "protowirereader.h"

#include "loaderror.h"

#include <cstdint>

namespace runlane {

namespace {

enum class VarintStatus { Ok, Truncated, TooLong };

// A base-128 varint at `pos`, at most ten bytes: the tenth may only hold
// the 64th bit (protobuf's own decoders refuse more as an overflow). The
// bytes after the first, out of line: most varints (tags, small ids,
// lengths) are one byte, and the call for each was a tenth of reading a
// Perfetto trace.
[[gnu::noinline]] VarintStatus decodeLongVarint(std::string_view bytes, std::size_t& pos, std::uint64_t& out)
{
    std::uint64_t value = 0;
    if (bytes.size() - pos >= 10) {
        // Ten bytes left (timestamps and uuids are long): no end to check.
        const auto* at = reinterpret_cast<const unsigned char*>(bytes.data() + pos);
        for (int i = 0; i < 9; ++i) {
            value |= std::uint64_t(at[i] & 0x7f) << (7 * i);
            if ((at[i] & 0x80) == 0) {
                pos += std::size_t(i) + 1;
                out = value;
                return VarintStatus::Ok;
            }
        }
        if (at[9] > 1)
            return VarintStatus::TooLong;
        pos += 10;
        out = value | (std::uint64_t(at[9]) << 63);
        return VarintStatus::Ok;
    }
    for (int i = 0; i < 10; ++i) {
        if (pos >= bytes.size())
            return VarintStatus::Truncated;
        const auto byte = static_cast<unsigned char>(bytes[pos++]);
        if (i == 9 && byte > 1)
            return VarintStatus::TooLong;
        value |= std::uint64_t(byte & 0x7f) << (7 * i);
        if ((byte & 0x80) == 0) {
            out = value;
            return VarintStatus::Ok;
        }
    }
    return VarintStatus::TooLong; // unreachable: the tenth byte ends it
}

[[gnu::always_inline]] inline VarintStatus decodeVarint(std::string_view bytes, std::size_t& pos, std::uint64_t& out)
{
    if (pos < bytes.size() && (static_cast<unsigned char>(bytes[pos]) & 0x80) == 0) {
        out = static_cast<unsigned char>(bytes[pos++]);
        return VarintStatus::Ok;
    }
    return decodeLongVarint(bytes, pos, out);
}

std::string left(std::size_t bytes)
{
    // Appended piece by piece: g++ 12 at -O3 warns of "literal" + std::string
    // with a false -Wrestrict (GCC bug 105329).
    std::string text = "(";
    text += std::to_string(bytes);
    text += bytes == 1 ? " byte left)" : " bytes left)";
    return text;
}

} // namespace

ProtoWireReader::ProtoWireReader(std::string_view bytes, std::int64_t baseOffset, int depth)
    : m_bytes(bytes), m_baseOffset(baseOffset), m_depth(depth)
{
}

const char* ProtoWireReader::wireTypeName(WireType type)
{
    switch (type) {
    case WireType::Varint:
        return "varint";
    case WireType::Fixed64:
        return "64-bit";
    case WireType::Len:
        return "length-delimited";
    case WireType::Fixed32:
        return "32-bit";
    }
    return "?";
}

void ProtoWireReader::fail(const std::string& message, std::size_t at, bool ranOut) const
{
    m_ranOut = ranOut;
    throw FormatError(message, -1, m_baseOffset + std::int64_t(at));
}

bool ProtoWireReader::next()
{
    if (m_pos >= m_bytes.size())
        return false;
    m_fieldStart = m_pos;
    std::uint64_t tag = 0;
    switch (decodeVarint(m_bytes, m_pos, tag)) {
    case VarintStatus::Ok:
        break;
    case VarintStatus::Truncated:
        fail("truncated field tag " + left(m_bytes.size() - m_fieldStart), m_fieldStart, true);
    case VarintStatus::TooLong:
        fail("a field tag longer than 10 bytes", m_fieldStart, false);
    }
    // Field numbers are 1 to 2^29 - 1.
    const std::uint64_t number = tag >> 3;
    if (number == 0 || number > 0x1fffffff)
        fail("invalid field number " + std::to_string(number), m_fieldStart, false);
    m_field = std::uint32_t(number);
    // Only a message needs it: built then, not for every field.
    const auto name = [this] { return "field " + std::to_string(m_field); };
    const unsigned type = unsigned(tag & 7);
    const std::size_t start = m_pos;
    switch (type) {
    case 0:
        switch (decodeVarint(m_bytes, m_pos, m_value)) {
        case VarintStatus::Ok:
            break;
        case VarintStatus::Truncated:
            fail(name() + ": truncated varint " + left(m_bytes.size() - start), m_fieldStart, true);
        case VarintStatus::TooLong:
            fail(name() + ": a varint longer than 10 bytes", m_fieldStart, false);
        }
        m_wireType = WireType::Varint;
        return true;
    case 1:
    case 5: {
        const std::size_t size = type == 1 ? 8 : 4;
        if (m_bytes.size() - m_pos < size)
            fail(name() + ": " + std::to_string(size) + "-byte value runs past the end " + left(m_bytes.size() - m_pos),
                 m_fieldStart, true);
        m_value = 0;
        for (std::size_t i = 0; i < size; ++i) // little-endian
            m_value |= std::uint64_t(static_cast<unsigned char>(m_bytes[m_pos + i])) << (8 * i);
        m_pos += size;
        m_wireType = type == 1 ? WireType::Fixed64 : WireType::Fixed32;
        return true;
    }
    case 2: {
        std::uint64_t length = 0;
        switch (decodeVarint(m_bytes, m_pos, length)) {
        case VarintStatus::Ok:
            break;
        case VarintStatus::Truncated:
            fail(name() + ": truncated length " + left(m_bytes.size() - start), m_fieldStart, true);
        case VarintStatus::TooLong:
            fail(name() + ": a length longer than 10 bytes", m_fieldStart, false);
        }
        // A length is an int32 to protobuf; a writer's negative size arrives
        // sign-extended to ten bytes. Nonsense, not a file cut short.
        if (length > std::uint64_t(INT64_MAX))
            fail(name() + ": negative length " + std::to_string(std::int64_t(length)), m_fieldStart, false);
        const std::size_t rest = m_bytes.size() - m_pos;
        if (length > rest)
            fail(name() + ": length " + std::to_string(length) + " runs past the end " + left(rest), m_fieldStart, true);
        m_payloadStart = m_pos;
        m_payload = m_bytes.substr(m_pos, std::size_t(length));
        m_pos += std::size_t(length);
        m_wireType = WireType::Len;
        return true;
    }
    case 3:
    case 4:
        fail(name() + ": wire type " + std::to_string(type) + " (group) is not supported", m_fieldStart, false);
    default:
        fail(name() + ": invalid wire type " + std::to_string(type), m_fieldStart, false);
    }
}

ProtoWireReader ProtoWireReader::message() const
{
    if (m_depth + 1 > kMaxDepth)
        fail("field " + std::to_string(m_field) + ": messages nested more than " + std::to_string(kMaxDepth) + " deep",
             m_fieldStart, false);
    return ProtoWireReader(m_payload, payloadOffset(), m_depth + 1);
}

void ProtoWireReader::appendVarints(std::vector<std::uint64_t>& out) const
{
    if (m_wireType != WireType::Len) {
        out.push_back(m_value);
        return;
    }
    // Packed: the payload is varints back to back; each one read is at
    // least a byte of it, so the vector grows with the input, never ahead.
    std::size_t pos = 0;
    while (pos < m_payload.size()) {
        const std::size_t start = pos;
        std::uint64_t value = 0;
        switch (decodeVarint(m_payload, pos, value)) {
        case VarintStatus::Ok:
            break;
        case VarintStatus::Truncated:
            fail("field " + std::to_string(m_field) + ": truncated varint in a packed list "
                     + left(m_payload.size() - start),
                 m_payloadStart + start, false);
        case VarintStatus::TooLong:
            fail("field " + std::to_string(m_field) + ": a varint longer than 10 bytes in a packed list",
                 m_payloadStart + start, false);
        }
        out.push_back(value);
    }
}

} // namespace runlane
