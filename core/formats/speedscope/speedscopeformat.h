#pragma once

#include "inputformat.h"

namespace runlane {

// speedscope's file format (evented and sampled profiles).
class SpeedscopeFormat : public InputFormat
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
