#include "formatdetector.h"

#include <cstdio>
#include <map>
#include <vector>

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

// Skips one JSON value starting at `pos` (after blanks); npos if it does not
// end within the text. Only structure matters here, not validity.
std::size_t skipValue(std::string_view text, std::size_t pos)
{
    pos = skipBlanks(text, pos);
    if (pos >= text.size())
        return std::string_view::npos;
    std::string scratch;
    if (text[pos] == '"')
        return readString(text, pos, scratch);
    if (text[pos] != '{' && text[pos] != '[') {
        while (pos < text.size() && text[pos] != ',' && text[pos] != '}' && text[pos] != ']' && !isBlank(text[pos]))
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

// Top-level keys of the object starting at `pos`, in order, as far as the
// text goes; `firstElementKey` gets the first key of the first element of
// the first array value seen (e.g. of "events").
std::vector<std::string> topLevelKeys(std::string_view text, std::size_t pos,
                                      std::map<std::string, std::string>& firstElementKey)
{
    std::vector<std::string> keys;
    pos = skipBlanks(text, pos + 1);
    std::string key;
    while (pos < text.size() && text[pos] == '"') {
        const std::size_t afterKey = readString(text, pos, key);
        if (afterKey == std::string_view::npos)
            break;
        keys.push_back(key);
        pos = skipBlanks(text, afterKey);
        if (pos >= text.size() || text[pos] != ':')
            break;
        pos = skipBlanks(text, pos + 1);
        if (pos < text.size() && text[pos] == '[') {
            std::size_t element = skipBlanks(text, pos + 1);
            if (element < text.size() && text[element] == '{') {
                element = skipBlanks(text, element + 1);
                std::string first;
                if (element < text.size() && text[element] == '"'
                    && readString(text, element, first) != std::string_view::npos)
                    firstElementKey[key] = first;
            }
        }
        pos = skipValue(text, pos);
        if (pos == std::string_view::npos)
            break;
        pos = skipBlanks(text, pos);
        if (pos >= text.size() || text[pos] != ',')
            break;
        pos = skipBlanks(text, pos + 1);
    }
    return keys;
}

ProfileFormat objectFormat(const std::vector<std::string>& keys)
{
    for (const std::string& key : keys) {
        if (key == "traceEvents")
            return ProfileFormat::ChromeTrace;
        if (key == "chronosFutureEvents" || key == "events")
            return ProfileFormat::ChronosLog;
        if (key == "chroprofSnapshots" || key == "snapshots")
            return ProfileFormat::ChroprofSnapshots;
        if (key == "$schema" || key == "shared" || key == "profiles" || key == "activeProfileIndex")
            return ProfileFormat::Speedscope;
    }
    // An object we cannot place: the Chrome reader says what it misses.
    return ProfileFormat::ChromeTrace;
}

bool isChroprofKey(std::string_view key)
{
    return key == "location" || key == "execTime" || key == "execTimeMax" || key == "childrenExecTime"
        || key == "wallClockTime" || key == "callCount" || key == "stillbornCount" || key == "zombieEventCount";
}

// Folded stacks: "frame;frame;frame 12" lines, the count last. A few bad
// lines do not make a file something else.
bool looksFolded(std::string_view text)
{
    std::size_t pos = 0;
    int lines = 0;
    int good = 0;
    while (pos < text.size() && lines < 20) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        while (!line.empty() && (line.back() == '\r' || isBlank(line.back())))
            line.remove_suffix(1);
        if (line.empty() || line[0] == '#' || line.substr(0, 2) == "//")
            continue;
        ++lines;
        const std::size_t space = line.find_last_of(" \t");
        if (space == std::string_view::npos || space == 0)
            continue;
        const std::string_view count = line.substr(space + 1);
        if (!count.empty() && count.find_first_not_of("0123456789.") == std::string_view::npos)
            ++good;
    }
    return good > 0 && 3 * good >= 2 * lines;
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
    case ProfileFormat::ChronosLog:
        return "Chronos future event log";
    case ProfileFormat::ChroprofRows:
        return "Chroprof metrics";
    case ProfileFormat::ChroprofSnapshots:
        return "Chroprof metric snapshots";
    case ProfileFormat::Speedscope:
        return "speedscope";
    case ProfileFormat::FoldedStacks:
        return "folded stacks";
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
    const bool utf16le = prefix.size() >= 2 && prefix[0] == '\xff' && prefix[1] == '\xfe';
    const bool utf16be = prefix.size() >= 2 && prefix[0] == '\xfe' && prefix[1] == '\xff';
    if (utf16le || utf16be) {
        // Folded stacks are sometimes saved as UTF-16; JSON profiles never.
        std::string ascii;
        for (std::size_t i = 2; i + 1 < prefix.size(); i += 2) {
            const char lo = utf16le ? prefix[i] : prefix[i + 1];
            const char hi = utf16le ? prefix[i + 1] : prefix[i];
            ascii += hi == 0 ? lo : '?';
        }
        if (looksFolded(ascii)) {
            result.format = ProfileFormat::FoldedStacks;
            return result;
        }
        result.reason = "the file is UTF-16 text but not folded stacks; JSON profiles must be UTF-8";
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
        std::map<std::string, std::string> firstElementKey;
        result.format = objectFormat(topLevelKeys(prefix, pos, firstElementKey));
        return result;
    }
    if (first == '[') {
        pos = skipBlanks(prefix, pos + 1);
        // A bare array of events is a Chrome trace unless its first element
        // is an Enso event (one one-letter kind key) or a Chroprof row.
        if (pos < prefix.size() && prefix[pos] == '{') {
            pos = skipBlanks(prefix, pos + 1);
            std::string key;
            if (pos < prefix.size() && prefix[pos] == '"' && readString(prefix, pos, key) != std::string_view::npos) {
                if (key.size() == 1 && std::string_view("LCSPEX").find(key[0]) != std::string_view::npos) {
                    result.format = ProfileFormat::EnsoLog;
                    return result;
                }
                if (isChroprofKey(key)) {
                    result.format = ProfileFormat::ChroprofRows;
                    return result;
                }
            }
        }
        result.format = ProfileFormat::ChromeTrace;
        return result;
    }
    if (looksFolded(prefix.substr(pos))) {
        result.format = ProfileFormat::FoldedStacks;
        return result;
    }
    if (looksBinary(prefix.substr(pos))) {
        result.reason = "the file holds binary data (" + describeByte(prefix, pos) + "), not a JSON profile";
        return result;
    }
    result.reason = "not a profile: expected JSON ('[' or '{') or folded stacks, found " + describeByte(prefix, pos);
    return result;
}

} // namespace runlane
