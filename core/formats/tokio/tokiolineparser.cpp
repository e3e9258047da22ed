#include "tokiolineparser.h"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <limits>

namespace runlane {

namespace {

// What a byte of the line reads as in a message.
std::string found(std::string_view text, std::size_t pos)
{
    if (pos >= text.size())
        return "the end of the line";
    const auto c = static_cast<unsigned char>(text[pos]);
    if (c >= 0x20 && c < 0x7f)
        return std::string("'") + char(c) + "'";
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "byte 0x%02x", unsigned(c));
    return buffer;
}

void appendUtf8(std::string& out, std::uint32_t code)
{
    if (code < 0x80) {
        out += char(code);
    } else if (code < 0x800) {
        out += char(0xc0 | (code >> 6));
        out += char(0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
        out += char(0xe0 | (code >> 12));
        out += char(0x80 | ((code >> 6) & 0x3f));
        out += char(0x80 | (code & 0x3f));
    } else {
        out += char(0xf0 | (code >> 18));
        out += char(0x80 | ((code >> 12) & 0x3f));
        out += char(0x80 | ((code >> 6) & 0x3f));
        out += char(0x80 | (code & 0x3f));
    }
}

// Consumes `prefix` at the start of `rest`.
bool literal(std::string_view& rest, std::string_view prefix)
{
    if (rest.substr(0, prefix.size()) != prefix)
        return false;
    rest.remove_prefix(prefix.size());
    return true;
}

// 1 to 19 digits (no overflow possible), consumed.
bool digits(std::string_view& rest, std::uint64_t& value)
{
    std::size_t n = 0;
    value = 0;
    while (n < rest.size() && n < 19 && rest[n] >= '0' && rest[n] <= '9')
        value = value * 10 + std::uint64_t(rest[n++] - '0');
    if (n == 0 || (n < rest.size() && rest[n] >= '0' && rest[n] <= '9'))
        return false;
    rest.remove_prefix(n);
    return true;
}

constexpr std::uint64_t kMaxSecs = std::uint64_t(std::numeric_limits<Time>::max() / 1'000'000'000) - 1;

} // namespace

void TokioLineParser::fail(std::string message)
{
    m_message = std::move(message);
    throw Failure{};
}

void TokioLineParser::failExpected(std::string_view what)
{
    fail("expected " + std::string(what) + ", found " + found(m_text, m_pos));
}

void TokioLineParser::skipBlanks()
{
    while (m_pos < m_text.size()) {
        const char c = m_text[m_pos];
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
            return;
        ++m_pos;
    }
}

bool TokioLineParser::consume(char c)
{
    skipBlanks();
    if (m_pos < m_text.size() && m_text[m_pos] == c) {
        ++m_pos;
        return true;
    }
    return false;
}

void TokioLineParser::expect(char c, std::string_view what)
{
    if (!consume(c))
        failExpected(what);
}

void TokioLineParser::string(std::string& out)
{
    expect('"', "a string");
    out.clear();
    for (;;) {
        // Plain runs are copied at once; only escapes go byte by byte.
        const char* begin = m_text.data() + m_pos;
        std::size_t run = 0;
        while (m_pos + run < m_text.size()) {
            const char c = begin[run];
            if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20)
                break;
            ++run;
        }
        out.append(begin, run);
        m_pos += run;
        if (m_pos >= m_text.size())
            failExpected("the end of the string");
        const char c = m_text[m_pos];
        if (c == '"') {
            ++m_pos;
            return;
        }
        if (c != '\\')
            fail("a control character (" + found(m_text, m_pos) + ") inside a string");
        if (++m_pos >= m_text.size())
            failExpected("an escape");
        const char e = m_text[m_pos++];
        switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
            auto hex4 = [this]() {
                std::uint32_t code = 0;
                for (int i = 0; i < 4; ++i, ++m_pos) {
                    if (m_pos >= m_text.size())
                        failExpected("4 hexadecimal digits");
                    const char h = m_text[m_pos];
                    const int digit = h >= '0' && h <= '9' ? h - '0'
                        : h >= 'a' && h <= 'f'             ? h - 'a' + 10
                        : h >= 'A' && h <= 'F'             ? h - 'A' + 10
                                                           : -1;
                    if (digit < 0)
                        failExpected("a hexadecimal digit");
                    code = code * 16 + std::uint32_t(digit);
                }
                return code;
            };
            std::uint32_t code = hex4();
            // A surrogate pair is one character; a lone half becomes U+FFFD.
            if (code >= 0xd800 && code < 0xdc00 && m_text.substr(m_pos, 2) == "\\u") {
                m_pos += 2;
                const std::uint32_t low = hex4();
                code = low >= 0xdc00 && low < 0xe000 ? 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00) : 0xfffd;
            } else if (code >= 0xd800 && code < 0xe000) {
                code = 0xfffd;
            }
            appendUtf8(out, code);
            break;
        }
        default:
            --m_pos;
            fail("an invalid escape \\" + found(m_text, m_pos));
        }
    }
}

void TokioLineParser::key()
{
    string(m_key);
    expect(':', "':' after a key");
}

std::uint64_t TokioLineParser::unsignedInteger(std::string_view what)
{
    skipBlanks();
    const std::size_t start = m_pos;
    std::uint64_t value = 0;
    while (m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9') {
        const auto digit = std::uint64_t(m_text[m_pos] - '0');
        if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) {
            m_pos = start;
            fail(std::string(what) + " is out of range");
        }
        value = value * 10 + digit;
        ++m_pos;
    }
    if (m_pos == start)
        failExpected(what);
    if (m_pos < m_text.size() && (m_text[m_pos] == '.' || m_text[m_pos] == 'e' || m_text[m_pos] == 'E')) {
        m_pos = start;
        fail(std::string(what) + " must be an integer");
    }
    return value;
}

std::int64_t TokioLineParser::integer(std::string_view what)
{
    skipBlanks();
    const bool negative = m_pos < m_text.size() && m_text[m_pos] == '-';
    if (negative)
        ++m_pos;
    const std::uint64_t magnitude = unsignedInteger(what);
    if (magnitude > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
        fail(std::string(what) + " is out of range");
    return negative ? -std::int64_t(magnitude) : std::int64_t(magnitude);
}

bool TokioLineParser::boolean(std::string_view what)
{
    skipBlanks();
    if (m_text.substr(m_pos, 4) == "true") {
        m_pos += 4;
        return true;
    }
    if (m_text.substr(m_pos, 5) == "false") {
        m_pos += 5;
        return false;
    }
    failExpected(what);
}

// Any JSON value, for keys Runlane does not use. Deep nesting is refused
// rather than followed: no event of the format nests that deep.
void TokioLineParser::skipValue(int depth)
{
    if (depth > 64)
        fail("values nested more than 64 deep");
    skipBlanks();
    if (m_pos >= m_text.size())
        failExpected("a value");
    const char c = m_text[m_pos];
    if (c == '"') {
        string(m_value);
    } else if (c == '{' || c == '[') {
        const char close = c == '{' ? '}' : ']';
        ++m_pos;
        if (consume(close))
            return;
        do {
            if (c == '{')
                key();
            skipValue(depth + 1);
        } while (consume(','));
        expect(close, c == '{' ? "',' or '}'" : "',' or ']'");
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        if (c == '-')
            ++m_pos;
        const std::size_t start = m_pos;
        while (m_pos < m_text.size() && std::strchr("0123456789.eE+-", m_text[m_pos]) && m_text[m_pos] != '\0')
            ++m_pos;
        if (m_pos == start)
            failExpected("a digit");
    } else if (m_text.substr(m_pos, 4) == "true" || m_text.substr(m_pos, 4) == "null") {
        m_pos += 4;
    } else if (m_text.substr(m_pos, 5) == "false") {
        m_pos += 5;
    } else {
        failExpected("a value");
    }
}

template<typename OnKey>
void TokioLineParser::members(OnKey onKey)
{
    if (consume('}'))
        return;
    do {
        key();
        if (!onKey())
            skipValue();
    } while (consume(','));
    expect('}', "',' or '}'");
}

template<typename Body>
bool TokioLineParser::guarded(std::string_view line, Error& error, Body body)
{
    m_text = line;
    m_pos = 0;
    try {
        body();
        return true;
    } catch (const Failure&) {
        error.message = std::move(m_message);
        error.position = m_pos;
        error.atEnd = m_pos >= line.size();
        return false;
    }
}

// {"secs_since_epoch":S,"nanos_since_epoch":NS} (serde's SystemTime).
Time TokioLineParser::time()
{
    skipBlanks();
    const std::size_t start = m_pos;
    expect('{', "a time ({\"secs_since_epoch\": ..., \"nanos_since_epoch\": ...})");
    std::uint64_t secs = 0, nanos = 0;
    bool hasSecs = false, hasNanos = false;
    members([&] {
        if (m_key == "secs_since_epoch") {
            secs = unsignedInteger("seconds");
            return hasSecs = true;
        }
        if (m_key == "nanos_since_epoch") {
            nanos = unsignedInteger("nanoseconds");
            return hasNanos = true;
        }
        return false;
    });
    if (!hasSecs || !hasNanos)
        fail(std::string("a time without '") + (hasSecs ? "nanos_since_epoch" : "secs_since_epoch") + "'");
    if (secs > kMaxSecs || nanos >= 1'000'000'000) {
        m_pos = start; // the error is the time, not what follows it
        fail("a time out of range (" + std::to_string(secs) + " s, " + std::to_string(nanos) + " ns)");
    }
    return Time(secs) * 1'000'000'000 + Time(nanos);
}

// {"name": "...", "value": ...}: the value a string, integer or boolean.
void TokioLineParser::field(TokioEvent& event)
{
    expect('{', "a field ({\"name\": ..., \"value\": ...})");
    std::string name;
    std::string text;
    std::int64_t number = 0;
    bool isNumber = false;
    bool hasName = false;
    members([&] {
        skipBlanks();
        const char c = m_pos < m_text.size() ? m_text[m_pos] : '\0';
        if (m_key == "name") {
            string(name);
            return hasName = true;
        }
        if (m_key != "value")
            return false;
        if (c == '"') {
            string(text);
        } else if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
            const std::size_t start = m_pos;
            if (c == '-') {
                number = integer("an integer");
                isNumber = true;
            } else {
                // u64 values above int64 (rare ids) are kept as text.
                const std::uint64_t u = unsignedInteger("an integer");
                isNumber = u <= std::uint64_t(std::numeric_limits<std::int64_t>::max());
                number = isNumber ? std::int64_t(u) : 0;
            }
            text.assign(m_text.substr(start, m_pos - start));
        } else {
            return false; // a boolean: nothing Runlane uses
        }
        return true;
    });
    if (!hasName)
        fail("a field without 'name'");
    if (name == "task.name")
        event.name = std::move(text);
    else if (name == "kind")
        event.taskKind = std::move(text);
    else if (name == "spawn.location")
        event.location = std::move(text);
    else if (name == "loc.file")
        event.locFile = std::move(text);
    else if (name == "loc.line" && isNumber)
        event.locLine = number;
}

void TokioLineParser::fields(TokioEvent& event)
{
    expect('[', "the fields array");
    if (consume(']'))
        return;
    do
        field(event);
    while (consume(','));
    expect(']', "',' or ']'");
}

// "Clone", "Drop", {"Wake":{"self_wake":b}} or {"WakeByRef":{"self_wake":b}}.
void TokioLineParser::wakerOp(TokioEvent& event)
{
    skipBlanks();
    const std::size_t start = m_pos;
    if (m_pos < m_text.size() && m_text[m_pos] == '"') {
        string(m_value);
        if (m_value == "Clone")
            event.op = TokioEvent::WakerOp::Clone;
        else if (m_value == "Drop")
            event.op = TokioEvent::WakerOp::Drop;
        else {
            m_pos = start;
            fail("unknown waker op \"" + m_value.substr(0, 40) + "\" (expected Wake, WakeByRef, Clone or Drop)");
        }
        return;
    }
    expect('{', "a waker op (\"Clone\", \"Drop\", {\"Wake\": ...} or {\"WakeByRef\": ...})");
    key();
    if (m_key == "Wake")
        event.op = TokioEvent::WakerOp::Wake;
    else if (m_key == "WakeByRef")
        event.op = TokioEvent::WakerOp::WakeByRef;
    else
        fail("unknown waker op \"" + m_key.substr(0, 40) + "\" (expected Wake, WakeByRef, Clone or Drop)");
    expect('{', "{\"self_wake\": true or false}");
    const std::string op = m_key;
    bool hasSelfWake = false;
    members([&] {
        if (m_key != "self_wake")
            return false;
        event.selfWake = boolean("true or false");
        return hasSelfWake = true;
    });
    if (!hasSelfWake)
        fail("a " + op + " without 'self_wake'");
    expect('}', "'}' after the waker op");
}

void TokioLineParser::payload(TokioEvent& event)
{
    expect('{', "the event's object");
    bool hasId = false, hasAt = false, hasOp = false;
    members([&] {
        if (m_key == "id") {
            event.id = unsignedInteger("an integer id");
            return hasId = true;
        }
        if (m_key == "at") {
            event.at = time();
            return hasAt = true;
        }
        if (m_key == "fields" && event.kind == TokioEvent::Kind::Spawn) {
            fields(event);
            return true;
        }
        if (m_key == "op" && event.kind == TokioEvent::Kind::Waker) {
            wakerOp(event);
            return hasOp = true;
        }
        return false;
    });
    const char* missing = !hasId ? "id" : !hasAt ? "at" : (event.kind == TokioEvent::Kind::Waker && !hasOp) ? "op" : nullptr;
    if (missing)
        fail(event.tag + " event without '" + missing + "'");
}

void TokioLineParser::checkEnd()
{
    skipBlanks();
    if (m_pos < m_text.size())
        failExpected("the end of the line");
}

bool TokioLineParser::parseExact(std::string_view line, TokioEvent& event)
{
    std::string_view rest = line;
    static constexpr std::pair<std::string_view, TokioEvent::Kind> tags[] = {
        {"{\"Enter\":{\"id\":", TokioEvent::Kind::Enter},
        {"{\"Exit\":{\"id\":", TokioEvent::Kind::Exit},
        {"{\"Waker\":{\"id\":", TokioEvent::Kind::Waker},
        {"{\"Close\":{\"id\":", TokioEvent::Kind::Close},
    };
    TokioEvent::Kind kind = TokioEvent::Kind::Unknown;
    for (const auto& [prefix, k] : tags) {
        if (literal(rest, prefix)) {
            kind = k;
            break;
        }
    }
    std::uint64_t id = 0;
    if (kind == TokioEvent::Kind::Unknown || !digits(rest, id))
        return false;
    if (kind == TokioEvent::Kind::Waker) {
        if (literal(rest, ",\"op\":\"Clone\""))
            event.op = TokioEvent::WakerOp::Clone;
        else if (literal(rest, ",\"op\":\"Drop\""))
            event.op = TokioEvent::WakerOp::Drop;
        else if (literal(rest, ",\"op\":{\"Wake\":{\"self_wake\":"))
            event.op = TokioEvent::WakerOp::Wake;
        else if (literal(rest, ",\"op\":{\"WakeByRef\":{\"self_wake\":"))
            event.op = TokioEvent::WakerOp::WakeByRef;
        else
            return false;
        if (event.op == TokioEvent::WakerOp::Wake || event.op == TokioEvent::WakerOp::WakeByRef) {
            if (literal(rest, "true}}"))
                event.selfWake = true;
            else if (literal(rest, "false}}"))
                event.selfWake = false;
            else
                return false;
        }
    }
    std::uint64_t secs = 0;
    std::uint64_t nanos = 0;
    if (!literal(rest, ",\"at\":{\"secs_since_epoch\":") || !digits(rest, secs)
        || !literal(rest, ",\"nanos_since_epoch\":") || !digits(rest, nanos) || rest != "}}}")
        return false;
    if (secs > kMaxSecs || nanos >= 1'000'000'000)
        return false; // the general parser says why
    event.kind = kind;
    event.id = id;
    event.at = Time(secs) * 1'000'000'000 + Time(nanos);
    static constexpr std::string_view names[] = {"Spawn", "Enter", "Exit", "Close", "Waker"};
    event.tag = names[int(kind)];
    return true;
}

bool TokioLineParser::parse(std::string_view line, TokioEvent& event, Error& error)
{
    if (parseExact(line, event))
        return true;
    event.name.clear();
    event.taskKind.clear();
    event.location.clear();
    event.locFile.clear();
    event.locLine = 0;
    event.selfWake = false;
    return guarded(line, error, [&] {
        expect('{', "an event object ({\"Spawn\": ...}, {\"Enter\": ...}, ...)");
        key();
        event.tag = m_key;
        static constexpr std::pair<std::string_view, TokioEvent::Kind> kinds[] = {
            {"Enter", TokioEvent::Kind::Enter}, {"Exit", TokioEvent::Kind::Exit},   {"Waker", TokioEvent::Kind::Waker},
            {"Spawn", TokioEvent::Kind::Spawn}, {"Close", TokioEvent::Kind::Close},
        };
        event.kind = TokioEvent::Kind::Unknown;
        for (const auto& [tag, kind] : kinds) {
            if (m_key == tag)
                event.kind = kind;
        }
        if (event.kind == TokioEvent::Kind::Unknown)
            skipValue();
        else
            payload(event);
        expect('}', "'}' after the event");
        checkEnd();
    });
}

bool TokioLineParser::parseHeader(std::string_view line, std::int64_t& version, Error& error, bool* otherKeys)
{
    if (otherKeys)
        *otherKeys = false;
    return guarded(line, error, [&] {
        expect('{', "the header {\"v\": 1}");
        bool hasVersion = false;
        members([&] {
            if (m_key != "v") {
                if (otherKeys)
                    *otherKeys = true;
                return false;
            }
            version = integer("an integer version");
            return hasVersion = true;
        });
        if (!hasVersion)
            fail("a header without 'v' (the recording's version)");
        checkEnd();
    });
}

} // namespace runlane
