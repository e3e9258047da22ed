#pragma once

#include "perfblocksplitter.h"
#include "perflineblock.h"
#include "perfscriptline.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace runlane {

class ChunkedFileReader;
class Diagnostics;
class PerfScriptBuilder;

// Tokenizer side of `perf script` text: finds the samples (a header line,
// then its frames leaf first, a blank line or the next header after them)
// and hands them to the PerfScriptBuilder as they stream by; nothing of the
// file is kept but a few blocks of lines. `#` lines (`perf script --header`)
// are skipped. A line that is neither a header nor a frame is a FormatError
// at its first byte; a file cut inside its last line leaves out the sample
// it cuts, with a "truncated file" warning.
//
// The lines come from a PerfBlockPipeline: another thread reads the file,
// splits it into lines and, when it has time, parses those that can only be
// headers, while this one walks them through the samples and the builder,
// in file order.
class PerfScriptReader
{
public:
    // Lines longer than this are no perf script (a binary file, a file of
    // one line): a FormatError rather than a buffer that grows without end.
    static constexpr std::size_t kMaxLine = PerfBlockSplitter::kMaxLine;

    PerfScriptReader(ChunkedFileReader& input, Diagnostics& diagnostics, PerfScriptBuilder& builder);
    void read();

private:
    void readBlocks();
    void onLine(std::string_view line, const PerfLineBlock::Line& record, const PerfLineBlock& block);
    void beginSample(const PerfScriptLine::Header& header);
    void endSample();
    // The last line is cut: its sample is left out, with a warning.
    void truncated();
    [[noreturn]] void fail(std::string_view expected, std::string_view line) const;

    ChunkedFileReader& m_input;
    Diagnostics& m_diagnostics;
    PerfScriptBuilder& m_builder;
    std::uint64_t m_lineNumber = 0;
    std::int64_t m_lineOffset = 0;
    bool m_lastLineEnded = true; // with '\n'
    bool m_atEnd = false; // every line was read
    bool m_inSample = false;
    bool m_wanted = false; // the current sample is of the event loaded
    bool m_inlineFrame = false; // the header carried the sampled ip
    // A last line that is a frame without a dso, where every frame had
    // one, was cut.
    std::uint64_t m_framesWithDso = 0;
    std::uint64_t m_framesWithoutDso = 0;
    std::uint64_t m_samples = 0;
    std::uint64_t m_sampleFrames = 0; // frame lines of the current sample
    PerfScriptLine::Header m_header;
    PerfScriptLine::Frame m_frame;
};

} // namespace runlane
