#pragma once

#include "runset.h"
#include "statistics.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace runlane {

struct CompareOptions {
    std::vector<CompareMetric> metrics{CompareMetric::Exec};
    double threshold = 0.05; // relative: 5 %
    // Absolute floor of |Δ| for times; default 0.1 % of the base's busy time.
    std::optional<double> floor;
    double alpha = 0.05;
    // Runs of different lengths: compare per run (totals), per call (sums
    // divided by the run's calls of the label) or per busy time (a share).
    enum class Per { Run, Call, Busy };
    Per per = Per::Run;
    std::uint64_t seed = 20261123;
    int resamples = 2000;
};

// Two sets of runs of one workload compared label by label: per metric the
// medians, Δ, a Mann–Whitney U test and a bootstrap interval of Δ, and a
// verdict that alarms only when the whole interval clears the threshold
// (docs/compare.md). Pure: no files, no Widgets.
class Comparison
{
public:
    enum class Verdict { Regressed, Improved, Inconclusive, Unchanged, Added, Removed };
    // What the p-value and the interval are computed over.
    enum class Test {
        Runs, // each run's value of the metric: the Mann–Whitney U over runs
        Calls, // one run per side: each call's value
    };
    // What a metric's interval is, always of the Δ it is shown beside
    // (docs/compare.md).
    enum class IntervalMethod {
        MedianOverRuns, // percentile bootstrap of the change of the runs' median
        TotalOverCalls, // one run per side, exec, total, wall, wait: Welch's interval of the total's change from its calls
        FigureOverCalls, // one run per side, p50 … max: exact bootstrap of the figure's change over the calls
    };

    struct MetricResult {
        CompareMetric metric = CompareMetric::Exec;
        Statistics::Summary base;
        Statistics::Summary next;
        double delta = 0; // median(new) - median(base)
        double deltaPct = 0; // of median(base); ±inf when it is 0
        double p = 1;
        bool exact = false;
        Test test = Test::Runs;
        IntervalMethod method = IntervalMethod::MedianOverRuns;
        Statistics::Interval ci; // of Δ, the shown change: it holds delta
        Statistics::Interval ciPct; // of Δ %: ci over median(base)
        Verdict verdict = Verdict::Unchanged;
        // Set when the verdict is judged on the label's own noise threshold
        // (withThresholds: a history check) instead of the test above.
        std::optional<double> threshold;
    };
    struct LabelResult {
        LabelKey key; // as in the new runs (as in the base if removed)
        LabelKey baseKey; // differs when matched by name: the code moved
        bool async = false;
        bool movedMatch = false;
        std::vector<MetricResult> metrics; // one per CompareOptions::metrics
        Verdict verdict = Verdict::Unchanged; // the worst of its metrics'

        // The result of one metric, null if it was not compared on it
        // (added and removed labels have none).
        const MetricResult* metric(CompareMetric which) const
        {
            for (const MetricResult& m : metrics) {
                if (m.metric == which)
                    return &m;
            }
            return nullptr;
        }
    };

    static Comparison compute(const RunSet& base, const RunSet& next, const CompareOptions& options);
    // The same comparison as if only `metric` had been asked for: each
    // label's verdict is that metric's, in that order of severity. The
    // viewer computes every metric once and shows one at a time.
    Comparison only(CompareMetric metric) const;
    // This comparison with the metrics of `more` (of the same runs) added:
    // the viewer computes the rank's metric first and the rest after.
    Comparison with(const Comparison& more) const;
    // A history check's verdicts: one new run (set) against a window of
    // past runs, where a test over runs cannot reach significance (one
    // value on the new side). Each matched label is judged on its own
    // relative threshold instead (`thresholds`, else `fallback`): within
    // it unchanged, beyond it regressed or improved by the sign of Δ. The
    // figures (medians, Δ, p, interval) stay those of compute().
    Comparison withThresholds(const std::map<LabelKey, double>& thresholds, double fallback) const;
    // That judgement of one change: unchanged within `threshold` (relative),
    // else regressed (Δ > 0) or improved.
    static Verdict judge(double delta, double deltaPct, double threshold);
    // The floor of |Δ| when none is given: 0.1 % of the base's busy time.
    static double defaultFloor(const RunSet& base);

    const std::vector<LabelResult>& labels() const { return m_labels; }
    const CompareOptions& options() const { return m_options; }
    std::size_t baseRuns() const { return m_baseRuns; }
    std::size_t newRuns() const { return m_newRuns; }
    Test test() const { return m_test; }
    double floor() const { return m_floor; }
    // The base's unit (of its first run): what the values are in.
    ValueUnit unit() const { return m_unit; }
    const std::vector<std::string>& warnings() const { return m_warnings; }
    std::size_t count(Verdict verdict) const;
    // Labels of this verdict on one metric (added and removed ones count
    // on every metric).
    std::size_t count(Verdict verdict, CompareMetric metric) const;
    bool anyRegressed() const { return count(Verdict::Regressed) > 0; }

    static std::string_view name(Verdict verdict);
    static std::string_view name(Test test);
    static std::string_view name(IntervalMethod method);
    static std::string_view name(CompareOptions::Per per);

private:
    // One label's per-call test (one run per side) of one kind of values,
    // computed the first time a metric asks for it, and the values each
    // metric's interval is computed from.
    struct CallTest {
        bool done = false;
        bool usable = false; // both sides have finished calls
        Statistics::MannWhitney mw;
        std::vector<double> base;
        std::vector<double> next;
    };
    // By the kind's metric (exec, total, wall, wait), indexed by its value.
    using CallTests = std::array<CallTest, CompareMetrics::kCount>;

    void sortLabels();
    const CallTest& callTest(const RunSet::Label& b, const RunSet::Label& n, CompareMetric kind, CallTests& tests) const;
    MetricResult compareMetric(const RunSet& base, const RunSet::Label* b, const RunSet& next,
                               const RunSet::Label* n, CompareMetric metric, std::uint64_t seed, CallTests& tests) const;
    std::vector<double> normalised(const RunSet& set, const RunSet::Label& label, CompareMetric metric) const;
    // What normalised() divides a run's value by: 1, its calls or its busy time (0: none).
    double divisor(const RunSet& set, const RunSet::Label& label, CompareMetric metric, std::size_t run) const;
    // The interval of r.delta, one run per side, from each call's values.
    Statistics::Interval callInterval(const MetricResult& r, const CallTest& calls, double baseScale,
                                      double nextScale) const;

    CompareOptions m_options;
    std::vector<LabelResult> m_labels;
    std::size_t m_baseRuns = 0;
    std::size_t m_newRuns = 0;
    Test m_test = Test::Runs;
    double m_floor = 0;
    ValueUnit m_unit = ValueUnit::Nanoseconds;
    std::vector<std::string> m_warnings;
};

} // namespace runlane
