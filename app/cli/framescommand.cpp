#include "clicommand.h"

#include "clicommands.h"
#include "clisupport.h"
#include "frameseries.h"
#include "framesformatter.h"
#include "profile.h"

#include <ostream>

namespace runlane {

namespace {

constexpr const char* kFramesHelp = R"HELP(Usage: runlane-cli frames FILE [--range A..B] [--format F] [--input-format ID] [--variant NAME] [--add PROFILE [--add-thread PID:TID]]

Frame statistics: the frames, their min, max and average fps, the frame
time's p50, p90 and p99 (nearest rank), the janky frames (over 16.7 ms and
over 33.3 ms), and how many are good (over 55 fps), medium (over 25 fps)
and bad, as Enso colours them. The frames are of one source, the first the
profile holds: Enso's RenderStats (frame_time and fps as written); Chrome
or Perfetto DrawFrame, PipelineReporter, BeginMainThreadFrame or BeginFrame
events (a frame lasts until the next starts, a gap of a second or more is
idle); a counter named fps. Of several processes, the one with the most.

  --range A..B   only the frames that start in [A, B), times from the
                 profile start with a unit (10ms..2s); an end may be left out
  --format F     table (default) or json
)HELP";

int run(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    const CliArgs::Spec spec = {{"--range", "--format"}, {"--help"}, 1, 1};
    if (const int code = CliSupport::parseProfileArgs(args, spec, argc, argv, kFramesHelp, out, err); code >= 0)
        return code;
    const std::string format = args.value("--format").value_or("table");
    if (format != "table" && format != "json")
        return CliSupport::usageError(err, "unknown --format '" + format + "' (table, json)");
    LoadResult loaded;
    std::optional<TimeRange> range;
    if (const int code = CliSupport::loadWithRange(args, loaded, range, err); code >= 0)
        return code;
    const Profile& p = *loaded.profile;
    const FrameSeries frames = FrameSeries::of(p);
    out << (format == "json" ? FramesFormatter::json(p, frames, range) : FramesFormatter::table(p, frames, range));
    return CliCommands::Ok;
}

} // namespace

CliCommand framesCommand()
{
    return {"frames", "frame statistics: fps, frame-time percentiles, janky frames (table, JSON)", &run};
}

} // namespace runlane
