#pragma once

#include "inputformat.h"

namespace runlane {

// The Enso Language Server's message log: header-less CSV lines
// `timestamp,direction,request_id,endpoint` (formats.md (n)), read as the
// LanguageServer process Enso's api_events_to_profile makes of it. Added to
// an open IDE profile it becomes a process beside the IDE's, on the same
// clock (µs since the epoch).
class EnsoMessagesFormat : public InputFormat
{
public:
    std::string_view id() const override;
    std::string_view name() const override;
    std::vector<std::string_view> fileNamePatterns() const override;
    Probe probe(const FormatPrefix& prefix) const override;
    double memoryPerInputByte() const override;
    bool isJson() const override { return false; }
    void read(ChunkedFileReader& input, ProfileBuilder& builder) const override;
    bool canBeAdded() const override { return true; }
    bool addsProcess() const override { return true; }
    void readAddition(ChunkedFileReader& input, ProfileBuilder& builder, const TrackInfo& track) const override;
};

} // namespace runlane
