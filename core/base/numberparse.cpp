#include "numberparse.h"

#include <limits>

namespace runlane {

namespace {

constexpr std::uint64_t kMaxMagnitude = std::uint64_t(std::numeric_limits<std::int64_t>::max());

bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// mantissa * 10^exponent as a signed int64, rounding half away from zero.
ParseStatus compose(bool negative, std::uint64_t mantissa, long long exponent, std::int64_t& out)
{
    if (mantissa == 0) {
        out = 0;
        return ParseStatus::Ok;
    }
    const std::uint64_t limit = kMaxMagnitude + (negative ? 1 : 0);
    std::uint64_t magnitude = mantissa;
    if (exponent >= 0) {
        for (long long e = 0; e < exponent; ++e) {
            if (magnitude > limit / 10)
                return ParseStatus::Range;
            magnitude *= 10;
        }
    } else {
        // More than 19 fractional digits below the unit round to 0.
        if (exponent < -20) {
            out = 0;
            return ParseStatus::Ok;
        }
        std::uint64_t divisor = 1;
        bool divisorOverflow = false;
        for (long long e = 0; e < -exponent; ++e) {
            if (divisor > std::numeric_limits<std::uint64_t>::max() / 10) {
                divisorOverflow = true;
                break;
            }
            divisor *= 10;
        }
        if (divisorOverflow) {
            magnitude = 0; // mantissa < 2^64 < divisor / 2
        } else {
            const std::uint64_t quotient = magnitude / divisor;
            const std::uint64_t remainder = magnitude % divisor;
            magnitude = quotient + (remainder >= divisor - remainder ? 1 : 0);
        }
    }
    if (magnitude > limit)
        return ParseStatus::Range;
    out = negative ? std::int64_t(0 - magnitude) : std::int64_t(magnitude);
    return ParseStatus::Ok;
}

} // namespace

ParseStatus parseDecimal(std::string_view text, Decimal& out)
{
    std::size_t i = 0;
    std::size_t n = text.size();
    while (i < n && isBlank(text[i]))
        ++i;
    while (n > i && isBlank(text[n - 1]))
        --n;
    bool negative = false;
    if (i < n && (text[i] == '-' || text[i] == '+')) {
        negative = text[i] == '-';
        ++i;
    }
    std::uint64_t mantissa = 0;
    long long exponent = 0;
    bool anyDigit = false;
    auto takeDigit = [&](int digit, bool fractional) {
        anyDigit = true;
        if (mantissa <= (std::numeric_limits<std::uint64_t>::max() - 9) / 10) {
            mantissa = mantissa * 10 + std::uint64_t(digit);
            if (fractional)
                --exponent;
        } else if (!fractional) {
            // Beyond 19 significant digits: keep the magnitude, drop precision.
            ++exponent;
        }
    };
    while (i < n && text[i] >= '0' && text[i] <= '9')
        takeDigit(text[i++] - '0', false);
    if (i < n && text[i] == '.') {
        ++i;
        while (i < n && text[i] >= '0' && text[i] <= '9')
            takeDigit(text[i++] - '0', true);
    }
    if (!anyDigit)
        return ParseStatus::Syntax;
    if (i < n && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        bool expNegative = false;
        if (i < n && (text[i] == '-' || text[i] == '+')) {
            expNegative = text[i] == '-';
            ++i;
        }
        if (i >= n || text[i] < '0' || text[i] > '9')
            return ParseStatus::Syntax;
        long long e = 0;
        while (i < n && text[i] >= '0' && text[i] <= '9') {
            if (e < 100000)
                e = e * 10 + (text[i] - '0');
            ++i;
        }
        exponent += expNegative ? -e : e;
    }
    if (i != n)
        return ParseStatus::Syntax;
    if (exponent > 100000 || exponent < -100000)
        exponent = exponent > 0 ? 100000 : -100000;
    out.negative = negative;
    out.mantissa = mantissa;
    out.exponent = std::int32_t(exponent);
    return ParseStatus::Ok;
}

ParseStatus scaleDecimal(const Decimal& value, int scale, std::int64_t& out)
{
    return compose(value.negative, value.mantissa, (long long)value.exponent + scale, out);
}

ParseStatus parseScaledDecimal(std::string_view text, int scale, std::int64_t& out)
{
    Decimal value;
    const ParseStatus status = parseDecimal(text, value);
    return status == ParseStatus::Ok ? scaleDecimal(value, scale, out) : status;
}

bool parseShortScaledDecimal(std::string_view text, int scale, std::int64_t& out)
{
    const char* p = text.data();
    const char* const end = p + text.size();
    const bool negative = p < end && *p == '-';
    p += negative ? 1 : 0;
    const char* const digits = p;
    std::int64_t value = 0;
    // 15 digits and 3 scaled ones stay below 2^63: a 16th is not read (it
    // would overflow a longer number), and sends the text the general way.
    while (p < end && *p >= '0' && *p <= '9' && p - digits < 15)
        value = value * 10 + (*p++ - '0');
    const std::ptrdiff_t whole = p - digits;
    if (whole == 0 || (p < end && *p >= '0' && *p <= '9') || (*digits == '0' && whole > 1) || scale < 0 || scale > 3)
        return false;
    int fraction = 0;
    if (p < end && *p == '.') {
        ++p;
        while (p < end && *p >= '0' && *p <= '9' && fraction < scale) {
            value = value * 10 + (*p++ - '0');
            ++fraction;
        }
        if (fraction == 0)
            return false; // no digit after the point, or more than `scale`
    }
    if (p != end)
        return false; // an exponent, more digits than `scale`, or not a number
    for (; fraction < scale; ++fraction)
        value *= 10;
    out = negative ? -value : value;
    return true;
}

ParseStatus scaleInteger(std::int64_t value, int scale, std::int64_t& out)
{
    const bool negative = value < 0;
    const std::uint64_t magnitude = negative ? 0 - std::uint64_t(value) : std::uint64_t(value);
    return compose(negative, magnitude, scale, out);
}

ParseStatus scaleUnsigned(std::uint64_t value, int scale, std::int64_t& out)
{
    return compose(false, value, scale, out);
}

bool parseInteger(std::string_view text, std::int64_t& out)
{
    if (text.empty())
        return false;
    std::size_t i = 0;
    bool negative = false;
    if (text[0] == '-' || text[0] == '+') {
        negative = text[0] == '-';
        i = 1;
    }
    if (i == text.size())
        return false;
    std::uint64_t magnitude = 0;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c < '0' || c > '9')
            return false;
        if (magnitude > (kMaxMagnitude + 1) / 10)
            return false;
        magnitude = magnitude * 10 + std::uint64_t(c - '0');
    }
    if (magnitude > kMaxMagnitude + (negative ? 1 : 0))
        return false;
    out = negative ? std::int64_t(0 - magnitude) : std::int64_t(magnitude);
    return true;
}

} // namespace runlane
