#include "formatprefix.h"

namespace runlane {

FormatPrefix::FormatPrefix(std::string_view bytes, bool complete)
    : m_bytes(bytes)
    , m_complete(complete)
{
    const bool utf16le = bytes.size() >= 2 && bytes[0] == '\xff' && bytes[1] == '\xfe';
    const bool utf16be = bytes.size() >= 2 && bytes[0] == '\xfe' && bytes[1] == '\xff';
    if (utf16le || utf16be) {
        // Folded stacks are sometimes saved as UTF-16 (PowerShell redirects);
        // their frames and counts are ASCII, which is all a probe needs.
        m_utf16 = true;
        for (std::size_t i = 2; i + 1 < bytes.size(); i += 2) {
            const char lo = utf16le ? bytes[i] : bytes[i + 1];
            const char hi = utf16le ? bytes[i + 1] : bytes[i];
            m_decoded += hi == 0 ? lo : '?';
        }
        m_start = JsonPrefix::skipBlanks(m_decoded, 0);
        return;
    }
    const std::size_t bom = bytes.substr(0, 3) == "\xef\xbb\xbf" ? 3 : 0;
    m_start = JsonPrefix::skipBlanks(bytes, bom);
    m_json = JsonPrefix(bytes, m_start);
}

} // namespace runlane
