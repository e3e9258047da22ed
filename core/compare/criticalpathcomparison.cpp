#include "criticalpathcomparison.h"

#include "measurementmetrics.h"
#include "profile.h"
#include "ranktable.h"
#include "statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace runlane {

namespace {

using Kind = CriticalPath::Kind;

// What a run's sums are divided by, as Comparison divides a sum metric.
double divisor(const CriticalPathComparison::Run& run, CompareOptions::Per per)
{
    switch (per) {
    case CompareOptions::Per::Call:
        return double(run.summary->tasks().size());
    case CompareOptions::Per::Busy:
        return run.busy;
    case CompareOptions::Per::Run:
        break;
    }
    return 1;
}

// A row's identity across profiles: its kind and the *name* of its label.
using RowKey = std::pair<Kind, std::string>;

struct RowSums {
    std::string file;
    std::int32_t line = 0;
    bool named = false; // file and line taken from some label
    std::vector<double> base; // per base run, Σ ns
    std::vector<double> next;
};

// One side's runs as a RunSet whose labels are the four kinds: per run the
// Σ of the kind over its tasks (calls: the tasks), per task its own time of
// the kind. What Comparison's per-call and per-run tests take.
RunSet kindRuns(const std::vector<CriticalPathComparison::Run>& runs)
{
    RunSet set(RunSet::Match::NameFileLine);
    for (const CriticalPathComparison::Run& run : runs) {
        RunSet::Run r;
        r.source = run.source;
        r.format = std::string(run.profile->formatName());
        r.busy = run.busy;
        r.unit = run.profile->unit();
        r.cut = run.profile->diagnostics().firstMessage("truncated file");
        std::vector<std::pair<RunSet::Label, CompareMetrics::Values>> values;
        for (const Kind kind : CriticalPath::kAllKinds) {
            RunSet::Label label;
            label.key = LabelKey{std::string(CriticalPath::kindName(kind)), std::string(), 0};
            label.async = true;
            double sum = 0;
            for (const CriticalPathSummary::Task& task : run.summary->tasks()) {
                Time ns = 0;
                for (const CriticalPathSummary::Entry& e : task.breakdown)
                    ns += e.kind == kind ? e.ns : 0;
                label.callExec.push_back(double(ns));
                sum += double(ns);
            }
            // Only exec is compared; wall and total mirror it so that no
            // field reads as something it is not.
            label.callWall = label.callTotal = label.callExec;
            CompareMetrics::Values v{};
            v[std::size_t(CompareMetric::Calls)] = double(run.summary->tasks().size());
            for (const CompareMetric m : {CompareMetric::Exec, CompareMetric::Total, CompareMetric::Wall})
                v[std::size_t(m)] = sum;
            values.emplace_back(std::move(label), v);
        }
        set.add(r, values);
    }
    return set;
}

double medianOf(const std::vector<CriticalPathComparison::Run>& runs, double (*value)(const CriticalPathComparison::Run&))
{
    std::vector<double> values;
    for (const CriticalPathComparison::Run& run : runs)
        values.push_back(value(run));
    return Statistics::median(values);
}

void replaceAll(std::string& text, std::string_view what, std::string_view with)
{
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size()))
        text.replace(at, what.size(), with);
}

} // namespace

double CriticalPathComparison::busyOf(const Profile& profile)
{
    // The same table RunSet::add builds for the compare rank, so the same
    // busy time and the same default floor.
    const MeasurementMetrics metrics(profile);
    return double(RankTable::compute(metrics, std::nullopt, nullptr, RankTable::Distributions::ExecOnly).busyTime());
}

CriticalPathComparison CriticalPathComparison::compute(const std::vector<Run>& base, const std::vector<Run>& next,
                                                       const CompareOptions& asked)
{
    CriticalPathComparison c;
    c.m_baseRuns = base.size();
    c.m_newRuns = next.size();
    CompareOptions options = asked;
    options.metrics = {CompareMetric::Exec};

    // The kinds: the compare rank's statistics and verdicts, by Comparison.
    c.m_comparison = Comparison::compute(kindRuns(base), kindRuns(next), options);
    for (const Comparison::LabelResult& label : c.m_comparison.labels()) {
        for (const Kind kind : CriticalPath::kAllKinds) {
            if (label.key.name != CriticalPath::kindName(kind) || label.metrics.empty())
                continue;
            c.m_kinds[std::size_t(kind)] = label.metrics.front();
        }
    }
    c.m_verdict = c.m_comparison.labels().empty() ? Comparison::Verdict::Unchanged
                                                  : c.m_comparison.labels().front().verdict; // the most severe first
    for (std::string warning : c.m_comparison.warnings()) {
        replaceAll(warning, "each call's values", "each task's values");
        c.m_warnings.push_back(std::move(warning));
    }
    c.m_baseTasks = medianOf(base, [](const Run& r) { return double(r.summary->tasks().size()); });
    c.m_newTasks = medianOf(next, [](const Run& r) { return double(r.summary->tasks().size()); });
    c.m_baseWall = medianOf(base, [](const Run& r) { return double(r.summary->wall()); });
    c.m_newWall = medianOf(next, [](const Run& r) { return double(r.summary->wall()); });

    // The rows: each run's breakdown by (kind, label name).
    std::map<RowKey, RowSums> rows;
    const auto addSide = [&rows](const std::vector<Run>& runs, bool isNew) {
        for (std::size_t i = 0; i < runs.size(); ++i) {
            const Profile& p = *runs[i].profile;
            for (const CriticalPathSummary::Entry& e : runs[i].summary->breakdown()) {
                if (e.ns == 0)
                    continue;
                const std::string name = e.label == kNone ? std::string() : std::string(p.labelName(e.label));
                RowSums& sums = rows[{e.kind, name}];
                if (e.label != kNone && (!sums.named || isNew)) {
                    const Label& label = p.label(e.label);
                    sums.file = std::string(p.string(label.file));
                    sums.line = label.line;
                    sums.named = true;
                }
                std::vector<double>& side = isNew ? sums.next : sums.base;
                side.resize(runs.size(), 0.0);
                side[i] += double(e.ns);
            }
        }
    };
    addSide(base, false);
    addSide(next, true);
    const auto median = [&options](std::vector<double> sums, const std::vector<Run>& runs) {
        sums.resize(runs.size(), 0.0);
        for (std::size_t i = 0; i < runs.size(); ++i) {
            const double by = divisor(runs[i], options.per);
            sums[i] = by > 0 ? sums[i] / by : 0;
        }
        return Statistics::median(sums);
    };
    for (auto& [key, sums] : rows) {
        Row row;
        row.kind = key.first;
        row.name = key.second;
        row.file = sums.file;
        row.line = sums.line;
        row.inBase = !sums.base.empty();
        row.inNew = !sums.next.empty();
        row.base = median(sums.base, base);
        row.next = median(sums.next, next);
        row.delta = row.next - row.base;
        row.deltaPct = Statistics::relativeChange(row.delta, row.base);
        c.m_rows.push_back(std::move(row));
    }
    std::sort(c.m_rows.begin(), c.m_rows.end(), [](const Row& x, const Row& y) {
        const double dx = std::fabs(x.delta);
        const double dy = std::fabs(y.delta);
        if (dx != dy)
            return dx > dy;
        return std::tie(x.kind, x.name) < std::tie(y.kind, y.name);
    });
    return c;
}

} // namespace runlane
