#pragma once

#include <cstddef>

namespace runlane {

// Finds where a JSON value ends in text that arrives in pieces: it follows
// strings, escapes and nesting only, and resumes where it stopped when more
// text comes. It does not validate; whoever reads the value does.
class JsonSkipper
{
public:
    // Starts a value whose first byte is `*p`.
    void start(char first);
    // Scans [p, end): the end of the value (one past its last byte), or
    // nullptr if the text ran out first; then call again with the next
    // bytes. A scalar ends at the first delimiter (not consumed).
    const char* feed(const char* p, const char* end);
    // What the value started with: '{', '[', '"' or a scalar's first byte.
    char first() const { return m_first; }
    bool isContainer() const { return m_first == '{' || m_first == '['; }

private:
    int m_depth = 0;
    bool m_inString = false;
    bool m_escape = false;
    bool m_scalar = false;
    bool m_begun = false;
    char m_first = 0;
};

} // namespace runlane
