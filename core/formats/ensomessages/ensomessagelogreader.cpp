#include "ensomessagelogreader.h"

#include "chunkedfilereader.h"
#include "ensomessageline.h"
#include "loaderror.h"
#include "numberparse.h"
#include "profilebuilder.h"

#include <cstring>

namespace runlane {

namespace {

TrackInfo languageServer(ProfileBuilder& builder, TrackInfo track)
{
    // As EnsoLogBuilder makes a process of an event array.
    track.kind = TrackKind::Thread;
    track.processName = builder.intern(EnsoMessageLogReader::kProcessName);
    track.displayName = track.processName;
    return track;
}

} // namespace

EnsoMessageLogReader::EnsoMessageLogReader(ChunkedFileReader& input, ProfileBuilder& builder, TrackInfo track)
    : m_input(input),
      m_builder(builder),
      m_track(builder.addTrack(languageServer(builder, track))),
      m_pid(track.pid),
      m_name(builder.intern("BackendMessage"))
{
}

// The next line without its end; false at the end of the input. A line
// cut by the end of the file is a line.
bool EnsoMessageLogReader::nextLine(std::string_view& line)
{
    m_carry.clear();
    m_lineOffset = m_input.offset();
    for (std::string_view buffer = m_input.buffered(); !buffer.empty(); buffer = m_input.buffered()) {
        const auto* end = static_cast<const char*>(std::memchr(buffer.data(), '\n', buffer.size()));
        const std::size_t length = end ? std::size_t(end - buffer.data()) : buffer.size();
        if (m_carry.size() + length > kMaxLine)
            throw FormatError("line " + std::to_string(m_lineNumber + 1) + " is longer than "
                                  + std::to_string(kMaxLine >> 20) + " MiB: not a Language Server message log",
                              -1, m_lineOffset);
        if (end && m_carry.empty()) {
            line = buffer.substr(0, length); // valid until the next read
            m_input.consume(length + 1);
            return true;
        }
        m_carry.append(buffer.data(), length);
        m_input.consume(end ? length + 1 : length);
        if (end)
            break;
    }
    line = m_carry;
    return !m_carry.empty() || m_input.offset() > m_lineOffset;
}

void EnsoMessageLogReader::handle(std::string_view line)
{
    ++m_lineNumber;
    if (m_lineNumber == 1 && line.substr(0, 3) == "\xEF\xBB\xBF")
        line.remove_prefix(3); // a UTF-8 byte order mark
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos)
        return; // blank lines carry nothing
    EnsoMessage message;
    EnsoMessageLine::Error error;
    std::int64_t ns = 0;
    bool ok = EnsoMessageLine::parse(line, message, error);
    if (ok && scaleUnsigned(message.micros, 3, ns) != ParseStatus::Ok) {
        ok = false;
        error.message = "timestamp out of range (after the year 2262)";
    }
    if (!ok) {
        const auto text = [&] {
            return "line " + std::to_string(m_lineNumber) + ": " + error.message + "; the line is skipped";
        };
        if (m_badLines++ == 0)
            m_firstProblem = text();
        m_builder.diagnostics().warnWith("bad message line", text);
        return;
    }
    Mark mark;
    mark.time = ns;
    mark.track = m_track;
    mark.pid = m_pid;
    mark.name = m_name;
    mark.detail = m_builder.intern(EnsoMessageLine::payloadJson(message));
    m_builder.addMark(mark);
    m_builder.extendSpan(ns);
    ++m_messages;
}

void EnsoMessageLogReader::read()
{
    std::string_view line;
    while (nextLine(line))
        handle(line);
    if (m_messages > 0)
        return;
    if (m_badLines == 0)
        throw FormatError("no messages: the Language Server message log is empty");
    throw FormatError("none of its " + std::to_string(m_badLines) + " lines is a message (" + m_firstProblem + ")");
}

} // namespace runlane
