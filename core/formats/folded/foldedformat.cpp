#include "foldedformat.h"

#include "foldedstackbuilder.h"
#include "foldedstackreader.h"
#include "profilebuilder.h"

namespace runlane {

namespace {

// "frame;frame;frame 12" lines, the count last. A few bad lines do not
// make a file something else.
bool looksFolded(std::string_view text)
{
    std::size_t pos = 0;
    int lines = 0;
    int good = 0;
    while (pos < text.size() && lines < 20) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        while (!line.empty() && (line.back() == '\r' || JsonPrefix::isBlank(line.back())))
            line.remove_suffix(1);
        if (line.empty() || line[0] == '#' || line.substr(0, 2) == "//")
            continue;
        ++lines;
        const std::size_t space = line.find_last_of(" \t");
        if (space == std::string_view::npos || space == 0)
            continue;
        const std::string_view count = line.substr(space + 1);
        if (!count.empty() && count.find_first_not_of("0123456789.") == std::string_view::npos)
            ++good;
    }
    return good > 0 && 3 * good >= 2 * lines;
}

} // namespace

std::string_view FoldedFormat::id() const
{
    return "folded";
}

std::string_view FoldedFormat::name() const
{
    return "folded stacks";
}

std::vector<std::string_view> FoldedFormat::fileNamePatterns() const
{
    return {"*.txt", "*.folded", "*.collapsed"};
}

InputFormat::Probe FoldedFormat::probe(const FormatPrefix& prefix) const
{
    // Whatever starts like JSON is left to the JSON formats, whose readers
    // say precisely what is wrong with it.
    if (prefix.blank() || prefix.json().kind() != JsonPrefix::Kind::NotJson)
        return Probe::notMine();
    const std::string_view text = prefix.text().substr(prefix.start());
    return looksFolded(text) ? Probe::mine(prefix.start()) : Probe::notMine();
}

// The densest input: a sample per short line.
double FoldedFormat::memoryPerInputByte() const
{
    return 16.0;
}

bool FoldedFormat::isJson() const
{
    return false;
}

bool FoldedFormat::readsUtf16() const
{
    return true;
}

void FoldedFormat::read(ChunkedFileReader& input, ProfileBuilder& builder) const
{
    FoldedStackBuilder folded(builder);
    FoldedStackReader reader(input, builder.diagnostics(),
                             [&folded](std::string_view stack, Time count, std::uint64_t line) {
                                 folded.addStack(stack, count, line);
                             });
    reader.read();
    folded.finish();
}

} // namespace runlane
