#include "speedscopeformat.h"

#include "profilebuilder.h"
#include "speedscopebuilder.h"
#include "speedscopejsonreader.h"

namespace runlane {

std::string_view SpeedscopeFormat::id() const
{
    return "speedscope";
}

std::string_view SpeedscopeFormat::name() const
{
    return "speedscope";
}

std::vector<std::string_view> SpeedscopeFormat::fileNamePatterns() const
{
    return {"*.json"};
}

InputFormat::Probe SpeedscopeFormat::probe(const FormatPrefix& prefix) const
{
    const JsonPrefix::Key* key = prefix.json().firstKeyOf({"$schema", "shared", "profiles", "activeProfileIndex"});
    return key ? Probe::mine(key->offset) : Probe::notMine();
}

// The reader holds the whole file's frames and samples before building.
double SpeedscopeFormat::memoryPerInputByte() const
{
    return 3.0;
}

void SpeedscopeFormat::read(ChunkedFileReader& input, ProfileBuilder& builder) const
{
    const SpeedscopeFile file = SpeedscopeJsonReader(input).read();
    SpeedscopeBuilder(file, builder).build();
}

} // namespace runlane
