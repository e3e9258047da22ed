#include "valueformat.h"

#include "timeformat.h"

#include <cstdio>

namespace runlane {

namespace {

// Three significant digits with a k/M/G prefix: 1234567 -> "1.23 M".
std::string scaled(double value, const char* const* prefixes, double step)
{
    const bool negative = value < 0;
    double v = negative ? -value : value;
    int p = 0;
    while (v >= step * 0.9995 && prefixes[p + 1] != nullptr) {
        v /= step;
        ++p;
    }
    char buffer[64];
    // Whole counts below 1000 print as they are: "12", not "12.0".
    const bool whole = p == 0 && v == double(static_cast<long long>(v));
    const char* format = v >= 99.95 || whole ? "%s%.0f%s" : v >= 9.995 ? "%s%.1f%s" : "%s%.2f%s";
    std::snprintf(buffer, sizeof buffer, format, negative ? "-" : "", v, prefixes[p]);
    return buffer;
}

} // namespace

std::string ValueFormat::point(Time value, ValueUnit unit)
{
    return unit == ValueUnit::Nanoseconds ? TimeFormat::point(value) : text(value, unit);
}

std::string ValueFormat::text(Time value, ValueUnit unit)
{
    static const char* const counts[] = {"", " k", " M", " G", " T", nullptr};
    static const char* const sizes[] = {" B", " kB", " MB", " GB", " TB", nullptr};
    const double units = inUnits(value, unit);
    switch (unit) {
    case ValueUnit::Nanoseconds:
        return TimeFormat::duration(value);
    case ValueUnit::Samples:
        return scaled(units, counts, 1000.0) + (units == 1.0 ? " sample" : " samples");
    case ValueUnit::Bytes:
        return scaled(units, sizes, 1000.0);
    case ValueUnit::None:
        break;
    }
    return scaled(units, counts, 1000.0);
}

std::string_view ValueFormat::key(ValueUnit unit)
{
    switch (unit) {
    case ValueUnit::Nanoseconds:
        return "ns";
    case ValueUnit::Samples:
        return "samples";
    case ValueUnit::Bytes:
        return "bytes";
    case ValueUnit::None:
        break;
    }
    return "units";
}

ValueUnit ValueFormat::unitOfKey(std::string_view text)
{
    for (const ValueUnit unit : {ValueUnit::Nanoseconds, ValueUnit::Samples, ValueUnit::Bytes, ValueUnit::None}) {
        if (key(unit) == text)
            return unit;
    }
    return ValueUnit::Nanoseconds;
}

double ValueFormat::inUnits(Time value, ValueUnit unit)
{
    return unit == ValueUnit::Nanoseconds ? double(value) : double(value) / double(kTicksPerUnit);
}

std::string ValueFormat::plain(Time value, ValueUnit unit)
{
    if (unit == ValueUnit::Nanoseconds)
        return std::to_string(value);
    std::string text = value < 0 ? "-" : "";
    const std::uint64_t magnitude = value < 0 ? 0 - std::uint64_t(value) : std::uint64_t(value);
    text += std::to_string(magnitude / kTicksPerUnit);
    unsigned frac = unsigned(magnitude % kTicksPerUnit);
    if (frac != 0) {
        text += '.';
        for (unsigned divisor = kTicksPerUnit / 10; frac != 0; divisor /= 10) {
            text += char('0' + frac / divisor);
            frac %= divisor;
        }
    }
    return text;
}

} // namespace runlane
