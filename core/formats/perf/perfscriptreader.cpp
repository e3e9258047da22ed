#include "perfscriptreader.h"

#include "chunkedfilereader.h"
#include "diagnostics.h"
#include "loaderror.h"
#include "perfscriptbuilder.h"

#include <cstring>

namespace runlane {

namespace {

bool isIndented(std::string_view line)
{
    return !line.empty() && (line.front() == ' ' || line.front() == '\t');
}

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

bool PerfScriptReader::nextLine(std::string_view& line)
{
    m_spill.clear();
    m_lineOffset = m_input.offset();
    for (;;) {
        const std::string_view buffer = m_input.buffered();
        if (buffer.empty()) {
            if (m_spill.empty())
                return false;
            // The last line, without its '\n'.
            m_lastLineEnded = false;
            line = m_spill;
            break;
        }
        const void* newline = std::memchr(buffer.data(), '\n', buffer.size());
        if (newline) {
            const auto length = std::size_t(static_cast<const char*>(newline) - buffer.data());
            if (m_spill.empty()) {
                line = buffer.substr(0, length);
            } else {
                m_spill.append(buffer.substr(0, length));
                line = m_spill;
            }
            m_input.consume(length + 1);
            break;
        }
        m_spill.append(buffer);
        m_input.consume(buffer.size());
        if (m_spill.size() > kMaxLine)
            throw FormatError("a line of more than " + std::to_string(kMaxLine >> 20)
                                  + " MiB; perf script text has short lines",
                              -1, m_lineOffset);
    }
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    ++m_lineNumber;
    return true;
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

void PerfScriptReader::onLine(std::string_view line)
{
    if (PerfScriptLine::isBlank(line)) {
        if (m_inSample)
            endSample();
        return;
    }
    if (line.front() == '#')
        return; // perf script --header
    const bool last = !m_lastLineEnded;
    if (m_inSample && isIndented(line)) {
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
    const std::string_view problem = PerfScriptLine::parseHeader(line, m_header);
    if (!problem.empty()) {
        if (last)
            return truncated();
        fail("a sample header (comm [pid/]tid [cpu] secs.usecs: [period] event:) but the line has "
                 + std::string(problem),
             line);
    }
    beginSample(m_header);
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

void PerfScriptReader::read()
{
    if (m_input.buffered().substr(0, 3) == "\xEF\xBB\xBF")
        m_input.consume(3);
    std::string_view line;
    while (nextLine(line))
        onLine(line);
    if (m_inSample)
        endSample();
}

} // namespace runlane
