#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace runlane {

// One recorded run of a history: what it was recorded from and when. Its
// per-label values are rows of their own (HistoryStore).
struct HistoryRun {
    std::int64_t id = 0;
    // The runs recorded together (several profiles of one record): the id
    // of the set's first run.
    std::int64_t runSet = 0;
    std::string recordedAt; // UTC, ISO 8601 with milliseconds
    std::string commit;
    std::string branch;
    std::string host;
    std::string workload;
    std::string toolVersion;
    std::string sourceName; // the profile's file name
    std::int64_t sourceSize = 0;
    std::string sourcePath; // absolute, to open it again while it is there
    std::string format;
    std::string unit = "ns"; // ValueFormat::key
    double busy = 0;
    std::vector<std::pair<std::string, std::string>> tags; // --tag k=v, in order
};

} // namespace runlane
