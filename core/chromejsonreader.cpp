#include "chromejsonreader.h"

#include "jsonsaxsupport.h"
#include "numberparse.h"

#include <climits>
#include <cmath>

namespace runlane {

namespace {

using jsonsax::Json;

enum class Field : std::uint8_t { Other, Ph, Name, Cat, Ts, Dur, Tdur, Pid, Tid, Id, Id2, Scope, S, Args };

Field fieldFor(const std::string& key)
{
    switch (key.size()) {
    case 1:
        return key[0] == 's' ? Field::S : Field::Other;
    case 2:
        if (key == "ph")
            return Field::Ph;
        if (key == "ts")
            return Field::Ts;
        if (key == "id")
            return Field::Id;
        return Field::Other;
    case 3:
        if (key == "pid")
            return Field::Pid;
        if (key == "tid")
            return Field::Tid;
        if (key == "dur")
            return Field::Dur;
        if (key == "cat")
            return Field::Cat;
        if (key == "id2")
            return Field::Id2;
        return Field::Other;
    case 4:
        if (key == "name")
            return Field::Name;
        if (key == "args")
            return Field::Args;
        if (key == "tdur")
            return Field::Tdur;
        return Field::Other;
    case 5:
        return key == "scope" ? Field::Scope : Field::Other;
    default:
        return Field::Other;
    }
}

void setTime(ChromeEvent::TimeValue& value, ParseStatus status, std::int64_t ns, const std::string& text)
{
    value.text = text;
    value.ns = ns;
    value.kind = status == ParseStatus::Ok ? ChromeEvent::TimeValue::Ok
        : status == ParseStatus::Range     ? ChromeEvent::TimeValue::OutOfRange
                                           : ChromeEvent::TimeValue::Invalid;
}

// The SAX handler. Depths count open containers: the events array sits at
// m_eventsDepth (1 in the bare-array form, 2 under "traceEvents"), an event's
// fields one deeper, and the members of its `args` / `id2` one deeper still.
class Handler
{
public:
    Handler(ChunkedFileReader& input, Diagnostics& diagnostics, const ChromeJsonReader::Sink& sink)
        : m_input(input), m_diagnostics(diagnostics), m_sink(sink), m_startOffset(input.offset())
    {
    }

    bool null() { return scalar(Kind::Null, 0, 0, 0.0, nullptr); }
    bool boolean(bool value) { return scalar(value ? Kind::True : Kind::False, 0, 0, 0.0, nullptr); }
    bool number_integer(Json::number_integer_t value) { return scalar(Kind::Integer, value, 0, 0.0, nullptr); }
    bool number_unsigned(Json::number_unsigned_t value) { return scalar(Kind::Unsigned, 0, value, 0.0, nullptr); }
    bool number_float(Json::number_float_t value, const std::string& text)
    {
        return scalar(Kind::Float, 0, 0, value, &text);
    }
    bool string(std::string& value) { return scalar(Kind::String, 0, 0, 0.0, &value); }
    bool binary(Json::binary_t&) { return true; }

    bool start_object(std::size_t)
    {
        if (m_depth == 0) {
            m_objectForm = true;
        } else if (m_depth == m_eventsDepth) {
            m_event.clear();
        } else if (m_depth == m_eventsDepth + 1) {
            m_event.empty = false;
            m_sub = m_field == Field::Args ? Sub::Args : m_field == Field::Id2 ? Sub::Id2 : Sub::None;
            if (m_sub == Sub::None)
                containerField("an object");
        } else if (m_depth == 1 && m_objectForm && m_topKey == "traceEvents") {
            throw FormatError("'traceEvents' must be an array of events", -1, m_input.offset() - 1);
        }
        ++m_depth;
        return true;
    }

    bool end_object()
    {
        --m_depth;
        if (m_depth == m_eventsDepth)
            deliver();
        else if (m_depth == m_eventsDepth + 1)
            m_sub = Sub::None;
        return true;
    }

    bool start_array(std::size_t)
    {
        if (m_depth == 0) {
            m_eventsDepth = 1;
            m_sawEvents = true;
        } else if (m_depth == 1 && m_objectForm && m_topKey == "traceEvents") {
            m_eventsDepth = 2;
            m_sawEvents = true;
        } else if (m_depth == m_eventsDepth) {
            notAnObject("an array");
        } else if (m_depth == m_eventsDepth + 1) {
            m_event.empty = false;
            containerField("an array");
        }
        ++m_depth;
        return true;
    }

    bool end_array()
    {
        --m_depth;
        if (m_depth == m_eventsDepth - 1) {
            m_eventsClosed = true;
            m_eventsDepth = kNoEvents;
        }
        return true;
    }

    bool key(std::string& key)
    {
        if (m_depth == m_eventsDepth + 1) {
            m_event.empty = false;
            m_field = fieldFor(key);
        } else if (m_depth == m_eventsDepth + 2) {
            m_argKey = key;
        } else if (m_depth == 1 && m_objectForm) {
            m_topKey = key;
            if (key == "samples" || key == "stackFrames")
                m_diagnostics.skipped("top-level '" + key + "' (sampled stacks are not imported)");
        }
        return true;
    }

    bool parse_error(std::size_t position, const std::string& lastToken, const nlohmann::detail::exception& ex)
    {
        m_error.record(m_startOffset, position, lastToken, ex, m_input);
        return false;
    }

    // After sax_parse returned false: was it a quirk the format tolerates?
    bool tolerated()
    {
        if (!m_error.seen || m_objectForm || m_eventsDepth != 1)
            return false;
        if (m_depth == 1 && m_error.atEnd) {
            m_diagnostics.warn("unterminated event array", "the event array has no closing ']'");
            return true;
        }
        if (m_depth == 1 && m_error.unexpected == ']') {
            m_diagnostics.warn("trailing comma", "a ',' precedes the closing ']' of the event array");
            return true;
        }
        if (m_depth > 1 && m_error.atEnd) {
            m_diagnostics.warn("truncated file", "the file ends inside event #" + std::to_string(m_index)
                                                     + "; that event is dropped");
            return true;
        }
        return false;
    }

    const jsonsax::SyntaxError& error() const { return m_error; }
    bool sawEvents() const { return m_sawEvents; }
    bool objectForm() const { return m_objectForm; }
    std::uint64_t eventCount() const { return m_index; }
    std::int64_t currentEvent() const { return m_depth > m_eventsDepth && m_eventsDepth != kNoEvents ? std::int64_t(m_index) : -1; }

private:
    enum class Kind : std::uint8_t { Null, True, False, Integer, Unsigned, Float, String };
    enum class Sub : std::uint8_t { None, Args, Id2 };
    static constexpr int kNoEvents = INT_MAX / 2;

    static std::string describe(Kind kind, std::int64_t i, std::uint64_t u, const std::string* text)
    {
        switch (kind) {
        case Kind::Null:
            return "null";
        case Kind::True:
            return "true";
        case Kind::False:
            return "false";
        case Kind::Integer:
            return std::to_string(i);
        case Kind::Unsigned:
            return std::to_string(u);
        case Kind::Float:
            return *text;
        case Kind::String:
            return "\"" + jsonsax::describeScalar(*text) + "\"";
        }
        return {};
    }

    // An object or array where a field of ours wants a scalar.
    void containerField(const char* what)
    {
        auto invalidTime = [what](ChromeEvent::TimeValue& v) {
            v.kind = ChromeEvent::TimeValue::Invalid;
            v.text = what;
        };
        auto invalidValue = [what](ChromeEvent::Value& v) {
            v.kind = ChromeEvent::Value::Invalid;
            v.text = what;
        };
        switch (m_field) {
        case Field::Ph:
            m_event.hasPh = true;
            m_event.phIsString = false;
            m_event.ph = what;
            break;
        case Field::Ts:
            invalidTime(m_event.ts);
            break;
        case Field::Dur:
            invalidTime(m_event.dur);
            break;
        case Field::Tdur:
            invalidTime(m_event.tdur);
            break;
        case Field::Pid:
            invalidValue(m_event.pid);
            break;
        case Field::Tid:
            invalidValue(m_event.tid);
            break;
        case Field::Id:
            invalidValue(m_event.id);
            break;
        default:
            break;
        }
    }

    void notAnObject(const std::string& what)
    {
        m_event.clear();
        m_event.isObject = false;
        m_event.notObjectText = what;
        deliver();
    }

    void deliver()
    {
        m_sink(m_event, m_index);
        ++m_index;
    }

    bool scalar(Kind kind, std::int64_t i, std::uint64_t u, double f, const std::string* text)
    {
        if (m_depth == m_eventsDepth + 1)
            eventField(kind, i, u, f, text);
        else if (m_depth == m_eventsDepth + 2 && m_sub != Sub::None)
            subField(kind, i, u, f, text);
        else if (m_depth == m_eventsDepth)
            notAnObject(describe(kind, i, u, text));
        else if (m_depth == 0)
            throw FormatError("expected '[' or '{' at the start of a Chrome trace, found " + describe(kind, i, u, text),
                              -1, 0);
        else if (m_depth == 1 && m_objectForm && m_topKey == "traceEvents")
            throw FormatError("'traceEvents' must be an array of events, found " + describe(kind, i, u, text), -1,
                              m_input.offset());
        return true;
    }

    void timeField(ChromeEvent::TimeValue& value, Kind kind, std::int64_t i, std::uint64_t u, const std::string* text)
    {
        std::int64_t ns = 0;
        ParseStatus status = ParseStatus::Syntax;
        switch (kind) {
        case Kind::Integer:
            status = scaleInteger(i, 3, ns);
            break;
        case Kind::Unsigned:
            status = scaleUnsigned(u, 3, ns);
            break;
        case Kind::Float:
        case Kind::String:
            status = parseScaledDecimal(*text, 3, ns);
            break;
        default:
            break;
        }
        setTime(value, status, ns, describe(kind, i, u, text));
    }

    void valueField(ChromeEvent::Value& value, Kind kind, std::int64_t i, std::uint64_t u, double f,
                    const std::string* text)
    {
        value.text.clear();
        switch (kind) {
        case Kind::Integer:
            value.kind = ChromeEvent::Value::Number;
            value.number = i;
            break;
        case Kind::Unsigned:
            // nlohmann reports every non-negative integer as unsigned.
            if (u <= std::uint64_t(INT64_MAX)) {
                value.kind = ChromeEvent::Value::Number;
                value.number = std::int64_t(u);
            } else {
                value.kind = ChromeEvent::Value::String;
                value.text = std::to_string(u);
            }
            break;
        case Kind::Float:
            if (std::isfinite(f) && std::floor(f) == f && std::fabs(f) < 9.0e18) {
                value.kind = ChromeEvent::Value::Number;
                value.number = std::int64_t(f);
            } else {
                value.kind = ChromeEvent::Value::String;
                value.text = *text;
            }
            break;
        case Kind::String:
            value.kind = ChromeEvent::Value::String;
            value.text = *text;
            break;
        case Kind::Null:
            value.kind = ChromeEvent::Value::Absent;
            break;
        default:
            value.kind = ChromeEvent::Value::Invalid;
            value.text = describe(kind, i, u, text);
            break;
        }
    }

    void eventField(Kind kind, std::int64_t i, std::uint64_t u, double f, const std::string* text)
    {
        m_event.empty = false;
        switch (m_field) {
        case Field::Ph:
            m_event.hasPh = true;
            m_event.phIsString = kind == Kind::String;
            m_event.ph = kind == Kind::String ? *text : describe(kind, i, u, text);
            break;
        case Field::Name:
            if (kind == Kind::String || kind == Kind::Integer || kind == Kind::Unsigned || kind == Kind::Float) {
                m_event.hasName = true;
                m_event.name = kind == Kind::String ? *text : describe(kind, i, u, text);
            }
            break;
        case Field::Cat:
            if (kind == Kind::String)
                m_event.cat = *text;
            break;
        case Field::Scope:
            if (kind == Kind::String)
                m_event.scope = *text;
            break;
        case Field::S:
            if (kind == Kind::String)
                m_event.instantScope = *text;
            break;
        case Field::Ts:
            timeField(m_event.ts, kind, i, u, text);
            break;
        case Field::Dur:
            timeField(m_event.dur, kind, i, u, text);
            break;
        case Field::Tdur:
            timeField(m_event.tdur, kind, i, u, text);
            break;
        case Field::Pid:
            valueField(m_event.pid, kind, i, u, f, text);
            break;
        case Field::Tid:
            valueField(m_event.tid, kind, i, u, f, text);
            break;
        case Field::Id:
            valueField(m_event.id, kind, i, u, f, text);
            break;
        case Field::Id2:
        case Field::Args:
        case Field::Other:
            break;
        }
    }

    void subField(Kind kind, std::int64_t i, std::uint64_t u, double f, const std::string* text)
    {
        if (m_sub == Sub::Id2) {
            if (m_argKey == "local")
                valueField(m_event.id2Local, kind, i, u, f, text);
            else if (m_argKey == "global")
                valueField(m_event.id2Global, kind, i, u, f, text);
            return;
        }
        // args
        if (kind == Kind::String) {
            if (m_argKey == "name")
                m_event.argName = *text;
            else if (m_argKey == "state")
                m_event.argState = *text;
            else if (m_argKey == "file" || (m_argKey == "url" && m_event.argFile.empty()))
                m_event.argFile = *text;
            return;
        }
        if (kind == Kind::Integer || kind == Kind::Unsigned || kind == Kind::Float) {
            const double value = kind == Kind::Integer ? double(i) : kind == Kind::Unsigned ? double(u) : f;
            const bool integral = kind == Kind::Integer || (kind == Kind::Unsigned && u <= std::uint64_t(INT64_MAX));
            const std::int64_t whole = kind == Kind::Integer ? i : std::int64_t(u);
            if (m_argKey == "sort_index" && integral) {
                m_event.hasArgSortIndex = true;
                m_event.argSortIndex = whole;
            } else if (m_argKey == "line" && integral && whole > 0 && whole <= INT32_MAX) {
                m_event.argLine = whole;
            }
            m_event.addNumericArg(m_argKey, value);
        }
    }

    ChunkedFileReader& m_input;
    Diagnostics& m_diagnostics;
    const ChromeJsonReader::Sink& m_sink;
    ChromeEvent m_event;
    std::uint64_t m_index = 0;
    int m_depth = 0;
    int m_eventsDepth = kNoEvents;
    bool m_objectForm = false;
    bool m_sawEvents = false;
    bool m_eventsClosed = false;
    Field m_field = Field::Other;
    Sub m_sub = Sub::None;
    std::string m_topKey;
    std::string m_argKey;
    std::int64_t m_startOffset;
    jsonsax::SyntaxError m_error;
};

} // namespace

ChromeJsonReader::ChromeJsonReader(ChunkedFileReader& input, Diagnostics& diagnostics, Sink sink)
    : m_input(input), m_diagnostics(diagnostics), m_sink(std::move(sink))
{
}

void ChromeJsonReader::read()
{
    Handler handler(m_input, m_diagnostics, m_sink);
    const bool complete = Json::sax_parse(m_input.begin(), m_input.end(), &handler, nlohmann::json::input_format_t::json,
                                          /*strict=*/false);
    m_eventCount = handler.eventCount();
    if (!complete) {
        if (!handler.tolerated()) {
            const jsonsax::SyntaxError& e = handler.error();
            throw FormatError(e.message, handler.currentEvent(), e.offset);
        }
        return;
    }
    if (!handler.sawEvents())
        throw FormatError("expected a 'traceEvents' array in the top-level object", -1, 0);
    if (m_input.skipWhitespace()) {
        const std::int64_t at = m_input.offset();
        std::int64_t extra = 0;
        while (m_input.get() >= 0)
            ++extra;
        m_diagnostics.warn("trailing data", std::to_string(extra) + " bytes after the end of the trace (byte "
                                                + std::to_string(at) + ") are ignored");
    }
}

} // namespace runlane
