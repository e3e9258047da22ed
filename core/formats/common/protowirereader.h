#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace runlane {

// The protobuf wire format, read field by field from bytes in memory: tags,
// varints, fixed 64- and 32-bit values, length-delimited payloads. It knows
// no schema; PprofDecoder says what the fields mean. Hand-written rather
// than libprotobuf because one fixed schema needs very little, and a small
// reader is easy to fuzz: every length is checked against what is left,
// nesting is bounded, and nothing is allocated from a count read from the
// input. Malformed input throws FormatError with the byte offset.
class ProtoWireReader
{
public:
    enum class WireType : std::uint8_t { Varint = 0, Fixed64 = 1, Len = 2, Fixed32 = 5 };
    // profile.proto nests three deep (Profile > Location > Line); what is
    // deeper than this is no profile.
    static constexpr int kMaxDepth = 8;

    // `baseOffset`: where `bytes` start in the input, for messages.
    explicit ProtoWireReader(std::string_view bytes, std::int64_t baseOffset = 0, int depth = 0);

    // Moves to the next field; false at the end of the bytes.
    bool next();
    std::uint32_t field() const { return m_field; }
    WireType wireType() const { return m_wireType; }
    // Absolute offset of the current field's tag.
    std::int64_t fieldOffset() const { return m_baseOffset + std::int64_t(m_fieldStart); }
    // Varint, Fixed64 or Fixed32: the value as read (a negative int64 is
    // its two's complement).
    std::uint64_t value() const { return m_value; }
    std::int64_t signedValue() const { return std::int64_t(m_value); }
    // Len: the payload, and where it starts.
    std::string_view payload() const { return m_payload; }
    std::int64_t payloadOffset() const { return m_baseOffset + std::int64_t(m_payloadStart); }
    // Len: the payload as a message, one level deeper.
    ProtoWireReader message() const;
    // A repeated integer field, packed (Len) or not (Varint): appends its
    // values. Other wire types are the caller's to reject.
    void appendVarints(std::vector<std::uint64_t>& out) const;

    // After a FormatError: whether the bytes ended inside the field (a
    // prefix of a file cut there), rather than holding nonsense.
    bool ranOut() const { return m_ranOut; }
    std::size_t remaining() const { return m_bytes.size() - m_pos; }

    static const char* wireTypeName(WireType type);

private:
    [[noreturn]] void fail(const std::string& message, std::size_t at, bool ranOut) const;

    std::string_view m_bytes;
    std::int64_t m_baseOffset = 0;
    int m_depth = 0;
    std::size_t m_pos = 0;
    std::size_t m_fieldStart = 0;
    std::size_t m_payloadStart = 0;
    std::uint32_t m_field = 0;
    WireType m_wireType = WireType::Varint;
    std::uint64_t m_value = 0;
    std::string_view m_payload;
    // Set by a const method (appendVarints) too, just before it throws.
    mutable bool m_ranOut = false;
};

} // namespace runlane
