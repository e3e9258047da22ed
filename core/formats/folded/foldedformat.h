#pragma once

#include "inputformat.h"

namespace runlane {

// Folded stacks: "frame;frame;frame 12" lines, the count last (Brendan
// Gregg's stackcollapse, inferno, py-spy, austin); text, not JSON.
class FoldedFormat : public InputFormat
{
public:
    std::string_view id() const override;
    std::string_view name() const override;
    std::vector<std::string_view> fileNamePatterns() const override;
    Probe probe(const FormatPrefix& prefix) const override;
    double memoryPerInputByte() const override;
    void read(ChunkedFileReader& input, ProfileBuilder& builder) const override;
    bool isJson() const override;
    bool readsUtf16() const override;
};

} // namespace runlane
