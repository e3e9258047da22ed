#pragma once

#include "comparemetric.h"
#include "comparison.h"
#include "historyrun.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace runlane {

class HistoryStore;

// `history check`: one run set of a workload (default its latest) against
// the run sets before it (at most `window`). Each label's figures are a
// comparison of the compare issue (Comparison: base = the window, one run
// per set; new = the checked set's runs), judged on the label's own noise
// threshold (NoiseThreshold over the window, in run order) instead of a
// test: the change is the new median against the window's median.
class HistoryCheck
{
public:
    struct Options {
        std::string workload;
        std::optional<std::int64_t> run; // any run of the set; none: the latest
        std::size_t window = 30;
        CompareMetric metric = CompareMetric::Exec;
    };

    // False with `error` set; `notFound` tells an unknown workload or run
    // (the input) from a database error.
    static bool compute(HistoryStore& store, const Options& options, HistoryCheck& out, std::string& error,
                        bool& notFound);

    const Comparison& comparison() const { return m_comparison; }
    const std::vector<HistoryRun>& checked() const { return m_checked; } // the set's runs
    const std::vector<HistoryRun>& window() const { return m_window; } // first run of each set, oldest first
    const std::map<LabelKey, double>& thresholds() const { return m_thresholds; }

private:
    Comparison m_comparison;
    std::vector<HistoryRun> m_checked;
    std::vector<HistoryRun> m_window;
    std::map<LabelKey, double> m_thresholds;
};

} // namespace runlane
