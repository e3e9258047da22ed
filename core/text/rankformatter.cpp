#include "rankformatter.h"

#include "valueformat.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <functional>

namespace runlane {

namespace {

std::string csvField(std::string_view text, char separator)
{
    if (text.find_first_of(std::string{separator, '"', '\n', '\r'}) == std::string_view::npos)
        return std::string(text);
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
    return out;
}

std::string shareText(double share)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6f", share);
    return buffer;
}

// The delays to write: none for a profile without wakes.
const SchedulingDelays* shownDelays(const SchedulingDelays* delays)
{
    return delays && delays->any() ? delays : nullptr;
}

std::string csvHeader(char s, ValueUnit unit, const SchedulingDelays* delays)
{
    const std::string suffix = "_" + std::string(ValueFormat::key(unit));
    std::string h = "name";
    for (const char* column : {"file", "line", "calls", "unfinished", "stillborn", "primitive", "failed", "cancelled"})
        h += s + std::string(column);
    for (const char* column : {"exec", "total", "wall", "max", "mean", "p50", "p90", "p99", "wall_max", "wall_p50",
                               "wall_p90", "wall_p99"})
        h += s + std::string(column) + suffix;
    h += s + std::string("busy_share");
    if (delays) {
        h += s + std::string("delays");
        for (const char* column : {"delay_sum", "delay_max", "delay_p90"})
            h += s + std::string(column) + suffix;
    }
    return h + "\n";
}

std::string csvRow(const Profile& profile, const RankRow& r, char s, const SchedulingDelays* delays)
{
    const Label& label = profile.label(r.label);
    const ValueUnit unit = profile.unit();
    std::string line = csvField(profile.labelName(r.label), s);
    line += s + csvField(profile.string(label.file), s);
    line += s + (label.line > 0 ? std::to_string(label.line) : std::string());
    for (const std::uint64_t n : {r.calls, r.unfinished, r.stillborn, r.primitive, r.failed, r.cancelled})
        line += s + std::to_string(n);
    for (const Time t : {r.exec, r.total, r.wall, r.max, r.mean})
        line += s + ValueFormat::plain(t, unit);
    // Pre-aggregated metrics have no per-call distribution: empty cells.
    for (const Time t : {r.p50, r.p90, r.p99, r.wallMax, r.wallP50, r.wallP90, r.wallP99})
        line += s + (r.hasDistribution ? ValueFormat::plain(t, unit) : std::string());
    line += s + shareText(r.busyShare);
    if (delays) {
        const DelayStats& d = delays->ofLabel(r.label);
        line += s + std::to_string(d.count);
        // No delay is no figure, as the viewer's "—".
        for (const Time t : {d.sum, d.max, d.p90})
            line += s + (d.count > 0 ? ValueFormat::plain(t, unit) : std::string());
    }
    return line + "\n";
}

} // namespace

std::string RankFormatter::csv(const Profile& profile, const RankTable& rank, char separator, std::size_t limit,
                               const SchedulingDelays* delays)
{
    delays = shownDelays(delays);
    std::string out = csvHeader(separator, profile.unit(), delays);
    const std::size_t n = std::min(limit, rank.rows().size());
    for (std::size_t i = 0; i < n; ++i)
        out += csvRow(profile, rank.rows()[i], separator, delays);
    return out;
}

std::string RankFormatter::csvRows(const Profile& profile, const RankTable& rank, const std::vector<std::size_t>& rows,
                                   char separator, const SchedulingDelays* delays)
{
    delays = shownDelays(delays);
    std::string out = csvHeader(separator, profile.unit(), delays);
    for (const std::size_t i : rows) {
        if (i < rank.rows().size())
            out += csvRow(profile, rank.rows()[i], separator, delays);
    }
    return out;
}

std::string RankFormatter::json(const Profile& profile, const RankTable& rank, std::size_t limit,
                                const SchedulingDelays* delays)
{
    delays = shownDelays(delays);
    const ValueUnit unit = profile.unit();
    const std::string suffix = "_" + std::string(ValueFormat::key(unit));
    // Time in integer ns; other units may be fractional.
    auto value = [unit](Time t) -> nlohmann::json {
        if (unit == ValueUnit::Nanoseconds)
            return t;
        return ValueFormat::inUnits(t, unit);
    };
    nlohmann::json array = nlohmann::json::array();
    const std::size_t n = std::min(limit, rank.rows().size());
    for (std::size_t i = 0; i < n; ++i) {
        const RankRow& r = rank.rows()[i];
        const Label& label = profile.label(r.label);
        nlohmann::json row = {
            {"name", std::string(profile.labelName(r.label))},
            {"file", std::string(profile.string(label.file))},
            {"line", label.line},
            {"calls", r.calls},
            {"unfinished", r.unfinished},
            {"stillborn", r.stillborn},
            {"primitive", r.primitive},
            {"failed", r.failed},
            {"cancelled", r.cancelled},
            {"busy_share", r.busyShare},
        };
        const std::pair<const char*, Time> always[] = {{"exec", r.exec}, {"total", r.total}, {"wall", r.wall},
                                                       {"max", r.max}, {"mean", r.mean}};
        for (const auto& [key, t] : always)
            row[key + suffix] = value(t);
        const std::pair<const char*, Time> distribution[] = {{"p50", r.p50},        {"p90", r.p90},
                                                             {"p99", r.p99},        {"wall_max", r.wallMax},
                                                             {"wall_p50", r.wallP50}, {"wall_p90", r.wallP90},
                                                             {"wall_p99", r.wallP99}};
        for (const auto& [key, t] : distribution)
            row[key + suffix] = r.hasDistribution ? value(t) : nlohmann::json();
        if (r.zombieEvents > 0)
            row["zombie_events"] = r.zombieEvents;
        if (delays) {
            const DelayStats& d = delays->ofLabel(r.label);
            row["delays"] = d.count;
            const std::pair<const char*, Time> figures[] = {{"delay_sum", d.sum}, {"delay_max", d.max}, {"delay_p90", d.p90}};
            for (const auto& [key, t] : figures)
                row[key + suffix] = d.count > 0 ? value(t) : nlohmann::json();
        }
        array.push_back(std::move(row));
    }
    return array.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string RankFormatter::table(const Profile& profile, const RankTable& rank, std::size_t limit)
{
    const ValueUnit unit = profile.unit();
    const std::size_t n = std::min(limit, rank.rows().size());
    // Count columns that are zero in every row are left out.
    struct Column {
        const char* header;
        std::function<std::string(const RankRow&)> cell;
        bool optional = false;
    };
    auto value = [unit](Time t) { return ValueFormat::text(t, unit); };
    auto count = [](std::uint64_t c) { return std::to_string(c); };
    const std::vector<Column> all = {
        {"exec", [&](const RankRow& r) { return value(r.exec); }},
        {"busy", [](const RankRow& r) {
             char share[16];
             std::snprintf(share, sizeof share, "%.1f%%", r.busyShare * 100.0);
             return std::string(share);
         }},
        {"total", [&](const RankRow& r) { return value(r.total); }},
        {"wall", [&](const RankRow& r) { return value(r.wall); }},
        {"calls", [&](const RankRow& r) { return count(r.calls); }},
        {"unfin", [&](const RankRow& r) { return count(r.unfinished); }, true},
        {"stillb", [&](const RankRow& r) { return count(r.stillborn); }, true},
        {"prim", [&](const RankRow& r) { return count(r.primitive); }, true},
        {"failed", [&](const RankRow& r) { return count(r.failed); }, true},
        {"canc", [&](const RankRow& r) { return count(r.cancelled); }, true},
        {"zombie", [&](const RankRow& r) { return count(r.zombieEvents); }, true},
        {"max", [&](const RankRow& r) { return value(r.max); }},
        {"mean", [&](const RankRow& r) { return value(r.mean); }},
        {"p50", [&](const RankRow& r) { return r.hasDistribution ? value(r.p50) : std::string("n/a"); }},
        {"p90", [&](const RankRow& r) { return r.hasDistribution ? value(r.p90) : std::string("n/a"); }},
        {"p99", [&](const RankRow& r) { return r.hasDistribution ? value(r.p99) : std::string("n/a"); }},
    };
    std::vector<const Column*> columns;
    for (const Column& c : all) {
        bool used = !c.optional;
        for (std::size_t i = 0; i < n && !used; ++i)
            used = c.cell(rank.rows()[i]) != "0";
        if (used)
            columns.push_back(&c);
    }
    // Display width: "µ" is two bytes but one column.
    auto displayWidth = [](const std::string& text) {
        return std::size_t(std::count_if(text.begin(), text.end(), [](char ch) { return (ch & 0xc0) != 0x80; }));
    };
    std::vector<std::vector<std::string>> cells(n);
    std::vector<std::size_t> width;
    for (const Column* c : columns)
        width.push_back(std::char_traits<char>::length(c->header));
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t k = 0; k < columns.size(); ++k) {
            cells[i].push_back(columns[k]->cell(rank.rows()[i]));
            width[k] = std::max(width[k], displayWidth(cells[i].back()));
        }
    }
    std::string out;
    auto pad = [&](const std::string& text, std::size_t w) {
        out.append(w - std::min(w, displayWidth(text)), ' ');
        out += text;
        out += "  ";
    };
    for (std::size_t k = 0; k < columns.size(); ++k)
        pad(columns[k]->header, width[k]);
    out += "name\n";
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t k = 0; k < columns.size(); ++k)
            pad(cells[i][k], width[k]);
        out += profile.labelText(rank.rows()[i].label);
        out += '\n';
    }
    return out;
}

} // namespace runlane
