#pragma once

#include "perfettopacketblock.h"
#include "splitterend.h"

#include <cstddef>
#include <cstdint>

namespace runlane {

class ChunkedFileReader;

// Cuts a Perfetto trace (a `Trace`: TracePackets back to back as its field
// 1) into PerfettoPacketBlocks of whole packets, in file order, and reads
// each packet's fields that need no state (PerfettoPacketScan). Runs on
// the producer's thread of a BlockPipeline, so it touches nothing of the
// load but its input: how the Trace ends, when not cleanly, goes in the
// last block for PerfettoReader to tell.
//
// A file that does not start as a Trace is a FormatError; an error the
// input throws (LoadCancelled, out of memory) comes after the packets
// before it: next() hands out the block of those first and throws on the
// following call.
class PerfettoPacketSplitter
{
public:
    using Block = PerfettoPacketBlock;
    // Packet bytes per block: a few thousand packets, so that handing a
    // block over costs nothing next to reading it. The blocks in flight
    // with their records take about 9 MB at this size (26 MB at 256 KiB,
    // which loaded no faster; 16 KiB blocks were slower).
    static constexpr std::size_t kBlockBytes = std::size_t(64) << 10;

    explicit PerfettoPacketSplitter(ChunkedFileReader& input, std::size_t blockBytes = kBlockBytes);

    // Fills `block` (cleared first) with the next packets; false at the
    // end. `scan` false leaves the packets' fields to the reader: the
    // pipeline gives that work to the thread with time for it.
    bool next(PerfettoPacketBlock& block, bool scan = true);

private:
    // The Trace's next field into `block`; false at its end.
    bool field(PerfettoPacketBlock& block);
    bool endWith(PerfettoPacketBlock& block, PerfettoPacketBlock::End end, std::int64_t at, std::string what);

    ChunkedFileReader& m_input;
    std::size_t m_blockBytes;
    std::uint64_t m_fields = 0; // of the Trace, packets or not
    SplitterEnd m_end;
};

} // namespace runlane
