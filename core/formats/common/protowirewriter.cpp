#include "protowirewriter.h"

#include <bit>

namespace runlane {

namespace {

constexpr unsigned kVarint = 0;
constexpr unsigned kFixed64 = 1;
constexpr unsigned kLen = 2;
constexpr std::size_t kLengthBytes = 4;

} // namespace

void ProtoWireWriter::appendVarint(std::string& out, std::uint64_t value)
{
    char bytes[10];
    int n = 0;
    while (value >= 0x80) {
        bytes[n++] = char((value & 0x7f) | 0x80);
        value >>= 7;
    }
    bytes[n++] = char(value);
    out.append(bytes, std::size_t(n));
}

void ProtoWireWriter::varint(std::uint32_t field, std::uint64_t value)
{
    appendVarint(m_out, (std::uint64_t(field) << 3) | kVarint);
    appendVarint(m_out, value);
}

void ProtoWireWriter::fixed64(std::uint32_t field, std::uint64_t value)
{
    appendVarint(m_out, (std::uint64_t(field) << 3) | kFixed64);
    char bytes[8];
    for (int i = 0; i < 8; ++i)
        bytes[i] = char((value >> (8 * i)) & 0xff);
    m_out.append(bytes, 8);
}

void ProtoWireWriter::doubleValue(std::uint32_t field, double value)
{
    fixed64(field, std::bit_cast<std::uint64_t>(value));
}

void ProtoWireWriter::bytes(std::uint32_t field, std::string_view payload)
{
    appendVarint(m_out, (std::uint64_t(field) << 3) | kLen);
    appendVarint(m_out, payload.size());
    m_out.append(payload);
}

std::size_t ProtoWireWriter::beginMessage(std::uint32_t field)
{
    appendVarint(m_out, (std::uint64_t(field) << 3) | kLen);
    const std::size_t at = m_out.size();
    m_out.append(kLengthBytes, '\0');
    return at;
}

bool ProtoWireWriter::endMessage(std::size_t begun)
{
    const std::size_t size = m_out.size() - begun - kLengthBytes;
    if (size > kMaxMessage)
        return false;
    // Little-endian groups of 7 bits, every byte but the last continued.
    for (std::size_t i = 0; i < kLengthBytes; ++i) {
        const auto group = char((size >> (7 * i)) & 0x7f);
        m_out[begun + i] = i + 1 < kLengthBytes ? char(group | 0x80) : group;
    }
    return true;
}

} // namespace runlane
