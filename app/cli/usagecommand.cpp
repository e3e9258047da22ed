#include "clicommand.h"

#include "clicommands.h"
#include "clisupport.h"
#include "measurementmetrics.h"
#include "profile.h"
#include "usageformatter.h"
#include "usageseries.h"

#include <algorithm>
#include <ostream>

namespace runlane {

namespace {

constexpr const char* kUsageHelp = R"HELP(Usage: runlane-cli usage FILE [--bin DURATION] [--track NAME] [--top K] [--range A..B] [--format F] [--input-format ID] [--variant NAME] [--add PROFILE [--add-thread PID:TID]]

Event-loop usage: for each time bin, the share of the bin that each label
was executing on a track (its exec time in the bin / the bin width). The
shares of one bin add up to the track's busy fraction. The last bin ends
where the profile (or --range) does, not a bin width after its start: its
shares are of that part only, and its bin_end_ns says where it ends.

  --bin DURATION  bin width with a unit, e.g. 5ms (default: span / 200); for
                  sampled profiles a number of samples
  --track NAME    only this track (exact name, or a unique part of it);
                  default: every thread or loop that did any work
  --top K         labels with a series of their own (default 10); the rest
                  are summed as "(other)"
  --range A..B    only [A, B) from the profile start, e.g. 1s..2s (cut at
                  the profile's end)
  --format F      csv (default) or json; bin times are nanoseconds from
                  the profile start (json: the bins' start_ns, bin_ns and
                  end_ns, where the last bin ends)
)HELP";

int run(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    const CliArgs::Spec spec = {{"--bin", "--track", "--top", "--format", "--range"}, {"--help"}, 1, 1};
    if (const int code = CliSupport::parseProfileArgs(args, spec, argc, argv, kUsageHelp, out, err); code >= 0)
        return code;
    // --bin is read once the profile's unit is known.
    const auto binText = args.value("--bin");
    std::size_t top = 10;
    if (const auto k = args.value("--top"); k && !CliSupport::parseCount(*k, top))
        return CliSupport::usageError(err, "--top takes a whole number of labels, at least 1");
    const std::string format = args.value("--format").value_or("csv");
    if (format != "csv" && format != "json")
        return CliSupport::usageError(err, "unknown --format '" + format + "' (csv, json)");
    LoadResult loaded;
    std::optional<TimeRange> range;
    if (const int code = CliSupport::loadTimeline(
            args, loaded, range, "so it has no usage over time; 'runlane-cli rank' and 'tree' give its figures", err);
        code >= 0)
        return code;
    const Profile& p = *loaded.profile;
    // Past the profile's end there is nothing to count: bins there would
    // have no part to share.
    if (range)
        range->to = std::min(range->to, p.endTime());
    const MeasurementMetrics metrics(p);
    std::vector<TrackId> tracks;
    if (const auto name = args.value("--track")) {
        for (TrackId t = 0; t < p.trackCount(); ++t) {
            if (p.string(p.track(t).name) == *name) {
                tracks = {t};
                break;
            }
            if (p.string(p.track(t).name).find(*name) != std::string_view::npos)
                tracks.push_back(t);
        }
        if (tracks.empty())
            return CliSupport::usageError(err, "no track is named '" + *name + "' (see 'runlane-cli summary')");
        if (tracks.size() > 1)
            return CliSupport::usageError(err, "'" + *name + "' matches " + std::to_string(tracks.size())
                                       + " tracks; give more of the name");
    } else {
        // Metric snapshots give the one loop they describe.
        const bool fromSnapshots = p.measurementCount() == 0 && p.snapshotsAreTimed();
        for (TrackId t = 0; t < p.trackCount(); ++t) {
            // A worker pool (tokio) is one loop of several workers: its
            // shares are worker-equivalents and may add up to more than 1.
            const bool loop = p.track(t).kind != TrackKind::Async || p.track(t).workerPool;
            if (loop && (metrics.busy(t) > 0 || fromSnapshots))
                tracks.push_back(t);
        }
    }
    Time bin = 0;
    if (binText) {
        const ParseStatus status = CliSupport::parseValue(*binText, p.unit(), bin);
        if (status == ParseStatus::Range)
            return CliSupport::usageError(err, "bad --bin '" + *binText + "': " + CliSupport::valueProblem(status, p.unit()));
        if (status != ParseStatus::Ok || bin <= 0) {
            return CliSupport::usageError(err, p.unit() == ValueUnit::Nanoseconds
                                       ? "bad --bin '" + *binText + "': give a positive duration with a unit, e.g. 5ms"
                                       : "bad --bin '" + *binText + "': give a positive number of "
                                           + std::string(ValueFormat::key(p.unit())));
        }
    }
    const Time span = range ? range->to - range->from : p.duration();
    if (bin == 0)
        bin = UsageSeries::defaultBinWidth(span);
    std::vector<UsageSeries> series;
    try {
        for (const TrackId t : tracks)
            series.push_back(UsageSeries::compute(p, t, bin, top, range));
    } catch (const std::invalid_argument& e) {
        return CliSupport::usageError(err, std::string("bad --bin: ") + e.what());
    }
    out << (format == "json" ? UsageFormatter::json(p, series) : UsageFormatter::csv(p, series));
    return CliCommands::Ok;
}

} // namespace

CliCommand usageCommand()
{
    return {"usage", "event-loop usage per time bin: each label's share of the loop", &run};
}

} // namespace runlane
