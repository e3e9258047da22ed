#pragma once

#include "perflineblock.h"
#include "splitterend.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace runlane {

class ChunkedFileReader;

// Cuts `perf script` text into PerfLineBlocks of whole lines (a line the
// file's chunks split is put back together), in file order, and classifies
// their lines. Runs on PerfBlockPipeline's producer thread (BlockPipeline), so it must not
// touch anything of the load but its input.
//
// A line longer than kMaxLine is a FormatError at its first byte; an error
// the input throws (LoadCancelled, out of memory) or such a FormatError
// comes after the lines before it: next() hands out the block of those
// first and throws on the following call.
class PerfBlockSplitter
{
public:
    using Block = PerfLineBlock;
    // Lines longer than this are no perf script (a binary file, a file of
    // one line): a FormatError rather than a buffer that grows without end.
    // Checked as the chunks of the input arrive, as the reader always did,
    // so the same files fail.
    static constexpr std::size_t kMaxLine = std::size_t(1) << 20;
    // Text per block: about a thousand lines, so that handing a block over
    // costs nothing next to reading it; small, so that the blocks in
    // flight stay in the caches (256 KiB blocks made the copy into them
    // the producer's biggest cost).
    static constexpr std::size_t kBlockBytes = std::size_t(64) << 10;

    explicit PerfBlockSplitter(ChunkedFileReader& input, std::size_t blockBytes = kBlockBytes);

    // Fills `block` (cleared first) with the next lines; false at the end.
    // `parseHeaders` false leaves the headers to the reader (it parses a
    // header line that comes without its parse): the pipeline shares that
    // work out by which thread has time for it.
    bool next(PerfLineBlock& block, bool parseHeaders = true);

private:
    void fill(PerfLineBlock& block);
    bool spilledLine(bool& ended);
    static void classify(PerfLineBlock& block, bool parseHeaders);

    ChunkedFileReader& m_input;
    std::size_t m_blockBytes;
    std::string m_spill; // a line that spans two chunks
    std::int64_t m_lineOffset = 0;
    bool m_started = false;
    SplitterEnd m_end;
};

} // namespace runlane
