#pragma once

#include "tokioevent.h"
#include "tokiolineparser.h"

#include <functional>
#include <string>

namespace runlane {

class ChunkedFileReader;
class Diagnostics;

// Streams a tokio-console recording line by line: the header `{"v":1}`,
// then one event a line, each handed to `sink` with its index (0 for the
// line after the header). Lines are taken from the reader's chunks where
// they lie; only a line that spans two chunks is copied.
//
// A last line the file cuts short (no newline, and the event ends too
// soon) is a "truncated file" warning: the recorder writes in batches, so
// a recording of a process that was killed ends so. Any other line that is
// not an event is a FormatError at the byte where it goes wrong.
class TokioRecordingReader
{
public:
    using Sink = std::function<void(const TokioEvent&, std::uint64_t)>;
    static constexpr std::size_t kMaxLine = std::size_t(64) << 20;

    TokioRecordingReader(ChunkedFileReader& input, Diagnostics& diagnostics, Sink sink);
    void read();
    // The message for a header of another version (the probe says it too).
    static std::string unsupportedVersion(std::int64_t version);

private:
    // False at the end of the input; `cut`: the line has no newline.
    bool nextLine(std::string_view& line, bool& cut);
    void handle(std::string_view line, bool cut);
    [[noreturn]] void fail(const TokioLineParser::Error& error) const;

    ChunkedFileReader& m_input;
    Diagnostics& m_diagnostics;
    Sink m_sink;
    TokioLineParser m_parser;
    TokioEvent m_event;
    std::string m_carry;
    std::int64_t m_lineOffset = 0;
    std::uint64_t m_lineNumber = 0;
    std::uint64_t m_events = 0;
    bool m_headerSeen = false;
};

} // namespace runlane
