#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace runlane {

class ChunkedFileReader;
class Diagnostics;

// Tokenizer side of Chroprof metrics: a bare array of rows, or
// {"chroprofSnapshots": 1, "snapshots": [{"t": ns, "rows": [...]}, ...]}.
// Each row reaches the sink typed; durations are integer nanoseconds.
class ChroprofJsonReader
{
public:
    struct Row {
        std::string procedure;
        std::string file;
        std::int64_t line = 0;
        bool hasProcedure = false;
        // -1: the row does not give it (every metric is optional).
        std::int64_t execTime = -1;
        std::int64_t execTimeMax = -1;
        std::int64_t childrenExecTime = -1;
        std::int64_t wallClockTime = -1;
        std::int64_t callCount = -1;
        std::int64_t stillbornCount = -1;
        std::int64_t zombieEventCount = -1;
    };
    struct Sink {
        std::function<void(bool timed, std::int64_t t, std::uint64_t index)> beginSnapshot;
        std::function<void(const Row&, std::uint64_t index)> row;
    };

    ChroprofJsonReader(ChunkedFileReader& input, Diagnostics& diagnostics, Sink sink);
    // Throws FormatError for malformed JSON, wrong types or a missing marker.
    void read();

private:
    ChunkedFileReader& m_input;
    Diagnostics& m_diagnostics;
    Sink m_sink;
};

} // namespace runlane
