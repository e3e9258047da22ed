#include "criticalpathformatter.h"

#include "compareformatter.h"
#include "timeformat.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <sstream>

namespace runlane {

namespace {

// Keys in the order the README documents them.
using Json = nlohmann::ordered_json;
using Kind = CriticalPath::Kind;

std::string nameOf(const Profile& p, LabelId label)
{
    return label == kNone ? std::string() : std::string(p.labelName(label));
}

Json jsonName(const Profile& p, LabelId label)
{
    return label == kNone ? Json() : Json(nameOf(p, label));
}

std::string percent(Time part, Time whole)
{
    char text[32];
    std::snprintf(text, sizeof text, "%5.1f %%", whole > 0 ? 100.0 * double(part) / double(whole) : 0.0);
    return text;
}

// "queued behind other (app.nim:40)", "running query", "idle".
std::string describe(const Profile& p, Kind kind, LabelId label)
{
    switch (kind) {
    case Kind::Idle:
        return "idle";
    case Kind::Queued:
        return "queued behind " + p.labelText(label);
    case Kind::Running:
        return "running " + p.labelText(label);
    case Kind::Waiting:
        return "waiting for " + p.labelText(label);
    }
    return {};
}

// Durations right-aligned, so that the names start in one column.
std::string padded(std::string text)
{
    constexpr std::size_t width = 10;
    return text.size() < width ? std::string(width - text.size(), ' ') + text : text;
}

void breakdownLines(std::ostringstream& out, const Profile& p, const std::vector<CriticalPathSummary::Entry>& entries,
                    Time wall, const char* indent)
{
    for (const auto& e : entries)
        out << indent << percent(e.ns, wall) << "  " << padded(TimeFormat::duration(e.ns)) << "  "
            << describe(p, e.kind, e.label) << "\n";
}

} // namespace

std::string CriticalPathFormatter::table(const Profile& p, const CriticalPathSummary& summary,
                                         const std::optional<std::string>& label, bool each)
{
    std::ostringstream out;
    out << "Critical path of " << summary.tasks().size() << (summary.tasks().size() == 1 ? " task" : " tasks");
    if (label)
        out << " of " << *label;
    out << ": " << TimeFormat::duration(summary.wall()) << " of wall time\n";
    breakdownLines(out, p, summary.breakdown(), summary.wall(), "  ");
    if (summary.byTrack().size() > 1) {
        out << "By track:\n";
        for (const auto& t : summary.byTrack())
            out << "  " << percent(t.ns, summary.wall()) << "  " << padded(TimeFormat::duration(t.ns)) << "  "
                << p.string(p.track(t.track).name) << "\n";
    }
    if (each) {
        for (const auto& task : summary.tasks()) {
            const Measurement& m = p.measurement(task.measurement);
            const Time wall = m.finished - m.created;
            out << "\n" << p.labelText(m.label) << " created at " << TimeFormat::point(m.created - p.startTime())
                << ", " << TimeFormat::duration(wall) << ":\n";
            breakdownLines(out, p, task.breakdown, wall, "  ");
        }
    }
    return out.str();
}

std::string CriticalPathFormatter::csv(const Profile& p, const CriticalPathSummary& summary, bool each)
{
    std::ostringstream out;
    if (!each) {
        out << "kind,name,file,line,ns\n";
        for (const auto& e : summary.breakdown()) {
            const bool named = e.label != kNone;
            out << CriticalPath::kindName(e.kind) << ',' << CompareFormatter::csvField(nameOf(p, e.label)) << ','
                << (named ? CompareFormatter::csvField(std::string(p.string(p.label(e.label).file))) : std::string()) << ','
                << (named && p.label(e.label).line > 0 ? std::to_string(p.label(e.label).line) : std::string()) << ','
                << e.ns << '\n';
        }
        return out.str();
    }
    out << "task_created_ns,start_ns,end_ns,kind,name,track\n";
    for (const auto& task : summary.tasks()) {
        const Time created = p.measurement(task.measurement).created - p.startTime();
        for (const auto& s : task.segments) {
            const LabelId label = s.named == kNone ? kNone : p.measurement(s.named).label;
            out << created << ',' << s.start - p.startTime() << ',' << s.end - p.startTime() << ','
                << CriticalPath::kindName(s.kind) << ',' << CompareFormatter::csvField(nameOf(p, label)) << ','
                << CompareFormatter::csvField(std::string(p.string(p.track(s.track).name))) << '\n';
        }
    }
    return out.str();
}

std::string CriticalPathFormatter::json(const Profile& p, const CriticalPathSummary& summary,
                                        const std::optional<std::string>& label, bool each)
{
    Json breakdown = Json::array();
    for (const auto& e : summary.breakdown()) {
        const bool named = e.label != kNone;
        breakdown.push_back({{"kind", CriticalPath::kindName(e.kind)},
                             {"name", jsonName(p, e.label)},
                             {"file", named ? Json(std::string(p.string(p.label(e.label).file))) : Json()},
                             {"line", named && p.label(e.label).line > 0 ? Json(p.label(e.label).line) : Json()},
                             {"ns", e.ns}});
    }
    Json byTrack = Json::array();
    for (const auto& t : summary.byTrack())
        byTrack.push_back({{"track", std::string(p.string(p.track(t.track).name))},
                           {"process", std::string(p.string(p.track(t.track).processName))},
                           {"ns", t.ns}});
    Json tasks = Json::array();
    for (const auto& task : summary.tasks()) {
        const Measurement& m = p.measurement(task.measurement);
        Json t = {{"created_ns", m.created - p.startTime()},
                            {"finished_ns", m.finished - p.startTime()},
                            {"wall_ns", m.finished - m.created}};
        if (each) {
            Json parts = Json::array();
            for (const auto& e : task.breakdown)
                parts.push_back({{"kind", CriticalPath::kindName(e.kind)}, {"name", jsonName(p, e.label)}, {"ns", e.ns}});
            Json segments = Json::array();
            for (const auto& s : task.segments)
                segments.push_back({{"start_ns", s.start - p.startTime()},
                                    {"end_ns", s.end - p.startTime()},
                                    {"kind", CriticalPath::kindName(s.kind)},
                                    {"name", jsonName(p, s.named == kNone ? kNone : p.measurement(s.named).label)},
                                    {"track", std::string(p.string(p.track(s.track).name))}});
            t["breakdown"] = std::move(parts);
            t["segments"] = std::move(segments);
        }
        tasks.push_back(std::move(t));
    }
    const Json doc = {{"label", label ? Json(*label) : Json()},
                                {"tasks_count", summary.tasks().size()},
                                {"wall_ns", summary.wall()},
                                {"wake_source", CriticalPath::wakeSourceName(summary.wakeSource())},
                                {"breakdown", std::move(breakdown)},
                                {"by_track", std::move(byTrack)},
                                {"tasks", std::move(tasks)}};
    return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace runlane
