#pragma once

#include <cstdint>
#include <cstdio>

namespace runlane::bench {

// Writes a deterministic, realistic Chrome trace for benchmarks: nested call
// trees (X events, some as B/E pairs) on several threads of a few processes,
// up to `maxDepth` deep, thousands of distinct names with a skewed
// frequency, async b/e tasks that pause and resume, counters, instants and
// M names; optionally DevTools CPU profile samples. Timestamps are µs with three decimals (ns precision), so the
// float-parsing path is measured too. The same options give the same bytes.
class TraceGenerator
{
public:
    struct Options {
        std::uint64_t events = 1'000'000; // total events written (B and E count one each)
        int processes = 2;
        int threadsPerProcess = 4;
        int names = 5000;
        int maxDepth = 30;
        std::uint32_t seed = 1;
        // A DevTools recording: every event's keys in alphabetical order
        // (`args` first, X events with an `args.data` object), and V8 CPU
        // profile samples on each process's main thread (SampleGenerator):
        // a sample every 5-15 µs of the thread's time.
        bool samples = false;
    };

    struct Stats {
        std::uint64_t events = 0;
        std::uint64_t intervals = 0; // what a loader should build
        int maxDepth = 0;
        std::uint64_t samples = 0;
    };

    explicit TraceGenerator(const Options& options);
    Stats write(std::FILE* out);
    // The trace of `events` events with the other options at their
    // defaults, into a new file; false if it cannot be written.
    static bool writeFile(const char* path, std::uint64_t events, bool samples = false);

private:
    struct Rng {
        std::uint64_t state;
        std::uint32_t next();
        double uniform() { return next() / 4294967296.0; }
    };

    void event(const char* text);
    std::int64_t call(int thread, int depth, std::int64_t start);
    void asyncTask(int process, std::int64_t start);
    const char* name(int index);
    int pickName();

    Options m_options;
    Stats m_stats;
    Rng m_rng;
    std::FILE* m_out = nullptr;
    char m_buffer[512];
    char m_name[128];
    std::uint64_t m_nextTaskId = 1;
    bool m_deepTree = false;
};

} // namespace runlane::bench
