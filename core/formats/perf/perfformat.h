#pragma once

#include "inputformat.h"

namespace runlane {

// Linux `perf script` text: per sample a header line `comm [pid/]tid [cpu]
// secs.usecs: [period] event:` and its callchain, one frame a line, leaf
// first (see PerfScriptReader, and PerfScriptBuilder for how samples become
// time on threads). A file of several events loads one of them, the
// variant LoadControl::variant names (the first by default).
class PerfFormat : public InputFormat
{
public:
    std::string_view id() const override;
    std::string_view name() const override;
    std::vector<std::string_view> fileNamePatterns() const override;
    Probe probe(const FormatPrefix& prefix) const override;
    double memoryPerInputByte() const override;
    void read(ChunkedFileReader& input, ProfileBuilder& builder) const override;
    bool isJson() const override;
};

} // namespace runlane
