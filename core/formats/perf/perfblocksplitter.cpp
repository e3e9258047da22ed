#include "perfblocksplitter.h"

#include "chunkedfilereader.h"
#include "loaderror.h"

#include <cstring>
#include <utility>

namespace runlane {

PerfBlockSplitter::PerfBlockSplitter(ChunkedFileReader& input, std::size_t blockBytes)
    : m_input(input), m_blockBytes(blockBytes)
{
}

// A line that spans chunks: put together in m_spill as the reader always
// did, with the same check of its length as each chunk arrives. False at the
// end of the input; `ended` is false for a last line without '\n'.
bool PerfBlockSplitter::spilledLine(bool& ended)
{
    ended = true;
    for (;;) {
        const std::string_view buffer = m_input.buffered();
        if (buffer.empty()) {
            ended = false; // the last line, without its '\n'
            return !m_spill.empty();
        }
        const void* newline = std::memchr(buffer.data(), '\n', buffer.size());
        if (newline) {
            const auto length = std::size_t(static_cast<const char*>(newline) - buffer.data());
            m_spill.append(buffer.substr(0, length));
            m_input.consume(length + 1);
            return true;
        }
        m_spill.append(buffer);
        m_input.consume(buffer.size());
        if (m_spill.size() > kMaxLine)
            throw FormatError("a line of more than " + std::to_string(kMaxLine >> 20)
                                  + " MiB; perf script text has short lines",
                              -1, m_lineOffset);
    }
}

void PerfBlockSplitter::fill(PerfLineBlock& block)
{
    std::size_t content = 0; // bytes of the lines, without their ends
    while (content < m_blockBytes) {
        const std::string_view buffer = m_input.buffered();
        if (buffer.empty()) {
            m_end.reached();
            return;
        }
        // The lines wholly in the chunk, found in one pass and copied in
        // one piece, line ends and all (the records leave them out): a
        // call or two per line, not a copy and a refill check per line.
        const char* const first = buffer.data();
        const char* const end = first + buffer.size();
        const std::int64_t offset = m_input.offset();
        const std::size_t base = block.text.size();
        const char* p = first;
        while (content < m_blockBytes) {
            const char* newline = static_cast<const char*>(std::memchr(p, '\n', std::size_t(end - p)));
            if (!newline)
                break;
            auto length = std::size_t(newline - p);
            if (length > 0 && p[length - 1] == '\r')
                --length;
            const auto at = std::size_t(p - first);
            // A chunk is a MiB at most: offsets in the block fit 32 bits.
            block.lines.push_back(PerfLineBlock::Line{offset + std::int64_t(at), std::uint32_t(base + at),
                                                      std::uint32_t(length), PerfLineBlock::kNoHeader, 0});
            content += length;
            p = newline + 1;
        }
        if (p != first) {
            block.text.insert(block.text.end(), first, p);
            m_input.consume(std::size_t(p - first));
            continue;
        }
        // No '\n' left in the chunk: a line that spans chunks, or the
        // file's last line.
        m_spill.clear();
        m_lineOffset = m_input.offset();
        bool ended = true;
        if (!spilledLine(ended)) {
            m_end.reached();
            return;
        }
        std::string_view line = m_spill;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        // kMaxLine keeps a line, and a block of m_blockBytes and one line
        // more, far below 4 GiB.
        block.lines.push_back(PerfLineBlock::Line{m_lineOffset, std::uint32_t(block.text.size()), std::uint32_t(line.size()),
                                                  PerfLineBlock::kNoHeader,
                                                  std::uint8_t(ended ? 0 : PerfLineBlock::Unended)});
        block.text.insert(block.text.end(), line.begin(), line.end());
        content += line.size();
        if (!ended) {
            m_end.reached();
            return;
        }
    }
}

bool PerfBlockSplitter::next(PerfLineBlock& block, bool parseHeaders)
{
    block.clear();
    if (!m_end.more())
        return false;
    m_end.fill(
        [&] {
            if (!m_started) {
                m_started = true;
                if (m_input.buffered().substr(0, 3) == "\xEF\xBB\xBF")
                    m_input.consume(3);
            }
            block.text.reserve(m_blockBytes + 256);
            fill(block);
        },
        [&] { return !block.lines.empty(); });
    classify(block, parseHeaders);
    return !block.lines.empty();
}

// What PerfScriptReader would ask of each line on its own; the text does not
// move any more, so the header fields may point into it.
void PerfBlockSplitter::classify(PerfLineBlock& block, bool parseHeaders)
{
    for (std::size_t i = 0; i < block.lines.size(); ++i) {
        PerfLineBlock::Line& record = block.lines[i];
        const std::string_view line = block.line(i);
        if (PerfScriptLine::isBlank(line)) {
            record.flags |= PerfLineBlock::Blank;
            continue;
        }
        if (line.front() == '#') {
            record.flags |= PerfLineBlock::Comment;
            continue;
        }
        if (line.front() == ' ' || line.front() == '\t') {
            // A frame, or a header padded with blanks: which, the reader
            // decides from the lines before (and, as it is rarely asked,
            // it takes the line apart itself).
            record.flags |= PerfLineBlock::Indented;
            continue;
        }
        if (!parseHeaders)
            continue;
        PerfLineBlock::Header header;
        header.problem = PerfScriptLine::parseHeader(line, header.fields);
        record.header = std::uint32_t(block.headers.size());
        block.headers.push_back(header);
    }
}

} // namespace runlane
