#pragma once

#include "perfettoclocks.h"
#include "perfettopacketscan.h"
#include "perfettosequence.h"
#include "perfettotracks.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>

namespace runlane {

class ChunkedFileReader;
class ProfileBuilder;

// A Perfetto protobuf trace (a `Trace`: TracePackets back to back as its
// field 1) read packet by packet as the file streams in: a few blocks of
// packets are in memory at a time. Another thread cuts the file into blocks
// and reads the fields of each packet that need no state
// (PerfettoPacketSplitter in a BlockPipeline); this one reads them in file
// order. Each packet is read in the scope of its sequence
// (trusted_packet_sequence_id): its interned data and defaults, its
// incremental clocks, its data losses. Track descriptors and track events
// go to PerfettoTracks, clock snapshots to PerfettoClocks; runs of packets
// compressed with zlib or zstd (PerfettoDecompressor) are read the same way. Every other packet
// is skipped by its field number and counted in one summary warning. A
// malformed packet is skipped with a warning; a file cut short keeps what
// was read before the cut.
class PerfettoReader
{
public:
    // Compressed packets inside compressed packets are read this deep.
    static constexpr int kMaxCompressedDepth = 4;

    explicit PerfettoReader(ProfileBuilder& builder);

    void read(ChunkedFileReader& input);
    // Ends the tracks and writes the summary warnings.
    void finish();

    std::uint64_t packetCount() const { return m_packets; }
    // PartialLoad::completeUpTo of the packets read (PerfettoTracks).
    Time completeUpTo() const { return m_tracks.completeUpTo(); }

private:
    // `scanned`: its fields read already (PerfettoPacketSplitter), else null.
    void packet(std::string_view bytes, std::int64_t offset, int depth, const PerfettoPacketScan* scanned = nullptr);
    void readPacket(const PerfettoPacketScan& p, std::string_view bytes, int depth);
    void trackEvent(const PerfettoPacketScan& p, const ProtoWireReader& data, PerfettoSequence& seq, Time time);
    // A track event the scan read whole (PerfettoPacketScan::simpleEvent).
    void simpleTrackEvent(const PerfettoPacketScan& p, PerfettoSequence& seq, Time time);
    // False if the event is dropped (counted or told): untyped, or on no
    // track; else its track is set.
    bool onTrack(PerfettoTrackEvent& e, bool hasTrack, bool legacy, const PerfettoSequence& seq);
    void internedData(PerfettoSequence& seq, const ProtoWireReader& field);
    void packetDefaults(PerfettoSequence& seq, const ProtoWireReader& field);
    void clockSnapshot(const PerfettoPacketScan& p, const ProtoWireReader& field);
    void legacyThread(PerfettoSequence& seq, const ProtoWireReader& field);
    void legacyProcess(const ProtoWireReader& field);
    // A run of compressed_packets (zlib) or zstd_compressed_packets.
    void compressed(std::string_view bytes, std::int64_t offset, int depth, bool zstd);
    StringId eventName(const PerfettoSequence& seq, std::uint64_t iid, std::int64_t offset);
    // Cut short at `start`, where a packet begins that the file ends in.
    void cutShort(std::int64_t start, const std::string& what);

    ProfileBuilder& m_builder;
    PerfettoTracks m_tracks;
    // The event simpleTrackEvent fills, each time the same (see there).
    PerfettoTrackEvent m_simpleEvent;
    PerfettoClocks m_clocks;
    std::unordered_map<std::uint32_t, PerfettoSequence> m_sequences;
    std::uint32_t m_lastSequenceId = 0;
    PerfettoSequence* m_lastSequence = nullptr; // &m_sequences[m_lastSequenceId], when set
    // Packets not read, by their data field.
    std::map<std::uint32_t, std::uint64_t> m_skipped;
    std::uint64_t m_packets = 0;
    std::uint64_t m_lossReports = 0; // previous_packet_dropped
    std::uint64_t m_skippedAfterLoss = 0;
    std::uint64_t m_otherTraceFields = 0;
    // The offset inside compressed packets is not the file's: errors there
    // name the compressed run's packet instead (-1: not inside one).
    std::int64_t m_compressedAt = -1;
    // Where the packet being read starts in the file (its field's tag).
    std::int64_t m_packetStart = 0;
};

} // namespace runlane
