#include "messagesformatter.h"

#include "compareformatter.h"
#include "timeformat.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace runlane {

namespace {

using Message = ProcessMessages::Message;

std::string quoted(const std::string& text)
{
    return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string xml(const std::string& text)
{
    std::string out;
    for (const char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += c;
        }
    }
    return out;
}

// A coordinate of the diagram: at most three decimals, no trailing zeros.
std::string number(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", v);
    std::string s = text;
    while (s.back() == '0')
        s.pop_back();
    if (s.back() == '.')
        s.pop_back();
    return s == "-0" ? "0" : s;
}

// The round trip of a paired request or response; none otherwise.
bool roundTrip(const ProcessMessages& m, const Message& x, Time& out)
{
    if (x.pairedWith == kNone)
        return false;
    const Message& other = m.messages()[x.pairedWith];
    out = x.kind == ProcessMessages::Kind::Request ? other.time - x.time : x.time - other.time;
    return true;
}

} // namespace

std::string_view MessagesFormatter::kindName(ProcessMessages::Kind kind)
{
    switch (kind) {
    case ProcessMessages::Kind::Request:
        return "request";
    case ProcessMessages::Kind::Response:
        return "response";
    case ProcessMessages::Kind::Notification:
        return "notification";
    case ProcessMessages::Kind::Flow:
        return "flow";
    }
    return "";
}

std::string MessagesFormatter::table(const ProcessMessages& m, Time origin)
{
    using F = CompareFormatter;
    std::string out = std::to_string(m.messages().size()) + (m.messages().size() == 1 ? " message" : " messages")
        + " between " + std::to_string(m.processes().size()) + " processes";
    for (std::size_t k = 0; k < m.processes().size(); ++k)
        out += (k ? ", " : " (") + m.processes()[k] + (k + 1 == m.processes().size() ? ")" : "");
    out += "\n";
    if (!m.messages().empty()) {
        std::size_t width = 14;
        for (const std::string& p : m.processes())
            width = std::max(width, p.size() + 2);
        out += "\n" + F::pad("time ms", 12, true) + "  " + F::pad("from", width) + F::pad("to", width)
            + F::pad("kind", 14) + F::pad("request", 9) + F::pad("round trip ms", 15) + "name\n";
        for (const Message& x : m.messages()) {
            Time trip = 0;
            out += F::pad(TimeFormat::milliseconds(x.time - origin), 12, true) + "  " + F::pad(m.processes()[x.from], width)
                + F::pad(m.processes()[x.to], width) + F::pad(std::string(kindName(x.kind)), 14)
                + F::pad(x.requestId, 9) + F::pad(roundTrip(m, x, trip) ? TimeFormat::milliseconds(trip) : "", 15)
                + x.name + "\n";
        }
    }
    out += "\nRound trips (a request and the response with its request_id), ms:\n";
    if (m.roundTrips().empty()) {
        out += "none: no request with a request_id\n";
    } else {
        std::size_t width = 10;
        for (const ProcessMessages::RoundTrips& r : m.roundTrips())
            width = std::max(width, r.endpoint.size() + 2);
        out += F::pad("endpoint", width) + F::pad("requests", 9, true) + F::pad("answered", 10, true)
            + F::pad("unanswered", 12, true) + F::pad("p50", 12, true) + F::pad("p90", 12, true)
            + F::pad("max", 12, true) + "\n";
        for (const ProcessMessages::RoundTrips& r : m.roundTrips()) {
            const bool any = r.answered > 0;
            out += F::pad(r.endpoint, width) + F::pad(std::to_string(r.requests), 9, true)
                + F::pad(std::to_string(r.answered), 10, true) + F::pad(std::to_string(r.unanswered()), 12, true)
                + F::pad(any ? TimeFormat::milliseconds(r.p50) : "-", 12, true)
                + F::pad(any ? TimeFormat::milliseconds(r.p90) : "-", 12, true)
                + F::pad(any ? TimeFormat::milliseconds(r.max) : "-", 12, true) + "\n";
        }
    }
    if (!m.warnings().empty()) {
        out += "\n" + std::to_string(m.warnings().size()) + (m.warnings().size() == 1 ? " warning" : " warnings") + ":\n";
        for (const std::string& w : m.warnings())
            out += "  " + w + "\n";
    }
    return out;
}

std::string MessagesFormatter::csv(const ProcessMessages& m, Time origin)
{
    std::string out = "time_ms,arrival_ms,from,to,kind,name,request_id,round_trip_ms\n";
    for (const Message& x : m.messages()) {
        Time trip = 0;
        out += TimeFormat::milliseconds(x.time - origin) + "," + TimeFormat::milliseconds(x.arrival - origin) + ","
            + CompareFormatter::csvField(m.processes()[x.from]) + "," + CompareFormatter::csvField(m.processes()[x.to])
            + "," + std::string(kindName(x.kind)) + "," + CompareFormatter::csvField(x.name) + ","
            + CompareFormatter::csvField(x.requestId) + "," + (roundTrip(m, x, trip) ? TimeFormat::milliseconds(trip) : "")
            + "\n";
    }
    return out;
}

std::string MessagesFormatter::json(const ProcessMessages& m, Time origin)
{
    std::string out = "{\"processes\":[";
    for (std::size_t k = 0; k < m.processes().size(); ++k)
        out += (k ? "," : "") + quoted(m.processes()[k]);
    out += "],\n\"messages\":[";
    for (std::size_t k = 0; k < m.messages().size(); ++k) {
        const Message& x = m.messages()[k];
        Time trip = 0;
        out += std::string(k ? ",\n" : "\n") + "{\"time_ms\":" + TimeFormat::milliseconds(x.time - origin)
            + ",\"arrival_ms\":" + TimeFormat::milliseconds(x.arrival - origin) + ",\"from\":"
            + quoted(m.processes()[x.from]) + ",\"to\":" + quoted(m.processes()[x.to]) + ",\"kind\":\""
            + std::string(kindName(x.kind)) + "\",\"name\":" + quoted(x.name);
        if (!x.requestId.empty())
            out += ",\"request_id\":" + quoted(x.requestId);
        if (roundTrip(m, x, trip))
            out += ",\"round_trip_ms\":" + TimeFormat::milliseconds(trip);
        out += "}";
    }
    out += "],\n\"round_trips\":[";
    for (std::size_t k = 0; k < m.roundTrips().size(); ++k) {
        const ProcessMessages::RoundTrips& r = m.roundTrips()[k];
        out += std::string(k ? ",\n" : "\n") + "{\"endpoint\":" + quoted(r.endpoint)
            + ",\"requests\":" + std::to_string(r.requests) + ",\"answered\":" + std::to_string(r.answered)
            + ",\"unanswered\":" + std::to_string(r.unanswered());
        if (r.answered > 0)
            out += ",\"p50_ms\":" + TimeFormat::milliseconds(r.p50) + ",\"p90_ms\":" + TimeFormat::milliseconds(r.p90)
                + ",\"max_ms\":" + TimeFormat::milliseconds(r.max);
        out += "}";
    }
    out += "],\n\"warnings\":[";
    for (std::size_t k = 0; k < m.warnings().size(); ++k)
        out += (k ? ",\n" : "\n") + quoted(m.warnings()[k]);
    return out + "]}\n";
}

Time MessagesFormatter::svgSpan(const ProcessMessages& m, Time origin)
{
    Time last = origin;
    for (const Message& x : m.messages())
        last = std::max({last, x.time, x.arrival});
    return last - origin;
}

std::string MessagesFormatter::svg(const ProcessMessages& m, Time origin)
{
    // 1 unit per ms down the page, below a band for the poles' names.
    constexpr double kTop = 40;
    constexpr double kPoleGap = 220;
    constexpr double kLeft = 110;
    auto y = [&](Time t) { return kTop + double(t - origin) / 1e6; };
    const Time last = origin + std::min(svgSpan(m, origin), kMaxSvgSpan);
    const double width = kLeft * 2 + kPoleGap * double(std::max<std::size_t>(m.processes().size(), 1) - 1);
    const double height = y(last) + 40;
    auto poleX = [&](std::uint32_t p) { return kLeft + kPoleGap * double(p); };
    std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + number(width) + "\" height=\""
        + number(height) + "\" viewBox=\"0 0 " + number(width) + " " + number(height) + "\">\n"
        + "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\" "
          "markerHeight=\"8\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"#333\"/>"
          "</marker></defs>\n"
        + "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        + "<g font-family=\"sans-serif\" font-size=\"11\">\n";
    // A grid line every 100 ms, labelled at the left.
    for (Time t = 0; t <= last - origin; t += 100'000'000) {
        const std::string gy = number(y(origin + t));
        out += "<line x1=\"0\" y1=\"" + gy + "\" x2=\"" + number(width) + "\" y2=\"" + gy
            + "\" stroke=\"#ddd\"/><text x=\"4\" y=\"" + number(y(origin + t) - 3) + "\" fill=\"#888\">"
            + std::to_string(t / 1'000'000) + " ms</text>\n";
    }
    for (std::uint32_t p = 0; p < m.processes().size(); ++p) {
        const std::string px = number(poleX(p));
        out += "<line class=\"pole\" x1=\"" + px + "\" y1=\"" + number(kTop) + "\" x2=\"" + px + "\" y2=\""
            + number(height - 20) + "\" stroke=\"#555\" stroke-width=\"3\"/><text x=\"" + px
            + "\" y=\"20\" text-anchor=\"middle\" font-weight=\"bold\">" + xml(m.processes()[p]) + "</text>\n";
    }
    for (const Message& x : m.messages()) {
        const double x1 = poleX(x.from);
        const double x2 = poleX(x.to);
        out += "<line class=\"message\" x1=\"" + number(x1) + "\" y1=\"" + number(y(x.time)) + "\" x2=\""
            + number(x2) + "\" y2=\"" + number(y(x.arrival)) + "\" stroke=\"#333\" marker-end=\"url(#arrow)\"/>"
            + "<text x=\"" + number((x1 + x2) / 2) + "\" y=\"" + number((y(x.time) + y(x.arrival)) / 2 - 2)
            + "\" text-anchor=\"middle\">" + xml(x.name) + "</text>\n";
        // A request's bracket to its response, on the requester's side of its pole.
        if (x.kind == ProcessMessages::Kind::Request && x.pairedWith != kNone) {
            const Message& response = m.messages()[x.pairedWith];
            const double bx = x1 + (x2 > x1 ? -8 : 8);
            out += "<path class=\"roundtrip\" d=\"M " + number(x1) + " " + number(y(x.time)) + " H " + number(bx)
                + " V " + number(y(response.arrival)) + " H " + number(x1) + "\" fill=\"none\" stroke=\"#c60\"/>"
                + "<text x=\"" + number(bx + (x2 > x1 ? -3 : 3)) + "\" y=\""
                + number((y(x.time) + y(response.arrival)) / 2) + "\" text-anchor=\"" + (x2 > x1 ? "end" : "start")
                + "\" fill=\"#c60\">" + TimeFormat::milliseconds(response.time - x.time) + " ms</text>\n";
        }
    }
    return out + "</g>\n</svg>\n";
}

} // namespace runlane
