#include "formatdetector.h"

#include <cstdio>

namespace runlane {

namespace {

bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::size_t skipBlanks(std::string_view text, std::size_t pos)
{
    while (pos < text.size() && isBlank(text[pos]))
        ++pos;
    return pos;
}

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

std::string describeByte(std::string_view text, std::size_t pos)
{
    char buffer[64];
    const auto byte = static_cast<unsigned char>(text[pos]);
    if (byte >= 0x20 && byte < 0x7f)
        std::snprintf(buffer, sizeof buffer, "'%c' at byte %zu", char(byte), pos);
    else
        std::snprintf(buffer, sizeof buffer, "byte 0x%02x at offset %zu", unsigned(byte), pos);
    return buffer;
}

bool looksBinary(std::string_view text)
{
    const std::size_t n = std::min<std::size_t>(text.size(), 4096);
    for (std::size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == 0 || (c < 0x20 && !isBlank(char(c)) && c != '\f' && c != '\b'))
            return true;
    }
    return false;
}

} // namespace

std::string_view FormatDetector::name(ProfileFormat format)
{
    switch (format) {
    case ProfileFormat::ChromeTrace:
        return "Chrome Trace Event Format";
    case ProfileFormat::EnsoLog:
        return "Enso profiler event log";
    case ProfileFormat::Empty:
        return "empty";
    case ProfileFormat::Unknown:
        break;
    }
    return "unknown";
}

FormatDetector::Result FormatDetector::detect(std::string_view prefix, bool complete)
{
    Result result;
    std::size_t pos = 0;
    if (prefix.size() >= 2 && ((prefix[0] == '\xff' && prefix[1] == '\xfe') || (prefix[0] == '\xfe' && prefix[1] == '\xff'))) {
        result.reason = "the file is UTF-16 text; JSON profiles must be UTF-8";
        return result;
    }
    if (prefix.substr(0, 3) == "\xef\xbb\xbf")
        pos = 3; // UTF-8 byte order mark
    pos = skipBlanks(prefix, pos);
    if (pos >= prefix.size()) {
        if (complete) {
            result.format = ProfileFormat::Empty;
            result.reason = prefix.empty() ? "the file is empty" : "the file holds only white space";
        } else {
            result.reason = "no data in the first " + std::to_string(prefix.size()) + " bytes";
        }
        return result;
    }
    const char first = prefix[pos];
    if (first == '{') {
        result.format = ProfileFormat::ChromeTrace;
        return result;
    }
    if (first == '[') {
        pos = skipBlanks(prefix, pos + 1);
        // A bare array of events is a Chrome trace unless its first event is
        // an Enso one: an object with a single one-letter kind key.
        if (pos < prefix.size() && prefix[pos] == '{') {
            pos = skipBlanks(prefix, pos + 1);
            std::string key;
            if (pos < prefix.size() && prefix[pos] == '"') {
                const std::size_t after = readString(prefix, pos, key);
                if (after != std::string_view::npos && key.size() == 1
                    && std::string_view("LCSPEX").find(key[0]) != std::string_view::npos) {
                    result.format = ProfileFormat::EnsoLog;
                    return result;
                }
            }
        }
        result.format = ProfileFormat::ChromeTrace;
        return result;
    }
    if (looksBinary(prefix.substr(pos))) {
        result.reason = "the file holds binary data (" + describeByte(prefix, pos) + "), not a JSON profile";
        return result;
    }
    result.reason = "not a JSON profile: expected '[' or '{', found " + describeByte(prefix, pos);
    return result;
}

} // namespace runlane
