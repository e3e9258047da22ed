#pragma once

#include "inputformat.h"

namespace runlane {

// V8 CPU profiles (formats.md (f)): `{nodes, startTime, endTime, samples,
// timeDeltas}` as Node's --cpu-prof and DevTools write them. One sampled
// track on V8's clock, the clock of a trace of the same run.
class CpuProfileFormat : public InputFormat
{
public:
    std::string_view id() const override;
    std::string_view name() const override;
    std::vector<std::string_view> fileNamePatterns() const override;
    Probe probe(const FormatPrefix& prefix) const override;
    double memoryPerInputByte() const override;
    void read(ChunkedFileReader& input, ProfileBuilder& builder) const override;
    // A trace and a CPU profile of one run (node --trace-events-enabled
    // --cpu-prof, DevTools) share V8's clock: the samples fall on the
    // trace's time line as they are.
    bool canBeAdded() const override { return true; }
    void readAddition(ChunkedFileReader& input, ProfileBuilder& builder, const TrackInfo& track) const override;
};

} // namespace runlane
