#include "criticalpathcompareformatter.h"

#include "compareformatter.h"
#include "valueformat.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>

namespace runlane {

namespace {

// Keys in the order docs/compare.md documents them.
using Json = nlohmann::ordered_json;
using Kind = CriticalPath::Kind;
using Pad = CompareFormatter;

bool shares(const CriticalPathComparison& c)
{
    return c.options().per == CompareOptions::Per::Busy;
}

// A time (a share of the busy time with per busy) for people.
std::string value(const CriticalPathComparison& c, double v, bool sign = false)
{
    std::string text;
    if (shares(c)) {
        char buffer[48];
        std::snprintf(buffer, sizeof buffer, "%.2f %%", std::fabs(v) * 100);
        text = buffer;
    } else {
        text = ValueFormat::text(Time(std::llround(std::fabs(v))), c.kindComparison().unit());
    }
    if (v < 0)
        return "-" + text;
    return sign ? "+" + text : text;
}

Json jsonNumber(double v)
{
    if (!std::isfinite(v))
        return Json();
    if (std::floor(v) == v && std::fabs(v) < 9e15)
        return std::int64_t(v);
    return v;
}

// A *_ns field: whole nanoseconds (units of the profile), as every CSV and
// JSON of a comparison gives them; shares of the busy time keep fractions.
Json figure(const CriticalPathComparison& c, double v)
{
    if (!shares(c) && std::isfinite(v) && std::fabs(v) < 9e15)
        return std::int64_t(std::llround(v));
    return jsonNumber(v);
}

// A time that is never a share: walls and the floor.
Json wholeNs(double v)
{
    return std::isfinite(v) && std::fabs(v) < 9e15 ? Json(std::int64_t(std::llround(v))) : Json();
}

std::string text(const Json& v)
{
    return v.is_null() ? std::string() : v.dump();
}

// What a row is beside Δ: added, removed, or nothing.
std::string status(const CriticalPathComparison::Row& row)
{
    if (!row.inBase)
        return "added";
    return row.inNew ? "" : "removed";
}

std::string perText(const CriticalPathComparison& c)
{
    switch (c.options().per) {
    case CompareOptions::Per::Call:
        return "per task";
    case CompareOptions::Per::Busy:
        return "as a share of the busy time";
    case CompareOptions::Per::Run:
        break;
    }
    return "per run (totals)";
}

std::string count(double n, const char* one, const char* many)
{
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, std::floor(n) == n ? "%.0f %s" : "%.1f %s", n, n == 1 ? one : many);
    return buffer;
}

} // namespace

std::string CriticalPathCompareFormatter::rowText(const CriticalPathComparison::Row& row)
{
    const std::string label =
        CompareFormatter::labelText(LabelKey{row.name, row.file, row.line});
    switch (row.kind) {
    case Kind::Idle:
        return "idle";
    case Kind::Queued:
        return "queued behind " + label;
    case Kind::Running:
        return "running " + label;
    case Kind::Waiting:
        return "waiting for " + label;
    }
    return label;
}

std::string CriticalPathCompareFormatter::table(const CriticalPathComparison& c, const std::string& label)
{
    const Comparison& k = c.kindComparison();
    char rules[96];
    std::snprintf(rules, sizeof rules, "threshold %g %%, alpha %g", k.options().threshold * 100, k.options().alpha);
    std::string out = "Critical path of " + label + ": " + count(c.baseTasks(), "task", "tasks") + " in base, "
        + count(c.newTasks(), "task", "tasks") + " in new; wall time (Σ of the lives) "
        + ValueFormat::text(Time(std::llround(c.baseWall())), k.unit()) + " → "
        + ValueFormat::text(Time(std::llround(c.newWall())), k.unit()) + "\n";
    out += count(double(c.baseRuns()), "base run", "base runs") + ", " + count(double(c.newRuns()), "new run", "new runs")
        + "; " + perText(c) + "; "
        + (k.test() == Comparison::Test::Calls ? "Mann-Whitney U over each task's values"
                                               : "Mann-Whitney U over the runs")
        + "; " + rules + ", floor " + ValueFormat::text(Time(std::llround(k.floor())), k.unit()) + "\n\n";
    out += Pad::pad("verdict", 13) + Pad::pad("kind", 9) + Pad::pad("base", 11, true) + Pad::pad("new", 11, true)
        + Pad::pad("Δ", 12, true) + Pad::pad("Δ%", 10, true) + Pad::pad("p", 9, true) + "  95 % CI of Δ%\n";
    for (const Kind kind : {Kind::Running, Kind::Queued, Kind::Idle, Kind::Waiting}) {
        const Comparison::MetricResult& m = c.kind(kind);
        out += Pad::pad(std::string(Comparison::name(m.verdict)), 13)
            + Pad::pad(std::string(CriticalPath::kindName(kind)), 9) + Pad::pad(value(c, m.base.median), 11, true)
            + Pad::pad(value(c, m.next.median), 11, true) + Pad::pad(value(c, m.delta, true), 12, true)
            + Pad::pad(CompareFormatter::percentText(m.deltaPct), 10, true) + Pad::pad(CompareFormatter::pValueText(m.p), 9, true) + "  [" + CompareFormatter::percentText(m.ciPct.low)
            + ", " + CompareFormatter::percentText(m.ciPct.high) + "]\n";
    }
    out += "\nBy (kind, label), largest change first:\n";
    for (const CriticalPathComparison::Row& row : c.rows()) {
        const std::string what = status(row);
        out += "  " + rowText(row) + " " + value(c, row.delta, true) + "  ("
            + (what.empty() ? CompareFormatter::percentText(row.deltaPct) : what) + ": " + value(c, row.base) + " → " + value(c, row.next)
            + ")\n";
    }
    for (const std::string& warning : c.warnings())
        out += "warning: " + warning + "\n";
    return out;
}

std::string CriticalPathCompareFormatter::csv(const CriticalPathComparison& c)
{
    // One header for both parts: the four kinds' totals (with their test)
    // and the (kind, label) rows (with only their status as verdict).
    std::string out = "part,kind,name,file,line,base_ns,new_ns,delta_ns,delta_pct,p_value,ci_low_ns,ci_high_ns,verdict\n";
    for (const Kind kind : {Kind::Running, Kind::Queued, Kind::Idle, Kind::Waiting}) {
        const Comparison::MetricResult& m = c.kind(kind);
        out += "total," + std::string(CriticalPath::kindName(kind)) + ",,,," + text(figure(c, m.base.median)) + ","
            + text(figure(c, m.next.median)) + "," + text(figure(c, m.delta)) + ","
            + text(jsonNumber(m.deltaPct * 100)) + "," + Json(m.p).dump() + "," + text(figure(c, m.ci.low)) + ","
            + text(figure(c, m.ci.high)) + "," + std::string(Comparison::name(m.verdict)) + "\n";
    }
    for (const CriticalPathComparison::Row& row : c.rows()) {
        out += "label," + std::string(CriticalPath::kindName(row.kind)) + "," + CompareFormatter::csvField(row.name) + ","
            + CompareFormatter::csvField(row.file) + "," + (row.line > 0 ? std::to_string(row.line) : std::string())
            + "," + text(figure(c, row.base)) + "," + text(figure(c, row.next)) + "," + text(figure(c, row.delta)) + ","
            + text(jsonNumber(row.deltaPct * 100)) + ",,,," + status(row) + "\n";
    }
    return out;
}

std::string CriticalPathCompareFormatter::json(const CriticalPathComparison& c, const std::string& label)
{
    const Comparison& k = c.kindComparison();
    Json kinds = Json::array();
    for (const Kind kind : {Kind::Running, Kind::Queued, Kind::Idle, Kind::Waiting}) {
        const Comparison::MetricResult& m = c.kind(kind);
        kinds.push_back({{"kind", CriticalPath::kindName(kind)},
                         {"verdict", Comparison::name(m.verdict)},
                         {"base_median_ns", figure(c, m.base.median)},
                         {"new_median_ns", figure(c, m.next.median)},
                         {"delta_ns", figure(c, m.delta)},
                         {"delta_pct", jsonNumber(m.deltaPct * 100)},
                         {"p_value", m.p},
                         {"ci_low_ns", figure(c, m.ci.low)},
                         {"ci_high_ns", figure(c, m.ci.high)},
                         {"ci_low_pct", jsonNumber(m.ciPct.low * 100)},
                         {"ci_high_pct", jsonNumber(m.ciPct.high * 100)},
                         {"ci_method", Comparison::name(m.method)}});
    }
    Json rows = Json::array();
    for (const CriticalPathComparison::Row& row : c.rows()) {
        rows.push_back({{"kind", CriticalPath::kindName(row.kind)},
                        {"name", row.kind == Kind::Idle ? Json() : Json(row.name)},
                        {"file", row.file.empty() ? Json() : Json(row.file)},
                        {"line", row.line > 0 ? Json(row.line) : Json()},
                        {"base_ns", figure(c, row.base)},
                        {"new_ns", figure(c, row.next)},
                        {"delta_ns", figure(c, row.delta)},
                        {"delta_pct", jsonNumber(row.deltaPct * 100)},
                        {"in_base", row.inBase},
                        {"in_new", row.inNew}});
    }
    Json warnings = Json::array();
    for (const std::string& w : c.warnings())
        warnings.push_back(w);
    const Json doc = {{"label", label},
                      {"base_runs", c.baseRuns()},
                      {"new_runs", c.newRuns()},
                      {"base_tasks", jsonNumber(c.baseTasks())},
                      {"new_tasks", jsonNumber(c.newTasks())},
                      {"base_wall_ns", wholeNs(c.baseWall())},
                      {"new_wall_ns", wholeNs(c.newWall())},
                      {"per", k.options().per == CompareOptions::Per::Call ? "task" : Comparison::name(k.options().per)},
                      {"test", Comparison::name(k.test())},
                      {"threshold_pct", k.options().threshold * 100},
                      {"alpha", k.options().alpha},
                      {"floor_ns", wholeNs(k.floor())},
                      {"verdict", Comparison::name(c.verdict())},
                      {"kinds", std::move(kinds)},
                      {"breakdown", std::move(rows)},
                      {"warnings", std::move(warnings)}};
    return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace runlane
