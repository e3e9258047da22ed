#include "clicommand.h"

#include "chrometracewriter.h"
#include "clicommands.h"
#include "clisupport.h"
#include "profile.h"

#include <ostream>

namespace runlane {

namespace {

constexpr const char* kConvertHelp = R"HELP(Usage: runlane-cli convert FILE --to chrome -o OUT [--input-format ID] [--variant NAME] [--add PROFILE [--add-thread PID:TID]]

Writes the profile as Chrome Trace Event Format JSON (synchronous calls as
X events, tasks as b/e async slices by id), which loads again with the same
rank and opens in Perfetto or chrome://tracing. OUT is written atomically.

)HELP";

int run(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    if (const int code = CliSupport::parseProfileArgs(args, {{"--to", "-o", "--output"}, {"--help"}, 1, 1}, argc, argv, kConvertHelp, out, err);
        code >= 0)
        return code;
    const std::string to = args.value("--to").value_or("");
    if (to.empty())
        return CliSupport::usageError(err, "convert needs --to chrome");
    if (to != "chrome")
        return CliSupport::usageError(err, "unknown --to format '" + to + "' (chrome)");
    const auto output = args.value("-o") ? args.value("-o") : args.value("--output");
    if (!output || output->empty())
        return CliSupport::usageError(err, "convert needs -o OUT");
    LoadResult loaded;
    if (const int code = CliSupport::load(args, loaded, err); code >= 0)
        return code;
    if (!loaded.profile->snapshots().empty())
        err << "runlane-cli: note: pre-aggregated metrics have no timeline; they are written as counters of their "
               "cumulative values, which do not give back the rank\n";
    std::string error;
    if (!ChromeTraceWriter::writeFile(*loaded.profile, QString::fromLocal8Bit(output->c_str()), error)) {
        err << "runlane-cli: " << error << "\n";
        return CliCommands::OutputError;
    }
    return CliCommands::Ok;
}

} // namespace

CliCommand convertCommand()
{
    return {"convert", "write the profile as a Chrome trace", &run};
}

} // namespace runlane
