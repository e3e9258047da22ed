#include "chromejsonreader.h"

#include "chromeeventfiller.h"
#include "jsonsaxhandler.h"

#include <climits>
#include <string_view>
#include <vector>

namespace runlane {

namespace {

// The SAX handler. Depths count open containers: the events array sits at
// m_eventsDepth (1 in the bare-array form, 2 under "traceEvents"), an event's
// fields one deeper, and the members of its `args` / `id2` one deeper still.
class Handler : public JsonSaxHandler<Handler>
{
public:
    Handler(ChunkedFileReader& input, Diagnostics& diagnostics, const ChromeJsonReader::Sink& sink,
            const ChromeJsonReader::KeySink& keySink)
        : JsonSaxHandler(input), m_diagnostics(diagnostics), m_sink(sink), m_keySink(keySink)
    {
    }

    // After parse() returned false: was it a quirk the format tolerates?
    bool tolerated()
    {
        if (!syntaxError().seen)
            return false;
        if (m_objectForm)
            return cutObjectForm();
        if (m_eventsDepth != 1)
            return false;
        switch (arrayCut()) {
        case ArrayCut::Unterminated:
            m_diagnostics.warn("unterminated event array", "the event array has no closing ']'");
            return true;
        case ArrayCut::TrailingComma:
            m_diagnostics.warn("trailing comma", "a ',' precedes the closing ']' of the event array");
            return true;
        case ArrayCut::InsideItem:
            m_diagnostics.warn("truncated file", ChromeJsonReader::cutInsideEvent(m_index));
            return true;
        case ArrayCut::None:
            break;
        }
        return false;
    }

    // The object form has no tolerated end: the file ends before its '}'
    // only when the recorder died while writing it. The events read before
    // the cut are kept, as in a bare array cut inside an event; a cut before
    // the event array leaves nothing to load and stays an error.
    bool cutObjectForm()
    {
        if (!syntaxError().atEnd)
            return false;
        if (m_eventsDepth == 2) {
            m_diagnostics.warn("truncated file", depth() > 2 ? ChromeJsonReader::cutInsideEvent(m_index)
                                                            : ChromeJsonReader::cutBetweenEvents(m_index));
            return true;
        }
        if (!m_eventsClosed)
            return false;
        m_diagnostics.warn("truncated file", ChromeJsonReader::cutAfterEvents(depth() > 1 || m_inTopValue ? m_topKey : ""));
        return true;
    }

    bool sawEvents() const { return m_sawEvents; }
    bool objectForm() const { return m_objectForm; }
    std::uint64_t eventCount() const { return m_index; }
    std::int64_t currentEvent() const { return depth() > m_eventsDepth && m_eventsDepth != kNoEvents ? std::int64_t(m_index) : -1; }

private:
    friend JsonSaxHandler<Handler>;

    static constexpr int kNoEvents = INT_MAX / 2;

    void scalar(const JsonScalar& value)
    {
        if (capturing()) {
            rawSeparator();
            if (value.kind == JsonScalar::String)
                appendQuoted(value.text);
            else
                value.appendPlain(m_raw);
            return;
        }
        if (depth() == 1)
            m_inTopValue = false;
        if (depth() == m_eventsDepth + 1)
            m_filler.scalar(value);
        else if (depth() == m_eventsDepth + 2 && m_inSub)
            m_filler.subScalar(value);
        else if (depth() == m_eventsDepth)
            notAnObject(ChromeEventFiller::describe(value));
        else if (depth() == 0)
            throw FormatError("expected '[' or '{' at the start of a Chrome trace, found " + ChromeEventFiller::describe(value),
                              -1, 0);
        else if (depth() == 1 && m_objectForm && m_topKey == "traceEvents")
            throw FormatError("'traceEvents' must be an array of events, found " + ChromeEventFiller::describe(value), -1,
                              input().offset());
    }

    void open(char bracket)
    {
        if (openRaw(bracket))
            return;
        if (depth() == 1)
            m_inTopValue = false;
        if (bracket == '{') {
            if (depth() == 0) {
                m_objectForm = true;
            } else if (depth() == m_eventsDepth) {
                m_filler.beginEvent();
            } else if (depth() == m_eventsDepth + 1) {
                m_inSub = m_filler.beginContainer(true);
            } else if (depth() == 1 && m_objectForm && m_topKey == "traceEvents") {
                throw FormatError("'traceEvents' must be an array of events", -1, input().offset() - 1);
            }
        } else {
            if (depth() == 0) {
                m_eventsDepth = 1;
                m_sawEvents = true;
            } else if (depth() == 1 && m_objectForm && m_topKey == "traceEvents") {
                m_eventsDepth = 2;
                m_sawEvents = true;
            } else if (depth() == m_eventsDepth) {
                notAnObject("an array");
            } else if (depth() == m_eventsDepth + 1) {
                m_filler.beginContainer(false);
            }
        }
    }

    void close(char bracket)
    {
        if (closeRaw(bracket))
            return;
        if (bracket == '}') {
            if (depth() == m_eventsDepth) {
                deliver();
            } else if (depth() == m_eventsDepth + 1) {
                m_filler.endContainer();
                m_inSub = false;
            }
        } else if (depth() == m_eventsDepth - 1) {
            m_eventsClosed = true;
            m_eventsDepth = kNoEvents;
        }
    }

    void member(std::string& key)
    {
        if (capturing()) {
            rawSeparator();
            appendQuoted(key);
            m_raw += ':';
            m_rawAfterKey = true;
            return;
        }
        if (depth() == m_eventsDepth + 1) {
            m_filler.key(key);
        } else if (depth() == m_eventsDepth + 2 && m_inSub) {
            m_filler.subKey(key);
        } else if (depth() == 1 && m_objectForm) {
            m_topKey = key;
            m_inTopValue = true;
            if (m_keySink)
                m_keySink(key);
            if (key == "samples" || key == "stackFrames")
                m_diagnostics.skipped("top-level '" + key + "' (sampled stacks are not imported)");
        }
    }

    // A member of `args` the filler wants as JSON text (wantsRaw): the
    // events inside it are written back as JSON, the same value the fast
    // reader takes from the file's bytes.
    bool capturing() const { return m_rawDepth >= 0; }
    bool openRaw(char bracket)
    {
        if (!capturing()) {
            if (!(depth() == m_eventsDepth + 2 && m_inSub && m_filler.wantsRaw()))
                return false;
            m_rawDepth = depth();
            m_raw.clear();
        } else {
            rawSeparator();
        }
        m_raw += bracket;
        m_rawFirst.push_back(true);
        return true;
    }
    // After the base counted the container closed.
    bool closeRaw(char bracket)
    {
        if (!capturing())
            return false;
        m_raw += bracket;
        m_rawFirst.pop_back();
        if (depth() == m_rawDepth) {
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
        m_texts.clear();
        ++m_index;
    }

    Diagnostics& m_diagnostics;
    const ChromeJsonReader::Sink& m_sink;
    const ChromeJsonReader::KeySink& m_keySink;
    ChromeEvent m_event;
    // nlohmann reuses the buffer of each text it reports: the filler keeps
    // copies, for one event at a time.
    TextArena m_texts;
    ChromeEventFiller m_filler{m_event, m_texts, false};
    bool m_inSub = false;
    std::uint64_t m_index = 0;
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
    const bool complete = handler.parse();
    m_eventCount = handler.eventCount();
    if (!complete) {
        if (!handler.tolerated())
            handler.throwSyntaxError(handler.currentEvent());
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
