#pragma once

#include <iosfwd>
#include <string>

namespace runlane {

class HistoryStore;

// A whole history as JSON lines, to move it between SQLite and PostgreSQL
// or keep it in a repository: a first line {"runlane_history": 1, "tool"},
// then one object per run, oldest first:
//   {"id", "run_set", "recorded_at", "commit", "branch", "host", "workload",
//    "tool_version", "source": {"name", "size", "path"}, "format", "unit",
//    "busy", "tags": [[k, v], ...],
//    "labels": [{"name", "file", "line", "async", "calls", "exec", "total",
//                "wall", "p50", "p90", "p99", "max", "wait"}]}
// Imported runs get new ids (their run sets follow) and keep their time.
class HistoryJsonLines
{
public:
    static constexpr int kVersion = 1;

    static bool write(HistoryStore& store, std::ostream& out, const std::string& toolVersion, std::string& error);
    // `runs` counts what was added; false with `error` at the first bad
    // line (runs before it stay, each was its own transaction).
    static bool read(HistoryStore& store, std::istream& in, std::size_t& runs, std::string& error);
};

} // namespace runlane
