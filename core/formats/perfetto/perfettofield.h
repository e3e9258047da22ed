#pragma once

#include "protowirereader.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace runlane {

// A field of a Perfetto message read as the schema says it is: a value of
// another wire type than the schema's is a FormatError at the field's
// offset (a packet that says it is a TrackEvent but is not), never a
// misread value. `message` names the message in the error.
struct PerfettoField {
    static std::uint64_t varint(const ProtoWireReader& r, const char* message);
    static std::string_view bytes(const ProtoWireReader& r, const char* message);
    // A double (fixed64), or an int64 varint written where a double was meant.
    static double number(const ProtoWireReader& r, const char* message);
    // Repeated uint64/int64, packed or not.
    static void varints(const ProtoWireReader& r, const char* message, std::vector<std::uint64_t>& out);
    // Repeated fixed64 (or double bits), packed or not.
    static void fixed64s(const ProtoWireReader& r, const char* message, std::vector<std::uint64_t>& out);

    [[noreturn]] static void wrongType(const ProtoWireReader& r, const char* message, const char* expected);
};

} // namespace runlane
