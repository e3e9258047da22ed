#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace runlane {

// The protobuf wire format written field by field, appended to a string the
// caller owns (and may reuse: nothing here shrinks it). The counterpart of
// ProtoWireReader, with no schema either: PerfettoTraceWriter says what the
// fields mean. A nested message is written in place, as Perfetto's own
// protozero writes it: its length is reserved as a 4-byte varint (padded
// with continuation bits, which every protobuf reader accepts) and filled in
// when the message ends, so nothing is built twice or copied.
class ProtoWireWriter
{
public:
    // What a message written in place may hold: 4 varint bytes.
    static constexpr std::size_t kMaxMessage = (std::size_t(1) << 28) - 1;

    explicit ProtoWireWriter(std::string& out) : m_out(out) { }

    void varint(std::uint32_t field, std::uint64_t value);
    void fixed64(std::uint32_t field, std::uint64_t value);
    void doubleValue(std::uint32_t field, double value);
    void bytes(std::uint32_t field, std::string_view payload);
    // Starts a nested message; returns what endMessage needs.
    std::size_t beginMessage(std::uint32_t field);
    // Fills in the length; false if the message outgrew kMaxMessage (the
    // output is then not valid protobuf).
    bool endMessage(std::size_t begun);

    static void appendVarint(std::string& out, std::uint64_t value);

private:
    std::string& m_out;
};

} // namespace runlane
