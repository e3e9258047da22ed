#include "ensoformat.h"

#include "ensojsonreader.h"
#include "ensologbuilder.h"
#include "profilebuilder.h"

namespace runlane {

std::string_view EnsoFormat::id() const
{
    return "enso";
}

std::string_view EnsoFormat::name() const
{
    return "Enso profiler event log";
}

std::vector<std::string_view> EnsoFormat::fileNamePatterns() const
{
    return {"*.json"};
}

InputFormat::Probe EnsoFormat::probe(const FormatPrefix& prefix) const
{
    // An array whose first event has one one-letter kind key (L, C, S, P, E, X).
    const auto& key = prefix.json().firstElementKey();
    if (prefix.json().kind() == JsonPrefix::Kind::Array && key && key->name.size() == 1
        && std::string_view("LCSPEX").find(key->name[0]) != std::string_view::npos)
        return Probe::mine(key->offset);
    return Probe::notMine();
}

double EnsoFormat::memoryPerInputByte() const
{
    return 1.5;
}

void EnsoFormat::read(ChunkedFileReader& input, ProfileBuilder& builder) const
{
    EnsoLogBuilder enso(builder);
    builder.setWakeSource(WakeSource::Children); // as Chronos: a child's end wakes its parent
    EnsoJsonReader::Sink sink;
    sink.beginProcess = [&enso](std::size_t process) { enso.beginProcess(process); };
    sink.event = [&enso](const EnsoEvent& event, std::uint64_t index) { enso.addEvent(event, index); };
    sink.endProcess = [&enso] { enso.endProcess(); };
    EnsoJsonReader reader(input, builder.diagnostics(), std::move(sink));
    reader.read();
}

} // namespace runlane
