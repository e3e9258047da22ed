#include "timeformat.h"

#include "numberparse.h"

#include <cstdio>
#include <cstdlib>

namespace runlane {

namespace {

std::string format(Time ns, const char* micro)
{
    const bool negative = ns < 0;
    const double magnitude = negative ? -double(ns) : double(ns);
    const char* unit = "ns";
    double value = magnitude;
    if (magnitude >= 1e9) {
        value = magnitude / 1e9;
        unit = "s";
    } else if (magnitude >= 1e6) {
        value = magnitude / 1e6;
        unit = "ms";
    } else if (magnitude >= 1e3) {
        value = magnitude / 1e3;
        unit = micro;
    }
    char buffer[64];
    if (unit[0] == 'n' && unit[1] == 's')
        std::snprintf(buffer, sizeof buffer, "%s%.0f ns", negative ? "-" : "", value);
    else if (value >= 99.95)
        std::snprintf(buffer, sizeof buffer, "%s%.0f %s", negative ? "-" : "", value, unit);
    else if (value >= 9.995)
        std::snprintf(buffer, sizeof buffer, "%s%.1f %s", negative ? "-" : "", value, unit);
    else
        std::snprintf(buffer, sizeof buffer, "%s%.2f %s", negative ? "-" : "", value, unit);
    return buffer;
}

} // namespace

std::string TimeFormat::duration(Time ns)
{
    return format(ns, "\xc2\xb5s");
}

std::string TimeFormat::point(Time ns)
{
    // Integer arithmetic: no rounding drift at large offsets.
    const bool negative = ns < 0;
    const std::uint64_t v = negative ? 0 - std::uint64_t(ns) : std::uint64_t(ns);
    std::string text = negative ? "-" : "";
    auto fixed = [&text](std::uint64_t whole, std::uint64_t fraction, int digits, const char* unit) {
        std::string f = std::to_string(fraction);
        text += std::to_string(whole) + "." + std::string(std::size_t(digits) - f.size(), '0') + f + unit;
        return text;
    };
    if (v < 1'000)
        return text + std::to_string(v) + " ns";
    if (v < 1'000'000)
        return fixed(v / 1'000, v % 1'000, 3, " \xc2\xb5s");
    if (v < 1'000'000'000)
        return fixed(v / 1'000'000, v % 1'000'000 / 1'000, 3, " ms");
    return fixed(v / 1'000'000'000, v % 1'000'000'000 / 1'000, 6, " s");
}

Time TimeFormat::niceStep(double atLeast)
{
    // Doubles, so that a wish beyond 2^63 (a span of centuries on a narrow
    // view) neither overflows nor loops: 5e18 is the last 1-2-5 step.
    constexpr Time kLargest = 5'000'000'000'000'000'000;
    for (Time power = 1;; power *= 10) {
        for (const Time m : {1, 2, 5}) {
            if (double(power * m) >= atLeast || power * m == kLargest)
                return power * m;
        }
    }
}

std::string TimeFormat::milliseconds(Time ns)
{
    const bool negative = ns < 0;
    const std::uint64_t v = negative ? std::uint64_t(0) - std::uint64_t(ns) : std::uint64_t(ns);
    std::string text = (negative ? "-" : "") + std::to_string(v / 1000000);
    std::string fraction = std::to_string(v % 1000000);
    fraction.insert(0, 6 - fraction.size(), '0');
    while (!fraction.empty() && fraction.back() == '0')
        fraction.pop_back();
    return fraction.empty() ? text : text + "." + fraction;
}

std::string TimeFormat::durationAscii(Time ns)
{
    return format(ns, "us");
}

ParseStatus TimeFormat::parseDuration(std::string_view text, Time& out)
{
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ')
        text.remove_suffix(1);
    std::size_t unitAt = text.size();
    while (unitAt > 0 && ((text[unitAt - 1] >= 'a' && text[unitAt - 1] <= 'z') || static_cast<unsigned char>(text[unitAt - 1]) >= 0x80))
        --unitAt;
    std::string_view number = text.substr(0, unitAt);
    const std::string_view unit = text.substr(unitAt);
    while (!number.empty() && number.back() == ' ')
        number.remove_suffix(1);
    int scale = 0;
    if (unit == "ns")
        scale = 0;
    else if (unit == "us" || unit == "\xc2\xb5s" || unit == "\xce\xbcs")
        scale = 3;
    else if (unit == "ms")
        scale = 6;
    else if (unit == "s")
        scale = 9;
    else if (unit.empty())
        scale = -1;
    else
        return ParseStatus::Syntax;
    Time value = 0;
    if (const ParseStatus status = parseScaledDecimal(number, scale < 0 ? 0 : scale, value); status != ParseStatus::Ok)
        return status;
    if (scale < 0 && value != 0)
        return ParseStatus::Syntax; // a bare number is ambiguous
    out = value;
    return ParseStatus::Ok;
}

} // namespace runlane
