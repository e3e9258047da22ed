#pragma once

#include <exception>
#include <utility>

namespace runlane {

// Where a BlockPipeline's splitter stands with its input: going on, ended,
// or holding an error met while a block was being filled. An error after
// some of the block's records is kept and thrown by the following call, so
// that the records before it come out first, where reading on one thread
// would have met it.
class SplitterEnd
{
public:
    // At the start of a splitter's next(): throws the error kept; false
    // once the input has ended.
    bool more()
    {
        if (m_error) {
            m_ended = true;
            std::rethrow_exception(std::exchange(m_error, nullptr));
        }
        return !m_ended;
    }
    void reached() { m_ended = true; }

    // Runs `fill`. What it throws is thrown now if `holdsRecords()` says
    // the block has none, and kept for the next call if it has.
    template<typename Fill, typename HoldsRecords>
    void fill(Fill&& fill, HoldsRecords&& holdsRecords)
    {
        try {
            fill();
        } catch (...) {
            m_ended = true;
            if (!holdsRecords())
                throw;
            m_error = std::current_exception();
        }
    }

private:
    bool m_ended = false;
    std::exception_ptr m_error;
};

} // namespace runlane
