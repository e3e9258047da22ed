#pragma once

#include <string>
#include <string_view>

namespace runlane {

enum class ProfileFormat {
    Unknown,
    Empty,
    ChromeTrace, // Chrome Trace Event Format, bare array or {"traceEvents": ...}
    EnsoLog, // Enso profiler event log
    ChronosLog, // {"chronosFutureEvents": 1, "events": [...]}
    ChroprofRows, // a bare array of Chroprof metric rows
    ChroprofSnapshots, // {"chroprofSnapshots": 1, "snapshots": [...]}
    Speedscope, // speedscope's file format
    FoldedStacks, // "a;b;c 12" lines (text, not JSON)
};

// Recognises a profile format from the first bytes of a file, never from
// its name: people rename traces, and `.json` says nothing about the schema.
class FormatDetector
{
public:
    struct Result {
        ProfileFormat format = ProfileFormat::Unknown;
        std::string reason; // why it is Unknown, for the error message
    };

    static constexpr std::size_t kPrefixSize = 256 * 1024;

    // `prefix` is the start of the file; `complete` if it is the whole file.
    // JSON objects are told apart by their top-level keys, read in order and
    // skipping values, as far as the prefix goes; arrays by their first element.
    static Result detect(std::string_view prefix, bool complete);
    static std::string_view name(ProfileFormat format);
};

} // namespace runlane
