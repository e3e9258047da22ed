#pragma once

#include "perfettopacketscan.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace runlane {

// A run of whole TracePackets cut out of a Perfetto trace, in file order,
// each with its fields read as far as that needs no state
// (PerfettoPacketScan): PerfettoPacketSplitter fills blocks on one thread
// while PerfettoReader reads the previous ones on another. The last block
// says how the Trace ended, if not cleanly, for the reader to tell.
struct PerfettoPacketBlock {
    struct Packet {
        std::int64_t start = 0; // of its tag in the file
        std::int64_t offset = 0; // of its bytes
        std::size_t begin = 0; // in bytes
        std::size_t size = 0;
    };
    // How the Trace ends after these packets.
    enum class End : std::uint8_t {
        None, // it goes on, or ends cleanly (or a read error ends it: the loader tells)
        CutShort, // the file ends inside a field: `what`
        CutInPacket, // the file ends inside a field of `length` bytes of which `received` are there
        Unreadable, // a field that no Trace holds: `what`
    };

    // The packets' bytes back to back. A vector, not a string: moving it
    // keeps the views into it valid (no small-string buffer).
    std::vector<char> bytes;
    std::vector<Packet> packets;
    // The packets' fields as PerfettoPacketScan reads them, by index; none
    // if the reader is to read them, and a packet whose fields are
    // malformed is read again there to tell it (`scanned` false). Apart
    // from the packets: the records go from one core to the other, and a
    // record as small as a packet is what makes that cheap.
    std::vector<PerfettoPacketScan> scans;
    std::vector<bool> scanned;
    // Fields of the Trace other than packets, counted and skipped.
    std::uint64_t otherTraceFields = 0;
    End end = End::None;
    std::int64_t endAt = 0; // where the field that ends it starts
    std::string what;
    std::uint64_t length = 0;
    std::uint64_t received = 0;

    std::string_view packet(const Packet& p) const { return {bytes.data() + p.begin, p.size}; }
    void clear()
    {
        bytes.clear();
        packets.clear();
        scans.clear();
        scanned.clear();
        otherTraceFields = 0;
        end = End::None;
        what.clear();
    }
};

} // namespace runlane
