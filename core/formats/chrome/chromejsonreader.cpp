#include "chromejsonreader.h"

#include "chromeeventfiller.h"
#include "jsonsaxsupport.h"

#include <climits>
#include <string_view>
#include <vector>

namespace runlane {

namespace {

using jsonsax::Json;

// The SAX handler. Depths count open containers: the events array sits at
// m_eventsDepth (1 in the bare-array form, 2 under "traceEvents"), an event's
// fields one deeper, and the members of its `args` / `id2` one deeper still.
class Handler
{
public:
    Handler(ChunkedFileReader& input, Diagnostics& diagnostics, const ChromeJsonReader::Sink& sink,
            const ChromeJsonReader::KeySink& keySink)
        : m_input(input), m_diagnostics(diagnostics), m_sink(sink), m_keySink(keySink), m_startOffset(input.offset())
    {
    }

    bool null() { return capturing() ? rawScalar("null") : scalar(JsonScalar{JsonScalar::Null, 0, 0, 0.0, {}}); }
    bool boolean(bool value)
    {
        if (capturing())
            return rawScalar(value ? "true" : "false");
        return scalar(JsonScalar{value ? JsonScalar::True : JsonScalar::False, 0, 0, 0.0, {}});
    }
    bool number_integer(Json::number_integer_t value)
    {
        if (capturing())
            return rawScalar(std::to_string(value));
        return scalar(JsonScalar{JsonScalar::Integer, value, 0, 0.0, {}});
    }
    bool number_unsigned(Json::number_unsigned_t value)
    {
        if (capturing())
            return rawScalar(std::to_string(value));
        return scalar(JsonScalar{JsonScalar::Unsigned, 0, value, 0.0, {}});
    }
    bool number_float(Json::number_float_t value, const std::string& text)
    {
        if (capturing())
            return rawScalar(text);
        return scalar(JsonScalar{JsonScalar::Float, 0, 0, value, text});
    }
    bool string(std::string& value)
    {
        if (capturing()) {
            rawSeparator();
            appendQuoted(value);
            return true;
        }
        return scalar(JsonScalar{JsonScalar::String, 0, 0, 0.0, value});
    }
    bool binary(Json::binary_t&) { return true; }

    bool start_object(std::size_t)
    {
        if (openRaw('{'))
            return true;
        if (m_depth == 1)
            m_inTopValue = false;
        if (m_depth == 0) {
            m_objectForm = true;
        } else if (m_depth == m_eventsDepth) {
            m_filler.beginEvent();
        } else if (m_depth == m_eventsDepth + 1) {
            m_inSub = m_filler.beginContainer(true);
        } else if (m_depth == 1 && m_objectForm && m_topKey == "traceEvents") {
            throw FormatError("'traceEvents' must be an array of events", -1, m_input.offset() - 1);
        }
        ++m_depth;
        return true;
    }

    bool end_object()
    {
        if (closeRaw('}'))
            return true;
        --m_depth;
        if (m_depth == m_eventsDepth) {
            deliver();
        } else if (m_depth == m_eventsDepth + 1) {
            m_filler.endContainer();
            m_inSub = false;
        }
        return true;
    }

    bool start_array(std::size_t)
    {
        if (openRaw('['))
            return true;
        if (m_depth == 1)
            m_inTopValue = false;
        if (m_depth == 0) {
            m_eventsDepth = 1;
            m_sawEvents = true;
        } else if (m_depth == 1 && m_objectForm && m_topKey == "traceEvents") {
            m_eventsDepth = 2;
            m_sawEvents = true;
        } else if (m_depth == m_eventsDepth) {
            notAnObject("an array");
        } else if (m_depth == m_eventsDepth + 1) {
            m_filler.beginContainer(false);
        }
        ++m_depth;
        return true;
    }

    bool end_array()
    {
        if (closeRaw(']'))
            return true;
        --m_depth;
        if (m_depth == m_eventsDepth - 1) {
            m_eventsClosed = true;
            m_eventsDepth = kNoEvents;
        }
        return true;
    }

    bool key(std::string& key)
    {
        if (capturing()) {
            rawSeparator();
            appendQuoted(key);
            m_raw += ':';
            m_rawAfterKey = true;
            return true;
        }
        if (m_depth == m_eventsDepth + 1) {
            m_filler.key(key);
        } else if (m_depth == m_eventsDepth + 2 && m_inSub) {
            m_filler.subKey(key);
        } else if (m_depth == 1 && m_objectForm) {
            m_topKey = key;
            m_inTopValue = true;
            if (m_keySink)
                m_keySink(key);
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
        if (!m_error.seen)
            return false;
        if (m_objectForm)
            return cutObjectForm();
        if (m_eventsDepth != 1)
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
            m_diagnostics.warn("truncated file", ChromeJsonReader::cutInsideEvent(m_index));
            return true;
        }
        return false;
    }

    // The object form has no tolerated end: the file ends before its '}'
    // only when the recorder died while writing it. The events read before
    // the cut are kept, as in a bare array cut inside an event; a cut before
    // the event array leaves nothing to load and stays an error.
    bool cutObjectForm()
    {
        if (!m_error.atEnd)
            return false;
        if (m_eventsDepth == 2) {
            m_diagnostics.warn("truncated file", m_depth > 2 ? ChromeJsonReader::cutInsideEvent(m_index)
                                                            : ChromeJsonReader::cutBetweenEvents(m_index));
            return true;
        }
        if (!m_eventsClosed)
            return false;
        m_diagnostics.warn("truncated file", ChromeJsonReader::cutAfterEvents(m_depth > 1 || m_inTopValue ? m_topKey : ""));
        return true;
    }

    const jsonsax::SyntaxError& error() const { return m_error; }
    bool sawEvents() const { return m_sawEvents; }
    bool objectForm() const { return m_objectForm; }
    std::uint64_t eventCount() const { return m_index; }
    std::int64_t currentEvent() const { return m_depth > m_eventsDepth && m_eventsDepth != kNoEvents ? std::int64_t(m_index) : -1; }

private:
    static constexpr int kNoEvents = INT_MAX / 2;

    // A member of `args` the filler wants as JSON text (wantsRaw): the
    // events inside it are written back as JSON, the same value the fast
    // reader takes from the file's bytes.
    bool capturing() const { return m_rawDepth >= 0; }
    bool openRaw(char bracket)
    {
        if (!capturing()) {
            if (!(m_depth == m_eventsDepth + 2 && m_inSub && m_filler.wantsRaw()))
                return false;
            m_rawDepth = m_depth;
            m_raw.clear();
        } else {
            rawSeparator();
        }
        m_raw += bracket;
        m_rawFirst.push_back(true);
        ++m_depth;
        return true;
    }
    bool closeRaw(char bracket)
    {
        if (!capturing())
            return false;
        m_raw += bracket;
        m_rawFirst.pop_back();
        --m_depth;
        if (m_depth == m_rawDepth) {
            m_rawDepth = -1;
            m_filler.subRaw(m_raw);
        }
        return true;
    }
    void rawSeparator()
    {
        if (m_rawAfterKey) {
            m_rawAfterKey = false;
            return;
        }
        if (!m_rawFirst.back())
            m_raw += ',';
        m_rawFirst.back() = false;
    }
    bool rawScalar(std::string_view text)
    {
        rawSeparator();
        m_raw += text;
        return true;
    }
    void appendQuoted(std::string_view text)
    {
        static constexpr char hex[] = "0123456789abcdef";
        m_raw += '"';
        for (const char c : text) {
            const auto byte = static_cast<unsigned char>(c);
            if (c == '"' || c == '\\') {
                m_raw += '\\';
                m_raw += c;
            } else if (byte < 0x20) {
                m_raw += "\\u00";
                m_raw += hex[byte >> 4];
                m_raw += hex[byte & 0xf];
            } else {
                m_raw += c;
            }
        }
        m_raw += '"';
    }

    void notAnObject(std::string_view what)
    {
        m_filler.notAnObject(what);
        deliver();
    }

    void deliver()
    {
        m_sink(m_event, m_index);
        ++m_index;
    }

    bool scalar(const JsonScalar& value)
    {
        if (m_depth == 1)
            m_inTopValue = false;
        if (m_depth == m_eventsDepth + 1)
            m_filler.scalar(value);
        else if (m_depth == m_eventsDepth + 2 && m_inSub)
            m_filler.subScalar(value);
        else if (m_depth == m_eventsDepth)
            notAnObject(ChromeEventFiller::describe(value));
        else if (m_depth == 0)
            throw FormatError("expected '[' or '{' at the start of a Chrome trace, found " + ChromeEventFiller::describe(value),
                              -1, 0);
        else if (m_depth == 1 && m_objectForm && m_topKey == "traceEvents")
            throw FormatError("'traceEvents' must be an array of events, found " + ChromeEventFiller::describe(value), -1,
                              m_input.offset());
        return true;
    }

    ChunkedFileReader& m_input;
    Diagnostics& m_diagnostics;
    const ChromeJsonReader::Sink& m_sink;
    const ChromeJsonReader::KeySink& m_keySink;
    ChromeEvent m_event;
    ChromeEventFiller m_filler{m_event};
    bool m_inSub = false;
    std::uint64_t m_index = 0;
    int m_depth = 0;
    int m_eventsDepth = kNoEvents;
    bool m_objectForm = false;
    bool m_sawEvents = false;
    bool m_eventsClosed = false;
    std::string m_topKey;
    bool m_inTopValue = false; // after a top-level key, before its value is whole
    int m_rawDepth = -1;
    std::string m_raw;
    std::vector<bool> m_rawFirst;
    bool m_rawAfterKey = false;
    std::int64_t m_startOffset;
    jsonsax::SyntaxError m_error;
};

} // namespace

ChromeJsonReader::ChromeJsonReader(ChunkedFileReader& input, Diagnostics& diagnostics, Sink sink)
    : m_input(input), m_diagnostics(diagnostics), m_sink(std::move(sink))
{
}

std::string ChromeJsonReader::cutInsideEvent(std::uint64_t index)
{
    return "the file ends inside event #" + std::to_string(index) + "; that event is dropped";
}

std::string ChromeJsonReader::cutBetweenEvents(std::uint64_t events)
{
    if (events == 0)
        return "the file ends inside the event array, before its first event";
    return "the file ends inside the event array, after " + std::to_string(events) + (events == 1 ? " event" : " events");
}

std::string ChromeJsonReader::cutAfterEvents(std::string_view key)
{
    if (key.empty())
        return "the file ends after the event array, inside the top-level object";
    return "the file ends after the event array, inside top-level '" + std::string(key) + "'";
}

void ChromeJsonReader::read()
{
    Handler handler(m_input, m_diagnostics, m_sink, m_keySink);
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
