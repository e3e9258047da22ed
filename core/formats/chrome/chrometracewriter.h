#pragma once

#include "profile.h"

#include <QString>

#include <functional>
#include <string>

namespace runlane {

// Writes any profile as Chrome Trace Event Format JSON that Runlane (and
// Perfetto, chrome://tracing) can open; loading it again gives the same rank.
//
// Synchronous calls become `X` events (a `B` without `E` if still open).
// Values of sample-based profiles are written one sample (or unit) per µs.
// Pre-aggregated metrics (Chroprof) have no timeline: they are written as
// counters of their cumulative values, which charts them but does not keep
// their rank.
// Everything else is a task written as async slices sharing an id: `b`/`e`
// per active interval, an `n` at creation if it waited before running, and a
// final `n` whose args.state says how it ended. Tasks that ran on a thread's
// running stack (Enso, Chronos) use the category "runlane.task", which the
// Chrome loader keeps on that thread; concurrent ones use "runlane.async".
class ChromeTraceWriter
{
public:
    using Sink = std::function<bool(const std::string& chunk)>;

    // Atomic: the file appears only when complete. False + error on failure.
    static bool writeFile(const Profile& profile, const QString& path, std::string& error);
    static std::string toString(const Profile& profile);
    // Streams the JSON to `sink` in chunks; stops when the sink returns false.
    static bool write(const Profile& profile, const Sink& sink);
};

} // namespace runlane
