// How often the compare verdicts raise a false alarm, and how long a
// comparison of two sets of runs takes (docs/compare.md,
// docs/performance.md "Compare"). Figures are printed, never asserted.
//
//   bench_compare [--events N] [--runs K] [--repeat R]
//
// 1. A/A calibration: R comparisons of two sets of K generated runs of one
//    workload (20 labels, 3 % run-to-run noise, fresh noise on each side):
//    the share of comparisons in which any label is flagged, with
//    Runlane's rule and with the plain "p < alpha and |Δ%| >= 5 %" rule.
// 2. Speed: K + K Chrome traces of N events each (runlane-gentrace's
//    generator): loading the 2K files alone, the whole comparison (loads
//    included), and the comparison step after loading; then one of them
//    against one (each call's values), exec and all nine metrics.
#include "comparison.h"
#include "compareformatter.h"
#include "core/compare/runsgenerator.h"
#include "profileloader.h"
#include "tracegenerator.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace runlane;

namespace {

RunSet generatedRuns(std::uint64_t seed, int runs)
{
    RunSet set;
    for (int r = 0; r < runs; ++r) {
        test::RunsGenerator generator(seed * 1000 + std::uint64_t(r));
        set.add(*generator.profile(), "run", false);
    }
    return set;
}

bool naiveAlarm(const Comparison& c, const CompareOptions& options)
{
    for (const Comparison::LabelResult& label : c.labels()) {
        for (const Comparison::MetricResult& m : label.metrics) {
            if (m.p < options.alpha && std::fabs(m.deltaPct) >= options.threshold)
                return true;
        }
    }
    return false;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    std::int64_t events = 1'000'000;
    int runs = 5;
    int repeat = 200;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--events"))
            events = std::atoll(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--runs"))
            runs = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--repeat"))
            repeat = std::atoi(argv[i + 1]);
    }

    const CompareOptions options;
    int alarms = 0;
    int naive = 0;
    int labelsFlagged = 0;
    int labelsTested = 0;
    for (int r = 0; r < repeat; ++r) {
        const Comparison c = Comparison::compute(generatedRuns(std::uint64_t(2 * r + 1), runs),
                                                 generatedRuns(std::uint64_t(2 * r + 2), runs), options);
        const std::size_t flagged = c.count(Comparison::Verdict::Regressed) + c.count(Comparison::Verdict::Improved);
        alarms += flagged > 0 ? 1 : 0;
        labelsFlagged += int(flagged);
        labelsTested += int(c.labels().size());
        naive += naiveAlarm(c, options) ? 1 : 0;
    }
    std::printf("A/A, %d comparisons of %d vs %d runs, 20 labels, 3 %% noise:\n", repeat, runs, runs);
    std::printf("  any label flagged (Runlane's rule):      %5.1f %% of comparisons (%d labels of %d)\n",
                100.0 * alarms / repeat, labelsFlagged, labelsTested);
    std::printf("  any label flagged (p < 0.05, |Δ%%| >= 5): %5.1f %% of comparisons\n", 100.0 * naive / repeat);

    QTemporaryDir dir;
    std::vector<std::string> base;
    std::vector<std::string> next;
    for (int i = 0; i < 2 * runs; ++i) {
        const std::string path = dir.filePath(QStringLiteral("run%1.json").arg(i)).toStdString();
        bench::TraceGenerator::Options o;
        o.events = std::uint64_t(events);
        o.seed = std::uint32_t(i + 1);
        std::FILE* out = std::fopen(path.c_str(), "wb");
        if (!out) {
            std::fprintf(stderr, "bench_compare: cannot write %s\n", path.c_str());
            return 1;
        }
        bench::TraceGenerator(o).write(out);
        std::fclose(out);
        (i < runs ? base : next).push_back(path);
    }
    QElapsedTimer timer;
    timer.start();
    for (const std::vector<std::string>* side : {&base, &next}) {
        for (const std::string& path : *side)
            ProfileLoader::load(QString::fromStdString(path));
    }
    const double loadOnly = double(timer.nsecsElapsed()) / 1e9;
    timer.restart();
    RunSet b;
    RunSet n;
    for (const std::string& path : base)
        b.add(*ProfileLoader::load(QString::fromStdString(path)).profile, path, false);
    for (const std::string& path : next)
        n.add(*ProfileLoader::load(QString::fromStdString(path)).profile, path, false);
    const double loadAndReduce = double(timer.nsecsElapsed()) / 1e9;
    timer.restart();
    const Comparison c = Comparison::compute(b, n, options);
    const std::string table = CompareFormatter::table(c);
    const double step = double(timer.nsecsElapsed()) / 1e6;
    std::printf("%d + %d Chrome traces of %lld events (%zu labels):\n", runs, runs, static_cast<long long>(events),
                c.labels().size());
    std::printf("  loading the %d files alone:        %7.2f s\n", 2 * runs, loadOnly);
    std::printf("  compare, loads included:           %7.2f s (%.2f x the loads)\n", loadAndReduce + step / 1000,
                (loadAndReduce + step / 1000) / loadOnly);
    std::printf("  compare step after loading:        %7.1f ms (statistics, verdicts, table)\n", step);

    // One run against one, as the viewer and `compare A B` do: tested over
    // each call's values, every metric (the viewer computes them all).
    RunSet one;
    RunSet other;
    timer.restart();
    one.add(*ProfileLoader::load(QString::fromStdString(base.front())).profile, base.front(), true);
    other.add(*ProfileLoader::load(QString::fromStdString(next.front())).profile, next.front(), true);
    const double loadOne = double(timer.nsecsElapsed()) / 1e9;
    for (const bool all : {false, true}) {
        CompareOptions perCall;
        if (all)
            perCall.metrics = CompareMetrics::list();
        timer.restart();
        const Comparison single = Comparison::compute(one, other, perCall);
        const double singleStep = double(timer.nsecsElapsed()) / 1e6;
        std::printf("1 + 1 (each call's values), %s: compare step %7.1f ms after %.2f s of loading and reducing\n",
                    all ? "all 9 metrics" : "exec", singleStep, loadOne);
    }
    return 0;
}
