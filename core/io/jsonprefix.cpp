#include "jsonprefix.h"

namespace runlane {

namespace {

// Reads a JSON string starting at the quote at `pos`; npos if it does not end
// within the text. Escapes are kept undecoded: keys we look for have none.
std::size_t readString(std::string_view text, std::size_t pos, std::string& out)
{
    out.clear();
    for (std::size_t i = pos + 1; i < text.size(); ++i) {
        if (text[i] == '\\') {
            if (i + 1 < text.size())
                out += text[++i];
            continue;
        }
        if (text[i] == '"')
            return i + 1;
        out += text[i];
    }
    return std::string_view::npos;
}

// Skips one JSON value starting at `pos` (after blanks); npos if it does not
// end within the text. Only structure matters here, not validity.
std::size_t skipValue(std::string_view text, std::size_t pos)
{
    pos = JsonPrefix::skipBlanks(text, pos);
    if (pos >= text.size())
        return std::string_view::npos;
    std::string scratch;
    if (text[pos] == '"')
        return readString(text, pos, scratch);
    if (text[pos] != '{' && text[pos] != '[') {
        while (pos < text.size() && text[pos] != ',' && text[pos] != '}' && text[pos] != ']'
               && !JsonPrefix::isBlank(text[pos]))
            ++pos;
        return pos < text.size() ? pos : std::string_view::npos;
    }
    int depth = 0;
    for (std::size_t i = pos; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            i = readString(text, i, scratch);
            if (i == std::string_view::npos)
                return i;
            --i;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            if (--depth == 0)
                return i + 1;
        }
    }
    return std::string_view::npos;
}

} // namespace

std::size_t JsonPrefix::skipBlanks(std::string_view text, std::size_t pos)
{
    while (pos < text.size() && isBlank(text[pos]))
        ++pos;
    return pos;
}

JsonPrefix::JsonPrefix(std::string_view text, std::size_t start)
{
    if (start >= text.size())
        return;
    if (text[start] == '{') {
        m_kind = Kind::Object;
        readObject(text, start);
    } else if (text[start] == '[') {
        m_kind = Kind::Array;
        std::size_t pos = skipBlanks(text, start + 1);
        if (pos < text.size() && text[pos] == '{') {
            pos = skipBlanks(text, pos + 1);
            Key key;
            key.offset = pos;
            if (pos < text.size() && text[pos] == '"' && readString(text, pos, key.name) != std::string_view::npos)
                m_firstElementKey = std::move(key);
        }
    }
}

void JsonPrefix::readObject(std::string_view text, std::size_t pos)
{
    pos = skipBlanks(text, pos + 1);
    while (pos < text.size() && text[pos] == '"') {
        Key key;
        key.offset = pos;
        const std::size_t afterKey = readString(text, pos, key.name);
        if (afterKey == std::string_view::npos)
            break;
        pos = skipBlanks(text, afterKey);
        if (pos >= text.size() || text[pos] != ':') {
            m_keys.push_back(std::move(key));
            break;
        }
        const std::size_t value = skipBlanks(text, pos + 1);
        pos = skipValue(text, value);
        if (pos != std::string_view::npos && text[value] != '{' && text[value] != '[')
            key.scalar = text.substr(value, pos - value);
        m_keys.push_back(std::move(key));
        if (pos == std::string_view::npos)
            break;
        pos = skipBlanks(text, pos);
        if (pos >= text.size() || text[pos] != ',')
            break;
        pos = skipBlanks(text, pos + 1);
    }
}

std::optional<std::int64_t> JsonPrefix::Key::integer() const
{
    if (scalar.empty() || scalar.size() > 18 || scalar.find_first_not_of("0123456789") != std::string_view::npos
        || (scalar.size() > 1 && scalar[0] == '0'))
        return std::nullopt;
    std::int64_t value = 0;
    for (const char c : scalar)
        value = value * 10 + (c - '0');
    return value;
}

const JsonPrefix::Key* JsonPrefix::firstKeyOf(std::initializer_list<std::string_view> names) const
{
    for (const Key& key : m_keys) {
        for (std::string_view name : names) {
            if (key.name == name)
                return &key;
        }
    }
    return nullptr;
}

} // namespace runlane
