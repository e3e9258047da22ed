#pragma once

#include "inputformat.h"

namespace runlane {

// Chronos future event log: {"chronosFutureEvents": 1, "events": [...]}.
class ChronosFormat : public InputFormat
{
public:
    std::string_view id() const override;
    std::string_view name() const override;
    std::vector<std::string_view> fileNamePatterns() const override;
    Probe probe(const FormatPrefix& prefix) const override;
    double memoryPerInputByte() const override;
    void read(ChunkedFileReader& input, ProfileBuilder& builder) const override;
    // The reader's message too: the probe says it without reading further.
    static std::string unsupportedVersion(std::int64_t version);
};

} // namespace runlane
