#pragma once

#include "profiletypes.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace runlane {

class ChunkedFileReader;
class ProfileBuilder;
struct TrackInfo;

// Reads the Language Server's CSV message log into a profile as Enso's
// api_events_to_profile and the Enso reader would: one LanguageServer
// process (a Thread track) of BackendMessage marks at absolute times. A
// line that is not a message (a bad timestamp, an unknown direction, not
// four fields) is a warning naming it; the others are kept.
class EnsoMessageLogReader
{
public:
    static constexpr std::size_t kMaxLine = std::size_t(1) << 20;
    static constexpr std::string_view kProcessName = "LanguageServer";

    // `track`: its pid and processSortIndex (the rest is set here).
    EnsoMessageLogReader(ChunkedFileReader& input, ProfileBuilder& builder, TrackInfo track);
    // Throws FormatError if a line is too long or no line is a message.
    void read();

private:
    bool nextLine(std::string_view& line);
    void handle(std::string_view line);

    ChunkedFileReader& m_input;
    ProfileBuilder& m_builder;
    TrackId m_track;
    std::int64_t m_pid;
    StringId m_name;
    std::string m_carry;
    std::int64_t m_lineOffset = 0;
    std::uint64_t m_lineNumber = 0;
    std::uint64_t m_messages = 0;
    std::uint64_t m_badLines = 0;
    std::string m_firstProblem;
};

} // namespace runlane
