#include "comparison.h"

#include "nearestrank.h"
#include "parallel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <map>
#include <set>

namespace runlane {

namespace {

// FNV-1a: each label and metric gets its own resampling sequence, the same
// on every machine and in every order of labels.
std::uint64_t seedFor(std::uint64_t seed, const LabelKey& key, CompareMetric metric)
{
    std::uint64_t hash = 0xcbf29ce484222325ULL ^ seed;
    const auto mix = [&hash](std::string_view text) {
        for (const char c : text) {
            hash ^= std::uint8_t(c);
            hash *= 0x100000001b3ULL;
        }
        hash ^= 0xff;
        hash *= 0x100000001b3ULL;
    };
    mix(key.name);
    mix(key.file);
    mix(std::to_string(key.line));
    mix(CompareMetrics::name(metric));
    return hash;
}

// Which of a label's per-call values a metric is tested on when each side
// is one run, named by the metric whose seed resamples them: exec (for
// exec and the per-call figures p50 … max, which test the same values),
// total, wall or wait; calls has none (one count per run).
std::optional<CompareMetric> callValuesOf(CompareMetric metric)
{
    switch (metric) {
    case CompareMetric::Total:
    case CompareMetric::Wall:
    case CompareMetric::Wait:
        return metric;
    case CompareMetric::Calls:
        return std::nullopt;
    default:
        return CompareMetric::Exec;
    }
}

// The per-call values of a kind callValuesOf() names.
std::vector<double> callValues(const RunSet::Label& label, CompareMetric kind)
{
    switch (kind) {
    case CompareMetric::Total:
        return label.callTotal;
    case CompareMetric::Wall:
        return label.callWall;
    case CompareMetric::Wait: {
        std::vector<double> wait(label.callWall.size());
        for (std::size_t i = 0; i < wait.size(); ++i)
            wait[i] = std::max(0.0, label.callWall[i] - label.callExec[i]);
        return wait;
    }
    default:
        return label.callExec;
    }
}

// The nearest-rank quantile of each call's exec that a per-call figure is
// (RankTable's p50, p90, p99; the max is the n-th of n).
double quantileOf(CompareMetric metric)
{
    switch (metric) {
    case CompareMetric::P50:
        return 0.5;
    case CompareMetric::P90:
        return 0.9;
    case CompareMetric::P99:
        return 0.99;
    default:
        return 1;
    }
}

double nearestRankValue(std::vector<double> values, double q)
{
    if (values.empty())
        return 0;
    const std::size_t k = nearestRank(values.size(), q);
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(k), values.end());
    return values[k];
}

int severity(Comparison::Verdict verdict)
{
    switch (verdict) {
    case Comparison::Verdict::Regressed:
        return 5;
    case Comparison::Verdict::Improved:
        return 4;
    case Comparison::Verdict::Inconclusive:
        return 3;
    case Comparison::Verdict::Added:
    case Comparison::Verdict::Removed:
        return 2;
    case Comparison::Verdict::Unchanged:
        break;
    }
    return 1;
}

double medianBusy(const RunSet& set)
{
    std::vector<double> busy;
    for (const RunSet::Run& run : set.runs())
        busy.push_back(run.busy);
    return Statistics::median(busy);
}

} // namespace

std::string_view Comparison::name(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Regressed:
        return "regressed";
    case Verdict::Improved:
        return "improved";
    case Verdict::Inconclusive:
        return "inconclusive";
    case Verdict::Unchanged:
        return "unchanged";
    case Verdict::Added:
        return "added";
    case Verdict::Removed:
        return "removed";
    }
    return "?";
}

std::string_view Comparison::name(Test test)
{
    return test == Test::Calls ? "mann-whitney-calls" : "mann-whitney-runs";
}

std::string_view Comparison::name(IntervalMethod method)
{
    switch (method) {
    case IntervalMethod::TotalOverCalls:
        return "welch-total-calls";
    case IntervalMethod::FigureOverCalls:
        return "bootstrap-figure-calls";
    case IntervalMethod::MedianOverRuns:
        break;
    }
    return "bootstrap-median-runs";
}

std::string_view Comparison::name(CompareOptions::Per per)
{
    switch (per) {
    case CompareOptions::Per::Call:
        return "call";
    case CompareOptions::Per::Busy:
        return "busy";
    case CompareOptions::Per::Run:
        break;
    }
    return "run";
}

std::size_t Comparison::count(Verdict verdict) const
{
    std::size_t n = 0;
    for (const LabelResult& label : m_labels) {
        for (const MetricResult& metric : label.metrics)
            n += metric.verdict == verdict ? 1 : 0;
        if (label.metrics.empty() && label.verdict == verdict)
            ++n;
    }
    return n;
}

double Comparison::divisor(const RunSet& set, const RunSet::Label& label, CompareMetric metric, std::size_t run) const
{
    if (m_options.per == CompareOptions::Per::Run || !CompareMetrics::isSum(metric))
        return 1;
    return m_options.per == CompareOptions::Per::Call ? label.runs[run][CompareMetrics::index(CompareMetric::Calls)] : set.runs()[run].busy;
}

std::vector<double> Comparison::normalised(const RunSet& set, const RunSet::Label& label, CompareMetric metric) const
{
    std::vector<double> values = set.values(label, metric);
    if (m_options.per == CompareOptions::Per::Run || !CompareMetrics::isSum(metric))
        return values;
    for (std::size_t run = 0; run < values.size(); ++run) {
        const double by = divisor(set, label, metric, run);
        values[run] = by > 0 ? values[run] / by : 0;
    }
    return values;
}

Statistics::Interval Comparison::callInterval(const MetricResult& r, const CallTest& calls, double baseScale,
                                              double nextScale) const
{
    // The interval of the figure shown: a total's (exec, total, wall,
    // wait) from the spread of its calls, or the per-call figure's own.
    Statistics::Interval ci;
    double fromCalls = 0;
    if (CompareMetrics::isSum(r.metric)) {
        ci = Statistics::welchSumDelta(calls.base, baseScale, calls.next, nextScale);
        fromCalls = (ci.low + ci.high) / 2;
    } else {
        const double q = quantileOf(r.metric);
        ci = Statistics::bootstrapQuantileDelta(calls.base, calls.next, q);
        fromCalls = nearestRankValue(calls.next, q) - nearestRankValue(calls.base, q);
    }
    // Centred on the change shown. The finished calls' figures are the
    // run's own but for what is not resampled: calls that did not finish
    // (held as they are), and for p50 … max calls that never ran, which
    // the rank's figures leave out. The interval holds Δ: Welch's is symmetric about it; a
    // resampled figure is at most, and at least, the observed one with a
    // chance of 1/2 or more each (the median of Bin(n, k/n) is k), so
    // their difference is on either side of Δ with 1/4 or more, beyond the
    // 2.5 % tails.
    return {r.delta + (ci.low - fromCalls), r.delta + (ci.high - fromCalls)};
}

Comparison::MetricResult Comparison::compareMetric(const RunSet& base, const RunSet::Label* b, const RunSet& next,
                                                   const RunSet::Label* n, CompareMetric metric, std::uint64_t seed,
                                                   CallTests& tests) const
{
    MetricResult r;
    r.metric = metric;
    const std::vector<double> bv = normalised(base, *b, metric);
    const std::vector<double> nv = normalised(next, *n, metric);
    r.base = Statistics::summarise(bv);
    r.next = Statistics::summarise(nv);
    r.delta = r.next.median - r.base.median;
    r.deltaPct = Statistics::relativeChange(r.delta, r.base.median);

    const std::optional<CompareMetric> kind = m_test == Test::Calls ? callValuesOf(metric) : std::nullopt;
    const CallTest* perCall = kind ? &callTest(*b, *n, *kind, tests) : nullptr;
    if (perCall && !perCall->usable)
        perCall = nullptr; // a side without finished calls: over the runs
    r.test = perCall ? Test::Calls : Test::Runs;
    if (perCall) {
        // The test is of the calls' values (shared by the metrics of one
        // kind); the interval is of this metric's Δ, the one shown.
        r.p = perCall->mw.p;
        r.exact = perCall->mw.exact;
        const auto scale = [&](const RunSet& set, const RunSet::Label& label) {
            const double by = divisor(set, label, metric, 0);
            return by > 0 ? 1 / by : 0.0;
        };
        r.ci = callInterval(r, *perCall, scale(base, *b), scale(next, *n));
        r.method = CompareMetrics::isSum(metric) ? IntervalMethod::TotalOverCalls : IntervalMethod::FigureOverCalls;
    } else {
        const Statistics::MannWhitney mw = Statistics::mannWhitney(bv, nv);
        r.p = mw.p;
        r.exact = mw.exact;
        r.ci = Statistics::bootstrapMedianDelta(bv, nv, seed, m_options.resamples);
        r.method = IntervalMethod::MedianOverRuns;
    }
    // Δ% and its interval over the same base.
    r.ciPct = {Statistics::relativeChange(r.ci.low, r.base.median), Statistics::relativeChange(r.ci.high, r.base.median)};

    // The floor is on the run's own figures (not normalised): a function
    // of 2 µs that doubles is no regression of a program busy for seconds.
    double rawDelta = r.delta;
    if (m_options.per != CompareOptions::Per::Run)
        rawDelta = Statistics::median(next.values(*n, metric)) - Statistics::median(base.values(*b, metric));
    const std::size_t fewest = std::min(base.runs().size(), next.runs().size());
    if ((CompareMetrics::isTime(metric) && std::fabs(rawDelta) < m_floor) || r.delta == 0
        || std::fabs(r.deltaPct) < m_options.threshold)
        r.verdict = Verdict::Unchanged;
    else if ((r.test == Test::Runs && fewest < 3) || r.p >= m_options.alpha)
        r.verdict = Verdict::Inconclusive;
    else if (r.delta > 0 && r.ciPct.low > m_options.threshold)
        r.verdict = Verdict::Regressed;
    else if (r.delta < 0 && r.ciPct.high < -m_options.threshold)
        r.verdict = Verdict::Improved;
    else
        r.verdict = Verdict::Inconclusive;
    return r;
}

Comparison Comparison::compute(const RunSet& base, const RunSet& next, const CompareOptions& options)
{
    Comparison c;
    c.m_options = options;
    c.m_baseRuns = base.runs().size();
    c.m_newRuns = next.runs().size();
    c.m_test = c.m_baseRuns == 1 && c.m_newRuns == 1 ? Test::Calls : Test::Runs;
    c.m_floor = options.floor ? *options.floor : defaultFloor(base);
    if (!base.runs().empty())
        c.m_unit = base.runs().front().unit;

    // Matching: (name, file, line) first; then a name that is unique on
    // both sides, whatever its file and line (the code moved).
    std::map<LabelKey, const RunSet::Label*> newByKey;
    std::map<std::string, int> baseNames;
    std::map<std::string, int> newNames;
    for (const RunSet::Label& l : next.labels()) {
        newByKey[l.key] = &l;
        ++newNames[l.key.name];
    }
    for (const RunSet::Label& l : base.labels())
        ++baseNames[l.key.name];
    std::set<const RunSet::Label*> matchedNew;
    std::vector<std::pair<const RunSet::Label*, const RunSet::Label*>> pairs;
    std::vector<const RunSet::Label*> unmatchedBase;
    for (const RunSet::Label& l : base.labels()) {
        if (const auto it = newByKey.find(l.key); it != newByKey.end()) {
            pairs.emplace_back(&l, it->second);
            matchedNew.insert(it->second);
        } else {
            unmatchedBase.push_back(&l);
        }
    }
    std::map<std::string, const RunSet::Label*> newUnmatchedByName;
    for (const RunSet::Label& l : next.labels()) {
        if (!matchedNew.count(&l) && newNames[l.key.name] == 1)
            newUnmatchedByName[l.key.name] = &l;
    }
    for (const RunSet::Label* b : unmatchedBase) {
        const auto it = newUnmatchedByName.find(b->key.name);
        if (baseNames[b->key.name] == 1 && it != newUnmatchedByName.end()) {
            pairs.emplace_back(b, it->second);
            matchedNew.insert(it->second);
            continue;
        }
        LabelResult removed;
        removed.key = removed.baseKey = b->key;
        removed.async = b->async;
        removed.verdict = Verdict::Removed;
        c.m_labels.push_back(removed);
    }
    for (const RunSet::Label& l : next.labels()) {
        if (matchedNew.count(&l))
            continue;
        LabelResult added;
        added.key = added.baseKey = l.key;
        added.async = l.async;
        added.verdict = Verdict::Added;
        c.m_labels.push_back(added);
    }
    // Labels are independent and each has its own seed: the same results
    // on any number of threads.
    std::vector<LabelResult> matched(pairs.size());
    parallelFor(pairs.size(), [&](std::size_t i) {
        const auto [b, n] = pairs[i];
        LabelResult& result = matched[i];
        result.key = n->key;
        result.baseKey = b->key;
        result.movedMatch = !(b->key == n->key);
        result.async = b->async || n->async;
        CallTests tests;
        for (const CompareMetric metric : options.metrics) {
            result.metrics.push_back(c.compareMetric(base, b, next, n, metric, seedFor(options.seed, n->key, metric), tests));
            if (severity(result.metrics.back().verdict) > severity(result.verdict))
                result.verdict = result.metrics.back().verdict;
        }
    });
    for (LabelResult& result : matched)
        c.m_labels.push_back(std::move(result));
    c.sortLabels();

    // A run cut short compares only what came before the cut: said first.
    for (const auto& [side, set] : {std::pair("base", &base), std::pair("new", &next)}) {
        for (const RunSet::Run& run : set->runs()) {
            if (!run.cut.empty())
                c.m_warnings.push_back(std::string(side) + " run " + run.source + " is cut short (" + run.cut
                                       + "): only what came before the cut is compared");
        }
    }
    const std::size_t fewest = std::min(c.m_baseRuns, c.m_newRuns);
    if (c.m_test == Test::Calls)
        c.m_warnings.push_back("one run per side: tested over each call's values, not over runs");
    else if (fewest < 3)
        c.m_warnings.push_back("fewer than 3 runs on a side: no change can be told from noise (inconclusive)");
    else if (fewest < 9)
        c.m_warnings.push_back("fewer than 9 runs on a side: small changes may go unseen");
    std::set<std::string> formats;
    std::set<std::vector<std::string>> tracks;
    for (const RunSet* set : {&base, &next}) {
        for (const RunSet::Run& run : set->runs()) {
            formats.insert(run.format);
            if (!run.tracks.empty())
                tracks.insert(run.tracks);
        }
    }
    if (formats.size() > 1) {
        std::string list;
        for (const std::string& f : formats)
            list += (list.empty() ? "" : ", ") + f;
        c.m_warnings.push_back("the runs are of different formats (" + list + ")");
    }
    std::set<ValueUnit> units;
    for (const RunSet* set : {&base, &next}) {
        for (const RunSet::Run& run : set->runs())
            units.insert(run.unit);
    }
    if (units.size() > 1)
        c.m_warnings.push_back("the runs measure different things (time and samples): their values do not compare");
    if (tracks.size() > 1)
        c.m_warnings.push_back("the runs have different tracks (threads, loops)");
    return c;
}

const Comparison::CallTest& Comparison::callTest(const RunSet::Label& b, const RunSet::Label& n, CompareMetric kind,
                                                 CallTests& tests) const
{
    // exec, p50, p90, p99 and max test the same per-call values: the test
    // is computed once per label, so a metric's figures do not depend on
    // which others are asked for.
    CallTest& test = tests[std::size_t(kind)];
    if (test.done)
        return test;
    test.done = true;
    test.base = callValues(b, kind);
    test.next = callValues(n, kind);
    test.usable = !test.base.empty() && !test.next.empty();
    if (test.usable)
        test.mw = Statistics::mannWhitney(test.base, test.next);
    return test;
}

double Comparison::defaultFloor(const RunSet& base)
{
    return 0.001 * medianBusy(base);
}

std::size_t Comparison::count(Verdict verdict, CompareMetric metric) const
{
    std::size_t n = 0;
    for (const LabelResult& label : m_labels) {
        if (label.metrics.empty()) // added or removed
            n += label.verdict == verdict ? 1 : 0;
        else if (const MetricResult* m = label.metric(metric))
            n += m->verdict == verdict ? 1 : 0;
    }
    return n;
}

Comparison Comparison::with(const Comparison& more) const
{
    Comparison c = *this;
    for (const CompareMetric m : more.m_options.metrics) {
        if (std::find(c.m_options.metrics.begin(), c.m_options.metrics.end(), m) == c.m_options.metrics.end())
            c.m_options.metrics.push_back(m);
    }
    // The same runs match the same labels: a matched label has the same
    // key on both sides (added and removed ones have no metrics to add).
    std::map<LabelKey, const LabelResult*> byKey;
    for (const LabelResult& label : more.m_labels)
        byKey.emplace(label.key, &label);
    for (LabelResult& label : c.m_labels) {
        const auto it = byKey.find(label.key);
        if (label.metrics.empty() || it == byKey.end())
            continue;
        for (const MetricResult& m : it->second->metrics) {
            if (label.metric(m.metric))
                continue;
            label.metrics.push_back(m);
            if (severity(m.verdict) > severity(label.verdict))
                label.verdict = m.verdict;
        }
    }
    c.sortLabels();
    return c;
}

void Comparison::sortLabels()
{
    // The most severe first, then by the size of the change.
    std::stable_sort(m_labels.begin(), m_labels.end(), [](const LabelResult& x, const LabelResult& y) {
        if (severity(x.verdict) != severity(y.verdict))
            return severity(x.verdict) > severity(y.verdict);
        const double dx = x.metrics.empty() ? 0 : std::fabs(x.metrics.front().delta);
        const double dy = y.metrics.empty() ? 0 : std::fabs(y.metrics.front().delta);
        if (dx != dy)
            return dx > dy;
        return x.key < y.key;
    });
}

Comparison::Verdict Comparison::judge(double delta, double deltaPct, double threshold)
{
    if (delta == 0 || std::fabs(deltaPct) <= threshold)
        return Verdict::Unchanged;
    return delta > 0 ? Verdict::Regressed : Verdict::Improved;
}

Comparison Comparison::withThresholds(const std::map<LabelKey, double>& thresholds, double fallback) const
{
    Comparison c = *this;
    for (LabelResult& label : c.m_labels) {
        if (label.metrics.empty())
            continue; // added or removed: no figures to judge
        const auto it = thresholds.find(label.key);
        const double threshold = it == thresholds.end() ? fallback : it->second;
        label.verdict = Verdict::Unchanged;
        for (MetricResult& m : label.metrics) {
            m.threshold = threshold;
            m.verdict = judge(m.delta, m.deltaPct, threshold);
            if (severity(m.verdict) > severity(label.verdict))
                label.verdict = m.verdict;
        }
    }
    // Judged on thresholds, the test's warnings about how many runs it
    // had no longer say what the verdicts rest on.
    c.m_warnings.erase(std::remove_if(c.m_warnings.begin(), c.m_warnings.end(),
                                      [](const std::string& w) {
                                          return w.rfind("fewer than", 0) == 0 || w.rfind("one run per side", 0) == 0;
                                      }),
                       c.m_warnings.end());
    c.sortLabels();
    return c;
}

Comparison Comparison::only(CompareMetric metric) const
{
    Comparison c;
    c.m_options = m_options;
    c.m_options.metrics = {metric};
    c.m_baseRuns = m_baseRuns;
    c.m_newRuns = m_newRuns;
    c.m_test = m_test;
    c.m_floor = m_floor;
    c.m_unit = m_unit;
    c.m_warnings = m_warnings;
    c.m_labels.reserve(m_labels.size());
    for (const LabelResult& label : m_labels) {
        LabelResult kept = label;
        kept.metrics.clear();
        if (const MetricResult* m = label.metric(metric)) {
            kept.metrics.push_back(*m);
            kept.verdict = m->verdict;
        } else if (!label.metrics.empty()) {
            continue; // never compared on this metric: not asked for
        }
        c.m_labels.push_back(std::move(kept));
    }
    c.sortLabels();
    return c;
}

} // namespace runlane
