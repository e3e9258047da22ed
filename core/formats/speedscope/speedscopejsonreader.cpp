#include "speedscopejsonreader.h"

#include "jsonsaxsupport.h"

#include <vector>

namespace runlane {

namespace {

using jsonsax::Json;

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

class Handler
{
public:
    explicit Handler(ChunkedFileReader& input) : m_input(input), m_startOffset(input.offset()) { }

    bool null() { return scalar(Kind::Other, {}, "null"); }
    bool boolean(bool v) { return scalar(Kind::Other, {}, v ? "true" : "false"); }
    bool number_integer(Json::number_integer_t v)
    {
        Decimal d;
        d.negative = v < 0;
        d.mantissa = v < 0 ? 0 - std::uint64_t(v) : std::uint64_t(v);
        return scalar(Kind::Number, d, std::to_string(v));
    }
    bool number_unsigned(Json::number_unsigned_t v)
    {
        Decimal d;
        d.mantissa = v;
        return scalar(Kind::Number, d, std::to_string(v));
    }
    bool number_float(Json::number_float_t, const std::string& text)
    {
        Decimal d;
        if (parseDecimal(text, d) != ParseStatus::Ok)
            return scalar(Kind::Other, {}, text);
        return scalar(Kind::Number, d, text);
    }
    bool string(std::string& v) { return scalar(Kind::String, {}, v); }
    bool binary(Json::binary_t&) { return true; }

    bool start_object(std::size_t) { return open(true); }
    bool start_array(std::size_t) { return open(false); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool key(std::string& k)
    {
        m_key = k;
        return true;
    }

    bool parse_error(std::size_t position, const std::string& lastToken, const nlohmann::detail::exception& ex)
    {
        m_error.record(m_startOffset, position, lastToken, ex, m_input);
        return false;
    }
    const jsonsax::SyntaxError& error() const { return m_error; }
    SpeedscopeFile& file() { return m_file; }

private:
    enum class Kind : std::uint8_t { Number, String, Other };

    [[noreturn]] void fail(const std::string& what) const
    {
        throw FormatError(where() + what, -1, m_input.offset());
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

    std::uint32_t index(Kind kind, const Decimal& d, const std::string& text, const char* what) const
    {
        if (kind != Kind::Number || d.negative || d.exponent != 0 || d.mantissa > 0xFFFFFFF0u)
            fail(std::string(what) + " must be a frame index, found " + text);
        return std::uint32_t(d.mantissa);
    }

    bool scalar(Kind kind, const Decimal& d, const std::string& text)
    {
        const Context here = m_stack.empty() ? Context::Other : m_stack.back();
        switch (here) {
        case Context::Frame: {
            SpeedscopeFile::Frame& f = m_frame;
            if (m_key == "name" && kind == Kind::String)
                f.name = text;
            else if (m_key == "file" && kind == Kind::String)
                f.file = text;
            else if (m_key == "line" && kind == Kind::Number && !d.negative && d.exponent == 0)
                f.line = std::int64_t(std::min<std::uint64_t>(d.mantissa, INT32_MAX));
            break;
        }
        case Context::Profile: {
            SpeedscopeFile::Profile& p = m_file.profiles.back();
            if (m_key == "type" || m_key == "name" || m_key == "unit") {
                if (kind != Kind::String)
                    fail("'" + m_key + "' must be a string, found " + text);
                (m_key == "type" ? p.type : m_key == "name" ? p.name : p.unit) = text;
            } else if (m_key == "startValue" || m_key == "endValue") {
                if (kind != Kind::Number)
                    fail("'" + m_key + "' must be a number, found " + text);
                (m_key == "startValue" ? p.startValue : p.endValue) = d;
                (m_key == "startValue" ? p.hasStart : p.hasEnd) = true;
            }
            break;
        }
        case Context::Event:
            if (m_key == "type") {
                if (kind != Kind::String || (text != "O" && text != "C"))
                    fail("'type' must be \"O\" or \"C\", found " + text);
                m_eventType = text[0];
            } else if (m_key == "at") {
                if (kind != Kind::Number)
                    fail("'at' must be a number, found " + text);
                m_event.at = d;
                m_hasAt = true;
            } else if (m_key == "frame") {
                m_event.frame = index(kind, d, text, "'frame'");
                m_hasFrame = true;
            }
            break;
        case Context::Sample:
            m_file.profiles.back().sampleFrames.push_back(index(kind, d, text, "a sample's entry"));
            break;
        case Context::Weights:
            if (kind != Kind::Number)
                fail("a weight must be a number, found " + text);
            m_file.profiles.back().weights.push_back(d);
            break;
        case Context::Other:
            if (m_stack.empty())
                throw FormatError("expected '{' at the start of a speedscope file", -1, 0);
            break;
        default:
            break;
        }
        return true;
    }

    bool open(bool object)
    {
        const Context parent = m_stack.empty() ? Context::Other : m_stack.back();
        Context here = Context::Other;
        if (m_stack.empty())
            here = object ? Context::Top : Context::Other;
        else if (parent == Context::Top && m_key == "shared" && object)
            here = Context::Shared;
        else if (parent == Context::Shared && m_key == "frames" && !object)
            here = Context::Frames;
        else if (parent == Context::Frames && object)
            here = Context::Frame;
        else if (parent == Context::Top && m_key == "profiles" && !object)
            here = Context::Profiles;
        else if (parent == Context::Profiles && object)
            here = Context::Profile;
        else if (parent == Context::Profile && m_key == "events" && !object)
            here = Context::Events;
        else if (parent == Context::Events && object)
            here = Context::Event;
        else if (parent == Context::Profile && m_key == "samples" && !object)
            here = Context::Samples;
        else if (parent == Context::Samples && !object)
            here = Context::Sample;
        else if (parent == Context::Profile && m_key == "weights" && !object)
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
        return true;
    }

    bool close()
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
        return true;
    }

    ChunkedFileReader& m_input;
    std::int64_t m_startOffset;
    SpeedscopeFile m_file;
    std::vector<Context> m_stack;
    std::string m_key;
    SpeedscopeFile::Frame m_frame;
    SpeedscopeFile::Event m_event{};
    char m_eventType = 0;
    bool m_hasAt = false;
    bool m_hasFrame = false;
    jsonsax::SyntaxError m_error;
};

} // namespace

SpeedscopeJsonReader::SpeedscopeJsonReader(ChunkedFileReader& input) : m_input(input) { }

SpeedscopeFile SpeedscopeJsonReader::read()
{
    Handler handler(m_input);
    if (!Json::sax_parse(m_input.begin(), m_input.end(), &handler, nlohmann::json::input_format_t::json, false)) {
        const jsonsax::SyntaxError& e = handler.error();
        throw FormatError(e.message, -1, e.offset);
    }
    return std::move(handler.file());
}

} // namespace runlane
