// How fast the history answers and what recording costs (docs/history.md,
// docs/performance.md "History"). Figures are printed, never asserted.
//
//   bench_history [--runs N] [--labels L] [--show-labels S] [--window W] [--events E]
//                 [--history-runs H] [--repeat R] [--cli PATH]
//
// 1. show: an SQLite history of N runs (10,000) of S labels (20); one
//    label's exec over every run (HistoryStore::series and the table), R
//    times.
// 2. check: a history of W + 1 runs of L labels (5,000); the latest run
//    against the W (30) before it (HistoryCheck and its JSON), R times.
// 3. record: a generated Chrome trace of E events (1,000,000): its load
//    (ProfileLoader, while a HistoryRecorder opens the history beside it,
//    as in `history record`) against what recording adds to it: the run's
//    per-label values (RunSet::add) and the transaction (HistoryRecorder),
//    into a history that holds H runs (100) of the trace already, as a CI
//    job's history does: what a record costs may grow with the history.
// With --cli, 1 and 2 are also timed as whole runlane-cli processes.
#include "benchsupport.h"
#include "historycheck.h"
#include "historydatabase.h"
#include "historyformatter.h"
#include "historyrecorder.h"
#include "historystore.h"
#include "measurementmetrics.h"
#include "ranktable.h"
#include "tracegenerator.h"

#include <QCoreApplication>
#include <QProcess>
#include <QTemporaryDir>

#include <cmath>
#include <cstdio>
#include <cstring>

using namespace runlane;

namespace {

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

HistoryStore::Values rows(int labels, int run, std::uint64_t& state)
{
    HistoryStore::Values values;
    for (int l = 0; l < labels; ++l) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        const double noise = double(state >> 11) / double(1ULL << 53) - 0.5;
        RunSet::Label label;
        label.key = LabelKey{"f" + std::to_string(l), "work.nim", 10 + l};
        CompareMetrics::Values v{};
        v.fill(std::round(100'000.0 * (1 + l % 17) * (1 + 0.04 * noise) * (run % 100 == 99 ? 1.1 : 1.0)));
        v[std::size_t(CompareMetric::Calls)] = 10;
        values.emplace_back(std::move(label), v);
    }
    return values;
}

// A history of `runs` runs of `labels` labels, written fast (no fsync:
// the fill is not what is measured).
bool fill(const std::string& path, int runs, int labels)
{
    HistoryDatabase db;
    if (!db.open(path) || !db.exec(QStringLiteral("PRAGMA synchronous=OFF"))) {
        std::fprintf(stderr, "bench_history: %s\n", db.error().c_str());
        return false;
    }
    HistoryStore store(db);
    std::uint64_t state = 42;
    for (int r = 0; r < runs; ++r) {
        HistoryRun run;
        run.workload = "bench";
        run.commit = std::to_string(r);
        if (!store.record(run, rows(labels, r, state))) {
            std::fprintf(stderr, "bench_history: %s\n", store.error().c_str());
            return false;
        }
    }
    return true;
}

// A history of `runs` runs of the profile in `trace` (its own labels and
// values), written fast as fill() writes.
bool fillWithTrace(const std::string& path, const std::string& trace, int runs)
{
    RunSet set;
    const double took = bench::seconds([&] {
        const LoadResult loaded = ProfileLoader::load(QString::fromStdString(trace));
        if (loaded.ok())
            set.add(*loaded.profile, trace, false);
    });
    HistoryDatabase db;
    if (set.runs().empty() || !db.open(path) || !db.exec(QStringLiteral("PRAGMA synchronous=OFF"))) {
        std::fprintf(stderr, "bench_history: cannot fill %s: %s\n", path.c_str(), db.error().c_str());
        return false;
    }
    HistoryStore store(db);
    const double wrote = bench::seconds([&] {
        for (int r = 0; r < runs; ++r) {
            std::vector<HistoryRun> meta(1);
            meta[0].workload = "bench";
            meta[0].commit = std::to_string(r);
            if (!store.record(set, meta))
                break;
        }
    });
    if (!store.error().empty()) {
        std::fprintf(stderr, "bench_history: %s\n", store.error().c_str());
        return false;
    }
    std::printf("record: the history holds %d runs of the trace's %zu labels (load %.2f s, written in %.1f s)\n", runs,
                set.labels().size(), took, wrote);
    return true;
}

// A filled history in `dir`, said on stdout; "" if it could not be made.
std::string filled(const QTemporaryDir& dir, const char* what, int runs, int labels)
{
    const std::string path = dir.filePath(QString::fromLatin1(what) + QStringLiteral(".sqlite")).toStdString();
    bool ok = false;
    const double took = bench::seconds([&] { ok = fill(path, runs, labels); });
    std::printf("%s: filled %d runs x %d labels in %.1f s\n", what, runs, labels, took);
    return ok ? path : std::string();
}

double cliMedian(const QString& cli, const QStringList& args, int repeat)
{
    std::vector<double> times;
    for (int k = 0; k < repeat; ++k) {
        QProcess process;
        times.push_back(bench::seconds([&] {
            process.start(cli, args);
            process.waitForFinished(-1);
        }));
        if (process.exitCode() != 0)
            std::fprintf(stderr, "bench_history: runlane-cli exited with %d: %s\n", process.exitCode(),
                         process.readAllStandardError().constData());
    }
    return median(times);
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    int runs = 10'000;
    int labels = 5'000;
    int showLabels = 20;
    int historyRuns = 100;
    int window = 30;
    std::uint64_t events = 1'000'000;
    int repeat = 5;
    QString cli;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string arg = argv[i];
        if (arg == "--runs")
            runs = std::max(2, std::atoi(argv[i + 1]));
        else if (arg == "--labels")
            labels = std::max(1, std::atoi(argv[i + 1]));
        else if (arg == "--show-labels")
            showLabels = std::max(8, std::atoi(argv[i + 1]));
        else if (arg == "--history-runs")
            historyRuns = std::max(0, std::atoi(argv[i + 1]));
        else if (arg == "--window")
            window = std::max(1, std::atoi(argv[i + 1]));
        else if (arg == "--events")
            events = std::strtoull(argv[i + 1], nullptr, 10);
        else if (arg == "--repeat")
            repeat = std::max(1, std::atoi(argv[i + 1]));
        else if (arg == "--cli")
            cli = QString::fromLocal8Bit(argv[i + 1]);
        else {
            std::fprintf(stderr, "usage: bench_history [--runs N] [--labels L] [--show-labels S] [--window W] [--events E]"
                                 " [--history-runs H] [--repeat R] [--cli PATH]\n");
            return 2;
        }
    }
    QTemporaryDir dir;

    // 1. show
    const std::string showDb = filled(dir, "show", runs, showLabels);
    HistoryDatabase showHistory;
    if (showDb.empty() || !showHistory.open(showDb))
        return 1;
    HistoryStore showStore(showHistory);
    std::vector<double> times;
    std::size_t points = 0;
    std::size_t bytes = 0;
    for (int k = 0; k < repeat; ++k) {
        times.push_back(bench::seconds([&] {
            std::vector<HistoryStore::Point> series;
            showStore.series("bench", "f7", CompareMetric::Exec, 0, series);
            points = series.size();
            bytes = HistoryFormatter::seriesTable(series, CompareMetric::Exec).size();
        }));
    }
    std::printf("show: one label over %zu runs (%zu bytes of table): median %.1f ms of %d\n", points, bytes,
                median(times) * 1000, repeat);
    if (!cli.isEmpty())
        std::printf("show: runlane-cli history show --format csv, whole process: median %.1f ms\n",
                    cliMedian(cli, {"history", "show", "--db", QString::fromStdString(showDb), "--workload", "bench",
                                    "--label", "f7", "--format", "csv"}, repeat) * 1000);

    // 2. check
    const std::string checkDb = filled(dir, "check", window + 1, labels);
    HistoryDatabase checkHistory;
    if (checkDb.empty() || !checkHistory.open(checkDb))
        return 1;
    HistoryStore checkStore(checkHistory);
    times.clear();
    std::size_t regressed = 0;
    for (int k = 0; k < repeat; ++k) {
        times.push_back(bench::seconds([&] {
            HistoryCheck check;
            std::string error;
            bool notFound = false;
            HistoryCheck::Options options;
            options.workload = "bench";
            options.window = std::size_t(window);
            if (!HistoryCheck::compute(checkStore, options, check, error, notFound))
                std::fprintf(stderr, "bench_history: %s\n", error.c_str());
            regressed = check.comparison().count(Comparison::Verdict::Regressed);
            HistoryFormatter::checkJson(check);
        }));
    }
    std::printf("check: the latest run against %d runs of %d labels (%zu regressed): median %.1f ms of %d\n", window,
                labels, regressed, median(times) * 1000, repeat);
    if (!cli.isEmpty())
        std::printf("check: runlane-cli history check --format json, whole process: median %.1f ms\n",
                    cliMedian(cli, {"history", "check", "--db", QString::fromStdString(checkDb), "--workload", "bench",
                                    "--format", "json"}, repeat) * 1000);

    // 3. record
    const std::string trace = dir.filePath(QStringLiteral("trace.json")).toStdString();
    if (!bench::TraceGenerator::writeFile(trace.c_str(), events)) {
        std::fprintf(stderr, "bench_history: cannot write %s\n", trace.c_str());
        return 1;
    }
    // As `history record` goes: the recorder opens the history (and reads
    // the workload's labels) on its thread while the profile loads; then
    // the per-label values, then the transaction on the recorder's thread.
    // The load is timed with the recorder opening beside it, as it runs.
    const std::string recordDb = dir.filePath(QStringLiteral("record.sqlite")).toStdString();
    if (!fillWithTrace(recordDb, trace, historyRuns))
        return 1;
    std::vector<double> loads;
    std::vector<double> reduce;
    std::vector<double> write;
    std::size_t rowsWritten = 0;
    bench::LoadRuns loaded;
    for (int k = 0; k < repeat; ++k) {
        HistoryRecorder recorder(recordDb, "bench");
        loads.push_back(bench::seconds([&] { loaded.result = ProfileLoader::load(QString::fromStdString(trace)); }));
        if (!loaded.result.ok()) {
            std::fprintf(stderr, "bench_history: %s\n", loaded.result.error.toString().c_str());
            return 1;
        }
        RunSet set;
        reduce.push_back(bench::seconds([&] { set.add(*loaded.result.profile, trace, false); }));
        rowsWritten = set.labels().size();
        std::vector<HistoryRun> meta(1);
        meta[0].workload = "bench";
        bool ok = false;
        write.push_back(bench::seconds([&] { ok = recorder.record(set, meta); }));
        if (!ok) {
            std::fprintf(stderr, "bench_history: %s\n", recorder.error().c_str());
            return 1;
        }
        char text[32];
        std::snprintf(text, sizeof text, "%s%.2f s", loaded.runs.empty() ? "" : ", ", loads.back());
        loaded.runs += text;
    }
    loaded.median = median(loads);
    // What the per-label values are made of: the metrics and the rank.
    std::vector<double> metricsTimes;
    std::vector<double> rankTimes;
    for (int k = 0; k < repeat; ++k) {
        std::unique_ptr<MeasurementMetrics> metrics;
        metricsTimes.push_back(bench::seconds([&] { metrics = std::make_unique<MeasurementMetrics>(*loaded.result.profile); }));
        rankTimes.push_back(bench::seconds([&] { RankTable::compute(*metrics, std::nullopt, nullptr, RankTable::Distributions::ExecOnly); }));
    }
    std::printf("record: of the per-label values, MeasurementMetrics %.1f ms, RankTable %.1f ms\n",
                median(metricsTimes) * 1000, median(rankTimes) * 1000);
    const double load = loaded.median;
    const double added = median(reduce) + median(write);
    std::printf("record: %llu events load in %.3f s (median of %d: %s)\n", static_cast<unsigned long long>(events), load,
                repeat, loaded.runs.c_str());
    std::printf("record: per-label values %.1f ms + transaction of %zu label rows %.1f ms = %.1f ms, %.1f %% of the load\n",
                median(reduce) * 1000, rowsWritten, median(write) * 1000, added * 1000, added / load * 100);
    return 0;
}
