#pragma once

#include "scrapedsnapshot.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace runlane {

// One Prometheus text exposition (format 0.0.4, what an exporter's
// /metrics serves) read for Chroprof's gauges (formats.md (d), (l)). Never
// fails: a scrape is taken as it comes, a bad line is counted and skipped.
class PrometheusText
{
public:
    struct Result {
        ScrapedSnapshot snapshot; // rows sorted by (procedure, file, line)
        bool timestamped = false; // the Chroprof samples carried timestamps
        // lines: every line of the text; samples: well-formed sample lines
        // (Chroprof's and others); otherSamples: those of other metrics;
        // malformedLines, invalidUtf8Lines: lines skipped.
        std::uint64_t lines = 0, samples = 0, otherSamples = 0, malformedLines = 0, invalidUtf8Lines = 0;
        std::vector<std::string> warnings; // at most 10, "line 12: expected ..."
    };
    static constexpr std::size_t kMaxWarnings = 10;

    // scrapeTime: ns since the Unix epoch. snapshot.time = the newest
    // timestamp (ms → ns) of the Chroprof samples when they have
    // timestamps, else scrapeTime.
    static Result parse(std::string_view text, Time scrapeTime);
};

} // namespace runlane
