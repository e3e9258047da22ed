#pragma once

#include "jsonprefix.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace runlane {

// What the formats' probes see of a file: its first bytes, decoded once for
// all of them. Formats are told apart by content, never by file name:
// people rename traces, and `.json` says nothing about the schema.
class FormatPrefix
{
public:
    static constexpr std::size_t kSize = 256 * 1024;

    // `bytes` is the start of the file; `complete` if it is the whole file.
    FormatPrefix(std::string_view bytes, bool complete);

    std::string_view bytes() const { return m_bytes; }
    bool complete() const { return m_complete; }
    // UTF-16 with a byte order mark: text() is then its ASCII (other
    // characters as '?') and json() is NotJson, since JSON profiles are UTF-8.
    bool utf16() const { return m_utf16; }
    // The text: the bytes themselves for UTF-8 (offsets are byte offsets).
    std::string_view text() const { return m_utf16 ? std::string_view(m_decoded) : m_bytes; }
    // The first character of text() after a byte order mark and blanks;
    // text().size() if there is none.
    std::size_t start() const { return m_start; }
    bool blank() const { return m_start >= text().size(); }
    const JsonPrefix& json() const { return m_json; }

private:
    std::string_view m_bytes;
    bool m_complete = false;
    bool m_utf16 = false;
    std::string m_decoded;
    std::size_t m_start = 0;
    JsonPrefix m_json;
};

} // namespace runlane
