#pragma once

#include "inputformat.h"

namespace runlane {

// The Chrome Trace Event Format (a bare array of events or {"traceEvents": ...}):
// read first by ChromeFastReader (simdjson), which hands over to the
// reference ChromeJsonReader whenever it would read anything differently.
class ChromeFormat : public InputFormat
{
public:
    std::string_view id() const override;
    std::string_view name() const override;
    std::vector<std::string_view> fileNamePatterns() const override;
    Probe probe(const FormatPrefix& prefix) const override;
    double memoryPerInputByte() const override;
    void read(ChunkedFileReader& input, ProfileBuilder& builder) const override;
    bool hasFileReader() const override;
    bool readFile(QIODevice& file, const LoadControl& control, ProfileBuilder& builder,
                  std::int64_t& bytesRead) const override;
};

} // namespace runlane
