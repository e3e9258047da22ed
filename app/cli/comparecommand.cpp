#include "clicommand.h"

#include "clicommands.h"
#include "clisupport.h"
#include "compareformatter.h"
#include "comparison.h"

#include <ostream>

namespace runlane {

namespace {

constexpr const char* kCompareHelp = R"HELP(Usage: runlane-cli compare --base A1.json [A2.json ...] --new B1.json [B2.json ...] [OPTIONS]
       runlane-cli compare --baseline baseline.json --new B1.json [B2.json ...] [OPTIONS]

Compares two sets of runs of one workload label by label (function, proc):
per metric the median over each side's runs, the change (Δ, Δ%), a
two-sided Mann-Whitney U test and a bootstrap 95 % confidence interval of Δ.
With one run per side the test is over each call's values instead, and
the interval, still of the Δ shown, from the calls: Welch's for a total
(exec, total, wall, wait), the exact bootstrap for p50 ... max. A label is

  regressed, improved  p < alpha, the whole interval of Δ% beyond the
                       threshold, and |Δ| at least the floor
  inconclusive         beyond the threshold, but not that sure (or fewer
                       than 3 runs on a side)
  unchanged            within the threshold or the floor
  added, removed       in one side only

Labels match by name, file and line, or by name alone when the name is
unique on both sides (the code moved). A baseline report (runlane-cli
report) can stand wherever a base profile can.

  --metric M       exec (default), total, wall, calls, p50, p90, p99, max,
                   wait (wall - exec); several: --metric exec,wall
  --threshold T    relative threshold, e.g. 5% (default)
  --floor D        smallest change that counts, e.g. 200us (default 0.1 %
                   of the base's busy time)
  --alpha A        significance level (default 0.05)
  --match name     match by name only, merging a name's labels
  --per P          run (default: each run's totals), call (sums divided by
                   the calls) or busy (a share of the run's busy time)
  --top K          only the first K rows (the most severe first)
  --format F       table (default), csv, json or markdown
  --fail-on-regression
                   exit with code 4 when any label regressed
  --input-format ID
                   read every profile as this format

Exit codes: 0 ok, 2 usage error, 3 unreadable input, 4 a regression (with
--fail-on-regression).
)HELP";

int run(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    CliArgs::Spec spec{{"--threshold", "--floor", "--alpha", "--match", "--per", "--top", "--format",
                        CliSupport::kInputFormatOption},
                       {"--help", "--fail-on-regression"},
                       0,
                       0,
                       {"--base", "--baseline", "--new", "--metric"}};
    if (const int code = CliSupport::parseArgs(args, spec, argc, argv, kCompareHelp, out, err); code >= 0)
        return code;
    std::vector<std::string> base = args.values("--base");
    for (const std::string& report : args.values("--baseline"))
        base.push_back(report);
    const std::vector<std::string> next = args.values("--new");
    if (base.empty())
        return CliSupport::usageError(err, "compare needs --base FILE... (or --baseline REPORT)");
    if (next.empty())
        return CliSupport::usageError(err, "compare needs --new FILE...");

    CompareOptions options;
    if (args.hasList("--metric")) {
        options.metrics.clear();
        for (const std::string& list : args.values("--metric")) {
            for (std::size_t pos = 0; pos <= list.size();) {
                const std::size_t comma = std::min(list.find(',', pos), list.size());
                const std::string name = list.substr(pos, comma - pos);
                CompareMetric metric;
                if (!CompareMetrics::parse(name, metric))
                    return CliSupport::usageError(
                        err, "unknown --metric '" + name + "' (exec, total, wall, calls, p50, p90, p99, max, wait)");
                if (std::find(options.metrics.begin(), options.metrics.end(), metric) == options.metrics.end())
                    options.metrics.push_back(metric);
                pos = comma + 1;
            }
        }
    }
    if (const auto t = args.value("--threshold"); t && !CliSupport::parsePercent(*t, options.threshold))
        return CliSupport::usageError(err, "bad --threshold '" + *t + "': give a percentage, e.g. 5%");
    if (const auto a = args.value("--alpha"); a && !CliSupport::parseLevel(*a, options.alpha))
        return CliSupport::usageError(err, "bad --alpha '" + *a + "': give a level between 0 and 1, e.g. 0.05");
    const std::string per = args.value("--per").value_or("run");
    if (per == "call")
        options.per = CompareOptions::Per::Call;
    else if (per == "busy")
        options.per = CompareOptions::Per::Busy;
    else if (per != "run")
        return CliSupport::usageError(err, "unknown --per '" + per + "' (run, call, busy)");
    const std::string match = args.value("--match").value_or("");
    if (!match.empty() && match != "name")
        return CliSupport::usageError(err, "unknown --match '" + match + "' (name)");
    std::size_t top = CompareFormatter::kAllRows;
    if (const auto k = args.value("--top"); k && !CliSupport::parseCount(*k, top))
        return CliSupport::usageError(err, "--top takes a whole number of rows, at least 1");
    const std::string format = args.value("--format").value_or("table");
    if (format != "table" && format != "csv" && format != "json" && format != "markdown")
        return CliSupport::usageError(err, "unknown --format '" + format + "' (table, csv, json, markdown)");

    const RunSet::Match by = match == "name" ? RunSet::Match::Name : RunSet::Match::NameFileLine;
    RunSet baseRuns(by);
    RunSet newRuns(by);
    // Each call's values only matter for one run against one.
    const bool single = base.size() == 1 && next.size() == 1;
    const InputFormat* inputFormat = CliSupport::inputFormat(args);
    if (const int code = CliSupport::loadRuns(base, inputFormat, single, baseRuns, err); code >= 0)
        return code;
    if (const int code = CliSupport::loadRuns(next, inputFormat, single, newRuns, err); code >= 0)
        return code;
    if (const auto f = args.value("--floor")) {
        const ValueUnit unit = baseRuns.runs().empty() ? ValueUnit::Nanoseconds : baseRuns.runs().front().unit;
        Time floor = 0;
        if (const ParseStatus status = CliSupport::parseValue(*f, unit, floor); status != ParseStatus::Ok || floor < 0)
            return CliSupport::usageError(err, "bad --floor '" + *f + "': "
                                                   + (status != ParseStatus::Ok ? CliSupport::valueProblem(status, unit)
                                                                                : std::string("it cannot be negative")));
        options.floor = double(floor);
    }

    const Comparison comparison = Comparison::compute(baseRuns, newRuns, options);
    if (format == "csv")
        out << CompareFormatter::csv(comparison, top);
    else if (format == "json")
        out << CompareFormatter::json(comparison, top);
    else if (format == "markdown")
        out << CompareFormatter::markdown(comparison, top);
    else
        out << CompareFormatter::table(comparison, top);
    if (args.has("--fail-on-regression") && comparison.anyRegressed())
        return CliCommands::RegressionFound;
    return CliCommands::Ok;
}

} // namespace

CliCommand compareCommand()
{
    return {"compare", "compare two profiles or two sets of runs: per-label deltas, tests, verdicts", &run};
}

} // namespace runlane
