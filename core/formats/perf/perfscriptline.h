#pragma once

#include "profiletypes.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace runlane {

// The two kinds of line of `perf script` text, taken apart without copying
// (the views point into the line). Shared by the probe and the reader, so
// that what detection accepts is what the reader reads.
//
//   comm [pid/]tid [cpu] secs.usecs: [period] event: [ip sym (dso)]
//   <blanks> addr sym+off (dso)
//
// perf pads its fields with spaces and prints only those asked for with
// -F, so fields are found by their shape, from the timestamp (or, without
// one, from the event) outwards: a comm may hold spaces and digits
// ("FS Broker 5906  7564/7598  2574592.949428: ...").
class PerfScriptLine
{
public:
    struct Header {
        std::string_view comm;
        bool hasPid = false;
        std::int64_t pid = 0;
        std::int64_t tid = 0;
        bool hasTime = false;
        Time time = 0; // ns, exact: the decimal text scaled, never a double
        bool hasPeriod = false;
        std::uint64_t period = 0;
        std::string_view event; // without its final ':' ("cycles:uppp")
        // What follows the event on the line: the sampled ip without
        // callchains (`-F ip,sym,dso`), a tracepoint's fields.
        std::string_view rest;
    };

    struct Frame {
        std::string_view address;
        std::string_view symbol; // "+0x…" offset removed; "[unknown]" if perf had none
        std::string_view dso; // empty if the line has none
        bool hasDso = false;
    };

    // Empty if `line` is a sample header (then in `out`); otherwise what is
    // wrong with it, for a message.
    static std::string_view parseHeader(std::string_view line, Header& out);
    // True if `line` (blanks first or not) is "addr [sym] [(dso)]".
    static bool parseFrame(std::string_view line, Frame& out);
    // Whether a frame line may be a header instead (only then is it parsed
    // as one): perf without callchains writes one padded line per sample,
    // so headers may start with blanks too.
    static bool mayBeHeader(std::string_view line);
    static bool isBlank(std::string_view line);
    // The start of a line for a message, control characters as '?'.
    static std::string excerpt(std::string_view line);
    static std::string_view trim(std::string_view text);
};

} // namespace runlane
