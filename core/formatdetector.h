#pragma once

#include <string>
#include <string_view>

namespace runlane {

enum class ProfileFormat {
    Unknown,
    Empty,
    ChromeTrace, // Chrome Trace Event Format, bare array or {"traceEvents": ...}
    EnsoLog, // Enso profiler event log
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
    static Result detect(std::string_view prefix, bool complete);
    static std::string_view name(ProfileFormat format);
};

} // namespace runlane
