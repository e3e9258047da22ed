#include "perfscriptline.h"

#include <array>
#include <cstring>

namespace runlane {

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isHex(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool allDigits(std::string_view text)
{
    if (text.empty())
        return false;
    for (const char c : text) {
        if (!isDigit(c))
            return false;
    }
    return true;
}

// Digits, or '-' then digits (perf writes -1 for what it does not know).
bool parseId(std::string_view text, std::int64_t& out)
{
    const bool negative = !text.empty() && text.front() == '-';
    if (negative)
        text.remove_prefix(1);
    if (!allDigits(text) || text.size() > 18)
        return false;
    std::int64_t value = 0;
    for (const char c : text)
        value = value * 10 + (c - '0');
    out = negative ? -value : value;
    return true;
}

// "tid" or "pid/tid".
bool parseThread(std::string_view text, PerfScriptLine::Header& out)
{
    const auto slash = text.find('/');
    if (slash == std::string_view::npos) {
        out.hasPid = false;
        out.pid = 0;
        return parseId(text, out.tid);
    }
    out.hasPid = true;
    return parseId(text.substr(0, slash), out.pid) && parseId(text.substr(slash + 1), out.tid);
}

bool isCpu(std::string_view text)
{
    return text.size() >= 3 && text.front() == '[' && text.back() == ']' && allDigits(text.substr(1, text.size() - 2));
}

// A token that starts with a digit and ends with ':' stands where the
// timestamp does; whether it is one is then checked strictly.
bool looksLikeTime(std::string_view token)
{
    return token.size() >= 2 && isDigit(token.front()) && token.back() == ':' && token.find('.') != std::string_view::npos;
}

// "secs.frac:" to ns, exactly: up to 9 decimals (perf writes 6, or 9 with
// --ns), seconds small enough for the ns to fit in 63 bits.
bool parseTime(std::string_view token, Time& out)
{
    token.remove_suffix(1); // ':'
    const auto dot = token.find('.');
    const std::string_view secs = token.substr(0, dot);
    const std::string_view frac = token.substr(dot + 1);
    if (!allDigits(secs) || !allDigits(frac) || frac.size() > 9 || secs.size() > 10)
        return false;
    std::int64_t s = 0;
    for (const char c : secs)
        s = s * 10 + (c - '0');
    if (s > kTimeMax / 1'000'000'000 - 1)
        return false;
    std::int64_t ns = 0;
    for (std::size_t i = 0; i < 9; ++i)
        ns = ns * 10 + (i < frac.size() ? frac[i] - '0' : 0);
    out = s * 1'000'000'000 + ns;
    return true;
}

bool parsePeriod(std::string_view text, std::uint64_t& out)
{
    if (!allDigits(text) || text.size() > 19)
        return false;
    std::uint64_t value = 0;
    for (const char c : text)
        value = value * 10 + std::uint64_t(c - '0');
    out = value;
    return true;
}

struct Token {
    std::string_view text;
    std::size_t begin = 0; // offset in the line
};

// Enough for a comm of spaces and the fields up to the event; what comes
// after is rest, never split.
constexpr std::size_t kMaxTokens = 16;

// The blank-separated fields of a line, split as far as they are asked for.
class Tokens
{
public:
    explicit Tokens(std::string_view line) : m_line(line) { }
    std::size_t count() const { return m_count; }
    const Token& operator[](std::size_t i) const { return m_tokens[i]; }
    // Splits off the next field; false at the end of the line.
    bool next()
    {
        while (m_pos < m_line.size() && isSpace(m_line[m_pos]))
            ++m_pos;
        if (m_pos >= m_line.size() || m_count == kMaxTokens)
            return false;
        const std::size_t begin = m_pos;
        while (m_pos < m_line.size() && !isSpace(m_line[m_pos]))
            ++m_pos;
        m_tokens[m_count++] = Token{m_line.substr(begin, m_pos - begin), begin};
        return true;
    }
    // Splits until there are `n` fields, if the line has them.
    bool have(std::size_t n)
    {
        while (m_count < n && next()) { }
        return m_count >= n;
    }

private:
    std::string_view m_line;
    std::array<Token, kMaxTokens> m_tokens;
    std::size_t m_count = 0;
    std::size_t m_pos = 0;
};

bool isEvent(std::string_view token)
{
    return token.size() >= 2 && token.back() == ':' && !isDigit(token.front());
}

} // namespace

std::string_view PerfScriptLine::trim(std::string_view text)
{
    while (!text.empty() && (isSpace(text.front()) || text.front() == '\n'))
        text.remove_prefix(1);
    while (!text.empty() && (isSpace(text.back()) || text.back() == '\n'))
        text.remove_suffix(1);
    return text;
}

std::string PerfScriptLine::excerpt(std::string_view line)
{
    line = trim(line);
    std::string text(line.substr(0, 60));
    for (char& c : text) {
        if (static_cast<unsigned char>(c) < 0x20)
            c = '?';
    }
    return line.size() > 60 ? text + "…" : text;
}

bool PerfScriptLine::isBlank(std::string_view line)
{
    for (const char c : line) {
        if (!isSpace(c) && c != '\n')
            return false;
    }
    return true;
}

std::string_view PerfScriptLine::parseHeader(std::string_view line, Header& out)
{
    out = Header{};
    Tokens tokens(line);
    // The anchor: the timestamp, else the event.
    std::size_t anchor = 0;
    while (anchor == 0 && tokens.next()) {
        const std::size_t i = tokens.count() - 1;
        const std::string_view t = tokens[i].text;
        if (i == 0)
            continue;
        if (looksLikeTime(t)) {
            if (!parseTime(t, out.time))
                return "a bad timestamp (expected seconds.fraction:, at most 9 decimals)";
            out.hasTime = true;
            anchor = i;
        } else if (isEvent(t)) {
            anchor = i;
        }
    }
    if (anchor == 0)
        return "no timestamp (secs.usecs:) nor event (name:) after the thread";

    std::size_t event = anchor;
    std::size_t j = anchor - 1; // the last field before the anchor
    if (out.hasTime) {
        event = anchor + 1;
        if (tokens.have(event + 1) && allDigits(tokens[event].text)) {
            if (!parsePeriod(tokens[event].text, out.period))
                return "a period too large";
            out.hasPeriod = true;
            ++event;
        }
        if (!tokens.have(event + 1) || !isEvent(tokens[event].text))
            return "no event (name:) after the timestamp";
    } else if (j >= 1 && allDigits(tokens[j].text)
               && (isCpu(tokens[j - 1].text) || parseThread(tokens[j - 1].text, out))) {
        // "tid period event:" without a timestamp: two numbers before the
        // event, the second the period.
        if (!parsePeriod(tokens[j].text, out.period))
            return "a period too large";
        out.hasPeriod = true;
        --j;
    }
    if (isCpu(tokens[j].text)) {
        if (j == 0)
            return "no thread id before the cpu";
        --j;
    }
    if (!parseThread(tokens[j].text, out))
        return "no thread id ([pid/]tid) before the timestamp";
    if (j > 0) {
        const Token& last = tokens[j - 1];
        out.comm = trim(line.substr(0, last.begin + last.text.size()));
    }
    const Token& e = tokens[event];
    out.event = e.text.substr(0, e.text.size() - 1);
    out.rest = trim(line.substr(e.begin + e.text.size()));
    return {};
}

bool PerfScriptLine::parseFrame(std::string_view line, Frame& out)
{
    out = Frame{};
    line = trim(line);
    std::size_t end = 0;
    while (end < line.size() && isHex(line[end]))
        ++end;
    if (end == 0 || (end < line.size() && !isSpace(line[end])))
        return false;
    out.address = line.substr(0, end);
    std::string_view rest = trim(line.substr(end));
    if (!rest.empty() && rest.back() == ')') {
        // The dso is the last parenthesised group, after a blank (symbols
        // have parentheses of their own: "f(int) (/usr/bin/app)").
        int depth = 0;
        std::size_t open = std::string_view::npos;
        for (std::size_t i = rest.size(); i-- > 0;) {
            if (rest[i] == ')')
                ++depth;
            else if (rest[i] == '(' && --depth == 0) {
                open = i;
                break;
            }
        }
        if (open != std::string_view::npos && (open == 0 || isSpace(rest[open - 1]))) {
            out.dso = rest.substr(open + 1, rest.size() - open - 2);
            out.hasDso = true;
            rest = trim(rest.substr(0, open));
        }
    }
    // "sym+0x1f": the offset in the function says nothing about which
    // function it is.
    const auto plus = rest.rfind("+0x");
    if (plus != std::string_view::npos && plus > 0 && plus + 3 < rest.size()) {
        bool hex = true;
        for (std::size_t i = plus + 3; i < rest.size() && hex; ++i)
            hex = isHex(rest[i]);
        if (hex)
            rest = rest.substr(0, plus);
    }
    out.symbol = rest.empty() ? std::string_view("[unknown]") : rest;
    return true;
}

bool PerfScriptLine::mayBeHeader(std::string_view line)
{
    // A header has "secs.usecs: " or "event:" at the end; a frame line
    // has colons only in names ("ns::f"), so this is rarely true of one.
    const char* p = line.data();
    const char* end = p + line.size();
    while ((p = static_cast<const char*>(std::memchr(p, ':', std::size_t(end - p))))) {
        ++p;
        if (p == end || isSpace(*p))
            return true;
    }
    return false;
}

} // namespace runlane
