#pragma once

// Random but seeded sets of runs for the comparison's property tests: per
// comparison one run per side (each call's values kept) or several, a few
// labels each with calls from one of several laws (lognormal of any
// spread, exponential, a few values with ties, constant, zeros among them,
// one huge outlier), a planted factor and a change in the number of calls,
// and run figures as a rank gives them (the sums of the calls, the
// nearest-rank p50 … max), sometimes with calls that did not finish added
// to the sums and per-call figures off the calls' own, as a rank's are
// when it counts measurements the finished calls leave out. The same seed
// gives the same runs on every machine (no library distributions).

#include "comparison.h"
#include "seededrandom.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace runlane::test {

class RandomRuns : private SeededRandom
{
public:
    explicit RandomRuns(std::uint64_t seed)
        : SeededRandom(seed * 0x9e3779b97f4a7c15ULL + 7)
    {
    }

    struct Pair {
        RunSet base;
        RunSet next;
        CompareOptions options;
    };

    // One comparison's runs and options.
    Pair pair()
    {
        Pair p;
        const bool single = chance(0.5);
        const int baseRuns = single ? 1 : 1 + int(below(12));
        const int newRuns = single ? 1 : (chance(0.2) ? 1 : 2 + int(below(12)));
        const int labels = 1 + int(below(5));
        std::vector<LabelPlan> plans;
        for (int l = 0; l < labels; ++l)
            plans.push_back(plan(l));
        fill(p.base, baseRuns, plans, false, single);
        fill(p.next, newRuns, plans, true, single);
        p.options.metrics = CompareMetrics::list();
        const double thresholds[] = {0.01, 0.05, 0.2};
        p.options.threshold = thresholds[below(3)];
        p.options.alpha = chance(0.5) ? 0.05 : 0.2;
        if (chance(0.5))
            p.options.floor = 0;
        const CompareOptions::Per pers[] = {CompareOptions::Per::Run, CompareOptions::Per::Call, CompareOptions::Per::Busy};
        p.options.per = pers[below(3)];
        p.options.seed = next();
        return p;
    }

private:
    enum class Law { LogNormal, Exponential, FewValues, Constant, WithZeros, Outlier };
    struct LabelPlan {
        std::string name;
        Law law = Law::LogNormal;
        double scale = 1000;
        double spread = 0.5;
        int calls = 20;
        double factor = 1; // the new side's
        int newCalls = 20;
        bool onlyBase = false;
        bool onlyNew = false;
    };

    LabelPlan plan(int index)
    {
        LabelPlan l;
        l.name = "f" + std::to_string(index);
        l.law = Law(below(6));
        l.scale = 100 * std::pow(10.0, double(below(5)));
        l.spread = 0.05 + 1.5 * uniform();
        const int counts[] = {1, 2, 3, 5, 8, 20, 60, 250, 700};
        l.calls = counts[below(9)];
        const double factors[] = {1, 1, 0.5, 0.8, 0.95, 1.05, 1.25, 2, 3};
        l.factor = factors[below(9)];
        l.newCalls = chance(0.7) ? l.calls : counts[below(9)];
        l.onlyBase = chance(0.05);
        l.onlyNew = !l.onlyBase && chance(0.05);
        return l;
    }

    double call(const LabelPlan& l, double factor)
    {
        double v = 0;
        switch (l.law) {
        case Law::LogNormal:
            v = l.scale * std::exp(l.spread * normal());
            break;
        case Law::Exponential:
            v = -l.scale * std::log(uniform());
            break;
        case Law::FewValues:
            v = l.scale * double(1 + below(4));
            break;
        case Law::Constant:
            v = l.scale;
            break;
        case Law::WithZeros:
            v = chance(0.3) ? 0 : l.scale * (1 + l.spread * uniform());
            break;
        case Law::Outlier:
            v = chance(0.02) ? l.scale * 1000 : l.scale * (1 + 0.1 * normal());
            break;
        }
        // Times are whole nanoseconds.
        return std::max(0.0, std::round(v * factor));
    }

    static double nearestRank(std::vector<double> values, double q)
    {
        if (values.empty())
            return 0;
        const std::size_t k = std::clamp<std::size_t>(std::size_t(std::ceil(q * double(values.size()))), 1, values.size()) - 1;
        std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(k), values.end());
        return values[k];
    }

    void fill(RunSet& set, int runs, const std::vector<LabelPlan>& plans, bool isNew, bool keepCalls)
    {
        for (int r = 0; r < runs; ++r) {
            std::vector<std::pair<RunSet::Label, CompareMetrics::Values>> values;
            double busy = 1e6 * (1 + uniform());
            // Run-to-run noise of each label, as in runs of a real workload.
            for (const LabelPlan& l : plans) {
                if ((isNew && l.onlyBase) || (!isNew && l.onlyNew))
                    continue;
                const double noise = 1 + 0.05 * normal();
                const double factor = (isNew ? l.factor : 1) * noise;
                const int n = isNew ? l.newCalls : l.calls;
                RunSet::Label label;
                label.key = {l.name, "work.nim", 10};
                for (int c = 0; c < n; ++c) {
                    const double exec = call(l, factor);
                    const double total = exec + (chance(0.3) ? std::round(0.5 * exec) : 0);
                    const double wall = total + (chance(0.5) ? std::round(l.scale * uniform()) : 0);
                    if (keepCalls) {
                        label.callExec.push_back(exec);
                        label.callTotal.push_back(total);
                        label.callWall.push_back(wall);
                    }
                }
                const auto sum = [](const std::vector<double>& v) {
                    double s = 0;
                    for (const double x : v)
                        s += x;
                    return s;
                };
                // Without the calls kept, the run's figures from calls drawn anyway.
                std::vector<double> exec = label.callExec;
                std::vector<double> total = label.callTotal;
                std::vector<double> wall = label.callWall;
                if (!keepCalls) {
                    for (int c = 0; c < n; ++c) {
                        exec.push_back(call(l, factor));
                        total.push_back(exec.back());
                        wall.push_back(exec.back() + std::round(l.scale * uniform()));
                    }
                }
                CompareMetrics::Values v{};
                const auto at = [&v](CompareMetric m) -> double& { return v[std::size_t(m)]; };
                // Sometimes a call that did not finish: in the sums, not in the calls.
                const double unfinished = chance(0.2) ? std::round(l.scale * uniform()) : 0;
                at(CompareMetric::Calls) = double(n);
                at(CompareMetric::Exec) = sum(exec) + unfinished;
                at(CompareMetric::Total) = sum(total) + unfinished;
                at(CompareMetric::Wall) = sum(wall) + unfinished;
                at(CompareMetric::Wait) = std::max(0.0, at(CompareMetric::Wall) - at(CompareMetric::Exec));
                const bool off = chance(0.15); // the rank counts what the calls leave out
                const auto figure = [&](double q) { return nearestRank(exec, q) + (off ? std::round(l.scale * uniform()) : 0); };
                at(CompareMetric::P50) = figure(0.5);
                at(CompareMetric::P90) = figure(0.9);
                at(CompareMetric::P99) = figure(0.99);
                at(CompareMetric::Max) = figure(1);
                busy += at(CompareMetric::Exec);
                values.emplace_back(std::move(label), v);
            }
            set.add(RunSet::Run{"run" + std::to_string(r), "generated", busy, {}}, values);
        }
    }
};

// One run of one label whose calls (exec = total = wall, none waiting)
// are `calls`, its figures as a rank gives them: sums, the nearest-rank
// p50 … max. The exact cases of the comparison's and its formats' tests.
inline RunSet oneRunOfCalls(const LabelKey& key, const std::vector<double>& calls)
{
    RunSet::Label label;
    label.key = key;
    label.callExec = label.callTotal = label.callWall = calls;
    CompareMetrics::Values v{};
    v[std::size_t(CompareMetric::Calls)] = double(calls.size());
    double sum = 0;
    for (const double c : calls)
        sum += c;
    for (const CompareMetric m : {CompareMetric::Exec, CompareMetric::Total, CompareMetric::Wall})
        v[std::size_t(m)] = sum;
    std::vector<double> sorted = calls;
    std::sort(sorted.begin(), sorted.end());
    const auto rank = [&sorted](double q) {
        return sorted[std::clamp<std::size_t>(std::size_t(std::ceil(q * double(sorted.size()))), 1, sorted.size()) - 1];
    };
    v[std::size_t(CompareMetric::P50)] = rank(0.5);
    v[std::size_t(CompareMetric::P90)] = rank(0.9);
    v[std::size_t(CompareMetric::P99)] = rank(0.99);
    v[std::size_t(CompareMetric::Max)] = sorted.back();
    RunSet set;
    set.add(RunSet::Run{"run", "x", 1e7, {}}, {{label, v}});
    return set;
}

// Whether a metric's verdict is inconclusive for a reason other than its
// interval: the test is not significant, or a side has too few runs.
inline bool inconclusiveBesidesInterval(const Comparison& c, const Comparison::MetricResult& m)
{
    const std::size_t fewest = std::min(c.baseRuns(), c.newRuns());
    return m.verdict == Comparison::Verdict::Inconclusive
        && (m.p >= c.options().alpha || (m.test == Comparison::Test::Runs && fewest < 3));
}

} // namespace runlane::test
