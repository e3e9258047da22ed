#include "chronosjsonreader.h"

#include "chronosformat.h"

#include "jsonsaxhandler.h"

namespace runlane {

namespace {

// Depths count open containers: 1 inside the top-level object, 2 inside
// "events", 3 inside one event.
class Handler : public JsonSaxHandler<Handler>
{
public:
    Handler(ChunkedFileReader& input, const ChronosJsonReader::Sink& sink, ChronosJsonReader::Header& header)
        : JsonSaxHandler(input), m_sink(sink), m_header(header)
    {
    }

    // A log cut short inside its event array (the process died) still loads.
    bool tolerated(Diagnostics& diagnostics) const
    {
        if (!syntaxError().seen || !syntaxError().atEnd || !m_inEvents || !m_header.hasMarker)
            return false;
        diagnostics.warn("truncated file", "the file ends inside the event array after event #"
                                               + std::to_string(m_index) + "; the rest is missing");
        return true;
    }
    std::int64_t currentEvent() const { return m_inEvents && depth() > 2 ? std::int64_t(m_index) : -1; }
    bool sawEvents() const { return m_sawEvents; }

private:
    friend JsonSaxHandler<Handler>;

    void member(std::string& key)
    {
        if (depth() == 1)
            m_topKey = key;
        else if (depth() == 3)
            m_field = key;
    }

    ChronosEvent::Field* field()
    {
        if (m_field == "t")
            return &m_event.t;
        if (m_field == "id")
            return &m_event.id;
        if (m_field == "state")
            return &m_event.state;
        if (m_field == "proc")
            return &m_event.proc;
        if (m_field == "file")
            return &m_event.file;
        if (m_field == "line")
            return &m_event.line;
        return nullptr;
    }

    void scalar(const JsonScalar& v)
    {
        const ChronosEvent::Field::Kind kind = v.isInt64()       ? ChronosEvent::Field::Integer
            : v.kind == JsonScalar::String ? ChronosEvent::Field::String
                                           : ChronosEvent::Field::Other;
        const std::int64_t number = v.isInt64() ? v.int64() : 0;
        const std::string_view text = v.isInt64() ? std::string_view() : v.plain(m_text);
        if (depth() == 0)
            throw FormatError("expected '{' starting a Chronos future event log", -1, 0);
        if (depth() == 1) {
            if (m_topKey == "chronosFutureEvents") {
                if (kind != ChronosEvent::Field::Integer)
                    throw FormatError("'chronosFutureEvents' must be the format version, an integer", -1,
                                      input().offset());
                m_header.hasMarker = true;
                m_header.version = number;
            } else if (m_topKey == "loop") {
                if (kind != ChronosEvent::Field::String)
                    throw FormatError("'loop' must be a string, the event loop's name", -1, input().offset());
                m_header.loop = text;
            } else if (m_topKey == "events") {
                throw FormatError("'events' must be an array of events", -1, input().offset());
            }
        } else if (depth() == 2 && m_inEvents) {
            m_event.clear();
            m_event.isObject = false;
            m_event.foundText = kind == ChronosEvent::Field::Integer ? std::to_string(number)
                : kind == ChronosEvent::Field::String                ? "\"" + jsonsax::describeScalar(text) + "\""
                                                                     : std::string(text);
            m_sink(m_event, m_index++);
        } else if (depth() == 3 && m_inEvents) {
            if (ChronosEvent::Field* f = field()) {
                f->kind = kind;
                f->number = number;
                f->text = text;
            }
        }
    }

    void open(char bracket)
    {
        const bool object = bracket == '{';
        if (depth() == 0 && !object)
            throw FormatError("expected '{' starting a Chronos future event log, found '['", -1, 0);
        if (depth() == 1 && m_topKey == "events") {
            if (object)
                throw FormatError("'events' must be an array of events", -1, input().offset() - 1);
            m_inEvents = true;
            m_sawEvents = true;
        } else if (depth() == 2 && m_inEvents) {
            if (object) {
                m_event.clear();
            } else {
                m_event.clear();
                m_event.isObject = false;
                m_event.foundText = "an array";
                m_sink(m_event, m_index++);
            }
        } else if (depth() == 3 && m_inEvents) {
            if (ChronosEvent::Field* f = field()) {
                f->kind = ChronosEvent::Field::Other;
                f->text = object ? "an object" : "an array";
            }
        }
    }

    void close(char)
    {
        if (depth() == 2 && m_inEvents && m_event.isObject)
            m_sink(m_event, m_index++);
        else if (depth() == 1 && m_inEvents)
            m_inEvents = false;
        else if (depth() == 3)
            m_field.clear();
    }

    const ChronosJsonReader::Sink& m_sink;
    ChronosJsonReader::Header& m_header;
    ChronosEvent m_event;
    std::uint64_t m_index = 0;
    bool m_inEvents = false;
    bool m_sawEvents = false;
    std::string m_topKey;
    std::string m_field;
    std::string m_text; // a scalar's text, written for the event
};

} // namespace

ChronosJsonReader::ChronosJsonReader(ChunkedFileReader& input, Diagnostics& diagnostics, Sink sink)
    : m_input(input), m_diagnostics(diagnostics), m_sink(std::move(sink))
{
}

void ChronosJsonReader::read()
{
    Handler handler(m_input, m_sink, m_header);
    const bool complete = handler.parse();
    if (!complete && !handler.tolerated(m_diagnostics))
        handler.throwSyntaxError(handler.currentEvent());
    if (!m_header.hasMarker)
        throw FormatError("missing \"chronosFutureEvents\": 1, the marker of a Chronos future event log", -1, 0);
    if (m_header.version != 1)
        throw FormatError(ChronosFormat::unsupportedVersion(m_header.version), -1, 0);
    if (!handler.sawEvents())
        throw FormatError("missing 'events', the array of future events", -1, 0);
    if (complete && m_input.skipWhitespace())
        m_diagnostics.warn("trailing data", "bytes after the end of the log (byte " + std::to_string(m_input.offset())
                                                + ") are ignored");
}

} // namespace runlane
