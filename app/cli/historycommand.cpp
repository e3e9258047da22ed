#include "clicommand.h"

#include "clicommands.h"
#include "clisupport.h"
#include "historycheck.h"
#include "historydatabase.h"
#include "historyformatter.h"
#include "historyjsonlines.h"
#include "historyrecorder.h"
#include "historystore.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QSysInfo>

#include <fstream>
#include <ostream>

namespace runlane {

namespace {

constexpr const char* kHistoryHelp = R"HELP(Usage: runlane-cli history record [--db DB] --workload NAME [--commit SHA] [--branch B] [--tag k=v ...] PROFILE...
       runlane-cli history list   [--db DB] [--workload NAME] [--last N] [--format table|json]
       runlane-cli history show   [--db DB] --workload NAME --label NAME [--metric exec] [--last N] [--format table|csv|json]
       runlane-cli history check  [--db DB] --workload NAME [--run ID|latest] [--window 30] [--metric exec]
                                  [--format table|json|markdown] [--fail-on-regression]
       runlane-cli history export|import [--db DB] FILE.jsonl

Keeps every recorded run's per-label figures (those of compare) in a
database and checks a run against the runs before it.

  --db DB          an SQLite file (default runlane-history.sqlite in the
                   data folder, ~/.local/share/Runlane on Linux), or
                   postgresql://user@host:port/dbname for a shared server
                   (a Unix socket: postgresql://user@/dbname?host=/run/postgresql);
                   the password only from PGPASSWORD or ~/.pgpass
  record           one run per PROFILE; the profiles of one record are
                   one run set, written in one transaction; the host is
                   this machine's name
  check            the run set of --run (default the latest) against the
                   --window run sets before it: per label, the change of
                   the new median from the window's median, against the
                   label's own noise threshold, Q3 + 3 x IQR of the
                   absolute relative changes between consecutive runs of
                   the window (0.2 % without history): regressed,
                   improved or unchanged
  --metric M       exec (default), total, wall, calls, p50, p90, p99, max, wait
  --fail-on-regression
                   exit with code 4 when any label regressed
  --input-format ID
                   read every profile as this format (record)

Exit codes: 0 ok, 1 the database or file could not be written, 2 usage
error, 3 unreadable input (a profile, the database, an unknown workload or
run), 4 a regression (with --fail-on-regression).
)HELP";

int inputError(std::ostream& err, const std::string& message)
{
    err << "runlane-cli: " << message << "\n";
    return CliCommands::InputError;
}

int outputError(std::ostream& err, const std::string& message)
{
    err << "runlane-cli: " << message << "\n";
    return CliCommands::OutputError;
}

// Parses `history SUB …` as a command of its own: argv[2] is SUB.
int parse(CliArgs& args, CliArgs::Spec spec, int argc, char** argv, std::ostream& out, std::ostream& err)
{
    spec.valueOptions.insert("--db");
    spec.flags.insert("--help");
    return CliSupport::parseArgs(args, spec, argc - 1, argv + 1, kHistoryHelp, out, err);
}

int open(HistoryDatabase& db, const CliArgs& args, std::ostream& err)
{
    if (!db.open(args.value("--db").value_or("")))
        return inputError(err, db.error());
    return -1;
}

bool parseMetric(const CliArgs& args, CompareMetric& metric, std::ostream& err, int& code)
{
    const std::string name = args.value("--metric").value_or("exec");
    if (CompareMetrics::parse(name, metric))
        return true;
    code = CliSupport::usageError(err, "unknown --metric '" + name + "' (exec, total, wall, calls, p50, p90, p99, max, wait)");
    return false;
}

bool parseFormat(const CliArgs& args, const std::vector<std::string>& formats, std::string& format, std::ostream& err,
                 int& code)
{
    format = args.value("--format").value_or(formats.front());
    if (std::find(formats.begin(), formats.end(), format) != formats.end())
        return true;
    std::string list;
    for (const std::string& f : formats)
        list += (list.empty() ? "" : ", ") + f;
    code = CliSupport::usageError(err, "unknown --format '" + format + "' (" + list + ")");
    return false;
}

bool parseLast(const CliArgs& args, std::size_t& last, std::ostream& err, int& code)
{
    const auto text = args.value("--last");
    if (!text || CliSupport::parseCount(*text, last))
        return true;
    code = CliSupport::usageError(err, "--last takes a whole number of runs, at least 1");
    return false;
}

int record(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    const CliArgs::Spec spec{{"--workload", "--commit", "--branch", CliSupport::kInputFormatOption}, {}, 1, 100000, {},
                             {"--tag"}};
    if (const int code = parse(args, spec, argc, argv, out, err); code >= 0)
        return code;
    const std::string workload = args.value("--workload").value_or("");
    if (workload.empty())
        return CliSupport::usageError(err, "history record needs --workload NAME");
    HistoryRun meta;
    meta.workload = workload;
    meta.commit = args.value("--commit").value_or("");
    meta.branch = args.value("--branch").value_or("");
    meta.host = QSysInfo::machineHostName().toStdString();
    meta.toolVersion = RUNLANE_VERSION;
    for (const std::string& tag : args.values("--tag")) {
        const std::size_t eq = tag.find('=');
        if (eq == 0 || eq == std::string::npos || tag.find('\n') != std::string::npos)
            return CliSupport::usageError(err, "bad --tag '" + tag + "': give key=value");
        meta.tags.emplace_back(tag.substr(0, eq), tag.substr(eq + 1));
    }
    // The history opens, and reads the workload's labels, while the
    // profiles load; its errors still come after theirs.
    HistoryRecorder recorder(args.value("--db").value_or(""), workload);
    // Each file's runs (a baseline report has several) with its name,
    // size and where it is.
    RunSet set;
    std::vector<HistoryRun> runs;
    for (const std::string& path : args.positional()) {
        if (const int code = CliSupport::loadRuns({path}, CliSupport::inputFormat(args), false, set, err); code >= 0)
            return code;
        const QFileInfo file(QString::fromLocal8Bit(path.c_str()));
        HistoryRun run = meta;
        run.sourceName = file.fileName().toStdString();
        run.sourceSize = file.size();
        run.sourcePath = file.absoluteFilePath().toStdString();
        runs.resize(set.runs().size(), run);
    }
    if (!recorder.opened())
        return inputError(err, recorder.error());
    if (!recorder.record(set, runs))
        return outputError(err, "recording into the history: " + recorder.error());
    out << "recorded " << runs.size() << " run(s) of " << workload << ": ";
    for (std::size_t i = 0; i < runs.size(); ++i)
        out << (i ? ", " : "") << runs[i].id;
    out << " (run set " << runs.front().runSet << ")\n";
    return CliCommands::Ok;
}

int list(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    if (const int code = parse(args, {{"--workload", "--last", "--format"}, {}, 0, 0}, argc, argv, out, err); code >= 0)
        return code;
    int code = CliCommands::Ok;
    std::size_t last = 0;
    std::string format;
    if (!parseLast(args, last, err, code) || !parseFormat(args, {"table", "json"}, format, err, code))
        return code;
    HistoryDatabase db;
    if (const int failed = open(db, args, err); failed >= 0)
        return failed;
    HistoryStore store(db);
    std::vector<HistoryRun> runs;
    if (!store.runs(args.value("--workload").value_or(""), last, runs))
        return inputError(err, store.error());
    out << (format == "json" ? HistoryFormatter::runsJson(runs) : HistoryFormatter::runsTable(runs));
    return CliCommands::Ok;
}

int show(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    if (const int code = parse(args, {{"--workload", "--label", "--metric", "--last", "--format"}, {}, 0, 0}, argc,
                               argv, out, err);
        code >= 0)
        return code;
    const std::string workload = args.value("--workload").value_or("");
    const std::string label = args.value("--label").value_or("");
    if (workload.empty() || label.empty())
        return CliSupport::usageError(err, "history show needs --workload NAME and --label NAME");
    int code = CliCommands::Ok;
    CompareMetric metric = CompareMetric::Exec;
    std::size_t last = 0;
    std::string format;
    if (!parseMetric(args, metric, err, code) || !parseLast(args, last, err, code)
        || !parseFormat(args, {"table", "csv", "json"}, format, err, code))
        return code;
    HistoryDatabase db;
    if (const int failed = open(db, args, err); failed >= 0)
        return failed;
    HistoryStore store(db);
    std::vector<HistoryStore::Point> points;
    if (!store.series(workload, label, metric, last, points))
        return inputError(err, store.error());
    if (points.empty())
        return inputError(err, "no label '" + label + "' in the runs of the workload '" + workload + "'");
    if (format == "csv")
        out << HistoryFormatter::seriesCsv(points, metric);
    else if (format == "json")
        out << HistoryFormatter::seriesJson(points, metric);
    else
        out << HistoryFormatter::seriesTable(points, metric);
    return CliCommands::Ok;
}

int check(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    if (const int code = parse(args, {{"--workload", "--run", "--window", "--metric", "--format"}, {"--fail-on-regression"}, 0, 0},
                               argc, argv, out, err);
        code >= 0)
        return code;
    HistoryCheck::Options options;
    options.workload = args.value("--workload").value_or("");
    if (options.workload.empty())
        return CliSupport::usageError(err, "history check needs --workload NAME");
    if (const auto run = args.value("--run"); run && *run != "latest") {
        std::size_t id = 0;
        if (!CliSupport::parseCount(*run, id))
            return CliSupport::usageError(err, "bad --run '" + *run + "': give a run id or latest");
        options.run = std::int64_t(id);
    }
    if (const auto window = args.value("--window"); window && !CliSupport::parseCount(*window, options.window))
        return CliSupport::usageError(err, "--window takes a whole number of runs, at least 1");
    int code = CliCommands::Ok;
    std::string format;
    if (!parseMetric(args, options.metric, err, code) || !parseFormat(args, {"table", "json", "markdown"}, format, err, code))
        return code;
    HistoryDatabase db;
    if (const int failed = open(db, args, err); failed >= 0)
        return failed;
    HistoryStore store(db);
    HistoryCheck result;
    std::string error;
    bool notFound = false;
    if (!HistoryCheck::compute(store, options, result, error, notFound))
        return inputError(err, error);
    if (format == "json")
        out << HistoryFormatter::checkJson(result);
    else if (format == "markdown")
        out << HistoryFormatter::checkMarkdown(result);
    else
        out << HistoryFormatter::checkTable(result);
    if (args.has("--fail-on-regression") && result.comparison().anyRegressed())
        return CliCommands::RegressionFound;
    return CliCommands::Ok;
}

int transfer(int argc, char** argv, std::ostream& out, std::ostream& err, bool exporting)
{
    CliArgs args;
    if (const int code = parse(args, {{}, {}, 1, 1}, argc, argv, out, err); code >= 0)
        return code;
    const std::string path = args.positional().front();
    HistoryDatabase db;
    if (const int failed = open(db, args, err); failed >= 0)
        return failed;
    HistoryStore store(db);
    std::string error;
    if (exporting) {
        std::ofstream file(path, std::ios::binary);
        if (!file)
            return outputError(err, "cannot write " + path);
        if (!HistoryJsonLines::write(store, file, RUNLANE_VERSION, error))
            return outputError(err, path + ": " + error);
        return CliCommands::Ok;
    }
    std::ifstream file(path, std::ios::binary);
    if (!file)
        return inputError(err, "cannot read " + path);
    std::size_t runs = 0;
    const bool ok = HistoryJsonLines::read(store, file, runs, error);
    out << "imported " << runs << " run(s)\n";
    return ok ? int(CliCommands::Ok) : inputError(err, path + ": " + error);
}

int run(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    // Qt SQL loads its drivers as plugins, which needs the application.
    int qtArgc = 1;
    QCoreApplication app(qtArgc, argv);
    const std::string sub = argc > 2 ? argv[2] : "";
    if (sub == "--help" || sub == "-h") {
        out << kHistoryHelp;
        return CliCommands::Ok;
    }
    if (sub == "record")
        return record(argc, argv, out, err);
    if (sub == "list")
        return list(argc, argv, out, err);
    if (sub == "show")
        return show(argc, argv, out, err);
    if (sub == "check")
        return check(argc, argv, out, err);
    if (sub == "export" || sub == "import")
        return transfer(argc, argv, out, err, sub == "export");
    return CliSupport::usageError(err, sub.empty() ? std::string("history needs record, list, show, check, export or import")
                                                   : "unknown history command '" + sub + "'");
}

} // namespace

CliCommand historyCommand()
{
    return {"history", "keep every run's figures in a database; trends and noise-calibrated regression checks", &run};
}

} // namespace runlane
