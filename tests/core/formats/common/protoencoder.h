#pragma once

// Protobuf written by hand for the tests of the wire reader and the formats
// over it (pprof, Perfetto): ProtoEncoder writes fields in the wire format.
// Independent of the reader under test.

#include <QByteArray>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace runlane::test {

class ProtoEncoder
{
public:
    static QByteArray varintBytes(std::uint64_t value)
    {
        QByteArray out;
        do {
            const auto low = char(value & 0x7f);
            value >>= 7;
            out.append(value ? char(low | 0x80) : low);
        } while (value);
        return out;
    }

    ProtoEncoder& tag(std::uint32_t field, int wireType)
    {
        m_bytes += varintBytes((std::uint64_t(field) << 3) | std::uint64_t(wireType));
        return *this;
    }
    ProtoEncoder& varint(std::uint32_t field, std::uint64_t value)
    {
        tag(field, 0);
        m_bytes += varintBytes(value);
        return *this;
    }
    ProtoEncoder& int64(std::uint32_t field, std::int64_t value) { return varint(field, std::uint64_t(value)); }
    ProtoEncoder& fixed64(std::uint32_t field, std::uint64_t value)
    {
        tag(field, 1);
        for (int i = 0; i < 8; ++i)
            m_bytes.append(char((value >> (8 * i)) & 0xff));
        return *this;
    }
    ProtoEncoder& fixed32(std::uint32_t field, std::uint32_t value)
    {
        tag(field, 5);
        for (int i = 0; i < 4; ++i)
            m_bytes.append(char((value >> (8 * i)) & 0xff));
        return *this;
    }
    ProtoEncoder& bytes(std::uint32_t field, const QByteArray& payload)
    {
        tag(field, 2);
        m_bytes += varintBytes(std::uint64_t(payload.size()));
        m_bytes += payload;
        return *this;
    }
    ProtoEncoder& message(std::uint32_t field, const ProtoEncoder& m) { return bytes(field, m.m_bytes); }
    // Repeated integers, packed into one field or one field each.
    ProtoEncoder& repeated(std::uint32_t field, const std::vector<std::int64_t>& values, bool packed)
    {
        if (!packed) {
            for (const std::int64_t v : values)
                int64(field, v);
            return *this;
        }
        QByteArray payload;
        for (const std::int64_t v : values)
            payload += varintBytes(std::uint64_t(v));
        return bytes(field, payload);
    }
    ProtoEncoder& raw(const QByteArray& bytes)
    {
        m_bytes += bytes;
        return *this;
    }
    const QByteArray& data() const { return m_bytes; }

private:
    QByteArray m_bytes;
};

} // namespace runlane::test
