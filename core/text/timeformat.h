#pragma once

#include "numberparse.h"

#include "profiletypes.h"

#include <string>
#include <string_view>

namespace runlane {

// Durations as people read and type them: "12.3 ms", "250us", "1.5s".
class TimeFormat
{
public:
    // Adaptive unit (ns, µs, ms, s), three significant digits: "12.3 ms".
    static std::string duration(Time ns);
    // A point in time (an offset from the profile's start) precise enough
    // to tell events apart when zoomed in: ns below 1 µs, then 3 decimals
    // of µs or ms, and 6 decimals of s: "25.056312 s", "812.004 µs".
    static std::string point(Time ns);
    // ASCII units ("us" for µs), for CSV headers and terminals that need it.
    static std::string durationAscii(Time ns);
    // Milliseconds with every digit a time in ns holds and no more, for
    // CSV and JSON: "12.5", "0", "0.000001", "-3".
    static std::string milliseconds(Time ns);
    // "10ms", "1.5 s", "250us", "250µs", "100ns", "0". A unit is required
    // for anything but 0. Syntax for malformed text, Range for a duration
    // beyond what a Time holds (about ±292 years).
    static ParseStatus parseDuration(std::string_view text, Time& out);
    // The smallest of 1, 2, 5 × 10^k ns that is at least `atLeast` (a tick
    // or bin width), 1 at least and 5e18 at most: every multiple up to a
    // profile's whole span (under 2^63 ns) stays representable.
    static Time niceStep(double atLeast);
};

} // namespace runlane
