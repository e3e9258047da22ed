#pragma once

#include "perfettotrackevent.h"
#include "protowirereader.h"

#include <cstdint>
#include <string_view>

namespace runlane {

// The fields of one TracePacket that PerfettoReader looks at, read in one
// pass without the state of its sequence or of the packets before it: so
// PerfettoPacketSplitter reads them on the producer's thread, ahead of the
// reader, which then brings the sequence up to date and reads the data
// whatever the order of the fields was.
//
// The fields that are messages are kept as where their tags are in the
// packet's bytes (fieldAt reads them again). A track event of the common
// fields alone (type, name, track, counter, each once) is read here too
// (`event`); any other is left to the reader, which then meets its
// errors where it always did.
struct PerfettoPacketScan {
    static constexpr std::uint32_t kAbsent = 0xFFFFFFFF;

    // A TrackEvent of the fields below alone, each at most once.
    struct Event {
        PerfettoTrackEvent::Type type = PerfettoTrackEvent::Type::Unspecified;
        bool hasNameIid = false; // name_iid, else name (or neither)
        bool hasName = false;
        std::uint64_t nameIid = 0;
        std::string_view name; // in the packet's bytes
        bool hasTrack = false;
        std::uint64_t track = 0;
        bool hasCounter = false;
        double counter = 0;
    };

    std::int64_t offset = 0; // of the packet's bytes in the file
    bool hasTimestamp = false;
    bool cleared = false; // incremental_state_cleared
    bool dropped = false; // previous_packet_dropped
    bool simpleEvent = false; // `event` holds the data, a track event
    std::uint64_t timestamp = 0;
    std::uint32_t clock = 0; // 0: the sequence's default
    std::uint32_t sequence = 0;
    std::uint32_t flags = 0;
    // Where the tags of interned_data, trace_packet_defaults and the data
    // field are in the packet's bytes; kAbsent if it has none.
    std::uint32_t interned = kAbsent;
    std::uint32_t defaults = kAbsent;
    std::uint32_t data = kAbsent;
    std::uint32_t dataField = 0; // its field number
    Event event;

    // Reads the packet's fields into this scan, which must be fresh (as
    // constructed): its callers make one per packet, so it is not cleared
    // again here. A malformed field is a FormatError (at its offset), whose
    // packet the reader skips.
    void read(std::string_view bytes, std::int64_t bytesOffset);
    // The field whose tag is at `at` in the bytes read, as the packet's
    // reader stood on it.
    ProtoWireReader fieldAt(std::string_view bytes, std::uint32_t at) const;

private:
    bool readCommon(std::string_view bytes, std::string_view& event);
    void readAll(std::string_view bytes);
    void readEvent(std::string_view payload);
};

} // namespace runlane
