#include "ensomessageline.h"

#include "diagnostics.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <vector>

namespace runlane {

namespace {

// Reads `count` digits at `pos` into `value`; false if any is not a digit.
bool digits(std::string_view text, std::size_t& pos, std::size_t count, int& value)
{
    if (text.size() < pos + count)
        return false;
    value = 0;
    for (std::size_t k = 0; k < count; ++k, ++pos) {
        const char c = text[pos];
        if (c < '0' || c > '9')
            return false;
        value = value * 10 + (c - '0');
    }
    return true;
}

bool expect(std::string_view text, std::size_t& pos, char c)
{
    if (pos >= text.size() || text[pos] != c)
        return false;
    ++pos;
    return true;
}

// The CSV fields of one record: quoted fields hold commas and doubled
// quotes; text after a closing quote is kept, as the csv crate does.
std::vector<std::string> splitFields(std::string_view line)
{
    std::vector<std::string> fields(1);
    bool quoted = false;
    bool atStart = true;
    for (std::size_t k = 0; k < line.size(); ++k) {
        const char c = line[k];
        if (quoted) {
            if (c != '"')
                fields.back() += c;
            else if (k + 1 < line.size() && line[k + 1] == '"')
                fields.back() += line[++k];
            else
                quoted = false;
        } else if (c == ',') {
            fields.emplace_back();
            atStart = true;
            continue;
        } else if (c == '"' && atStart) {
            quoted = true;
        } else {
            fields.back() += c;
        }
        atStart = false;
    }
    return fields;
}

} // namespace

bool EnsoMessageLine::parseTimestamp(std::string_view text, std::uint64_t& micros)
{
    std::size_t pos = 0;
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (!digits(text, pos, 4, year) || !expect(text, pos, '-') || !digits(text, pos, 2, month)
        || !expect(text, pos, '-') || !digits(text, pos, 2, day))
        return false;
    if (pos >= text.size() || (text[pos] != 'T' && text[pos] != 't' && text[pos] != ' '))
        return false;
    ++pos;
    if (!digits(text, pos, 2, hour) || !expect(text, pos, ':') || !digits(text, pos, 2, minute)
        || !expect(text, pos, ':') || !digits(text, pos, 2, second))
        return false;
    const std::chrono::year_month_day date{std::chrono::year(year), std::chrono::month(unsigned(month)),
                                           std::chrono::day(unsigned(day))};
    if (!date.ok() || hour > 23 || minute > 59 || second > 59)
        return false;
    std::uint64_t fraction = 0; // µs; digits past the sixth are dropped
    if (pos < text.size() && text[pos] == '.') {
        ++pos;
        std::size_t count = 0;
        for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos, ++count) {
            if (count < 6)
                fraction = fraction * 10 + std::uint64_t(text[pos] - '0');
        }
        if (count == 0)
            return false;
        for (; count < 6; ++count)
            fraction *= 10;
    }
    std::int64_t offset = 0; // seconds east of UTC
    if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
        ++pos;
    } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
        const bool east = text[pos++] == '+';
        int hours = 0, minutes = 0;
        if (!digits(text, pos, 2, hours))
            return false;
        if (pos < text.size() && text[pos] == ':')
            ++pos;
        if (!digits(text, pos, 2, minutes) || hours > 23 || minutes > 59)
            return false;
        offset = (east ? 1 : -1) * std::int64_t(hours * 3600 + minutes * 60);
    } else {
        return false; // a DateTime<Utc> needs its offset
    }
    if (pos != text.size())
        return false;
    const std::int64_t days = std::chrono::sys_days(date).time_since_epoch().count();
    const std::int64_t seconds = days * 86400 + hour * 3600 + minute * 60 + second - offset;
    if (seconds < 0)
        return false;
    micros = std::uint64_t(seconds) * 1'000'000 + fraction;
    return true;
}

bool EnsoMessageLine::parse(std::string_view line, EnsoMessage& out, Error& error)
{
    const std::vector<std::string> fields = splitFields(line);
    if (fields.size() != 4) {
        error = {Problem::FieldCount, std::to_string(fields.size())
                                          + (fields.size() == 1 ? " field" : " fields")
                                          + ", expected 4 (timestamp,direction,request_id,endpoint)"};
        return false;
    }
    if (!parseTimestamp(fields[0], out.micros)) {
        error = {Problem::Timestamp, "bad timestamp " + Diagnostics::quoted(fields[0])
                                         + ", expected UTC date and time such as 2022-04-25T15:32:21.301300Z"};
        return false;
    }
    if (fields[1] != "Request" && fields[1] != "Response") {
        error = {Problem::Direction, "unknown direction " + Diagnostics::quoted(fields[1]) + ", expected Request or Response"};
        return false;
    }
    out.request = fields[1] == "Request";
    if (fields[2].empty())
        out.requestId.reset();
    else
        out.requestId = fields[2];
    out.endpoint = fields[3];
    error = {};
    return true;
}

std::string EnsoMessageLine::payloadJson(const EnsoMessage& message)
{
    // Bytes that are not UTF-8 become U+FFFD: the payload is JSON text.
    const auto text = [](const std::string& s) {
        return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    };
    std::string json = R"({"direction":")";
    json += message.request ? "Request" : "Response";
    json += R"(","request_id":)";
    json += message.requestId ? text(*message.requestId) : std::string("null");
    json += R"(,"endpoint":)";
    json += text(message.endpoint);
    json += '}';
    return json;
}

} // namespace runlane
