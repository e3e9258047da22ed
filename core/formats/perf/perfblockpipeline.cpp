#include "perfblockpipeline.h"

#include <utility>

namespace runlane {

PerfBlockPipeline::PerfBlockPipeline(ChunkedFileReader& input, std::size_t blockBytes)
    : m_splitter(input, blockBytes), m_blocks(kBlocks)
{
    for (std::size_t i = kBlocks; i-- > 0;)
        m_free.push_back(i);
    m_thread = std::thread([this] { produce(); });
}

PerfBlockPipeline::~PerfBlockPipeline()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_changed.notify_all();
    m_thread.join();
}

void PerfBlockPipeline::produce()
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
        // Parsing the headers is work either thread can do (the result is
        // the same): this one does it when the consumer has blocks waiting,
        // and leaves it to the consumer when the consumer is waiting for it.
        bool filled = false;
        std::exception_ptr error;
        try {
            filled = m_splitter.next(m_blocks[index], ahead);
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

const PerfLineBlock* PerfBlockPipeline::next()
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
        return &m_blocks[m_current];
    }
    if (m_error)
        std::rethrow_exception(std::exchange(m_error, nullptr));
    return nullptr;
}

} // namespace runlane
