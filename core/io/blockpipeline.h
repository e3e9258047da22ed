#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace runlane {

class ChunkedFileReader;

// Reads a file on a second thread: a producer runs a Splitter over the
// input (the reading, the cutting into blocks of whole records and, when
// it is ahead, what of each record can be read without the records before
// it) while the caller walks the blocks it made before, in file order. The
// input is the producer's alone until the pipeline is destroyed (its
// progress and cancel checks then run on that thread, once per chunk as
// before); the caller checks cancel between blocks too.
//
// The Splitter is built from the input (and `args`) and has a type Block
// and `bool next(Block&, bool ahead)`: fills the block, false at the end;
// `ahead` says the caller has blocks waiting, so that work either thread
// can do is done by the one with time for it (SplitterEnd keeps an error
// met inside a block for the call after it). PerfBlockSplitter and
// PerfettoPacketSplitter are the two.
//
// What the producer throws (a FormatError, LoadCancelled, out of memory)
// comes out of next() after the blocks before it, where reading on one
// thread would have thrown it.
template<typename Splitter>
class BlockPipeline
{
public:
    using Block = typename Splitter::Block;
    // Blocks in flight: enough that neither thread waits for the other
    // over a block that takes a little longer.
    static constexpr std::size_t kBlocks = 8;
    // Blocks waiting for the consumer from which the producer counts as
    // ahead of it.
    static constexpr std::size_t kAhead = 2;

    template<typename... Args>
    explicit BlockPipeline(ChunkedFileReader& input, Args&&... args)
        : m_splitter(input, std::forward<Args>(args)...), m_blocks(kBlocks)
    {
        for (std::size_t i = kBlocks; i-- > 0;)
            m_free.push_back(i);
        m_thread = std::thread([this] { produce(); });
    }
    // Stops the producer and waits for it.
    ~BlockPipeline()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_changed.notify_all();
        m_thread.join();
    }
    BlockPipeline(const BlockPipeline&) = delete;
    BlockPipeline& operator=(const BlockPipeline&) = delete;

    // The next block, nullptr at the end; valid until the next call.
    Block* next()
    {
        std::unique_lock lock(m_mutex);
        if (m_current != kNone) {
            m_free.push_back(m_current);
            m_current = kNone;
            m_changed.notify_all();
        }
        m_changed.wait(lock, [this] { return !m_filled.empty() || m_done; });
        if (!m_filled.empty()) {
            m_current = m_filled.front();
            m_filled.pop_front();
            return &m_blocks[m_current].block;
        }
        if (m_error)
            std::rethrow_exception(std::exchange(m_error, nullptr));
        return nullptr;
    }

private:
    static constexpr std::size_t kNone = std::size_t(-1);

    void produce()
    {
        for (;;) {
            std::size_t index = 0;
            bool ahead = false;
            {
                std::unique_lock lock(m_mutex);
                m_changed.wait(lock, [this] { return m_stop || !m_free.empty(); });
                if (m_stop)
                    return;
                index = m_free.back();
                m_free.pop_back();
                ahead = m_filled.size() >= kAhead;
            }
            // Filled without the lock: the consumer reads other blocks meanwhile.
            bool filled = false;
            std::exception_ptr error;
            try {
                filled = m_splitter.next(m_blocks[index].block, ahead);
            } catch (...) {
                error = std::current_exception();
            }
            {
                std::lock_guard lock(m_mutex);
                if (filled) {
                    m_filled.push_back(index);
                } else {
                    m_free.push_back(index);
                    m_error = error;
                    m_done = true;
                }
            }
            m_changed.notify_all();
            if (!filled)
                return;
        }
    }

    // A block on cache lines of its own: its vectors' ends change with
    // every record the producer adds, and the consumer reads those of its
    // neighbour on each record it takes (sharing lines with it made the
    // producer's every record a cache miss).
    struct alignas(64) Slot {
        Block block;
    };

    Splitter m_splitter;
    std::vector<Slot> m_blocks;
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
