#pragma once

#include "perfscriptline.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace runlane {

// A run of whole lines of `perf script` text, cut out of the file and
// already taken apart as far as a line can be without knowing the lines
// before it: what kind of line it is and, for a line that can only be a
// sample header, its header fields. PerfBlockSplitter fills blocks on one thread while
// PerfScriptReader walks the previous ones on another, so the per-line work
// that needs no state is off the reader's thread.
struct PerfLineBlock {
    enum Flag : std::uint8_t {
        Blank = 1, // nothing but blanks
        Comment = 2, // a '#' line (perf script --header)
        Indented = 4, // starts with a blank: a frame, or a padded header
        Unended = 8, // the file's last line, without its '\n' (maybe cut)
    };
    static constexpr std::uint32_t kNoHeader = 0xFFFFFFFF;

    struct Line {
        std::int64_t offset = 0; // of its first byte in the file
        std::uint32_t begin = 0; // in text
        std::uint32_t size = 0; // without its '\n' and '\r'
        // Its parse as a header, in headers, for a line that is not blank,
        // a comment nor indented; kNoHeader for the other lines.
        std::uint32_t header = kNoHeader;
        std::uint8_t flags = 0;
    };
    struct Header {
        PerfScriptLine::Header fields; // views into text
        std::string_view problem; // empty if the line is a header
    };

    // The lines one after the other, without line ends. A vector, not a
    // string: moving it keeps the views of headers valid (no small-string
    // buffer).
    std::vector<char> text;
    std::vector<Line> lines;
    std::vector<Header> headers;

    std::string_view line(std::size_t i) const { return {text.data() + lines[i].begin, lines[i].size}; }
    void clear()
    {
        text.clear();
        lines.clear();
        headers.clear();
    }
};

} // namespace runlane
