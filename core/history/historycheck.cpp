#include "historycheck.h"

#include "historystore.h"
#include "noisethreshold.h"
#include "statistics.h"
#include "valueformat.h"

#include <algorithm>

namespace runlane {

namespace {

RunSet::Run runOf(const HistoryRun& run)
{
    RunSet::Run r;
    r.source = run.sourceName.empty() ? "run " + std::to_string(run.id) : run.sourceName;
    r.format = run.format;
    r.busy = run.busy;
    r.unit = ValueFormat::unitOfKey(run.unit);
    return r;
}

// A run set of several runs as one run of the window: each label's median
// of each metric over the set's runs (a label absent from a run counts 0,
// as RunSet counts it).
bool addSet(HistoryStore& store, const std::vector<HistoryRun>& set, RunSet& into)
{
    RunSet runs;
    for (const HistoryRun& run : set) {
        HistoryStore::Values values;
        if (!store.values(run.id, values))
            return false;
        runs.add(runOf(run), values);
    }
    if (set.size() == 1) {
        HistoryStore::Values values;
        for (const RunSet::Label& label : runs.labels()) {
            RunSet::Label key;
            key.key = label.key;
            key.async = label.async;
            values.emplace_back(std::move(key), label.runs.front());
        }
        into.add(runs.runs().front(), values);
        return true;
    }
    HistoryStore::Values medians;
    for (const RunSet::Label& label : runs.labels()) {
        RunSet::Label key;
        key.key = label.key;
        key.async = label.async;
        CompareMetrics::Values v{};
        for (const CompareMetric m : CompareMetrics::all())
            v[std::size_t(m)] = Statistics::median(runs.values(label, m));
        medians.emplace_back(std::move(key), v);
    }
    RunSet::Run run = runs.runs().front();
    std::vector<double> busy;
    for (const RunSet::Run& r : runs.runs())
        busy.push_back(r.busy);
    run.busy = Statistics::median(busy);
    into.add(run, medians);
    return true;
}

} // namespace

bool HistoryCheck::compute(HistoryStore& store, const Options& options, HistoryCheck& out, std::string& error,
                           bool& notFound)
{
    notFound = false;
    std::vector<HistoryRun> runs;
    if (!store.runs(options.workload, 0, runs)) {
        error = store.error();
        return false;
    }
    // The workload's run sets in recording order.
    std::vector<std::vector<HistoryRun>> sets;
    for (HistoryRun& run : runs) {
        if (sets.empty() || sets.back().front().runSet != run.runSet)
            sets.emplace_back();
        sets.back().push_back(std::move(run));
    }
    if (sets.empty()) {
        notFound = true;
        error = "no runs of the workload '" + options.workload + "' in the history";
        return false;
    }
    std::size_t chosen = sets.size() - 1;
    if (options.run) {
        const auto it = std::find_if(sets.begin(), sets.end(), [&options](const std::vector<HistoryRun>& set) {
            return std::any_of(set.begin(), set.end(), [&options](const HistoryRun& r) { return r.id == *options.run; });
        });
        if (it == sets.end()) {
            notFound = true;
            error = "no run " + std::to_string(*options.run) + " of the workload '" + options.workload + "'";
            return false;
        }
        chosen = std::size_t(it - sets.begin());
    }
    const std::size_t first = chosen > options.window ? chosen - options.window : 0;

    RunSet base;
    out.m_window.clear();
    for (std::size_t s = first; s < chosen; ++s) {
        if (!addSet(store, sets[s], base)) {
            error = store.error();
            return false;
        }
        out.m_window.push_back(sets[s].front());
    }
    RunSet next;
    for (const HistoryRun& run : sets[chosen]) {
        HistoryStore::Values values;
        if (!store.values(run.id, values)) {
            error = store.error();
            return false;
        }
        next.add(runOf(run), values);
    }
    out.m_checked = sets[chosen];

    // Each label's threshold from its own values over the window, in run
    // order, leaving out the runs it is absent from.
    out.m_thresholds.clear();
    for (const RunSet::Label& label : base.labels()) {
        std::vector<double> series;
        for (const CompareMetrics::Values& v : label.runs) {
            if (v[std::size_t(CompareMetric::Calls)] > 0)
                series.push_back(v[std::size_t(options.metric)]);
        }
        out.m_thresholds.emplace(label.key, NoiseThreshold::of(series));
    }
    CompareOptions compare;
    compare.metrics = {options.metric};
    compare.threshold = NoiseThreshold::kDefault;
    out.m_comparison =
        Comparison::compute(base, next, compare).withThresholds(out.m_thresholds, NoiseThreshold::kDefault);
    return true;
}

} // namespace runlane
