#pragma once

#include "perfblocksplitter.h"
#include "perflineblock.h"

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace runlane {

class ChunkedFileReader;

// Reads `perf script` text on a second thread: a producer runs a
// PerfBlockSplitter over the input (the reading, the line splitting and,
// when it is ahead, the header parsing) while the caller walks the blocks
// it made before, in file order. The input is the producer's alone until the pipeline is destroyed
// (its progress and cancel checks then run on that thread, once per chunk
// as before); the caller checks cancel between blocks too.
//
// What the producer throws (a FormatError, LoadCancelled, out of memory)
// comes out of next() after the blocks before it, where reading on one
// thread would have thrown it.
class PerfBlockPipeline
{
public:
    // Blocks in flight: enough that neither thread waits for the other
    // over a block that takes a little longer.
    static constexpr std::size_t kBlocks = 8;
    // Blocks waiting for the consumer from which the producer counts as
    // ahead of it, with time to parse the headers too.
    static constexpr std::size_t kAhead = 2;

    explicit PerfBlockPipeline(ChunkedFileReader& input, std::size_t blockBytes = PerfBlockSplitter::kBlockBytes);
    // Stops the producer and waits for it.
    ~PerfBlockPipeline();
    PerfBlockPipeline(const PerfBlockPipeline&) = delete;
    PerfBlockPipeline& operator=(const PerfBlockPipeline&) = delete;

    // The next block, nullptr at the end; valid until the next call.
    const PerfLineBlock* next();

private:
    static constexpr std::size_t kNone = std::size_t(-1);
    void produce();

    PerfBlockSplitter m_splitter;
    std::vector<PerfLineBlock> m_blocks;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<std::size_t> m_free; // blocks the producer may fill
    std::deque<std::size_t> m_filled; // in file order
    std::size_t m_current = kNone; // handed out by next()
    bool m_done = false; // the producer made its last block
    bool m_stop = false;
    std::exception_ptr m_error; // the producer's, after m_filled
    std::thread m_thread; // last: started once the rest is built
};

} // namespace runlane
