#pragma once

#include "historycheck.h"
#include "historystore.h"

#include <string>
#include <vector>

namespace runlane {

// A history as text: the runs (list), one label's values over runs (show)
// and a check's verdicts. JSON for scripts, a table for people; the check's
// JSON is compare's (CompareFormatter::json) with the checked run, its
// window and each label's threshold_pct.
class HistoryFormatter
{
public:
    static std::string runsTable(const std::vector<HistoryRun>& runs);
    static std::string runsJson(const std::vector<HistoryRun>& runs);
    static std::string seriesTable(const std::vector<HistoryStore::Point>& points, CompareMetric metric);
    static std::string seriesCsv(const std::vector<HistoryStore::Point>& points, CompareMetric metric);
    static std::string seriesJson(const std::vector<HistoryStore::Point>& points, CompareMetric metric);
    static std::string checkTable(const HistoryCheck& check);
    static std::string checkJson(const HistoryCheck& check);
    static std::string checkMarkdown(const HistoryCheck& check);
};

} // namespace runlane
