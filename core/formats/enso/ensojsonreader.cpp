#include "ensojsonreader.h"

#include "jsonsaxhandler.h"

#include <vector>

namespace runlane {

namespace {

// Depths count open containers: 1 inside the process array, 2 inside an
// event object (its kind key), 3 inside the event body (p, t, l, i, d), 4
// inside `d` (the metadata type), deeper inside a metadata payload.
class Handler : public JsonSaxHandler<Handler>
{
public:
    Handler(ChunkedFileReader& input, const EnsoJsonReader::Sink& sink, std::uint64_t& index)
        : JsonSaxHandler(input), m_sink(sink), m_index(index)
    {
    }

    bool tolerated(Diagnostics& diagnostics) const
    {
        if (!syntaxError().seen || !m_started)
            return false;
        switch (arrayCut()) {
        case ArrayCut::Unterminated:
            diagnostics.warn("unterminated event array", "a process's event array has no closing ']'");
            return true;
        case ArrayCut::TrailingComma:
            diagnostics.warn("trailing comma", "a ',' precedes the closing ']' of a process's event array");
            return true;
        case ArrayCut::InsideItem:
            diagnostics.warn("truncated file",
                             "the file ends inside event #" + std::to_string(m_index) + "; that event is dropped");
            return true;
        case ArrayCut::None:
            break;
        }
        return false;
    }
    std::int64_t currentEvent() const { return depth() > 1 ? std::int64_t(m_index) : -1; }

private:
    friend JsonSaxHandler<Handler>;

    void member(std::string& key)
    {
        if (depth() == 2) {
            ++m_event.keyCount;
            if (m_event.keyCount == 1)
                m_event.kindKey = key;
        } else if (depth() == 3) {
            m_field = key;
        } else if (depth() == 4 && m_field == "d") {
            if (m_event.metaType.empty())
                m_event.metaType = key;
        } else if (depth() > 4 && m_capturing) {
            if (!m_first.back())
                m_event.metaJson += ',';
            m_first.back() = false;
            m_event.metaJson += Json(key).dump();
            m_event.metaJson += ':';
            m_afterKey = true;
        }
    }

    bool inPayload() const { return depth() >= 4 && m_field == "d" && !m_event.metaType.empty(); }

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

    // How an event's field holds the value: kind, and the number as
    // unsigned and as signed (clamped).
    struct Scalar {
        EnsoEvent::Field::Kind kind;
        std::uint64_t u;
        std::int64_t i;
    };
    static Scalar fieldOf(const JsonScalar& v)
    {
        switch (v.kind) {
        case JsonScalar::Null:
            return {EnsoEvent::Field::Null, 0, 0};
        case JsonScalar::Integer:
            return v.i >= 0 ? Scalar{EnsoEvent::Field::Unsigned, std::uint64_t(v.i), v.i}
                            : Scalar{EnsoEvent::Field::Negative, 0, v.i};
        case JsonScalar::Unsigned:
            return {EnsoEvent::Field::Unsigned, v.u, v.u <= std::uint64_t(INT64_MAX) ? std::int64_t(v.u) : INT64_MAX};
        case JsonScalar::String:
            return {EnsoEvent::Field::String, 0, 0};
        default:
            return {EnsoEvent::Field::Other, 0, 0};
        }
    }

    // The value as JSON text; built only where it is needed.
    static std::string json(const JsonScalar& v) { return v.kind == JsonScalar::String ? Json(v.text).dump() : v.plain(); }

    void scalar(const JsonScalar& v)
    {
        switch (depth()) {
        case 0:
            throw FormatError("expected '[' starting a process's event array, found " + jsonsax::describeScalar(json(v)),
                              -1, startOffset());
        case 1:
            deliverNonObject(jsonsax::describeScalar(json(v)));
            break;
        case 2:
            m_event.bodyIsObject = false;
            m_event.foundText = jsonsax::describeScalar(json(v));
            break;
        case 3:
            if (m_field == "d") {
                m_event.hasD = true, m_event.dIsObject = false;
            } else {
                const Scalar field = fieldOf(v);
                fieldValue(field.kind, field.u, field.i, v.plain());
            }
            break;
        default:
            if (depth() == 4 && m_field == "d") {
                const Scalar field = fieldOf(v);
                m_event.metaValue.kind = field.kind;
                m_event.metaValue.u = field.u;
                m_event.metaValue.i = field.i;
                m_event.metaValue.text = v.plain();
                m_event.metaJson = json(v);
            } else if (m_capturing) {
                captureValuePrefix();
                m_event.metaJson += json(v);
            }
            break;
        }
    }

    void open(char bracket)
    {
        switch (depth()) {
        case 0:
            if (bracket != '[')
                throw FormatError("expected '[' starting a process's event array, found an object", -1,
                                  startOffset());
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
                if (depth() == 4) {
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
    }

    void close(char bracket)
    {
        if (depth() >= 4 && m_capturing) {
            m_event.metaJson += bracket;
            m_first.pop_back();
            if (depth() == 4)
                m_capturing = false;
        } else if (depth() == 1 && bracket == '}') {
            m_sink.event(m_event, m_index++);
        } else if (depth() == 3) {
            m_field.clear();
        }
    }

    void deliverNonObject(const std::string& what)
    {
        m_event.clear();
        m_event.isObject = false;
        m_event.foundText = what;
        m_sink.event(m_event, m_index++);
    }

    const EnsoJsonReader::Sink& m_sink;
    std::uint64_t& m_index;
    EnsoEvent m_event;
    bool m_started = false;
    std::string m_field;
    bool m_capturing = false;
    bool m_afterKey = false;
    std::vector<bool> m_first;
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
        if (!handler.parse() && !handler.tolerated(m_diagnostics))
            handler.throwSyntaxError(handler.currentEvent());
        m_sink.endProcess();
        ++process;
    }
    if (process == 0)
        throw FormatError("expected '[' starting a process's event array, found nothing", -1, 0);
}

} // namespace runlane
