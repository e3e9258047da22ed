#pragma once

#include "inputformat.h"

namespace runlane {

// tokio-console recordings (console-subscriber, TOKIO_CONSOLE_RECORD_PATH):
// JSON lines, `{"v":1}` then one externally tagged event a line.
class TokioFormat : public InputFormat
{
public:
    std::string_view id() const override;
    std::string_view name() const override;
    std::vector<std::string_view> fileNamePatterns() const override;
    Probe probe(const FormatPrefix& prefix) const override;
    double memoryPerInputByte() const override;
    // No line is longer than TokioRecordingReader::kMaxLine.
    bool limitsJsonStrings() const override;
    void read(ChunkedFileReader& input, ProfileBuilder& builder) const override;
};

} // namespace runlane
