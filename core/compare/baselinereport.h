#pragma once

#include "runset.h"

#include <string>
#include <string_view>

namespace runlane {

// A baseline report: a set of runs as their per-label values of every
// metric (never the profiles), small enough to keep in a repository and
// compare each change's runs against in CI. JSON:
//   {"runlaneBaseline": 1, "tool": "runlane 0.1.0", "match": "name-file-line",
//    "runs": [{"source", "format", "busy", "tracks"}],
//    "labels": [{"name", "file", "line", "async", "values": {"exec": [per run], ...},
//                "call_exec", "call_wall", "call_total": [per call, one-run reports only]}]}
class BaselineReport
{
public:
    static constexpr int kVersion = 1;

    static std::string write(const RunSet& set, std::string_view toolVersion);
    // False with `error` set: not a report, a version this Runlane does not
    // read, or malformed. Runs are added to `into`.
    static bool read(std::string_view text, RunSet& into, std::string& error);
    // Whether a file's first bytes are those of a report.
    static bool isReport(std::string_view prefix);
    // Where a report stands for runs (compare's base, the viewer's Compare
    // with…): if the file at `path` is a report, reads it into `into` and
    // sets `wasReport`; false with `error` set if it is a broken report or
    // cannot be read. Not a report: true, `wasReport` false, nothing read.
    // Only a regular file can be a report: a pipe (a FIFO, `<(zcat …)`) is
    // not opened here, since opening one waits for its writer and reading
    // its first bytes would take them from the profile loader.
    static bool readIfReport(const std::string& path, RunSet& into, bool& wasReport, std::string& error);
};

} // namespace runlane
