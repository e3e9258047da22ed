#include "clicommand.h"

#include "baselinereport.h"
#include "clicommands.h"
#include "clisupport.h"

#include <QSaveFile>

#include <ostream>

namespace runlane {

namespace {

constexpr const char* kReportHelp = R"HELP(Usage: runlane-cli report PROFILE... -o baseline.json [--match name] [--input-format ID]

Writes a baseline report: per label, every run's values of every metric
(calls, exec, total, wall, p50, p90, p99, max, wait), not the profiles. Keep
it in a repository and compare each change's runs against it with
'runlane-cli compare --baseline baseline.json --new ...'. A report of one
run keeps each call's values too, for a per-call test against one new run.

  -o OUT           the report to write (atomically)
  --match name     labels by name only, merging a name's labels
  --input-format ID
                   read every profile as this format
)HELP";

int run(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    const CliArgs::Spec spec{{"-o", "--output", "--match", CliSupport::kInputFormatOption}, {"--help"}, 1, 100000};
    if (const int code = CliSupport::parseArgs(args, spec, argc, argv, kReportHelp, out, err); code >= 0)
        return code;
    const auto output = args.value("-o") ? args.value("-o") : args.value("--output");
    if (!output || output->empty())
        return CliSupport::usageError(err, "report needs -o OUT.json");
    const std::string match = args.value("--match").value_or("");
    if (!match.empty() && match != "name")
        return CliSupport::usageError(err, "unknown --match '" + match + "' (name)");
    RunSet runs(match == "name" ? RunSet::Match::Name : RunSet::Match::NameFileLine);
    const std::vector<std::string>& files = args.positional();
    if (const int code = CliSupport::loadRuns(files, CliSupport::inputFormat(args), files.size() == 1, runs, err);
        code >= 0)
        return code;
    const std::string text = BaselineReport::write(runs, "runlane " RUNLANE_VERSION);
    QSaveFile file(QString::fromLocal8Bit(output->c_str()));
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size())
        || !file.commit()) {
        err << "runlane-cli: cannot write " << *output << ": " << file.errorString().toStdString() << "\n";
        return CliCommands::OutputError;
    }
    return CliCommands::Ok;
}

} // namespace

CliCommand reportCommand()
{
    return {"report", "write a baseline report of runs, for compare --baseline in CI", &run};
}

} // namespace runlane
