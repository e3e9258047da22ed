#include "clicommands.h"

#include "chrometracewriter.h"
#include "rendercommand.h"
#include "cliargs.h"
#include "measurementmetrics.h"
#include "profileloader.h"
#include "rankformatter.h"
#include "ranktable.h"
#include "timeformat.h"
#include "usageformatter.h"
#include "usageseries.h"
#include "valueformat.h"
#include "numberparse.h"

#include <QString>

#include <algorithm>
#include <ostream>
#include <string_view>

namespace runlane {

namespace {

constexpr const char* kMainHelp = R"HELP(Usage: runlane-cli COMMAND [OPTIONS] FILE

Reads a profile (Chronos future log, Chroprof metrics, Chrome trace, Enso log,
speedscope, folded stacks) and prints
what it holds. Commands:
  summary   format, tracks, measurements, intervals, time span, warnings
  rank      the flattened performance rank: calls, exec, total, wall, percentiles
  tree      the measurement tree by creation, with active intervals and states
  usage     event-loop usage per time bin: each label's share of the loop
  convert   write the profile as a Chrome trace
  render    draw the viewer (or its icicle or task lanes) into a PNG, no display needed

Run 'runlane-cli COMMAND --help' for a command's options.
Exit codes: 0 ok, 1 output not written, 2 usage error, 3 unreadable or invalid input.
)HELP";

constexpr const char* kSummaryHelp = R"HELP(Usage: runlane-cli summary FILE

Prints the format, the time span, the tracks (threads, event loops, async
lanes) with their sizes, measurement and interval counts, and the warnings
and skipped events found while loading.
)HELP";

constexpr const char* kRankHelp = R"HELP(Usage: runlane-cli rank FILE [--sort KEY] [--range A..B] [--top N] [--format F]

The flattened performance rank, one row per function/proc (label):
calls (finished, stillborn included), unfinished, stillborn (finished
without ever running), exec (self) time, total (time with children,
recursion counted once), wall, and the max, mean, p50, p90 and p99 of one
call's exec time (over calls that ran).

  --sort KEY     exec (default), total, wall, calls, max, mean or name
  --range A..B   only [A, B), times from the profile start with a unit
                 (ns, us, ms, s), e.g. 10ms..250ms; either end may be
                 left out; every quantity is clipped to the range
  --top N        only the first N rows
  --format F     table (default), csv or json; csv and json give times in
                 integer nanoseconds
)HELP";

constexpr const char* kTreeHelp = R"HELP(Usage: runlane-cli tree FILE [--max-depth N]

Prints, per track, the measurements nested by creation (who created whom),
each with its creation time, its active intervals and its final state.
Times are relative to the profile start.

  --max-depth N  do not print measurements nested deeper than N
)HELP";

constexpr const char* kUsageHelp = R"HELP(Usage: runlane-cli usage FILE [--bin DURATION] [--track NAME] [--top K] [--range A..B] [--format F]

Event-loop usage: for each time bin, the share of the bin that each label
was executing on a track (its exec time in the bin / the bin width). The
shares of one bin add up to the track's busy fraction.

  --bin DURATION  bin width with a unit, e.g. 5ms (default: span / 200); for
                  sampled profiles a number of samples
  --track NAME    only this track (exact name, or a unique part of it);
                  default: every thread or loop that did any work
  --top K         labels with a series of their own (default 10); the rest
                  are summed as "(other)"
  --range A..B    only [A, B) from the profile start, e.g. 1s..2s
  --format F      csv (default) or json; bin times are nanoseconds from
                  the profile start
)HELP";

constexpr const char* kRenderHelp = R"HELP(Usage: runlane-cli render FILE -o OUT.png [--view V] [--size WxH] [--range A..B] [--scale N] [--aggregated] [--select NAME]

Draws what the viewer shows into a PNG, offscreen (no display is needed).

  --view V       window (default), icicle, lanes, usage (the event-loop
                 usage chart) or rank (the rank table)
  --size WxH     the window's or view's size in pixels (default 1600x1000)
  --range A..B   the visible range, from the profile start, e.g. 10ms..20ms
  --scale N      device pixels per pixel: 1 (default) or 2
  --aggregated   the aggregated flame graph instead of the timeline
  --select NAME  select the busiest measurement named NAME in the visible
                 range: its details, its creator and children highlighted
)HELP";

constexpr const char* kConvertHelp = R"HELP(Usage: runlane-cli convert FILE --to chrome -o OUT

Writes the profile as Chrome Trace Event Format JSON (synchronous calls as
X events, tasks as b/e async slices by id), which loads again with the same
rank and opens in Perfetto or chrome://tracing. OUT is written atomically.
)HELP";

int usageError(std::ostream& err, const std::string& message)
{
    err << "runlane-cli: " << message << " (see --help)\n";
    return CliCommands::UsageError;
}

// Parses the shared command line; returns -1 to go on, or an exit code.
int parseArgs(CliArgs& args, const CliArgs::Spec& spec, int argc, char** argv, const char* help, std::ostream& out,
              std::ostream& err)
{
    if (!args.parse(spec, argc, argv, 2))
        return usageError(err, args.error());
    if (args.has("--help")) {
        out << help;
        return CliCommands::Ok;
    }
    return -1;
}

LoadResult loadProfile(const std::string& path, std::ostream& err)
{
    LoadResult result = ProfileLoader::load(QString::fromLocal8Bit(path.c_str()));
    if (!result.ok())
        err << "runlane-cli: " << result.error.toString() << "\n";
    return result;
}

bool parseCount(const std::string& text, std::size_t& out)
{
    if (text.empty() || text.size() > 9 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return false;
    out = std::stoul(text);
    return out > 0;
}

// A time with a unit ("5ms") for time profiles; a plain number of samples,
// bytes or units otherwise.
ParseStatus parseValue(const std::string& text, ValueUnit unit, Time& out)
{
    if (unit == ValueUnit::Nanoseconds)
        return TimeFormat::parseDuration(text, out);
    return parseScaledDecimal(text, 3, out);
}

// What is wrong with a value that did not parse, for a usage message.
std::string valueProblem(ParseStatus status, ValueUnit unit)
{
    if (status == ParseStatus::Range)
        return unit == ValueUnit::Nanoseconds ? "longer than any profile can be (about 292 years at most)"
                                              : "too large a number";
    return unit == ValueUnit::Nanoseconds ? "times need a unit (ns, us, ms, s), e.g. 10ms..20ms"
                                          : "give two numbers of " + std::string(ValueFormat::key(unit));
}

// Loads the profile and, if --range is given, the range inside it. Returns
// -1 to go on, or the exit code.
int loadWithRange(const CliArgs& args, LoadResult& loaded, std::optional<TimeRange>& range, std::ostream& err)
{
    const auto text = args.value("--range");
    if (text && text->find("..") == std::string::npos)
        return usageError(err, "--range takes A..B, e.g. 10ms..20ms");
    loaded = loadProfile(args.positional()[0], err);
    if (!loaded.ok())
        return CliCommands::InputError;
    if (text) {
        TimeRange parsed;
        std::string error;
        if (!CliCommands::parseRange(*text, *loaded.profile, parsed, error))
            return usageError(err, error);
        range = parsed;
    }
    return -1;
}

std::string kindName(TrackKind kind)
{
    return kind == TrackKind::Async ? "async" : "thread";
}

} // namespace

// "A..B": times from the profile start; an end left out is the profile's.
bool CliCommands::parseRange(const std::string& text, const Profile& profile, TimeRange& range, std::string& error)
{
    const auto dots = text.find("..");
    if (dots == std::string::npos) {
        error = "--range takes A..B, e.g. 10ms..20ms";
        return false;
    }
    Time from = 0;
    Time to = profile.duration();
    const std::string a = text.substr(0, dots);
    const std::string b = text.substr(dots + 2);
    const std::string bad = "bad --range '" + text + "': ";
    for (const auto& [part, value] : {std::pair{&a, &from}, std::pair{&b, &to}}) {
        if (part->empty())
            continue;
        if (const ParseStatus status = parseValue(*part, profile.unit(), *value); status != ParseStatus::Ok) {
            error = bad + valueProblem(status, profile.unit());
            return false;
        }
        if (*value < 0) {
            error = bad + "times count from the profile start and cannot be negative";
            return false;
        }
    }
    if (!a.empty() && from >= profile.duration() && profile.duration() > 0) {
        error = bad + "it starts after the profile ends (at " + ValueFormat::text(profile.duration(), profile.unit()) + ")";
        return false;
    }
    if (to < from) {
        error = bad + "the end is before the start";
        return false;
    }
    range = TimeRange{profile.startTime() + from, profile.startTime() + to};
    return true;
}

int CliCommands::run(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    if (argc < 2) {
        err << kMainHelp;
        return UsageError;
    }
    const std::string_view command = argv[1];
    if (command == "--help" || command == "-h" || command == "help") {
        out << kMainHelp;
        return Ok;
    }
    if (command == "summary")
        return summary(argc, argv, out, err);
    if (command == "rank")
        return rank(argc, argv, out, err);
    if (command == "tree")
        return tree(argc, argv, out, err);
    if (command == "usage")
        return usage(argc, argv, out, err);
    if (command == "convert")
        return convert(argc, argv, out, err);
    if (command == "render")
        return render(argc, argv, out, err);
    return usageError(err, "unknown command '" + std::string(command) + "'");
}

int CliCommands::summary(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    if (const int code = parseArgs(args, {{}, {"--help"}, 1, 1}, argc, argv, kSummaryHelp, out, err); code >= 0)
        return code;
    const LoadResult loaded = loadProfile(args.positional()[0], err);
    if (!loaded.ok())
        return InputError;
    const Profile& p = *loaded.profile;
    // Only the tracks' busy times: not the per-measurement figures.
    const std::vector<Time> busy = MeasurementMetrics::busyPerTrack(p);

    std::size_t async = 0;
    std::size_t unfinished = 0;
    for (const Measurement& m : p.measurements()) {
        async += m.isAsync() ? 1 : 0;
        unfinished += m.finalState() == FinalState::Unfinished ? 1 : 0;
    }
    std::size_t points = 0;
    for (const CounterSeries& c : p.counters())
        points += c.times.size();
    int maxDepth = 0;
    for (const Track& t : p.tracks())
        maxDepth = std::max(maxDepth, t.depthCount());

    out << "file:          " << p.sourcePath() << "\n";
    out << "format:        " << p.formatName() << "\n";
    out << (p.unit() == ValueUnit::Nanoseconds ? "time span:     " : "span:          ") << ValueFormat::text(p.duration(), p.unit()) << " ("
        << ValueFormat::plain(p.duration(), p.unit()) << " " << ValueFormat::key(p.unit()) << ")\n";
    if (p.prefersAggregatedView())
        out << "view:          aggregated flame graph (sampled stacks)\n";
    if (!p.snapshots().empty())
        out << "snapshots:     " << p.snapshots().size() << (p.snapshotsAreTimed() ? "" : " (untimed)") << "\n";
    out << "tracks:        " << p.trackCount() << "\n";
    out << "measurements:  " << p.measurementCount() << " (" << async << " async tasks, " << unfinished
        << " unfinished)\n";
    out << "intervals:     " << p.intervalCount() << " (max depth " << maxDepth << ")\n";
    out << "labels:        " << p.labelCount() << "\n";
    out << "marks:         " << p.marks().size() << "\n";
    out << "counters:      " << p.counters().size() << " series, " << points << " points\n";
    out << "memory:        " << (p.modelMemoryUsage() + p.stringMemoryUsage()) / 1024 << " KiB ("
        << (p.intervalCount() ? double(p.modelMemoryUsage()) / double(p.intervalCount()) : 0.0)
        << " bytes per interval + strings)\n";
    const Diagnostics& d = p.diagnostics();
    out << "warnings:      " << d.warningCount() << "\n";
    for (const auto& [kind, count] : d.warningKinds())
        out << "  " << count << " x " << kind << "\n";
    for (const std::string& example : d.examples())
        out << "  e.g. " << example << "\n";
    out << "skipped:       " << d.skippedCount() << " events\n";
    for (const auto& [what, count] : d.skippedEvents())
        out << "  " << count << " x " << what << "\n";
    if (p.trackCount() > 0) {
        out << "\ntracks:\n";
        for (TrackId t = 0; t < p.trackCount(); ++t) {
            const Track& track = p.track(t);
            out << "  " << p.string(track.name) << "  [" << kindName(track.kind) << "]  " << (track.end - track.begin)
                << " intervals, depth " << track.depthCount() << ", busy " << ValueFormat::text(busy[t], p.unit())
                << "\n";
        }
    }
    return Ok;
}

int CliCommands::rank(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    const CliArgs::Spec spec{{"--sort", "--range", "--format", "--top"}, {"--help"}, 1, 1};
    if (const int code = parseArgs(args, spec, argc, argv, kRankHelp, out, err); code >= 0)
        return code;
    RankSortKey key = RankSortKey::Exec;
    if (const auto sort = args.value("--sort"); sort && !RankTable::parseSortKey(*sort, key))
        return usageError(err, "unknown --sort key '" + *sort + "' (exec, total, wall, calls, max, mean, name)");
    const std::string format = args.value("--format").value_or("table");
    if (format != "table" && format != "csv" && format != "json")
        return usageError(err, "unknown --format '" + format + "' (table, csv, json)");
    std::size_t top = RankFormatter::kAllRows;
    if (const auto n = args.value("--top"); n && !parseCount(*n, top))
        return usageError(err, "--top takes a whole number of rows, at least 1");
    LoadResult loaded;
    std::optional<TimeRange> range;
    if (const int code = loadWithRange(args, loaded, range, err); code >= 0)
        return code;
    const Profile& p = *loaded.profile;
    const MeasurementMetrics metrics(p);
    RankTable table = RankTable::compute(metrics, range);
    table.sort(p, key, key != RankSortKey::Name);
    if (format == "csv")
        out << RankFormatter::csv(p, table, ',', top);
    else if (format == "json")
        out << RankFormatter::json(p, table, top);
    else
        out << RankFormatter::table(p, table, top);
    return Ok;
}

int CliCommands::tree(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    if (const int code = parseArgs(args, {{"--max-depth"}, {"--help"}, 1, 1}, argc, argv, kTreeHelp, out, err);
        code >= 0)
        return code;
    std::size_t maxDepth = std::size_t(-1);
    if (const auto d = args.value("--max-depth")) {
        if (*d == "0")
            maxDepth = 0;
        else if (!parseCount(*d, maxDepth))
            return usageError(err, "--max-depth takes a whole number");
    }
    const LoadResult loaded = loadProfile(args.positional()[0], err);
    if (!loaded.ok())
        return InputError;
    const Profile& p = *loaded.profile;

    // Creation children, in creation order (ids are creation-ordered).
    std::vector<std::uint32_t> first(p.measurementCount() + 1, 0);
    for (const Measurement& m : p.measurements()) {
        if (m.creator != kNone)
            ++first[m.creator + 1];
    }
    for (std::size_t i = 0; i < p.measurementCount(); ++i)
        first[i + 1] += first[i];
    std::vector<MeasurementId> children(first.back());
    std::vector<std::uint32_t> cursor(first.begin(), first.end() - 1);
    for (MeasurementId id = 0; id < p.measurementCount(); ++id) {
        if (p.measurement(id).creator != kNone)
            children[cursor[p.measurement(id).creator]++] = id;
    }
    auto rel = [&p](Time t) { return ValueFormat::text(t - p.startTime(), p.unit()); };
    std::string line;
    for (TrackId t = 0; t < p.trackCount(); ++t) {
        out << "== " << p.string(p.track(t).name) << "\n";
        std::vector<std::pair<MeasurementId, std::size_t>> stack;
        for (MeasurementId root = p.measurementCount(); root-- > 0;) {
            const Measurement& m = p.measurement(root);
            if (m.track == t && (m.creator == kNone || p.measurement(m.creator).track != t))
                stack.emplace_back(root, 0);
        }
        while (!stack.empty()) {
            const auto [id, depth] = stack.back();
            stack.pop_back();
            const Measurement& m = p.measurement(id);
            line.assign(2 * depth, ' ');
            line += p.labelText(m.label);
            line += "  created " + rel(m.created);
            const auto ivs = p.intervalsOf(id);
            if (!ivs.empty()) {
                line += "  active";
                for (const IntervalId iv : ivs)
                    line += " [" + rel(p.interval(iv).start) + ", " + rel(p.interval(iv).end) + ")";
            }
            line += "  ";
            line += finalStateName(m.finalState());
            out << line << "\n";
            if (depth >= maxDepth)
                continue;
            for (std::uint32_t k = first[id + 1]; k-- > first[id];) {
                if (p.measurement(children[k]).track == t)
                    stack.emplace_back(children[k], depth + 1);
            }
        }
    }
    return Ok;
}

int CliCommands::usage(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    const CliArgs::Spec spec{{"--bin", "--track", "--top", "--format", "--range"}, {"--help"}, 1, 1};
    if (const int code = parseArgs(args, spec, argc, argv, kUsageHelp, out, err); code >= 0)
        return code;
    // --bin is read once the profile's unit is known.
    const auto binText = args.value("--bin");
    std::size_t top = 10;
    if (const auto k = args.value("--top"); k && !parseCount(*k, top))
        return usageError(err, "--top takes a whole number of labels, at least 1");
    const std::string format = args.value("--format").value_or("csv");
    if (format != "csv" && format != "json")
        return usageError(err, "unknown --format '" + format + "' (csv, json)");
    LoadResult loaded;
    std::optional<TimeRange> range;
    if (const int code = loadWithRange(args, loaded, range, err); code >= 0)
        return code;
    const Profile& p = *loaded.profile;
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
            return usageError(err, "no track is named '" + *name + "' (see 'runlane-cli summary')");
        if (tracks.size() > 1)
            return usageError(err, "'" + *name + "' matches " + std::to_string(tracks.size())
                                       + " tracks; give more of the name");
    } else {
        // Metric snapshots give the one loop they describe.
        const bool fromSnapshots = p.measurementCount() == 0 && p.snapshotsAreTimed();
        for (TrackId t = 0; t < p.trackCount(); ++t) {
            if (p.track(t).kind == TrackKind::Thread && (metrics.busy(t) > 0 || fromSnapshots))
                tracks.push_back(t);
        }
    }
    Time bin = 0;
    if (binText) {
        const ParseStatus status = parseValue(*binText, p.unit(), bin);
        if (status == ParseStatus::Range)
            return usageError(err, "bad --bin '" + *binText + "': " + valueProblem(status, p.unit()));
        if (status != ParseStatus::Ok || bin <= 0) {
            return usageError(err, p.unit() == ValueUnit::Nanoseconds
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
        return usageError(err, std::string("bad --bin: ") + e.what());
    }
    out << (format == "json" ? UsageFormatter::json(p, series) : UsageFormatter::csv(p, series));
    return Ok;
}

int CliCommands::render(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    const CliArgs::Spec spec{{"-o", "--output", "--view", "--size", "--range", "--scale", "--select"}, {"--help", "--aggregated"}, 1, 1};
    if (const int code = parseArgs(args, spec, argc, argv, kRenderHelp, out, err); code >= 0)
        return code;
    RenderCommand::Request request;
    request.input = QString::fromLocal8Bit(args.positional()[0].c_str());
    const auto output = args.value("-o") ? args.value("-o") : args.value("--output");
    if (!output || output->empty())
        return usageError(err, "render needs -o OUT.png");
    request.output = QString::fromLocal8Bit(output->c_str());
    const std::string view = args.value("--view").value_or("window");
    if (view == "icicle")
        request.view = RenderCommand::View::Icicle;
    else if (view == "lanes")
        request.view = RenderCommand::View::Lanes;
    else if (view == "usage")
        request.view = RenderCommand::View::Usage;
    else if (view == "rank")
        request.view = RenderCommand::View::Rank;
    else if (view != "window")
        return usageError(err, "unknown --view '" + view + "' (window, icicle, lanes, usage, rank)");
    if (const auto size = args.value("--size")) {
        const auto x = size->find('x');
        std::size_t w = 0;
        std::size_t h = 0;
        if (x == std::string::npos || !parseCount(size->substr(0, x), w) || !parseCount(size->substr(x + 1), h) || w < 200
            || h < 120 || w > 16384 || h > 16384)
            return usageError(err, "bad --size '" + *size + "': give WxH, e.g. 1600x1000 (200x120 to 16384x16384)");
        request.size = QSize(int(w), int(h));
    }
    if (const auto scale = args.value("--scale")) {
        if (*scale != "1" && *scale != "2")
            return usageError(err, "--scale takes 1 or 2");
        request.scale = std::stod(*scale);
    }
    if (const auto range = args.value("--range")) {
        if (range->find("..") == std::string::npos)
            return usageError(err, "--range takes A..B, e.g. 10ms..20ms");
        request.range = *range;
    }
    request.aggregated = args.has("--aggregated");
    if (const auto select = args.value("--select"))
        request.select = *select;
    return RenderCommand::run(request, out, err);
}

int CliCommands::convert(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    if (const int code = parseArgs(args, {{"--to", "-o", "--output"}, {"--help"}, 1, 1}, argc, argv, kConvertHelp,
                                   out, err);
        code >= 0)
        return code;
    const std::string to = args.value("--to").value_or("");
    if (to.empty())
        return usageError(err, "convert needs --to chrome");
    if (to != "chrome")
        return usageError(err, "unknown --to format '" + to + "' (chrome)");
    const auto output = args.value("-o") ? args.value("-o") : args.value("--output");
    if (!output || output->empty())
        return usageError(err, "convert needs -o OUT");
    const LoadResult loaded = loadProfile(args.positional()[0], err);
    if (!loaded.ok())
        return InputError;
    if (!loaded.profile->snapshots().empty())
        err << "runlane-cli: note: pre-aggregated metrics have no timeline; they are written as counters of their "
               "cumulative values, which do not give back the rank\n";
    std::string error;
    if (!ChromeTraceWriter::writeFile(*loaded.profile, QString::fromLocal8Bit(output->c_str()), error)) {
        err << "runlane-cli: " << error << "\n";
        return OutputError;
    }
    return Ok;
}

} // namespace runlane
