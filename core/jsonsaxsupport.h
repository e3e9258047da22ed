#pragma once

// Helpers shared by the nlohmann SAX readers. Only included by .cpp files,
// so that nlohmann's heavy header stays out of the rest of the code.

#include "chunkedfilereader.h"
#include "diagnostics.h"
#include "loaderror.h"

#include <nlohmann/json.hpp>

#include <string>

namespace runlane::jsonsax {

using Json = nlohmann::json;

// "line 3, column 5: syntax error while parsing value - unexpected ']'; ..."
// from nlohmann's "[json.exception.parse_error.101] parse error at line 3, ...".
inline std::string cleanParseError(const std::string& what)
{
    std::string text = what;
    const std::string marker = "parse error at ";
    const auto at = text.find(marker);
    if (at != std::string::npos)
        text = text.substr(at + marker.size());
    else if (text.rfind("[json.exception.", 0) == 0) {
        const auto close = text.find("] ");
        if (close != std::string::npos)
            text = text.substr(close + 2);
    }
    return "invalid JSON at " + text;
}

// What a parse error looked like, recorded by a handler's parse_error().
struct SyntaxError {
    bool seen = false;
    std::int64_t offset = -1;
    std::string message;
    std::string token;
    bool atEnd = false;

    void record(std::int64_t startOffset, std::size_t position, const std::string& lastToken,
                const nlohmann::detail::exception& ex, ChunkedFileReader& input)
    {
        seen = true;
        offset = startOffset + std::int64_t(position) - (position > 0 ? 1 : 0);
        message = cleanParseError(ex.what());
        token = lastToken;
        atEnd = input.atEnd();
    }
};

// Short printable form of a scalar, for messages about wrong types.
inline std::string describeScalar(const std::string& text, std::size_t max = 40)
{
    if (text.size() <= max)
        return text;
    return text.substr(0, max) + "...";
}

} // namespace runlane::jsonsax
