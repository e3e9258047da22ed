#include "clicommand.h"

#include "clicommands.h"
#include "clisupport.h"
#include "measurementmetrics.h"
#include "profile.h"
#include "rankformatter.h"
#include "ranktable.h"
#include "schedulingdelays.h"
#include "valueformat.h"

#include <algorithm>
#include <optional>
#include <ostream>

namespace runlane {

namespace {

constexpr const char* kRankHelp = R"HELP(Usage: runlane-cli rank FILE [--sort KEY] [--range A..B] [--top N] [--format F] [--input-format ID] [--variant NAME] [--add PROFILE [--add-thread PID:TID]]

The flattened performance rank, one row per function/proc (label):
calls (finished, stillborn included), unfinished, stillborn (finished
without ever running), exec (self) time, total (time with children,
recursion counted once), wall, and the max, mean, p50, p90 and p99 of one
call's exec time (over calls that ran). For a recording with wakers
(tokio), a second table gives each label's scheduling delay (wake to next
poll): how many polls followed a wake, and the sum, max and p90 of those
waits, over the whole recording (CSV and JSON end each row with them:
delays, delay_sum, delay_max, delay_p90).

  --sort KEY     the column to sort by, largest first (name and file A to
                 Z): exec (the default), busy, total, wall, calls,
                 unfinished, stillborn, primitive, failed, cancelled,
                 zombie, max, mean, p50, p90, p99, wall_max, wall_p50,
                 wall_p90, wall_p99, delays, delay_sum, delay_max,
                 delay_p90, name or file; ties keep the order of the
                 labels, rows without the figure (no per-call
                 distribution, no delay) come last
  --range A..B   only [A, B), times from the profile start with a unit
                 (ns, us, ms, s), e.g. 10ms..250ms; either end may be
                 left out; every quantity is clipped to the range
  --top N        only the first N rows
  --format F     table (default), csv or json; csv and json give times in
                 integer nanoseconds
)HELP";

// The scheduling delay of the rank's rows, in the rank's order.
void printDelays(std::ostream& out, const Profile& p, const RankTable& table, const SchedulingDelays& delays,
                 std::size_t top)
{
    out << (table.range() ? "\nscheduling delay (wake -> next poll, of the polls that start in the range):\n"
                          : "\nscheduling delay (wake -> next poll, whole recording):\n");
    out << "  delays         sum         max         p90  label\n";
    std::size_t shown = 0;
    for (const RankRow& row : table.rows()) {
        if (shown++ >= top)
            break;
        const DelayStats& s = delays.ofLabel(row.label);
        // Right-aligned by characters, not bytes: "µs" is two bytes.
        auto cell = [&out](const std::string& text, std::size_t width) {
            const auto chars = std::size_t(std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xc0) != 0x80; }));
            out << std::string(width > chars ? width - chars : 0, ' ') << text << "  ";
        };
        cell(std::to_string(s.count), 8);
        cell(ValueFormat::text(s.sum, p.unit()), 10);
        cell(ValueFormat::text(s.max, p.unit()), 10);
        cell(ValueFormat::text(s.p90, p.unit()), 10);
        out << p.labelText(row.label) << "\n";
    }
}

int run(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    const CliArgs::Spec spec = {{"--sort", "--range", "--format", "--top"}, {"--help"}, 1, 1};
    if (const int code = CliSupport::parseProfileArgs(args, spec, argc, argv, kRankHelp, out, err); code >= 0)
        return code;
    RankSortKey key = RankSortKey::Exec;
    if (const auto sort = args.value("--sort"); sort && !RankTable::parseSortKey(*sort, key))
        return CliSupport::usageError(err, "unknown --sort key '" + *sort + "' (" + RankTable::sortKeys() + ")");
    const std::string format = args.value("--format").value_or("table");
    if (format != "table" && format != "csv" && format != "json")
        return CliSupport::usageError(err, "unknown --format '" + format + "' (table, csv, json)");
    std::size_t top = RankFormatter::kAllRows;
    if (const auto n = args.value("--top"); n && !CliSupport::parseCount(*n, top))
        return CliSupport::usageError(err, "--top takes a whole number of rows, at least 1");
    LoadResult loaded;
    std::optional<TimeRange> range;
    if (const int code = CliSupport::loadWithRange(args, loaded, range, err); code >= 0)
        return code;
    const Profile& p = *loaded.profile;
    const MeasurementMetrics metrics(p);
    RankTable table = RankTable::compute(metrics, range);
    // Those of the range's polls; only a recording with wakes has any.
    const std::optional<SchedulingDelays> delays
        = p.wakes().empty() ? std::nullopt : std::optional<SchedulingDelays>(std::in_place, p, table.range());
    const SchedulingDelays* shownDelays = delays ? &*delays : nullptr;
    table.sort(p, key, !RankTable::sortsAscending(key), shownDelays);
    if (format == "csv")
        out << RankFormatter::csv(p, table, ',', top, shownDelays);
    else if (format == "json")
        out << RankFormatter::json(p, table, top, shownDelays);
    else
        out << RankFormatter::table(p, table, top);
    if (format == "table" && delays)
        printDelays(out, p, table, *delays, top);
    return CliCommands::Ok;
}

} // namespace

CliCommand rankCommand()
{
    return {"rank", "the flattened performance rank: calls, exec, total, wall, percentiles", &run};
}

} // namespace runlane
