#include "ensojsonreader.h"

#include "jsonsaxsupport.h"

#include <vector>

namespace runlane {

namespace {

using jsonsax::Json;

// Depths count open containers: 1 inside the process array, 2 inside an
// event object (its kind key), 3 inside the event body (p, t, l, i, d), 4
// inside `d` (the metadata type), deeper inside a metadata payload.
class Handler
{
public:
    Handler(ChunkedFileReader& input, const EnsoJsonReader::Sink& sink, std::uint64_t& index)
        : m_input(input), m_sink(sink), m_index(index), m_startOffset(input.offset())
    {
    }

    bool null() { return scalar(Scalar{EnsoEvent::Field::Null, 0, 0, nullptr, "null"}); }
    bool boolean(bool v) { return scalar(Scalar{EnsoEvent::Field::Other, 0, 0, nullptr, v ? "true" : "false"}); }
    bool number_integer(Json::number_integer_t v)
    {
        return v >= 0 ? scalar(Scalar{EnsoEvent::Field::Unsigned, std::uint64_t(v), v, nullptr, nullptr})
                      : scalar(Scalar{EnsoEvent::Field::Negative, 0, v, nullptr, nullptr});
    }
    bool number_unsigned(Json::number_unsigned_t v)
    {
        const std::int64_t asSigned = v <= std::uint64_t(INT64_MAX) ? std::int64_t(v) : INT64_MAX;
        return scalar(Scalar{EnsoEvent::Field::Unsigned, v, asSigned, nullptr, nullptr});
    }
    bool number_float(Json::number_float_t, const std::string& text)
    {
        return scalar(Scalar{EnsoEvent::Field::Other, 0, 0, &text, nullptr});
    }
    bool string(std::string& v) { return scalar(Scalar{EnsoEvent::Field::String, 0, 0, &v, nullptr}); }
    bool binary(Json::binary_t&) { return true; }

    bool start_object(std::size_t) { return open('{'); }
    bool start_array(std::size_t) { return open('['); }
    bool end_object() { return close('}'); }
    bool end_array() { return close(']'); }

    bool key(std::string& key)
    {
        if (m_depth == 2) {
            ++m_event.keyCount;
            if (m_event.keyCount == 1)
                m_event.kindKey = key;
        } else if (m_depth == 3) {
            m_field = key;
        } else if (m_depth == 4 && m_field == "d") {
            if (m_event.metaType.empty())
                m_event.metaType = key;
        } else if (m_depth > 4 && m_capturing) {
            if (!m_first.back())
                m_event.metaJson += ',';
            m_first.back() = false;
            m_event.metaJson += Json(key).dump();
            m_event.metaJson += ':';
            m_afterKey = true;
        }
        return true;
    }

    bool parse_error(std::size_t position, const std::string& lastToken, const nlohmann::detail::exception& ex)
    {
        m_error.record(m_startOffset, position, lastToken, ex, m_input);
        return false;
    }

    bool tolerated(Diagnostics& diagnostics) const
    {
        if (!m_error.seen || !m_started)
            return false;
        if (m_depth == 1 && m_error.atEnd) {
            diagnostics.warn("unterminated event array", "a process's event array has no closing ']'");
            return true;
        }
        if (m_depth == 1 && m_error.unexpected == ']') {
            diagnostics.warn("trailing comma", "a ',' precedes the closing ']' of a process's event array");
            return true;
        }
        if (m_depth > 1 && m_error.atEnd) {
            diagnostics.warn("truncated file",
                             "the file ends inside event #" + std::to_string(m_index) + "; that event is dropped");
            return true;
        }
        return false;
    }
    const jsonsax::SyntaxError& error() const { return m_error; }
    std::int64_t currentEvent() const { return m_depth > 1 ? std::int64_t(m_index) : -1; }

private:
    bool inPayload() const { return m_depth >= 4 && m_field == "d" && !m_event.metaType.empty(); }

    void captureValuePrefix()
    {
        if (m_first.empty())
            return;
        if (m_afterKey) {
            m_afterKey = false;
            return;
        }
        if (!m_first.back())
            m_event.metaJson += ',';
        m_first.back() = false;
    }

    void fieldValue(EnsoEvent::Field::Kind kind, std::uint64_t u, std::int64_t i, const std::string& text)
    {
        EnsoEvent::Field* field = nullptr;
        if (m_field == "p")
            field = &m_event.p;
        else if (m_field == "t")
            field = &m_event.t;
        else if (m_field == "l")
            field = &m_event.l;
        else if (m_field == "i")
            field = &m_event.i;
        if (!field)
            return;
        field->kind = kind;
        field->u = u;
        field->i = i;
        field->text = text;
    }

    struct Scalar {
        EnsoEvent::Field::Kind kind;
        std::uint64_t u;
        std::int64_t i;
        const std::string* text; // strings, and the digits of floats
        const char* literal; // null, true, false
    };

    // The value as JSON text; built only where it is needed.
    static std::string json(const Scalar& v)
    {
        if (v.literal)
            return v.literal;
        switch (v.kind) {
        case EnsoEvent::Field::String:
            return Json(*v.text).dump();
        case EnsoEvent::Field::Unsigned:
            return std::to_string(v.u);
        case EnsoEvent::Field::Negative:
            return std::to_string(v.i);
        default:
            return *v.text;
        }
    }
    static std::string plain(const Scalar& v) { return v.kind == EnsoEvent::Field::String ? *v.text : json(v); }

    bool scalar(const Scalar& v)
    {
        switch (m_depth) {
        case 0:
            throw FormatError("expected '[' starting a process's event array, found " + jsonsax::describeScalar(json(v)),
                              -1, m_startOffset);
        case 1:
            deliverNonObject(jsonsax::describeScalar(json(v)));
            break;
        case 2:
            m_event.bodyIsObject = false;
            m_event.foundText = jsonsax::describeScalar(json(v));
            break;
        case 3:
            if (m_field == "d")
                m_event.hasD = true, m_event.dIsObject = false;
            else
                fieldValue(v.kind, v.u, v.i, plain(v));
            break;
        default:
            if (m_depth == 4 && m_field == "d") {
                m_event.metaValue.kind = v.kind;
                m_event.metaValue.u = v.u;
                m_event.metaValue.i = v.i;
                m_event.metaValue.text = plain(v);
                m_event.metaJson = json(v);
            } else if (m_capturing) {
                captureValuePrefix();
                m_event.metaJson += json(v);
            }
            break;
        }
        return true;
    }

    bool open(char bracket)
    {
        switch (m_depth) {
        case 0:
            if (bracket != '[')
                throw FormatError("expected '[' starting a process's event array, found an object", -1,
                                  m_startOffset);
            m_started = true;
            break;
        case 1:
            if (bracket == '{')
                m_event.clear();
            else
                deliverNonObject("an array");
            break;
        case 2:
            m_event.bodyIsObject = bracket == '{';
            if (!m_event.bodyIsObject)
                m_event.foundText = "an array";
            break;
        case 3:
            if (m_field == "d") {
                m_event.hasD = true;
                m_event.dIsObject = bracket == '{';
            } else {
                fieldValue(EnsoEvent::Field::Other, 0, 0, bracket == '{' ? "an object" : "an array");
            }
            break;
        default:
            if (inPayload()) {
                if (m_depth == 4) {
                    m_capturing = true;
                    m_first.clear();
                    m_afterKey = false;
                    m_event.metaJson.clear();
                } else {
                    captureValuePrefix();
                }
                m_event.metaJson += bracket;
                m_first.push_back(true);
            }
            break;
        }
        ++m_depth;
        return true;
    }

    bool close(char bracket)
    {
        --m_depth;
        if (m_depth >= 4 && m_capturing) {
            m_event.metaJson += bracket;
            m_first.pop_back();
            if (m_depth == 4)
                m_capturing = false;
        } else if (m_depth == 1 && bracket == '}') {
            m_sink.event(m_event, m_index++);
        } else if (m_depth == 3) {
            m_field.clear();
        }
        return true;
    }

    void deliverNonObject(const std::string& what)
    {
        m_event.clear();
        m_event.isObject = false;
        m_event.foundText = what;
        m_sink.event(m_event, m_index++);
    }

    ChunkedFileReader& m_input;
    const EnsoJsonReader::Sink& m_sink;
    std::uint64_t& m_index;
    std::int64_t m_startOffset;
    EnsoEvent m_event;
    int m_depth = 0;
    bool m_started = false;
    std::string m_field;
    bool m_capturing = false;
    bool m_afterKey = false;
    std::vector<bool> m_first;
    jsonsax::SyntaxError m_error;
};

} // namespace

EnsoJsonReader::EnsoJsonReader(ChunkedFileReader& input, Diagnostics& diagnostics, Sink sink)
    : m_input(input), m_diagnostics(diagnostics), m_sink(std::move(sink))
{
}

void EnsoJsonReader::read()
{
    std::uint64_t index = 0;
    std::size_t process = 0;
    while (m_input.skipWhitespace()) {
        Handler handler(m_input, m_sink, index);
        m_sink.beginProcess(process);
        const bool complete = Json::sax_parse(m_input.begin(), m_input.end(), &handler,
                                              nlohmann::json::input_format_t::json, /*strict=*/false);
        if (!complete && !handler.tolerated(m_diagnostics)) {
            const jsonsax::SyntaxError& e = handler.error();
            throw FormatError(e.message, handler.currentEvent(), e.offset);
        }
        m_sink.endProcess();
        ++process;
    }
    if (process == 0)
        throw FormatError("expected '[' starting a process's event array, found nothing", -1, 0);
}

} // namespace runlane
