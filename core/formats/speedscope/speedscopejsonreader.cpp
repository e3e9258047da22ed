#include "speedscopejsonreader.h"

#include "jsonsaxhandler.h"

#include <vector>

namespace runlane {

namespace {

// Where a value sits, from the chain of keys that leads to it.
enum class Context : std::uint8_t {
    Other,
    Top,
    Shared,
    Frames,
    Frame,
    Profiles,
    Profile,
    Events,
    Event,
    Samples,
    Sample,
    Weights
};

class Handler : public JsonSaxHandler<Handler>
{
public:
    explicit Handler(ChunkedFileReader& input) : JsonSaxHandler(input) { }

    SpeedscopeFile& file() { return m_file; }

private:
    friend JsonSaxHandler<Handler>;

    enum class Kind : std::uint8_t { Number, String, Other };

    [[noreturn]] void fail(const std::string& what) const
    {
        throw FormatError(where() + what, -1, input().offset());
    }

    std::string where() const
    {
        if (m_file.profiles.empty() || m_stack.size() < 3 || m_stack[1] != Context::Profiles)
            return {};
        std::string text = "profile #" + std::to_string(m_file.profiles.size() - 1);
        if (m_stack.back() == Context::Event || m_stack.back() == Context::Events)
            text += ", event #" + std::to_string(m_file.profiles.back().events.size());
        return text + ": ";
    }

    std::uint32_t index(Kind kind, const Decimal& d, std::string_view text, const char* what) const
    {
        if (kind != Kind::Number || d.negative || d.exponent != 0 || d.mantissa > 0xFFFFFFF0u)
            fail(std::string(what) + " must be a frame index, found " + std::string(text));
        return std::uint32_t(d.mantissa);
    }

    // A number as the file wrote it, exactly: an integer, or a float's
    // digits that parse as a decimal.
    static Kind kindOf(const JsonScalar& v, Decimal& d)
    {
        switch (v.kind) {
        case JsonScalar::Integer:
            d.negative = v.i < 0;
            d.mantissa = v.i < 0 ? 0 - std::uint64_t(v.i) : std::uint64_t(v.i);
            return Kind::Number;
        case JsonScalar::Unsigned:
            d.mantissa = v.u;
            return Kind::Number;
        case JsonScalar::Float:
            if (parseDecimal(v.text, d) != ParseStatus::Ok) {
                d = Decimal();
                return Kind::Other;
            }
            return Kind::Number;
        case JsonScalar::String:
            return Kind::String;
        default:
            return Kind::Other;
        }
    }

    void scalar(const JsonScalar& v)
    {
        Decimal d;
        const Kind kind = kindOf(v, d);
        const std::string_view text = v.plain(m_text);
        const std::string& key = lastKey();
        const Context here = m_stack.empty() ? Context::Other : m_stack.back();
        switch (here) {
        case Context::Frame: {
            SpeedscopeFile::Frame& f = m_frame;
            if (key == "name" && kind == Kind::String)
                f.name = text;
            else if (key == "file" && kind == Kind::String)
                f.file = text;
            else if (key == "line" && kind == Kind::Number && !d.negative && d.exponent == 0)
                f.line = std::int64_t(std::min<std::uint64_t>(d.mantissa, INT32_MAX));
            break;
        }
        case Context::Profile: {
            SpeedscopeFile::Profile& p = m_file.profiles.back();
            if (key == "type" || key == "name" || key == "unit") {
                if (kind != Kind::String)
                    fail("'" + key + "' must be a string, found " + std::string(text));
                (key == "type" ? p.type : key == "name" ? p.name : p.unit) = text;
            } else if (key == "startValue" || key == "endValue") {
                if (kind != Kind::Number)
                    fail("'" + key + "' must be a number, found " + std::string(text));
                (key == "startValue" ? p.startValue : p.endValue) = d;
                (key == "startValue" ? p.hasStart : p.hasEnd) = true;
            }
            break;
        }
        case Context::Event:
            if (key == "type") {
                if (kind != Kind::String || (text != "O" && text != "C"))
                    fail("'type' must be \"O\" or \"C\", found " + std::string(text));
                m_eventType = text[0];
            } else if (key == "at") {
                if (kind != Kind::Number)
                    fail("'at' must be a number, found " + std::string(text));
                m_event.at = d;
                m_hasAt = true;
            } else if (key == "frame") {
                m_event.frame = index(kind, d, text, "'frame'");
                m_hasFrame = true;
            }
            break;
        case Context::Sample:
            m_file.profiles.back().sampleFrames.push_back(index(kind, d, text, "a sample's entry"));
            break;
        case Context::Weights:
            if (kind != Kind::Number)
                fail("a weight must be a number, found " + std::string(text));
            m_file.profiles.back().weights.push_back(d);
            break;
        case Context::Other:
            if (m_stack.empty())
                throw FormatError("expected '{' at the start of a speedscope file", -1, 0);
            break;
        default:
            break;
        }
    }

    void open(char bracket)
    {
        const bool object = bracket == '{';
        const std::string& key = lastKey();
        const Context parent = m_stack.empty() ? Context::Other : m_stack.back();
        Context here = Context::Other;
        if (m_stack.empty())
            here = object ? Context::Top : Context::Other;
        else if (parent == Context::Top && key == "shared" && object)
            here = Context::Shared;
        else if (parent == Context::Shared && key == "frames" && !object)
            here = Context::Frames;
        else if (parent == Context::Frames && object)
            here = Context::Frame;
        else if (parent == Context::Top && key == "profiles" && !object)
            here = Context::Profiles;
        else if (parent == Context::Profiles && object)
            here = Context::Profile;
        else if (parent == Context::Profile && key == "events" && !object)
            here = Context::Events;
        else if (parent == Context::Events && object)
            here = Context::Event;
        else if (parent == Context::Profile && key == "samples" && !object)
            here = Context::Samples;
        else if (parent == Context::Samples && !object)
            here = Context::Sample;
        else if (parent == Context::Profile && key == "weights" && !object)
            here = Context::Weights;
        if (m_stack.empty() && !object)
            throw FormatError("expected '{' at the start of a speedscope file, found '['", -1, 0);
        if (here == Context::Frame)
            m_frame = SpeedscopeFile::Frame();
        else if (here == Context::Profile)
            m_file.profiles.emplace_back();
        else if (here == Context::Event) {
            m_eventType = 0;
            m_hasAt = false;
            m_hasFrame = false;
        }
        m_stack.push_back(here);
    }

    void close(char)
    {
        const Context here = m_stack.back();
        if (here == Context::Frame) {
            m_file.frames.push_back(std::move(m_frame));
        } else if (here == Context::Event) {
            if (!m_eventType || !m_hasAt || !m_hasFrame)
                fail("an event needs \"type\", \"at\" and \"frame\"");
            m_event.open = m_eventType == 'O';
            m_file.profiles.back().events.push_back(m_event);
        } else if (here == Context::Sample) {
            SpeedscopeFile::Profile& p = m_file.profiles.back();
            p.sampleStart.push_back(std::uint32_t(p.sampleFrames.size()));
        }
        m_stack.pop_back();
    }

    SpeedscopeFile m_file;
    std::vector<Context> m_stack;
    std::string m_text; // a number's digits, written for messages
    SpeedscopeFile::Frame m_frame;
    SpeedscopeFile::Event m_event{};
    char m_eventType = 0;
    bool m_hasAt = false;
    bool m_hasFrame = false;
};

} // namespace

SpeedscopeJsonReader::SpeedscopeJsonReader(ChunkedFileReader& input) : m_input(input) { }

SpeedscopeFile SpeedscopeJsonReader::read()
{
    Handler handler(m_input);
    if (!handler.parse())
        handler.throwSyntaxError();
    return std::move(handler.file());
}

} // namespace runlane
