#pragma once

// Seeded multi-process Enso profiles with known answers (formats.md (a) and
// (n)), for the tests: the IDE's event-log array followed by the Language
// Server's, each with its $Process and $TimeOffset headers. The IDE runs a
// region of interest (one `@highlight` measurement) with top-level tasks
// created by it, some labelled as foreign processes (the labels of
// `foreignLabels()`), some nesting a foreign call, one async (two
// intervals), plus work before the region, across its start and end, and
// one task still open at the end of the log. Its metadata: an `RpcRequest`
// per request to the Language Server and an `RpcEvent` per reply, a
// `RenderStats` per frame and a few `GlyphCacheMiss`es. The Language
// Server's array ($TimeOffset 0, absolute times, as Enso's
// api_events_to_profile writes it) holds only `BackendMessage`s: a Request
// to the Engine and its Response per IDE request. Everything the generator
// wrote is counted in EnsoGenTruth as it writes it, so tests check what
// Runlane reads against what is in the file, not against Runlane itself.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace runlane::test {

struct EnsoGenOptions {
    std::uint64_t seed = 1;
    int tasks = 40; // top-level tasks inside the highlight
    double requestChance = 0.4; // per task, of a request to the Language Server
    std::uint64_t ideOffset = 1650900741301300; // the IDE's $TimeOffset, µs since the epoch
    std::uint64_t framePeriod = 16667; // µs between RenderStats; every 5th frame takes three
    bool languageServer = true; // write its array after the IDE's
};

// A message between processes, as formats.md (n)'s beanpoles draw it.
struct EnsoGenMessage {
    std::uint64_t at = 0; // µs since the epoch
    std::string from; // "Ide", "LanguageServer", "Engine"
    std::string to;
    std::string name; // endpoint, method or notification
    std::string requestId; // BackendMessage's; empty for the IDE's
};

struct EnsoGenFrame {
    std::uint64_t at = 0; // µs since the epoch
    double frameTime = 0; // ms, as written
    double fps = 0; // as written
    std::uint64_t drawCalls = 0;
};

struct EnsoGenTruth {
    std::uint64_t spanStart = 0; // µs since the epoch: the first and last time of any event
    std::uint64_t spanEnd = 0;
    std::map<std::string, std::uint64_t> measurements; // per process
    std::map<std::string, std::uint64_t> intervals; // per process
    std::map<std::string, std::map<std::string, std::uint64_t>> marks; // process -> metadata type -> count
    // `processes` over foreignLabels(): the region and the figures, µs.
    std::uint64_t regionStart = 0; // since the epoch
    std::uint64_t regionEnd = 0;
    std::uint64_t main = 0;
    std::vector<std::uint64_t> latencies; // one per foreign label
    std::vector<EnsoGenMessage> messages; // in time order
    // The Language Server's round trips to the Engine (a request and the
    // response with its request_id), µs, per endpoint in the order written.
    std::map<std::string, std::vector<std::uint64_t>> roundTrips;
    std::vector<EnsoGenFrame> frames;
    // The Language Server's messages as its CSV message log (header-less
    // `timestamp,direction,request_id,endpoint`, what Enso's
    // api_events_to_profile reads), written whether or not the profile
    // holds its array: the same BackendMessages, to open or add.
    std::string messageLog;
};

class EnsoGenerator
{
public:
    // The labels the generator's foreign work carries (names, no position).
    static const std::vector<std::string>& foreignLabels();
    // The whole file: the IDE's array, then the Language Server's.
    static std::string profile(const EnsoGenOptions& options, EnsoGenTruth* truth = nullptr);
    // profile() of the default options but for these.
    static std::string profile(std::uint64_t seed, int tasks, EnsoGenTruth* truth = nullptr);
};

} // namespace runlane::test
