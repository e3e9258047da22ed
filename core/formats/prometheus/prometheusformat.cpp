#include "prometheusformat.h"

#include "aggregatedtrack.h"
#include "loaderror.h"
#include "profilebuilder.h"
#include "queryrangereader.h"
#include "refreshfilter.h"

namespace runlane {

std::string_view PrometheusFormat::id() const
{
    return "prometheus";
}

std::string_view PrometheusFormat::name() const
{
    return "Prometheus query_range (Chroprof)";
}

std::vector<std::string_view> PrometheusFormat::fileNamePatterns() const
{
    return {"*.json"};
}

InputFormat::Probe PrometheusFormat::probe(const FormatPrefix& prefix) const
{
    // Every API response is {"status": "success" | "error", "data": ...}
    // (or "errorType"/"error" instead of "data"); no profile format has a
    // "status" beside those.
    const JsonPrefix& json = prefix.json();
    if (json.kind() != JsonPrefix::Kind::Object)
        return Probe::notMine();
    const JsonPrefix::Key* status = json.firstKeyOf({"status"});
    if (!status || !json.firstKeyOf({"data", "errorType", "error"}))
        return Probe::notMine();
    if (!status->scalar.empty() && status->scalar != "\"success\"" && status->scalar != "\"error\"")
        return Probe::notMine();
    return Probe::mine(status->offset);
}

double PrometheusFormat::memoryPerInputByte() const
{
    // A sample's ~25 bytes of text become an entry, then a share of a named
    // row and of a profile row per time.
    return 3.0;
}

void PrometheusFormat::read(ChunkedFileReader& input, ProfileBuilder& builder) const
{
    const std::vector<ScrapedSnapshot> scraped = QueryRangeReader(input, builder.diagnostics()).read();
    if (scraped.empty())
        throw FormatError("the response holds no values of Chroprof's gauges (chronos_exec_time_total, "
                          "chronos_exec_time_with_children_total, chronos_wall_time_total, chronos_call_count_total, "
                          "chronos_single_exec_time_max)");
    RefreshFilter filter;
    std::vector<SnapshotRows> snapshots;
    std::uint64_t repeats = 0;
    for (const ScrapedSnapshot& s : scraped) {
        if (filter.accept(s))
            snapshots.push_back(AggregatedTrack::intern(builder, s));
        else
            ++repeats;
    }
    // A query's step is finer than the gauges' refresh: the same values
    // again, not new data.
    if (repeats > 0)
        builder.diagnostics().skipped("snapshots repeating the previous values", repeats);
    AggregatedTrack::add(builder, std::move(snapshots), true);
}

} // namespace runlane
