#include "perfscriptreader.h"

#include "chunkedfilereader.h"
#include "diagnostics.h"
#include "loaderror.h"
#include "perfblockpipeline.h"
#include "perfscriptbuilder.h"

namespace runlane {

namespace {

// Records perf writes among the samples with --show-task-events and the
// like: no samples.
bool isRecord(std::string_view event)
{
    return event.substr(0, 12) == "PERF_RECORD_";
}

} // namespace

PerfScriptReader::PerfScriptReader(ChunkedFileReader& input, Diagnostics& diagnostics, PerfScriptBuilder& builder)
    : m_input(input), m_diagnostics(diagnostics), m_builder(builder)
{
}

void PerfScriptReader::fail(std::string_view expected, std::string_view line) const
{
    throw FormatError("expected " + std::string(expected) + ", found '" + PerfScriptLine::excerpt(line) + "'", -1, m_lineOffset);
}

void PerfScriptReader::beginSample(const PerfScriptLine::Header& header)
{
    ++m_samples;
    m_inSample = true;
    m_inlineFrame = false;
    m_sampleFrames = 0;
    if (isRecord(header.event)) {
        m_diagnostics.skipped(header.event);
        m_wanted = false;
        return;
    }
    m_wanted = m_builder.beginSample(header, m_lineOffset);
    // Without callchains the sampled ip is on the header line.
    if (m_wanted && !header.rest.empty() && PerfScriptLine::parseFrame(header.rest, m_frame)) {
        m_builder.addFrame(m_frame);
        m_inlineFrame = true;
    }
}

void PerfScriptReader::endSample()
{
    if (m_wanted)
        m_builder.endSample();
    m_inSample = false;
}

// The line's kind and, for most headers, its parse come with it from the
// splitter (the same calls, made on the other thread); what depends on the
// lines before is decided here.
void PerfScriptReader::onLine(std::string_view line, const PerfLineBlock::Line& record, const PerfLineBlock& block)
{
    if (record.flags & PerfLineBlock::Blank) {
        if (m_inSample)
            endSample();
        return;
    }
    if (record.flags & PerfLineBlock::Comment)
        return; // perf script --header
    const bool last = !m_lastLineEnded;
    if (m_inSample && (record.flags & PerfLineBlock::Indented)) {
        // A frame; or, in output without callchains (one line a sample,
        // its comm padded with blanks), the next sample's header. Once a
        // callchain has begun, its lines are frames up to a blank line.
        if ((m_sampleFrames == 0 || m_inlineFrame) && PerfScriptLine::mayBeHeader(line)
            && PerfScriptLine::parseHeader(line, m_header).empty()
            && (m_header.hasTime || !PerfScriptLine::parseFrame(line, m_frame))) {
            endSample();
            beginSample(m_header);
            return;
        }
        // A callchain after all (its lines win over the ip on the header).
        m_inlineFrame = false;
        if (last) {
            // The file ends in this line: a frame cut short has lost its
            // dso (where the frames before had one) or does not parse.
            if (!PerfScriptLine::parseFrame(line, m_frame)
                || (!m_frame.hasDso && m_framesWithDso > 0 && m_framesWithoutDso == 0))
                return truncated();
        }
        (line.back() == ')' ? m_framesWithDso : m_framesWithoutDso) += 1;
        ++m_sampleFrames;
        if (m_wanted)
            m_builder.addFrameLine(line, m_lineOffset); // taken apart at the sample's end
        else if (!PerfScriptLine::parseFrame(line, m_frame))
            fail("a frame line (address symbol (dso)) or a blank line", line);
        return;
    }
    if (m_inSample)
        endSample(); // samples without callchains have no blank line between them
    // The splitter parsed the lines that can only be headers; an indented
    // one (a padded header, or a frame where a header must be) is parsed
    // here.
    const PerfScriptLine::Header* header = &m_header;
    std::string_view problem;
    if (record.header != PerfLineBlock::kNoHeader) {
        header = &block.headers[record.header].fields;
        problem = block.headers[record.header].problem;
    } else {
        problem = PerfScriptLine::parseHeader(line, m_header);
    }
    if (!problem.empty()) {
        if (last)
            return truncated();
        fail("a sample header (comm [pid/]tid [cpu] secs.usecs: [period] event:) but the line has "
                 + std::string(problem),
             line);
    }
    beginSample(*header);
}

void PerfScriptReader::truncated()
{
    m_diagnostics.warn("truncated file", "the file ends inside line " + std::to_string(m_lineNumber) + " (sample #"
                                             + std::to_string(m_inSample ? m_samples : m_samples + 1)
                                             + "); that sample is left out");
    if (m_inSample && m_wanted)
        m_builder.dropSample();
    m_inSample = false;
}

void PerfScriptReader::readBlocks()
{
    const std::atomic<bool>* cancel = m_input.control().cancel;
    PerfBlockPipeline pipeline(m_input);
    while (const PerfLineBlock* block = pipeline.next()) {
        for (std::size_t i = 0; i < block->lines.size(); ++i) {
            const PerfLineBlock::Line& record = block->lines[i];
            ++m_lineNumber;
            m_lineOffset = record.offset;
            m_lastLineEnded = (record.flags & PerfLineBlock::Unended) == 0;
            onLine(block->line(i), record, *block);
        }
        // The producer checks once per chunk it reads, ahead of this
        // thread: this keeps Cancel as prompt as it was.
        throwIfCancelled(cancel);
    }
    m_atEnd = true;
    if (m_inSample)
        endSample();
}

void PerfScriptReader::read()
{
    try {
        readBlocks();
    } catch (const FormatError&) {
        // Read alone, the file would not have been read past this line, so
        // a read error the producer met further on is not this load's
        // error; this one is (the loader reports a read error instead of
        // any FormatError once the input failed). The pipeline, and with
        // it the producer, is gone by now.
        if (!m_atEnd && m_lastLineEnded)
            m_input.forgetFailure();
        throw;
    }
}

} // namespace runlane
