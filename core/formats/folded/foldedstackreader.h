#pragma once

#include "profiletypes.h"

#include <cstdint>
#include <functional>
#include <string_view>

namespace runlane {

class ChunkedFileReader;
class Diagnostics;

// Tokenizer side of folded ("collapsed") stacks, one stack a line:
// "frame;frame;frame 12". The count is the last field (fractions allowed,
// exact to 1/kTicksPerUnit, rounded beyond with a warning naming the line;
// with two count fields, a differential file, the second is used). Reads
// UTF-8 (with or without a byte order mark) as a stream, UTF-16 with a byte
// order mark, CRLF or LF. Comment lines (# or //) are skipped; lines that do
// not parse are counted as warnings.
class FoldedStackReader
{
public:
    // The stack text (frames joined by ';') and the count in ticks of
    // 1/kTicksPerUnit samples.
    using Sink = std::function<void(std::string_view stack, Time count, std::uint64_t line)>;

    FoldedStackReader(ChunkedFileReader& input, Diagnostics& diagnostics, Sink sink);
    void read();

private:
    void line(std::string_view text, std::uint64_t number);

    ChunkedFileReader& m_input;
    Diagnostics& m_diagnostics;
    Sink m_sink;
    bool m_warnedDifferential = false;
};

} // namespace runlane
