#pragma once

#include "processmessages.h"

#include <string>

namespace runlane {

// Messages between processes (ProcessMessages) as text: a table for
// people, CSV, JSON, and a beanpole diagram in SVG like Enso's
// message_beanpoles (formats.md (n)). Times are from the profile's start,
// in ms.
class MessagesFormatter
{
public:
    // The messages in time order, then the round trips per endpoint and the
    // warnings.
    static std::string table(const ProcessMessages& messages, Time origin);
    // A row per message: time_ms,arrival_ms,from,to,kind,name,request_id,
    // round_trip_ms (on a request answered, and its response).
    static std::string csv(const ProcessMessages& messages, Time origin);
    // {"processes", "messages", "round_trips", "warnings"}.
    static std::string json(const ProcessMessages& messages, Time origin);
    // Poles side by side, time down the page at 1 ms per unit, a grid line
    // every 100 ms, an arrow per message labelled by its name, a request
    // and its response joined by a bracket with the round trip.
    // Messages spanning more than kMaxSvgSpan from `origin` would make a
    // page of millions of units: the caller says so instead (svgSpan).
    static std::string svg(const ProcessMessages& messages, Time origin);
    static constexpr Time kMaxSvgSpan = Time(600) * 1'000'000'000; // 10 min
    // From `origin` to the last message's arrival.
    static Time svgSpan(const ProcessMessages& messages, Time origin);

    static std::string_view kindName(ProcessMessages::Kind kind);
};

} // namespace runlane
