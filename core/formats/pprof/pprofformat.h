#pragma once

#include "inputformat.h"

namespace runlane {

// pprof's profile.proto (Go's runtime/pprof, pprof-rs, ...): protobuf,
// neither JSON nor text. Usually gzip-compressed on disk; the loader hands
// the reader the decompressed bytes.
class PprofFormat : public InputFormat
{
public:
    // Decompressed; pprof profiles are megabytes, not gigabytes.
    static constexpr std::size_t kMaxInput = std::size_t(1) << 30;

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
