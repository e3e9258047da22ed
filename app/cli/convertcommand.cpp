#include "clicommand.h"

#include "chrometracewriter.h"
#include "clicommands.h"
#include "clisupport.h"
#include "perfettotracewriter.h"
#include "profile.h"

#include <ostream>

namespace runlane {

namespace {

constexpr const char* kConvertHelp = R"HELP(Usage: runlane-cli convert FILE --to chrome|perfetto -o OUT [--input-format ID] [--variant NAME] [--add PROFILE [--add-thread PID:TID]]

--to chrome writes Chrome Trace Event Format JSON (synchronous calls as X
events, tasks as b/e async slices by id), which loads again with the same
rank and opens in Perfetto or chrome://tracing.
--to perfetto writes a Perfetto protobuf trace (.pftrace): thread, async
and counter tracks, slices with interned names and source locations,
instants, counters and flows; a task's running intervals are slices on its
async track, its creator a flow. Perfetto has no pending, paused or final
state of a task: reading it back, each running interval is a task of its own.
OUT is written atomically.

)HELP";

int run(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    if (const int code = CliSupport::parseProfileArgs(args, {{"--to", "-o", "--output"}, {"--help"}, 1, 1}, argc, argv, kConvertHelp, out, err);
        code >= 0)
        return code;
    const std::string to = args.value("--to").value_or("");
    if (to.empty())
        return CliSupport::usageError(err, "convert needs --to chrome or --to perfetto");
    if (to != "chrome" && to != "perfetto")
        return CliSupport::usageError(err, "unknown --to format '" + to + "' (chrome, perfetto)");
    const auto output = args.value("-o") ? args.value("-o") : args.value("--output");
    if (!output || output->empty())
        return CliSupport::usageError(err, "convert needs -o OUT");
    LoadResult loaded;
    if (const int code = CliSupport::load(args, loaded, err); code >= 0)
        return code;
    const bool perfetto = to == "perfetto";
    if (!loaded.profile->snapshots().empty())
        err << (perfetto ? "runlane-cli: note: pre-aggregated metrics have no timeline; they are not written\n"
                         : "runlane-cli: note: pre-aggregated metrics have no timeline; they are written as counters of "
                           "their cumulative values, which do not give back the rank\n");
    std::string error;
    const QString path = QString::fromLocal8Bit(output->c_str());
    if (!(perfetto ? PerfettoTraceWriter::writeFile(*loaded.profile, path, error)
                   : ChromeTraceWriter::writeFile(*loaded.profile, path, error))) {
        err << "runlane-cli: " << error << "\n";
        return CliCommands::OutputError;
    }
    return CliCommands::Ok;
}

} // namespace

CliCommand convertCommand()
{
    return {"convert", "write the profile as a Chrome or Perfetto trace", &run};
}

} // namespace runlane
