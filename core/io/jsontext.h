#pragma once

#include <string>
#include <string_view>

namespace runlane {

// JSON text that Runlane writes (a Chrome trace, a Chroprof recording).
class JsonText
{
public:
    // `text` as a JSON string, quotes included: `"` and `\` escaped, control
    // characters as \n, \r, \t or \u00XX; other bytes (UTF-8) as they are.
    static void appendString(std::string& out, std::string_view text);
};

} // namespace runlane
