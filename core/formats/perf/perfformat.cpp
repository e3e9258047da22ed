#include "perfformat.h"

#include "chunkedfilereader.h"
#include "perfscriptbuilder.h"
#include "perfscriptline.h"
#include "perfscriptreader.h"

namespace runlane {

std::string_view PerfFormat::id() const
{
    return "perf";
}

std::string_view PerfFormat::name() const
{
    return "perf script";
}

std::vector<std::string_view> PerfFormat::fileNamePatterns() const
{
    return {"*.perf", "*.txt"};
}

// The first line that is no `#` comment nor blank must be a sample header,
// and the next one a frame, a blank line or another header: folded stacks
// ("a;b 3") have no "name:" field, JSON no such lines at all.
InputFormat::Probe PerfFormat::probe(const FormatPrefix& prefix) const
{
    if (prefix.blank() || prefix.utf16() || prefix.json().kind() != JsonPrefix::Kind::NotJson)
        return Probe::notMine();
    const std::string_view text = prefix.text();
    std::size_t pos = prefix.start();
    std::size_t header = std::string_view::npos;
    PerfScriptLine::Header fields;
    PerfScriptLine::Frame frame;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        const bool cut = end == std::string_view::npos;
        if (cut)
            end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        const std::size_t at = pos;
        pos = end + 1;
        if (cut && !prefix.complete())
            break; // a line the prefix cuts says nothing
        if (header == std::string_view::npos) {
            if (PerfScriptLine::isBlank(line) || line.front() == '#')
                continue;
            if (!PerfScriptLine::parseHeader(line, fields).empty())
                return Probe::notMine();
            header = at;
            // A timestamp and an event on one line are evidence enough;
            // without a timestamp, a frame must follow.
            if (fields.hasTime)
                return Probe::mine(header);
            continue;
        }
        if (PerfScriptLine::isBlank(line) || PerfScriptLine::parseFrame(line, frame)
            || PerfScriptLine::parseHeader(line, fields).empty())
            return Probe::mine(header);
        return Probe::notMine();
    }
    return Probe::notMine();
}

// A frame line of some 50 bytes becomes at most one call (56 bytes) and a
// sample keeps 16 bytes until the end; labels and stacks are shared.
double PerfFormat::memoryPerInputByte() const
{
    return 3.0;
}

bool PerfFormat::isJson() const
{
    return false;
}

void PerfFormat::read(ChunkedFileReader& input, ProfileBuilder& builder) const
{
    PerfScriptBuilder perf(builder, input.control().variant);
    PerfScriptReader reader(input, builder.diagnostics(), perf);
    reader.read();
    perf.finish();
}

} // namespace runlane
