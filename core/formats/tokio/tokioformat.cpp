#include "tokioformat.h"

#include "tokiolineparser.h"
#include "tokiorecordingreader.h"
#include "tokiotaskbuilder.h"

namespace runlane {

std::string_view TokioFormat::id() const
{
    return "tokio";
}

std::string_view TokioFormat::name() const
{
    return "tokio-console recording";
}

std::vector<std::string_view> TokioFormat::fileNamePatterns() const
{
    return {"*.json", "*.jsonl"};
}

// Mine when the first line is the header `{"v": N}` and nothing else: no
// other JSON format is a small object that ends its line. What follows is
// the reader's to judge, so a bad second line is an error that says where,
// not another format's complaint.
InputFormat::Probe TokioFormat::probe(const FormatPrefix& prefix) const
{
    if (prefix.utf16() || prefix.blank())
        return Probe::notMine();
    const std::string_view text = prefix.text();
    const std::size_t start = prefix.start();
    if (text[start] != '{')
        return Probe::notMine();
    const std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos && !prefix.complete())
        return Probe::notMine();
    const std::string_view header = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    TokioLineParser parser;
    TokioLineParser::Error error;
    std::int64_t version = 0;
    bool otherKeys = false;
    if (!parser.parseHeader(header, version, error, &otherKeys) || otherKeys)
        return Probe::notMine();
    if (version != 1)
        return Probe::broken(start, TokioRecordingReader::unsupportedVersion(version), std::int64_t(start));
    return Probe::mine(start);
}

// An event line of some 90 bytes is at most half a poll (an interval of 24
// bytes) or a wake (16); a Spawn line of 200 bytes one measurement (32).
double TokioFormat::memoryPerInputByte() const
{
    return 1.0;
}

bool TokioFormat::limitsJsonStrings() const
{
    return false;
}

void TokioFormat::read(ChunkedFileReader& input, ProfileBuilder& builder) const
{
    TokioTaskBuilder tasks(builder);
    builder.setWakeSource(WakeSource::Wakes);
    TokioRecordingReader reader(input, builder.diagnostics(),
                                [&tasks](const TokioEvent& event, std::uint64_t index) { tasks.add(event, index); });
    reader.read();
    tasks.finish();
}

} // namespace runlane
