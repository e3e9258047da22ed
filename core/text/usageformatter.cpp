#include "usageformatter.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace runlane {

namespace {

std::string csvQuote(std::string_view text)
{
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}

std::string seriesName(const Profile& profile, const UsageSeries& s, std::size_t k)
{
    return k < s.labels().size() ? profile.labelText(s.labels()[k]) : UsageFormatter::kOtherName;
}

} // namespace

std::string UsageFormatter::csv(const Profile& profile, const std::vector<UsageSeries>& all)
{
    std::string out = "track,bin_start_ns,bin_end_ns,series,share\n";
    char share[32];
    for (const UsageSeries& s : all) {
        const std::string track = csvQuote(profile.string(profile.track(s.track()).name));
        std::vector<std::string> names;
        for (std::size_t k = 0; k < s.seriesCount(); ++k)
            names.push_back(csvQuote(seriesName(profile, s, k)));
        for (std::size_t b = 0; b < s.binCount(); ++b) {
            // The part of the bin its shares are of: the last one ends
            // where the range or the profile does.
            const TimeRange part = s.binPart(b);
            const std::string prefix = track + "," + std::to_string(part.from - profile.startTime()) + ","
                + std::to_string(part.to - profile.startTime()) + ",";
            for (std::size_t k = 0; k < s.seriesCount(); ++k) {
                std::snprintf(share, sizeof share, "%.6f", s.share(b, k));
                out += prefix + names[k] + "," + share + "\n";
            }
        }
    }
    return out;
}

std::string UsageFormatter::json(const Profile& profile, const std::vector<UsageSeries>& all)
{
    nlohmann::json tracks = nlohmann::json::array();
    for (const UsageSeries& s : all) {
        nlohmann::json names = nlohmann::json::array();
        for (std::size_t k = 0; k < s.seriesCount(); ++k)
            names.push_back(seriesName(profile, s, k));
        nlohmann::json busy = nlohmann::json::array();
        nlohmann::json shares = nlohmann::json::array();
        for (std::size_t b = 0; b < s.binCount(); ++b) {
            busy.push_back(s.busy(b));
            nlohmann::json row = nlohmann::json::array();
            for (std::size_t k = 0; k < s.seriesCount(); ++k)
                row.push_back(s.share(b, k));
            shares.push_back(std::move(row));
        }
        tracks.push_back({{"track", std::string(profile.string(profile.track(s.track()).name))},
                          {"start_ns", s.start() - profile.startTime()},
                          {"bin_ns", s.binWidth()},
                          {"end_ns", s.counted().to - profile.startTime()},
                          {"series", std::move(names)},
                          {"busy", std::move(busy)},
                          {"shares", std::move(shares)}});
    }
    return tracks.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace runlane
