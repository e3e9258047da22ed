#include "prometheustext.h"

#include "gaugerows.h"
#include "numberparse.h"

#include <algorithm>
#include <climits>

namespace runlane {

namespace {

bool isNameStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

bool isNameChar(char c)
{
    return isNameStart(c) || (c >= '0' && c <= '9');
}

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

// RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF.
bool isValidUtf8(std::string_view s)
{
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const auto* end = p + s.size();
    while (p < end) {
        const unsigned char c = *p;
        if (c < 0x80) {
            ++p;
            continue;
        }
        std::size_t extra = 0;
        unsigned char lo = 0x80, hi = 0xbf;
        if (c >= 0xc2 && c <= 0xdf) {
            extra = 1;
        } else if (c >= 0xe0 && c <= 0xef) {
            extra = 2;
            lo = c == 0xe0 ? 0xa0 : 0x80;
            hi = c == 0xed ? 0x9f : 0xbf;
        } else if (c >= 0xf0 && c <= 0xf4) {
            extra = 3;
            lo = c == 0xf0 ? 0x90 : 0x80;
            hi = c == 0xf4 ? 0x8f : 0xbf;
        } else {
            return false;
        }
        if (std::size_t(end - p) <= extra || p[1] < lo || p[1] > hi)
            return false;
        for (std::size_t k = 2; k <= extra; ++k) {
            if (p[k] < 0x80 || p[k] > 0xbf)
                return false;
        }
        p += extra + 1;
    }
    return true;
}

bool isAscii(std::string_view s)
{
    unsigned char any = 0;
    for (const char c : s)
        any |= static_cast<unsigned char>(c);
    return any < 0x80;
}

// One sample line: `name{label="value",...} value [timestamp]`. Only the
// labels Chroprof's gauges carry are kept (decoded into reused strings, so
// that 25,000 lines do not allocate 75,000 times).
class SampleLine
{
public:
    // nullptr when the line is well-formed, else what was expected.
    const char* parse(std::string_view line)
    {
        m_line = line;
        m_pos = 0;
        hasProc = hasFile = hasLine = false;
        skipBlanks();
        if (m_pos >= line.size() || !isNameStart(line[m_pos]))
            return "expected a metric name";
        const std::size_t nameStart = m_pos;
        while (m_pos < line.size() && isNameChar(line[m_pos]))
            ++m_pos;
        name = line.substr(nameStart, m_pos - nameStart);
        skipBlanks();
        if (m_pos < line.size() && line[m_pos] == '{') {
            ++m_pos;
            if (const char* error = labels())
                return error;
        } else if (m_pos == nameStart + name.size() && m_pos < line.size()) {
            return "expected '{' or a blank after the metric name";
        }
        skipBlanks();
        value = token();
        if (value.empty())
            return "expected a value";
        skipBlanks();
        timestamp = token();
        skipBlanks();
        if (m_pos < line.size())
            return "expected the end of the line after the timestamp";
        return nullptr;
    }

    std::string_view name, value, timestamp;
    std::string proc, file, lineLabel;
    bool hasProc = false, hasFile = false, hasLine = false;

private:
    void skipBlanks()
    {
        while (m_pos < m_line.size() && isBlank(m_line[m_pos]))
            ++m_pos;
    }

    std::string_view token()
    {
        const std::size_t start = m_pos;
        while (m_pos < m_line.size() && !isBlank(m_line[m_pos]))
            ++m_pos;
        return m_line.substr(start, m_pos - start);
    }

    // After '{': label="value" pairs up to '}', a trailing comma allowed.
    const char* labels()
    {
        for (;;) {
            skipBlanks();
            if (m_pos < m_line.size() && m_line[m_pos] == '}') {
                ++m_pos;
                return nullptr;
            }
            if (m_pos >= m_line.size() || !isNameStart(m_line[m_pos]))
                return "expected a label name or '}'";
            const std::size_t start = m_pos;
            while (m_pos < m_line.size() && isNameChar(m_line[m_pos]))
                ++m_pos;
            const std::string_view label = m_line.substr(start, m_pos - start);
            skipBlanks();
            if (m_pos >= m_line.size() || m_line[m_pos] != '=')
                return "expected '=' after a label name";
            ++m_pos;
            skipBlanks();
            if (m_pos >= m_line.size() || m_line[m_pos] != '"')
                return "expected '\"' to open a label value";
            ++m_pos;
            std::string* target = &m_scratch;
            if (label == "proc") {
                target = &proc;
                hasProc = true;
            } else if (label == "file") {
                target = &file;
                hasFile = true;
            } else if (label == "line") {
                target = &lineLabel;
                hasLine = true;
            }
            if (const char* error = labelValue(*target))
                return error;
            skipBlanks();
            if (m_pos < m_line.size() && m_line[m_pos] == ',') {
                ++m_pos;
                continue;
            }
            if (m_pos < m_line.size() && m_line[m_pos] == '}') {
                ++m_pos;
                return nullptr;
            }
            return "expected ',' or '}' after a label value";
        }
    }

    // After the opening quote, up to and past the closing one.
    const char* labelValue(std::string& out)
    {
        out.clear();
        for (;;) {
            // A loop, not find_first_of: that calls memchr on the two
            // characters for every byte, the parse's largest cost.
            std::size_t stop = m_pos;
            while (stop < m_line.size() && m_line[stop] != '"' && m_line[stop] != '\\')
                ++stop;
            if (stop == m_line.size())
                return "unterminated label value";
            out.append(m_line.substr(m_pos, stop - m_pos));
            m_pos = stop + 1;
            if (m_line[stop] == '"')
                return nullptr;
            if (m_pos >= m_line.size())
                return "unterminated label value";
            const char escaped = m_line[m_pos++];
            if (escaped == '\\' || escaped == '"')
                out += escaped;
            else if (escaped == 'n')
                out += '\n';
            else
                return "invalid escape in a label value (only \\\\, \\\" and \\n)";
        }
    }

    std::string_view m_line;
    std::size_t m_pos = 0;
    std::string m_scratch;
};

class Parser
{
public:
    explicit Parser(PrometheusText::Result& result) : m_result(result) { }

    void line(std::string_view text, std::uint64_t number)
    {
        if (!isAscii(text) && !isValidUtf8(text)) {
            ++m_result.invalidUtf8Lines;
            warn(number, "not valid UTF-8; skipped");
            return;
        }
        std::size_t start = 0;
        while (start < text.size() && isBlank(text[start]))
            ++start;
        // Blank lines and comments (# HELP, # TYPE, any other) carry no sample.
        if (start == text.size() || text[start] == '#')
            return;
        if (const char* error = m_sample.parse(text)) {
            ++m_result.malformedLines;
            warn(number, error);
            return;
        }
        const auto value = GaugeRows::parseValue(m_sample.value);
        if (!value) {
            ++m_result.malformedLines;
            warn(number, "expected a float value (\"1.5e+09\", \"NaN\", \"+Inf\")");
            return;
        }
        std::int64_t ms = 0;
        std::int64_t ns = 0;
        if (!m_sample.timestamp.empty()
            && (!parseInteger(m_sample.timestamp, ms) || scaleInteger(ms, 6, ns) != ParseStatus::Ok)) {
            ++m_result.malformedLines;
            warn(number, "expected a timestamp in integer ms since the epoch");
            return;
        }
        ++m_result.samples;
        const GaugeRows::Gauge gauge = GaugeRows::gaugeOf(m_sample.name);
        if (gauge == GaugeRows::Gauge::None) {
            ++m_result.otherSamples;
            return;
        }
        if (!m_sample.hasProc) {
            warn(number, "a Chroprof gauge without a 'proc' label; skipped");
            return;
        }
        std::int64_t line = 0;
        if (m_sample.hasLine && !parseInteger(m_sample.lineLabel, line)) {
            warn(number, "the 'line' label is not an integer; taken as 0");
            line = 0;
        }
        const auto integer = GaugeRows::toInteger(*value);
        if (!integer)
            warn(number, "the value " + std::string(m_sample.value) + " is not a non-negative number; taken as 0");
        if (!m_sample.timestamp.empty()) {
            m_newest = m_result.timestamped ? std::max(m_newest, ns) : ns;
            m_result.timestamped = true;
        }
        m_rows.set(m_sample.proc, m_sample.hasFile ? std::string_view(m_sample.file) : std::string_view(),
                   std::int32_t(std::clamp<std::int64_t>(line, 0, INT32_MAX)), gauge, integer.value_or(0));
    }

    void finish(Time scrapeTime) { m_result.snapshot = m_rows.snapshot(m_result.timestamped ? m_newest : scrapeTime); }

private:
    void warn(std::uint64_t number, std::string_view what)
    {
        if (m_result.warnings.size() < PrometheusText::kMaxWarnings)
            m_result.warnings.push_back("line " + std::to_string(number) + ": " + std::string(what));
    }

    PrometheusText::Result& m_result;
    SampleLine m_sample;
    GaugeRows m_rows;
    Time m_newest = 0;
};

} // namespace

PrometheusText::Result PrometheusText::parse(std::string_view text, Time scrapeTime)
{
    Result result;
    Parser parser(result);
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        parser.line(line, ++result.lines);
    }
    parser.finish(scrapeTime);
    return result;
}

} // namespace runlane
