#pragma once

#include "chunkedfilereader.h"
#include "profilebuilder.h"

namespace runlane {

// Streams a `.cpuprofile` (nlohmann SAX, no document in memory) into one
// Samples track: the call tree's nodes with their `children` (or `parent`)
// links, then each sample at startTime + Σ timeDeltas, laid out by
// SampleTree. The last sample lasts the profile's median interval, never
// past endTime (v8samples::SampleClock::lastSampleEnd).
class CpuProfileReader
{
public:
    // `track`: the track the samples go to (an addition to a trace); null:
    // a track of their own, "CPU profile (samples)".
    CpuProfileReader(ChunkedFileReader& input, ProfileBuilder& builder, const TrackInfo* track = nullptr);
    void read();

private:
    ChunkedFileReader& m_input;
    ProfileBuilder& m_builder;
    const TrackInfo* m_track;
};

} // namespace runlane
