#include "geckoformat.h"

#include "geckoreader.h"
#include "profilebuilder.h"

#include <algorithm>

namespace runlane {

std::string_view GeckoFormat::id() const
{
    return "gecko";
}

std::string_view GeckoFormat::name() const
{
    return "Firefox Profiler";
}

std::vector<std::string_view> GeckoFormat::fileNamePatterns() const
{
    return {"*.json"};
}

// `meta` with `threads` (or a gecko profile's `processes`, `libs`, or a
// processed one's `counters`, `pages`) at the top: no other format has
// `meta` there. A DevTools recording has `profile` among its own keys
// (`label`, `duration`, `ticks`, ...).
InputFormat::Probe GeckoFormat::probe(const FormatPrefix& prefix) const
{
    const JsonPrefix& json = prefix.json();
    if (json.kind() != JsonPrefix::Kind::Object)
        return Probe::notMine();
    const JsonPrefix::Key* meta = json.firstKeyOf({"meta"});
    if (meta && json.firstKeyOf({"threads", "processes", "libs", "counters", "pages", "profilerOverhead"}))
        return Probe::mine(meta->offset);
    const JsonPrefix::Key* profile = json.firstKeyOf({"profile"});
    const JsonPrefix::Key* recording = json.firstKeyOf({"label", "duration", "ticks", "allocations", "frames", "memory"});
    if (profile && recording && profile->scalar.empty())
        return Probe::mine(std::min(profile->offset, recording->offset), "Firefox DevTools recording");
    return Probe::notMine();
}

// One thread's document at a time (nlohmann values: ~10 times the text),
// and per sample a time and a stack index; the intervals the samples become
// are fewer than the samples.
double GeckoFormat::memoryPerInputByte() const
{
    return 12.0;
}

void GeckoFormat::read(ChunkedFileReader& input, ProfileBuilder& builder) const
{
    GeckoReader(input, builder).read();
}

} // namespace runlane
