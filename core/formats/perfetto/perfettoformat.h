#pragma once

#include "inputformat.h"

namespace runlane {

// Perfetto's protobuf trace (`.pftrace`, `.perfetto-trace`): what the
// Perfetto SDK, Chrome, Android and Rust's tracing-perfetto record. Binary;
// gzip-wrapped files are read through the loader's gzip layer.
class PerfettoFormat : public InputFormat
{
public:
    std::string_view id() const override;
    std::string_view name() const override;
    std::vector<std::string_view> fileNamePatterns() const override;
    Probe probe(const FormatPrefix& prefix) const override;
    double memoryPerInputByte() const override;
    void read(ChunkedFileReader& input, ProfileBuilder& builder) const override;
    bool isJson() const override;
    bool isBinary() const override;
};

} // namespace runlane
