#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace runlane::bench {

// V8 CPU profile samples of one thread as a DevTools recording holds them:
// a `Profile` event, then `ProfileChunk` events, each with the call tree's
// nodes that are new since the last chunk (`parent` links) and the samples
// with their `timeDeltas` (µs, each from the previous sample, across
// chunks). Keys are written in alphabetical order, as DevTools writes them,
// so `args` comes before `name`: the case the Chrome readers handle by
// keeping `args.data` before they know the event's name. The stack moves as
// a random walk (mostly staying, stepping up or down a frame), with
// `(program)`, `(idle)` and `(garbage collector)` now and then.
class SampleGenerator
{
public:
    SampleGenerator(int pid, int tid, std::uint32_t seed);

    // The `Profile` event, at `startUs`.
    std::string profileEvent(std::int64_t startUs);
    // A `ProfileChunk` with samples every `minGapUs`..`maxGapUs` from the
    // last sample up to `untilUs`; empty if no sample fits.
    std::string chunkEvent(std::int64_t untilUs, int minGapUs, int maxGapUs);
    std::uint64_t sampleCount() const { return m_samples; }

private:
    struct Node {
        std::uint32_t parent = 0;
        std::vector<std::uint32_t> children;
    };
    std::uint32_t next();
    std::uint32_t addNode(std::uint32_t parent);
    std::uint32_t step();
    void writeNode(std::string& out, std::uint32_t id) const;

    int m_pid;
    int m_tid;
    std::uint64_t m_state;
    std::vector<Node> m_nodes; // index = id - 1; 1 is (root)
    std::uint32_t m_firstUnwritten = 1;
    std::uint32_t m_current = 0;
    std::int64_t m_lastUs = 0;
    std::uint64_t m_samples = 0;
};

} // namespace runlane::bench
