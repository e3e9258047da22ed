#include "tokiorecordingreader.h"

#include "chunkedfilereader.h"
#include "diagnostics.h"
#include "loaderror.h"

#include <cstring>

namespace runlane {

TokioRecordingReader::TokioRecordingReader(ChunkedFileReader& input, Diagnostics& diagnostics, Sink sink)
    : m_input(input), m_diagnostics(diagnostics), m_sink(std::move(sink))
{
}

std::string TokioRecordingReader::unsupportedVersion(std::int64_t version)
{
    return "unsupported tokio-console recording version " + std::to_string(version)
        + " (this Runlane reads version 1)";
}

bool TokioRecordingReader::nextLine(std::string_view& line, bool& cut)
{
    m_carry.clear();
    m_lineOffset = m_input.offset();
    for (;;) {
        const std::string_view buffer = m_input.buffered();
        if (buffer.empty()) {
            if (m_carry.empty())
                return false;
            line = m_carry;
            cut = true;
            return true;
        }
        const void* newline = std::memchr(buffer.data(), '\n', buffer.size());
        if (newline) {
            const std::size_t length = std::size_t(static_cast<const char*>(newline) - buffer.data());
            cut = false;
            if (m_carry.empty()) {
                // Valid until the next read: handled before that.
                line = buffer.substr(0, length);
                m_input.consume(length + 1);
                return true;
            }
            m_carry.append(buffer.data(), length);
            m_input.consume(length + 1);
            line = m_carry;
            return true;
        }
        if (m_carry.size() + buffer.size() > kMaxLine)
            throw FormatError("a line of more than " + std::to_string(kMaxLine >> 20)
                                  + " MiB: not a tokio-console recording",
                              std::int64_t(m_events), m_lineOffset);
        m_carry.append(buffer);
        m_input.consume(buffer.size());
    }
}

void TokioRecordingReader::fail(const TokioLineParser::Error& error) const
{
    throw FormatError(error.message, m_headerSeen ? std::int64_t(m_events) : -1,
                      m_lineOffset + std::int64_t(error.position));
}

void TokioRecordingReader::handle(std::string_view line, bool cut)
{
    ++m_lineNumber;
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos)
        return; // blank lines carry nothing
    TokioLineParser::Error error;
    if (!m_headerSeen) {
        std::int64_t version = 0;
        if (!m_parser.parseHeader(line, version, error))
            fail(error);
        if (version != 1)
            throw FormatError(unsupportedVersion(version), -1, m_lineOffset);
        m_headerSeen = true;
        return;
    }
    if (!m_parser.parse(line, m_event, error)) {
        if (cut && error.atEnd) {
            m_diagnostics.warn("truncated file", "the file ends inside line " + std::to_string(m_lineNumber)
                                                     + " (event #" + std::to_string(m_events)
                                                     + "), which is left out");
            return;
        }
        fail(error);
    }
    m_sink(m_event, m_events++);
}

void TokioRecordingReader::read()
{
    std::string_view line;
    bool cut = false;
    while (nextLine(line, cut))
        handle(line, cut);
    if (m_input.failed())
        return; // the loader reports the read error
    if (!m_headerSeen)
        throw FormatError("an empty tokio-console recording: no header {\"v\": 1}", -1, m_input.offset());
}

} // namespace runlane
