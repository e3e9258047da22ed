#include "clicommand.h"

#include "clicommands.h"
#include "baselinereport.h"
#include "clisupport.h"
#include "criticalpathcompareformatter.h"
#include "criticalpathcomparison.h"
#include "criticalpathformatter.h"
#include "criticalpathsummary.h"
#include "profile.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <ostream>
#include <set>

namespace runlane {

namespace {

constexpr const char* kCriticalPathHelp = R"HELP(Usage: runlane-cli critical-path FILE (--label NAME | --slowest N) [--each] [--range A..B] [--format F] [--input-format ID] [--variant NAME] [--add PROFILE [--add-thread PID:TID]]
       runlane-cli critical-path NEW --label NAME --base BASE [BASE2 ...] [--threshold T] [--floor D] [--alpha A] [--per P] [--format F]

Why tasks took as long as they did (semantics.md §9): each task's life,
from its creation to its finish, split into its own running (named after
the innermost function running), the time it was ready but queued behind
another task on its loop (named after that blocker, or idle), and the time
it waited; a wait that a waker ended (a child that finished, a tokio wake,
a flow, a creator) is explained by the waker's own critical path. The
tasks are finished measurements that were not born finished, in creation
order; the breakdown adds up to the sum of their wall times.

  --label NAME   the tasks of the label(s) with this name
  --slowest N    only the N tasks with the longest lives (of --label, or of
                 the whole profile)
  --each         every task's breakdown and segments too
  --range A..B   only the tasks whose life overlaps [A, B) from the
                 profile start, e.g. 10ms..20ms
  --format F     table (default), csv or json; times in ns from the
                 profile start (json: label, tasks_count, wall_ns,
                 wake_source, breakdown, by_track, tasks)
  --base BASE... compare mode: the label's tasks in FILE (the new run)
                 against those in these profiles (the base runs): the
                 breakdown side by side with its change per (kind, label),
                 and a verdict per kind on each task's time of it, by the
                 rules of 'runlane-cli compare' (docs/compare.md)
  --threshold T, --floor D, --alpha A
                 with --base: as in 'runlane-cli compare' (5%, 0.1 % of
                 the base's busy time, 0.05)
  --per P        with --base: run (default: each run's totals) or task
                 (divided by each run's tasks)
)HELP";

// Levenshtein distance, for suggesting the names closest to a mistyped one.
std::size_t distance(std::string_view a, std::string_view b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

// The (up to five) label names closest to `name`: those containing it
// first, then by edit distance.
std::vector<std::string> closest(const Profile& p, const std::string& name)
{
    std::set<std::string> names;
    for (LabelId l = 0; l < p.labelCount(); ++l)
        names.emplace(p.labelName(l));
    std::vector<std::pair<std::size_t, std::string>> ranked;
    for (const std::string& n : names)
        ranked.emplace_back(n.find(name) != std::string::npos ? 0 : 1 + distance(name, n), n);
    std::sort(ranked.begin(), ranked.end());
    // Near ones (half the name's letters changed at most); failing those,
    // the three nearest, so that the message always offers something.
    const std::size_t near = 1 + name.size() / 2;
    std::vector<std::string> out;
    for (const auto& [d, n] : ranked)
        if (d <= near && out.size() < 5)
            out.push_back(n);
    for (std::size_t i = 0; out.empty() && i < ranked.size() && i < 3; ++i)
        out.push_back(ranked[i].second);
    return out;
}

// The tasks of the label(s) named `name` in `p` (none if it has no such label).
std::vector<LabelId> labelsNamed(const Profile& p, const std::string& name)
{
    std::vector<LabelId> labels;
    for (LabelId l = 0; l < p.labelCount(); ++l)
        if (p.labelName(l) == name)
            labels.push_back(l);
    return labels;
}

// One run of compare mode: the profile and its label's critical paths.
struct LoadedRun {
    std::shared_ptr<const Profile> profile;
    std::unique_ptr<CriticalPathSummary> summary;
    std::string source;
};

LoadedRun summarise(std::shared_ptr<const Profile> profile, const std::string& label, std::string source)
{
    LoadedRun run{std::move(profile), nullptr, std::move(source)};
    const Profile& p = *run.profile;
    const CriticalPath path(p, CriticalPath::sourceOf(p));
    run.summary = std::make_unique<CriticalPathSummary>(
        CriticalPathSummary::compute(path, CriticalPathSummary::tasksOf(p, labelsNamed(p, label)), false));
    return run;
}

// --threshold, --alpha and --per of compare mode, before any file is read.
// Returns -1 to go on, or the exit code.
int parseCompareOptions(const CliArgs& args, CompareOptions& options, std::ostream& err)
{
    if (const auto t = args.value("--threshold"); t && !CliSupport::parsePercent(*t, options.threshold))
        return CliSupport::usageError(err, "bad --threshold '" + *t + "': give a percentage, e.g. 5%");
    if (const auto a = args.value("--alpha"); a && !CliSupport::parseLevel(*a, options.alpha))
        return CliSupport::usageError(err, "bad --alpha '" + *a + "': give a level between 0 and 1, e.g. 0.05");
    const std::string per = args.value("--per").value_or("run");
    if (per == "task")
        options.per = CompareOptions::Per::Call;
    else if (per != "run")
        return CliSupport::usageError(err, "unknown --per '" + per + "' (run, task)");
    return -1;
}

// critical-path NEW --label NAME --base BASE...: the label's paths in the
// new run against the base runs (CriticalPathComparison).
int compareRuns(const CliArgs& args, const LoadResult& loaded, const std::string& label, CompareOptions options,
                const std::string& format, std::ostream& out, std::ostream& err)
{
    if (const auto f = args.value("--floor")) {
        Time floor = 0;
        const ValueUnit unit = loaded.profile->unit();
        if (const ParseStatus status = CliSupport::parseValue(*f, unit, floor); status != ParseStatus::Ok || floor < 0)
            return CliSupport::usageError(err, "bad --floor '" + *f + "': "
                                                   + (status != ParseStatus::Ok ? CliSupport::valueProblem(status, unit)
                                                                                : std::string("it cannot be negative")));
        options.floor = double(floor);
    }
    // Every base profile stays loaded: the rows name their labels.
    std::vector<LoadedRun> base;
    for (const std::string& path : args.values("--base")) {
        RunSet ignored;
        bool report = false;
        std::string error;
        if (BaselineReport::readIfReport(path, ignored, report, error) && report)
            return CliSupport::usageError(err, path + " is a baseline report, which keeps no critical paths: give "
                                                      "the base profiles");
        LoadControl control;
        if (const auto variant = args.value(CliSupport::kVariantOption))
            control.variant = *variant;
        const LoadResult b = ProfileLoader::load(QString::fromLocal8Bit(path.c_str()), control, CliSupport::inputFormat(args));
        if (!b.ok()) {
            err << "runlane-cli: " << b.error.toString() << "\n";
            return CliCommands::InputError;
        }
        if (!b.profile->hasTimestamps()) {
            err << "runlane-cli: " << path << " has no timestamps, so its tasks have no critical path\n";
            return CliCommands::InputError;
        }
        base.push_back(summarise(b.profile, label, path));
    }
    const LoadedRun next = summarise(loaded.profile, label, args.positional()[0]);
    const auto runsOf = [](const std::vector<const LoadedRun*>& loadedRuns) {
        std::vector<CriticalPathComparison::Run> runs;
        for (const LoadedRun* r : loadedRuns)
            runs.push_back({r->profile.get(), r->summary.get(), CriticalPathComparison::busyOf(*r->profile), r->source});
        return runs;
    };
    std::vector<const LoadedRun*> baseRuns;
    for (const LoadedRun& r : base)
        baseRuns.push_back(&r);
    const CriticalPathComparison comparison =
        CriticalPathComparison::compute(runsOf(baseRuns), runsOf({&next}), options);
    if (format == "json")
        out << CriticalPathCompareFormatter::json(comparison, label);
    else if (format == "csv")
        out << CriticalPathCompareFormatter::csv(comparison);
    else
        out << CriticalPathCompareFormatter::table(comparison, label);
    return out ? CliCommands::Ok : CliCommands::OutputError;
}

int run(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    const CliArgs::Spec spec = {{"--label", "--slowest", "--range", "--format", "--threshold", "--floor", "--alpha", "--per"},
                                {"--help", "--each"},
                                1,
                                1,
                                {"--base"}};
    if (const int code = CliSupport::parseProfileArgs(args, spec, argc, argv, kCriticalPathHelp, out, err); code >= 0)
        return code;
    const auto label = args.value("--label");
    const auto slowestText = args.value("--slowest");
    if (!label && !slowestText)
        return CliSupport::usageError(err, "give --label NAME or --slowest N (or both)");
    std::size_t slowest = 0;
    if (slowestText && !CliSupport::parseCount(*slowestText, slowest))
        return CliSupport::usageError(err, "--slowest takes a whole number of tasks, at least 1");
    const std::string format = args.value("--format").value_or("table");
    if (format != "table" && format != "csv" && format != "json")
        return CliSupport::usageError(err, "unknown --format '" + format + "' (table, csv, json)");
    const bool each = args.has("--each");
    const bool compare = args.hasList("--base");
    if (compare && (!label || slowestText || each || args.value("--range")))
        return CliSupport::usageError(err, "--base compares the tasks of one --label over whole runs: no --slowest, "
                                           "--each or --range");
    if (compare && args.values("--base").empty())
        return CliSupport::usageError(err, "--base needs one profile or more");
    if (!compare) {
        for (const char* option : {"--threshold", "--floor", "--alpha", "--per"})
            if (args.value(option))
                return CliSupport::usageError(err, std::string(option) + " compares runs: give --base BASE too");
    }
    CompareOptions options;
    if (const int code = compare ? parseCompareOptions(args, options, err) : -1; code >= 0)
        return code;
    LoadResult loaded;
    std::optional<TimeRange> range;
    if (const int code = CliSupport::loadTimeline(args, loaded, range, "so its tasks have no critical path", err); code >= 0)
        return code;
    const Profile& p = *loaded.profile;
    std::vector<LabelId> labels;
    if (label) {
        labels = labelsNamed(p, *label);
        if (labels.empty()) {
            std::string message = "no label is named '" + *label + "'";
            const auto near = closest(p, *label);
            for (std::size_t i = 0; i < near.size(); ++i)
                message += (i == 0 ? "; the closest: '" : "', '") + near[i];
            if (!near.empty())
                message += "'";
            return CliSupport::usageError(err, message);
        }
    } else {
        for (LabelId l = 0; l < p.labelCount(); ++l)
            labels.push_back(l);
    }
    if (compare)
        return compareRuns(args, loaded, *label, options, format, out, err);
    std::vector<MeasurementId> tasks = CriticalPathSummary::tasksOf(p, labels, range);
    if (slowestText)
        tasks = CriticalPathSummary::slowest(p, std::move(tasks), slowest);
    const CriticalPath path(p, CriticalPath::sourceOf(p));
    const CriticalPathSummary summary = CriticalPathSummary::compute(path, std::move(tasks), each);
    if (format == "json")
        out << CriticalPathFormatter::json(p, summary, label, each);
    else if (format == "csv")
        out << CriticalPathFormatter::csv(p, summary, each);
    else
        out << CriticalPathFormatter::table(p, summary, label, each);
    if (const auto why = CriticalPath::whyNoWakers(path.wakeSource(), p.isPreview()); !why.empty() && format == "table")
        out << "(" << why << ")\n";
    return out ? CliCommands::Ok : CliCommands::OutputError;
}

} // namespace

CliCommand criticalPathCommand()
{
    return {"critical-path", "why tasks took as long as they did: running, queued, waiting", run};
}

} // namespace runlane
