#pragma once

#include <climits>
#include <cstdint>
#include <string>
#include <string_view>

namespace runlane {

// A JSON scalar as a tokenizer reports it. Integers that fit in 64 bits are
// Integer or Unsigned (nlohmann calls every non-negative one Unsigned and
// only a negative one Integer); other numbers are Float with their text as
// written, so that times keep every digit. Free of any JSON library: the
// nlohmann readers (JsonSaxHandler) and the simdjson one fill the same one.
struct JsonScalar {
    enum Kind : std::uint8_t { Null, True, False, Integer, Unsigned, Float, String };
    Kind kind = Null;
    std::int64_t i = 0;
    std::uint64_t u = 0;
    double f = 0;
    std::string_view text; // Float: the number as written; String: the unescaped text

    // An integer that fits in int64_t (a larger Unsigned does not).
    bool isInt64() const { return kind == Integer || (kind == Unsigned && u <= std::uint64_t(INT64_MAX)); }
    // The value if isInt64().
    std::int64_t int64() const { return kind == Integer ? i : std::int64_t(u); }

    // The value as the readers' messages quote it: a string's own text
    // (unquoted), anything else as the file wrote it (a number's digits,
    // null, true, false). Appends, so that a reader writing JSON back
    // builds no string per value.
    void appendPlain(std::string& out) const
    {
        switch (kind) {
        case Null:
            out += "null";
            break;
        case True:
            out += "true";
            break;
        case False:
            out += "false";
            break;
        case Integer:
            out += std::to_string(i);
            break;
        case Unsigned:
            out += std::to_string(u);
            break;
        case Float:
        case String:
            out += text;
            break;
        }
    }
    std::string plain() const
    {
        std::string out;
        appendPlain(out);
        return out;
    }
    // plain() without a copy where the text is there already (a string, a
    // float); other values are written into `buffer`.
    std::string_view plain(std::string& buffer) const
    {
        if (kind == Float || kind == String)
            return text;
        buffer.clear();
        appendPlain(buffer);
        return buffer;
    }
};

} // namespace runlane
