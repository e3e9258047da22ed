#pragma once

#include "profiletypes.h"

#include <string>
#include <string_view>

namespace runlane {

// Profile values in the profile's unit: durations for time, counts for
// samples, sizes for bytes (see ValueUnit and kTicksPerUnit).
class ValueFormat
{
public:
    // "12.3 ms", "1.50 k samples", "4.00 MB", "2.5".
    static std::string text(Time value, ValueUnit unit);
    // A position on the axis from the profile's start: TimeFormat::point
    // for time, text() otherwise.
    static std::string point(Time value, ValueUnit unit);
    // The unit as a key suffix for CSV and JSON: "ns", "samples", "bytes", "units".
    static std::string_view key(ValueUnit unit);
    // The unit a key() names; nanoseconds for anything else (a history's
    // runs store their unit as its key).
    static ValueUnit unitOfKey(std::string_view key);
    // The value in whole units of the key (ns, samples, ...), exact for time.
    static double inUnits(Time value, ValueUnit unit);
    // The value as it is written in CSV and JSON: an integer for time,
    // a decimal with up to three digits after the point otherwise.
    static std::string plain(Time value, ValueUnit unit);
};

} // namespace runlane
