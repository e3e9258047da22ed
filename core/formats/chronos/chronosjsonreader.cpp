#include "chronosjsonreader.h"

#include "chronosformat.h"

#include "jsonsaxsupport.h"

namespace runlane {

namespace {

using jsonsax::Json;

// Depths count open containers: 1 inside the top-level object, 2 inside
// "events", 3 inside one event.
class Handler
{
public:
    Handler(ChunkedFileReader& input, const ChronosJsonReader::Sink& sink, ChronosJsonReader::Header& header)
        : m_input(input), m_sink(sink), m_header(header), m_startOffset(input.offset())
    {
    }

    bool null() { return scalar(ChronosEvent::Field::Other, 0, "null"); }
    bool boolean(bool v) { return scalar(ChronosEvent::Field::Other, 0, v ? "true" : "false"); }
    bool number_integer(Json::number_integer_t v) { return scalar(ChronosEvent::Field::Integer, v, {}); }
    bool number_unsigned(Json::number_unsigned_t v)
    {
        if (v > std::uint64_t(INT64_MAX))
            return scalar(ChronosEvent::Field::Other, 0, std::to_string(v));
        return scalar(ChronosEvent::Field::Integer, std::int64_t(v), {});
    }
    bool number_float(Json::number_float_t, const std::string& text)
    {
        return scalar(ChronosEvent::Field::Other, 0, text);
    }
    bool string(std::string& v) { return scalar(ChronosEvent::Field::String, 0, v); }
    bool binary(Json::binary_t&) { return true; }

    bool start_object(std::size_t) { return open(true); }
    bool start_array(std::size_t) { return open(false); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool key(std::string& key)
    {
        if (m_depth == 1)
            m_topKey = key;
        else if (m_depth == 3)
            m_field = key;
        return true;
    }

    bool parse_error(std::size_t position, const std::string& lastToken, const nlohmann::detail::exception& ex)
    {
        m_error.record(m_startOffset, position, lastToken, ex, m_input);
        return false;
    }

    // A log cut short inside its event array (the process died) still loads.
    bool tolerated(Diagnostics& diagnostics) const
    {
        if (!m_error.seen || !m_error.atEnd || !m_inEvents || !m_header.hasMarker)
            return false;
        diagnostics.warn("truncated file", "the file ends inside the event array after event #"
                                               + std::to_string(m_index) + "; the rest is missing");
        return true;
    }
    const jsonsax::SyntaxError& error() const { return m_error; }
    std::int64_t currentEvent() const { return m_inEvents && m_depth > 2 ? std::int64_t(m_index) : -1; }
    bool sawEvents() const { return m_sawEvents; }

private:
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

    bool scalar(ChronosEvent::Field::Kind kind, std::int64_t number, const std::string& text)
    {
        if (m_depth == 0)
            throw FormatError("expected '{' starting a Chronos future event log", -1, 0);
        if (m_depth == 1) {
            if (m_topKey == "chronosFutureEvents") {
                if (kind != ChronosEvent::Field::Integer)
                    throw FormatError("'chronosFutureEvents' must be the format version, an integer", -1,
                                      m_input.offset());
                m_header.hasMarker = true;
                m_header.version = number;
            } else if (m_topKey == "loop") {
                if (kind != ChronosEvent::Field::String)
                    throw FormatError("'loop' must be a string, the event loop's name", -1, m_input.offset());
                m_header.loop = text;
            } else if (m_topKey == "events") {
                throw FormatError("'events' must be an array of events", -1, m_input.offset());
            }
        } else if (m_depth == 2 && m_inEvents) {
            m_event.clear();
            m_event.isObject = false;
            m_event.foundText = kind == ChronosEvent::Field::Integer ? std::to_string(number)
                : kind == ChronosEvent::Field::String                ? "\"" + jsonsax::describeScalar(text) + "\""
                                                                     : text;
            m_sink(m_event, m_index++);
        } else if (m_depth == 3 && m_inEvents) {
            if (ChronosEvent::Field* f = field()) {
                f->kind = kind;
                f->number = number;
                f->text = text;
            }
        }
        return true;
    }

    bool open(bool object)
    {
        if (m_depth == 0 && !object)
            throw FormatError("expected '{' starting a Chronos future event log, found '['", -1, 0);
        if (m_depth == 1 && m_topKey == "events") {
            if (object)
                throw FormatError("'events' must be an array of events", -1, m_input.offset() - 1);
            m_inEvents = true;
            m_sawEvents = true;
        } else if (m_depth == 2 && m_inEvents) {
            if (object) {
                m_event.clear();
            } else {
                m_event.clear();
                m_event.isObject = false;
                m_event.foundText = "an array";
                m_sink(m_event, m_index++);
            }
        } else if (m_depth == 3 && m_inEvents) {
            if (ChronosEvent::Field* f = field()) {
                f->kind = ChronosEvent::Field::Other;
                f->text = object ? "an object" : "an array";
            }
        }
        ++m_depth;
        return true;
    }

    bool close()
    {
        --m_depth;
        if (m_depth == 2 && m_inEvents && m_event.isObject)
            m_sink(m_event, m_index++);
        else if (m_depth == 1 && m_inEvents)
            m_inEvents = false;
        else if (m_depth == 3)
            m_field.clear();
        return true;
    }

    ChunkedFileReader& m_input;
    const ChronosJsonReader::Sink& m_sink;
    ChronosJsonReader::Header& m_header;
    std::int64_t m_startOffset;
    ChronosEvent m_event;
    std::uint64_t m_index = 0;
    int m_depth = 0;
    bool m_inEvents = false;
    bool m_sawEvents = false;
    std::string m_topKey;
    std::string m_field;
    jsonsax::SyntaxError m_error;
};

} // namespace

ChronosJsonReader::ChronosJsonReader(ChunkedFileReader& input, Diagnostics& diagnostics, Sink sink)
    : m_input(input), m_diagnostics(diagnostics), m_sink(std::move(sink))
{
}

void ChronosJsonReader::read()
{
    Handler handler(m_input, m_sink, m_header);
    const bool complete = Json::sax_parse(m_input.begin(), m_input.end(), &handler, nlohmann::json::input_format_t::json,
                                          /*strict=*/false);
    if (!complete && !handler.tolerated(m_diagnostics)) {
        const jsonsax::SyntaxError& e = handler.error();
        throw FormatError(e.message, handler.currentEvent(), e.offset);
    }
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
