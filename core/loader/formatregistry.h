#pragma once

#include "inputformat.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace runlane {

// Every input format Runlane reads, in one table (formatregistry.cpp): what
// detection asks, what the loader reads through, what `--input-format` and
// the fuzz targets name. Adding a format is a folder under core/formats/
// with its InputFormat, and one line there.
class FormatRegistry
{
public:
    struct Detection {
        // The format that claimed the file; null if none did.
        const InputFormat* format = nullptr;
        // What exactly it is ("Chroprof metric snapshots"); name() if empty.
        std::string kind;
        // Why it cannot be read: no format's (with `empty` for an empty or
        // blank file), or its format's own reason (a version it does not read).
        std::string problem;
        std::int64_t offset = -1;
        bool empty = false;

        bool ok() const { return format != nullptr && problem.empty(); }
        std::string_view name() const
        {
            if (kind.empty() && format)
                return format->name();
            return kind;
        }
    };

    static const std::vector<const InputFormat*>& formats();
    // By id(); null for none.
    static const InputFormat* find(std::string_view id);
    // "chrome, enso, ...": for usage messages.
    static std::string ids();

    // Every format's file name patterns, once each: "*.json *.txt ...".
    static std::string fileNamePatterns();

    // Asks every format about the file's first bytes (FormatPrefix::kSize,
    // or all of it when `complete`): the one that says Mine (or Broken) on
    // the earliest evidence wins, a Perhaps only when none does.
    static Detection detect(std::string_view prefix, bool complete);
};

} // namespace runlane
