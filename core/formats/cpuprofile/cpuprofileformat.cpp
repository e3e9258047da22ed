#include "cpuprofileformat.h"

#include "cpuprofilereader.h"
#include "profilebuilder.h"

namespace runlane {

std::string_view CpuProfileFormat::id() const
{
    return "cpuprofile";
}

std::string_view CpuProfileFormat::name() const
{
    return "V8 CPU profile";
}

std::vector<std::string_view> CpuProfileFormat::fileNamePatterns() const
{
    return {"*.cpuprofile", "*.json"};
}

// V8 writes `nodes` first (`head`, a nested tree, before Node 11); no other
// format has these keys at the top.
InputFormat::Probe CpuProfileFormat::probe(const FormatPrefix& prefix) const
{
    const JsonPrefix::Key* key = prefix.json().firstKeyOf({"nodes", "timeDeltas", "head"});
    return key ? Probe::mine(key->offset) : Probe::notMine();
}

// Nodes are held until the end (their parents may come later); a sample is
// two numbers of a few bytes each in the file and one interval at most.
double CpuProfileFormat::memoryPerInputByte() const
{
    return 8.0;
}

void CpuProfileFormat::read(ChunkedFileReader& input, ProfileBuilder& builder) const
{
    CpuProfileReader(input, builder).read();
}

void CpuProfileFormat::readAddition(ChunkedFileReader& input, ProfileBuilder& builder, const TrackInfo& track) const
{
    CpuProfileReader(input, builder, &track).read();
}

} // namespace runlane
