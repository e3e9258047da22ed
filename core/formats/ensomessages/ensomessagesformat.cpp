#include "ensomessagesformat.h"

#include "ensomessageline.h"
#include "ensomessagelogreader.h"
#include "profilebuilder.h"

namespace runlane {

std::string_view EnsoMessagesFormat::id() const
{
    return "ensomessages";
}

std::string_view EnsoMessagesFormat::name() const
{
    return "Enso Language Server message log";
}

std::vector<std::string_view> EnsoMessagesFormat::fileNamePatterns() const
{
    return {"*.csv"};
}

// Mine when the first line is a whole message record: a timestamp, then
// Request or Response. No other format's line starts with a date.
InputFormat::Probe EnsoMessagesFormat::probe(const FormatPrefix& prefix) const
{
    if (prefix.utf16() || prefix.blank())
        return Probe::notMine();
    const std::string_view text = prefix.text();
    const std::size_t start = prefix.start();
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
        if (!prefix.complete())
            return Probe::notMine();
        end = text.size();
    }
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    EnsoMessage message;
    EnsoMessageLine::Error error;
    return EnsoMessageLine::parse(line, message, error) ? Probe::mine(start) : Probe::notMine();
}

// A line of some 80 bytes is one mark (32 bytes) and its payload text
// (about 90 bytes with the string table's overhead).
double EnsoMessagesFormat::memoryPerInputByte() const
{
    return 2.0;
}

void EnsoMessagesFormat::read(ChunkedFileReader& input, ProfileBuilder& builder) const
{
    EnsoMessageLogReader(input, builder, TrackInfo{}).read();
}

void EnsoMessagesFormat::readAddition(ChunkedFileReader& input, ProfileBuilder& builder, const TrackInfo& track) const
{
    EnsoMessageLogReader(input, builder, track).read();
}

} // namespace runlane
