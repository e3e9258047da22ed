#pragma once

#include "inputformat.h"

namespace runlane {

// Enso's profiler event log: a bare array of one-letter-keyed events.
class EnsoFormat : public InputFormat
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
