#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace runlane {

// One record of the Language Server's message log: the fields of Enso's
// api_events_to_profile (formats.md (n)).
struct EnsoMessage {
    std::uint64_t micros = 0; // since the Unix epoch, sub-microseconds dropped
    bool request = false; // Request (LS -> Engine) or Response (Engine -> LS)
    std::optional<std::string> requestId; // an empty field is none (null)
    std::string endpoint;
};

// A header-less CSV record `timestamp,direction,request_id,endpoint` as
// Enso reads it (the csv crate's defaults: quoted fields with doubled
// quotes, no trimming; the timestamp as chrono reads a DateTime<Utc>).
class EnsoMessageLine
{
public:
    // What is wrong with a line, for a warning that names it.
    enum class Problem { None, FieldCount, Timestamp, Direction };
    struct Error {
        Problem problem = Problem::None;
        std::string message;
    };

    // `line` without its line end. False with `error` set.
    static bool parse(std::string_view line, EnsoMessage& out, Error& error);
    // RFC 3339 as chrono takes it: 2022-04-25T15:32:21.301300Z (T, t or a
    // space between date and time; Z, z or an offset such as +02:00). False
    // if it is not one, or before 1970.
    static bool parseTimestamp(std::string_view text, std::uint64_t& micros);
    // The BackendMessage payload as Enso's profile holds it and the Enso
    // reader keeps it: {"direction":…,"request_id":…,"endpoint":…}.
    static std::string payloadJson(const EnsoMessage& message);
};

} // namespace runlane
