#include "chroprofformat.h"

#include "chroprofbuilder.h"
#include "chroprofjsonreader.h"
#include "profilebuilder.h"

namespace runlane {

namespace {

bool isRowKey(std::string_view key)
{
    return key == "location" || key == "execTime" || key == "execTimeMax" || key == "childrenExecTime"
        || key == "wallClockTime" || key == "callCount" || key == "stillbornCount" || key == "zombieEventCount";
}

} // namespace

std::string_view ChroprofFormat::id() const
{
    return "chroprof";
}

std::string_view ChroprofFormat::name() const
{
    return "Chroprof metrics";
}

std::vector<std::string_view> ChroprofFormat::fileNamePatterns() const
{
    return {"*.json"};
}

InputFormat::Probe ChroprofFormat::probe(const FormatPrefix& prefix) const
{
    const JsonPrefix& json = prefix.json();
    if (json.kind() == JsonPrefix::Kind::Array) {
        const auto& key = json.firstElementKey();
        return key && isRowKey(key->name) ? Probe::mine(key->offset) : Probe::notMine();
    }
    const JsonPrefix::Key* key = json.firstKeyOf({"chroprofSnapshots", "snapshots"});
    if (!key)
        return Probe::notMine();
    if (const JsonPrefix::Key* marker = json.firstKeyOf({"chroprofSnapshots"})) {
        if (const auto version = marker->integer(); version && *version != 1)
            return Probe::broken(key->offset, unsupportedVersion(*version), std::int64_t(marker->offset));
    }
    return Probe::mine(key->offset, "Chroprof metric snapshots");
}

std::string ChroprofFormat::unsupportedVersion(std::int64_t version)
{
    return "unsupported Chroprof snapshot version " + std::to_string(version) + " (this Runlane reads version 1)";
}

double ChroprofFormat::memoryPerInputByte() const
{
    return 1.5;
}

void ChroprofFormat::read(ChunkedFileReader& input, ProfileBuilder& builder) const
{
    ChroprofBuilder chroprof(builder);
    ChroprofJsonReader::Sink sink;
    sink.beginSnapshot = [&chroprof](bool timed, std::int64_t t, std::uint64_t index) {
        chroprof.beginSnapshot(timed, t, index);
    };
    sink.row = [&chroprof](const ChroprofJsonReader::Row& row, std::uint64_t index) { chroprof.addRow(row, index); };
    ChroprofJsonReader reader(input, builder.diagnostics(), std::move(sink));
    reader.read();
    chroprof.finish();
}

} // namespace runlane
