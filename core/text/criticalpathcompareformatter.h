#pragma once

#include "criticalpathcomparison.h"

#include <string>

namespace runlane {

// A CriticalPathComparison as text: a table for people ("queued behind
// flush (app.nim:50) +30 ms"), CSV and JSON for scripts (the fields
// docs/compare.md documents). Times are integer nanoseconds (units of the
// profile) in CSV and JSON, rounded as CompareFormatter rounds them.
class CriticalPathCompareFormatter
{
public:
    // `label`: the name the tasks were chosen by.
    static std::string table(const CriticalPathComparison& comparison, const std::string& label);
    static std::string csv(const CriticalPathComparison& comparison);
    static std::string json(const CriticalPathComparison& comparison, const std::string& label);
    // "running query (app.nim:20)", "queued behind flush", "idle": what a
    // row's time was, as every text of a critical path names it.
    static std::string rowText(const CriticalPathComparison::Row& row);
};

} // namespace runlane
