#include "chronosformat.h"

#include "chronosjsonreader.h"
#include "chronoslogbuilder.h"
#include "profilebuilder.h"

namespace runlane {

std::string_view ChronosFormat::id() const
{
    return "chronos";
}

std::string_view ChronosFormat::name() const
{
    return "Chronos future event log";
}

std::vector<std::string_view> ChronosFormat::fileNamePatterns() const
{
    return {"*.json"};
}

InputFormat::Probe ChronosFormat::probe(const FormatPrefix& prefix) const
{
    const JsonPrefix::Key* key = prefix.json().firstKeyOf({"chronosFutureEvents", "events"});
    if (!key)
        return Probe::notMine();
    // A version this Runlane does not read is said at once, not after
    // reading the whole file. Anything but a plain integer is the reader's.
    if (const JsonPrefix::Key* marker = prefix.json().firstKeyOf({"chronosFutureEvents"})) {
        if (const auto version = marker->integer(); version && *version != 1)
            return Probe::broken(key->offset, unsupportedVersion(*version), std::int64_t(marker->offset));
    }
    return Probe::mine(key->offset);
}

std::string ChronosFormat::unsupportedVersion(std::int64_t version)
{
    return "unsupported Chronos future event log version " + std::to_string(version) + " (this Runlane reads version 1)";
}

double ChronosFormat::memoryPerInputByte() const
{
    return 1.5;
}

void ChronosFormat::read(ChunkedFileReader& input, ProfileBuilder& builder) const
{
    ChronosLogBuilder chronos(builder);
    builder.setWakeSource(WakeSource::Children); // a child's end wakes its paused parent
    ChronosJsonReader reader(input, builder.diagnostics(),
                             [&chronos](const ChronosEvent& event, std::uint64_t index) { chronos.addEvent(event, index); });
    reader.read();
    chronos.finish(reader.header().loop);
}

} // namespace runlane
