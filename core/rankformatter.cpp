#include "rankformatter.h"

#include "timeformat.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

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

std::string csvHeader(char s)
{
    std::string h;
    for (const char* column : {"name", "file", "line", "calls", "unfinished", "stillborn", "exec_ns", "total_ns",
                               "wall_ns", "max_ns", "mean_ns", "p50_ns", "p90_ns", "p99_ns", "wall_max_ns",
                               "wall_p50_ns", "wall_p90_ns", "wall_p99_ns", "busy_share"}) {
        if (!h.empty())
            h += s;
        h += column;
    }
    return h + "\n";
}

std::string csvRow(const Profile& profile, const RankRow& r, char s)
{
    const Label& label = profile.label(r.label);
    std::string line = csvField(profile.string(label.name), s);
    line += s + csvField(profile.string(label.file), s);
    line += s + (label.line > 0 ? std::to_string(label.line) : std::string());
    for (const std::uint64_t n : {r.calls, r.unfinished, r.stillborn})
        line += s + std::to_string(n);
    for (const Time t : {r.exec, r.total, r.wall, r.max, r.mean, r.p50, r.p90, r.p99, r.wallMax, r.wallP50,
                         r.wallP90, r.wallP99})
        line += s + std::to_string(t);
    line += s + shareText(r.busyShare);
    return line + "\n";
}

} // namespace

std::string RankFormatter::csv(const Profile& profile, const RankTable& rank, char separator, std::size_t limit)
{
    std::string out = csvHeader(separator);
    const std::size_t n = std::min(limit, rank.rows().size());
    for (std::size_t i = 0; i < n; ++i)
        out += csvRow(profile, rank.rows()[i], separator);
    return out;
}

std::string RankFormatter::csvRows(const Profile& profile, const RankTable& rank, const std::vector<std::size_t>& rows,
                                   char separator)
{
    std::string out = csvHeader(separator);
    for (const std::size_t i : rows) {
        if (i < rank.rows().size())
            out += csvRow(profile, rank.rows()[i], separator);
    }
    return out;
}

std::string RankFormatter::json(const Profile& profile, const RankTable& rank, std::size_t limit)
{
    nlohmann::json array = nlohmann::json::array();
    const std::size_t n = std::min(limit, rank.rows().size());
    for (std::size_t i = 0; i < n; ++i) {
        const RankRow& r = rank.rows()[i];
        const Label& label = profile.label(r.label);
        array.push_back({
            {"name", std::string(profile.string(label.name))},
            {"file", std::string(profile.string(label.file))},
            {"line", label.line},
            {"calls", r.calls},
            {"unfinished", r.unfinished},
            {"stillborn", r.stillborn},
            {"exec_ns", r.exec},
            {"total_ns", r.total},
            {"wall_ns", r.wall},
            {"max_ns", r.max},
            {"mean_ns", r.mean},
            {"p50_ns", r.p50},
            {"p90_ns", r.p90},
            {"p99_ns", r.p99},
            {"wall_max_ns", r.wallMax},
            {"wall_p50_ns", r.wallP50},
            {"wall_p90_ns", r.wallP90},
            {"wall_p99_ns", r.wallP99},
            {"busy_share", r.busyShare},
        });
    }
    return array.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string RankFormatter::table(const Profile& profile, const RankTable& rank, std::size_t limit)
{
    static constexpr const char* headers[] = {"exec", "busy", "total", "wall", "calls", "unfin", "stillb",
                                              "max", "mean", "p50", "p90", "p99"};
    constexpr std::size_t columns = std::size(headers);
    const std::size_t n = std::min(limit, rank.rows().size());
    std::vector<std::array<std::string, columns>> cells(n);
    std::array<std::size_t, columns> width{};
    for (std::size_t c = 0; c < columns; ++c)
        width[c] = std::char_traits<char>::length(headers[c]);
    // Display width: "µ" is two bytes but one column.
    auto displayWidth = [](const std::string& s) {
        return std::size_t(std::count_if(s.begin(), s.end(), [](char ch) { return (ch & 0xc0) != 0x80; }));
    };
    for (std::size_t i = 0; i < n; ++i) {
        const RankRow& r = rank.rows()[i];
        char share[16];
        std::snprintf(share, sizeof share, "%.1f%%", r.busyShare * 100.0);
        cells[i] = {TimeFormat::duration(r.exec), share, TimeFormat::duration(r.total), TimeFormat::duration(r.wall),
                    std::to_string(r.calls), std::to_string(r.unfinished), std::to_string(r.stillborn),
                    TimeFormat::duration(r.max), TimeFormat::duration(r.mean), TimeFormat::duration(r.p50),
                    TimeFormat::duration(r.p90), TimeFormat::duration(r.p99)};
        for (std::size_t c = 0; c < columns; ++c)
            width[c] = std::max(width[c], displayWidth(cells[i][c]));
    }
    std::string out;
    auto pad = [&](const std::string& text, std::size_t w) {
        out.append(w - std::min(w, displayWidth(text)), ' ');
        out += text;
        out += "  ";
    };
    for (std::size_t c = 0; c < columns; ++c)
        pad(headers[c], width[c]);
    out += "name\n";
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t c = 0; c < columns; ++c)
            pad(cells[i][c], width[c]);
        out += profile.labelText(rank.rows()[i].label);
        out += '\n';
    }
    return out;
}

} // namespace runlane
