#pragma once

// Helpers shared by the nlohmann SAX readers. Only included by .cpp files,
// so that nlohmann's heavy header stays out of the rest of the code.

#include "chunkedfilereader.h"
#include "diagnostics.h"
#include "loaderror.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <string_view>

namespace runlane::jsonsax {

using Json = nlohmann::json;

// "invalid JSON: syntax error while parsing value - unexpected ']'; ..." from
// nlohmann's "[json.exception.parse_error.101] parse error at line 3, column
// 5: syntax error ...". Its line and column count from where this parse
// call started and point past the token; the loader reports the position
// from the byte offset instead.
inline std::string cleanParseError(const std::string& what)
{
    std::string text = what;
    if (text.rfind("[json.exception.", 0) == 0) {
        const auto close = text.find("] ");
        if (close != std::string::npos)
            text = text.substr(close + 2);
    }
    const std::string marker = "parse error at line ";
    if (text.rfind(marker, 0) == 0) {
        const auto colon = text.find(": ");
        if (colon != std::string::npos)
            text = text.substr(colon + 2);
    }
    // The message quotes the bytes it stopped at, which may not be UTF-8.
    std::string clean;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x80) {
            clean += c;
        } else {
            static constexpr char hex[] = "0123456789abcdef";
            clean += "\\x";
            clean += hex[byte >> 4];
            clean += hex[byte & 0xf];
        }
    }
    return "invalid JSON: " + clean;
}

// What a parse error looked like, recorded by a handler's parse_error().
struct SyntaxError {
    bool seen = false;
    std::int64_t offset = -1;
    std::string message;
    std::string token;
    // The structural character nlohmann did not expect ("unexpected ']'"),
    // 0 for other errors.
    char unexpected = 0;
    // The input ended inside a value ("unexpected end of input").
    bool atEnd = false;

    void record(std::int64_t startOffset, std::size_t position, const std::string& lastToken,
                const nlohmann::detail::exception& ex, ChunkedFileReader& input)
    {
        seen = true;
        message = cleanParseError(ex.what());
        token = lastToken;
        const auto quote = message.find("unexpected '");
        unexpected = quote != std::string::npos && quote + 13 < message.size() && message[quote + 13] == '\''
            ? message[quote + 12]
            : 0;
        // The input ran out: nlohmann says so, or (inside a string or a
        // literal) it stopped at the last byte without finding a wrong
        // character. A small file is read whole before the parser reaches
        // its last token, so the reader alone cannot tell.
        atEnd = message.find("unexpected end of input") != std::string::npos
            || (unexpected == 0 && input.atEnd() && startOffset + std::int64_t(position) >= input.offset());
        // At the end of input the offset is the file's size; otherwise
        // `position` counts the bytes read up to the end of the offending
        // token, and the offset names its start.
        if (atEnd)
            offset = input.offset();
        else
            offset = startOffset + std::max<std::int64_t>(0, std::int64_t(position) - std::int64_t(tokenLength(lastToken, message)));
    }

    // nlohmann's "last token" restarts only at strings and numbers: after a
    // structural character or in a bad literal it also holds what came
    // before (`"dur": }`, `1, tru]`). The offending token is its tail.
    static std::size_t tokenLength(const std::string& lastToken, const std::string& message)
    {
        if (lastToken.empty())
            return 0;
        const bool structural = std::string_view("{}[],:").find(lastToken.back()) != std::string_view::npos;
        if (structural && message.find("unexpected '") != std::string::npos)
            return 1;
        if (message.find("invalid literal") != std::string::npos && lastToken.size() > 1) {
            const auto before = lastToken.find_last_of(" \t\r\n,:[]{}", lastToken.size() - 2);
            return before == std::string::npos ? lastToken.size() : lastToken.size() - before - 1;
        }
        return lastToken.size();
    }
};

// Short printable form of a scalar, for messages about wrong types.
inline std::string describeScalar(std::string_view text, std::size_t max = 40)
{
    if (text.size() <= max)
        return std::string(text);
    return std::string(text.substr(0, max)) + "...";
}

} // namespace runlane::jsonsax
