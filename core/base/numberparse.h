#pragma once

#include <cstdint>
#include <string_view>

namespace runlane {

enum class ParseStatus { Ok, Syntax, Range };

// Parses a JSON-style decimal number ("-12.345e2") exactly and scales it by
// 10^scale, rounding half away from zero: parseScaledDecimal("1.0015", 3)
// gives 1002. Going through double would lose sub-microsecond digits of large
// timestamps (a µs epoch time has 16 digits before the point), so the digits
// are accumulated as integers. Leading and trailing blanks are allowed.
ParseStatus parseScaledDecimal(std::string_view text, int scale, std::int64_t& out);

// The common case of parseScaledDecimal in one pass: a JSON number with no
// exponent, at most 15 digits before the point and at most `scale` after it
// (0 <= scale <= 3), as in "1000014.509" with scale 3. True, and `out` what
// parseScaledDecimal gives, for such a text, which is valid JSON (no blank,
// no '+', no leading zero); false for anything else, which the caller then
// reads the general way. A Chrome load reads two times per event.
bool parseShortScaledDecimal(std::string_view text, int scale, std::int64_t& out);

// A parsed decimal, kept exact until its scale is known (speedscope gives a
// profile's unit after its values).
struct Decimal {
    bool negative = false;
    std::uint64_t mantissa = 0;
    std::int32_t exponent = 0;
};
ParseStatus parseDecimal(std::string_view text, Decimal& out);
ParseStatus scaleDecimal(const Decimal& value, int scale, std::int64_t& out);

// value * 10^scale, exact, or Range when it does not fit.
ParseStatus scaleInteger(std::int64_t value, int scale, std::int64_t& out);
ParseStatus scaleUnsigned(std::uint64_t value, int scale, std::int64_t& out);

// A whole decimal integer, optionally signed, nothing else.
bool parseInteger(std::string_view text, std::int64_t& out);

} // namespace runlane
