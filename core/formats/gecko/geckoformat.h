#pragma once

#include "inputformat.h"

namespace runlane {

// Firefox Profiler files (formats.md (g)): the raw gecko profile Firefox
// writes, the processed profile profiler.firefox.com (and samply, perf
// script's gecko report) saves, and a DevTools recording that wraps a gecko
// profile under `profile`. One Samples track per thread, interval markers
// on "markers" tracks, instant markers as marks.
class GeckoFormat : public InputFormat
{
public:
    std::string_view id() const override;
    std::string_view name() const override;
    std::vector<std::string_view> fileNamePatterns() const override;
    Probe probe(const FormatPrefix& prefix) const override;
    double memoryPerInputByte() const override;
    void read(ChunkedFileReader& input, ProfileBuilder& builder) const override;
};

} // namespace runlane
