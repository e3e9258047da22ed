#include "criticalpathcomparison.h"
#include "criticalpathworkload.h"
#include "testsupport.h"

#include <QtTest>

#include <cmath>
#include <memory>

using namespace runlane;
using namespace runlane::test;

namespace {

using Kind = CriticalPath::Kind;
using Verdict = Comparison::Verdict;

// One run of the workload: the profile, its handler tasks' summary and the
// Run the comparison takes (pointing into both).
struct Loaded {
    std::shared_ptr<const Profile> profile;
    std::unique_ptr<CriticalPathSummary> summary;
    CriticalPathComparison::Run run;
};

Loaded load(const CriticalPathWorkload& workload, const std::string& label = "handler")
{
    Loaded out;
    LoadResult r = loadText(workload.log());
    if (!r.ok())
        qFatal("the generated log does not load: %s", r.error.toString().c_str());
    out.profile = r.profile;
    const Profile& p = *out.profile;
    std::vector<LabelId> labels;
    for (LabelId l = 0; l < p.labelCount(); ++l) {
        if (p.labelName(l) == label)
            labels.push_back(l);
    }
    const CriticalPath path(p, CriticalPath::sourceOf(p));
    out.summary = std::make_unique<CriticalPathSummary>(
        CriticalPathSummary::compute(path, CriticalPathSummary::tasksOf(p, labels), false));
    out.run = {out.profile.get(), out.summary.get(), CriticalPathComparison::busyOf(p), "run"};
    return out;
}

std::vector<CriticalPathComparison::Run> runsOf(const std::vector<Loaded>& loaded)
{
    std::vector<CriticalPathComparison::Run> runs;
    for (const Loaded& l : loaded)
        runs.push_back(l.run);
    return runs;
}

std::vector<Loaded> loadAll(const QList<int>& percents, const CriticalPathWorkload& shape = {})
{
    std::vector<Loaded> out;
    for (const int percent : percents) {
        CriticalPathWorkload w = shape;
        w.percent = percent;
        out.push_back(load(w));
    }
    return out;
}

// "queued flush -10000 (base 10000, new 0)": a row with its figures.
QString rowText(const CriticalPathComparison::Row& row)
{
    return QStringLiteral("%1 %2 %3 (base %4, new %5)%6%7")
        .arg(qstr(CriticalPath::kindName(row.kind)), qstr(row.name.empty() ? "-" : row.name))
        .arg(row.delta, 0, 'f', 0)
        .arg(row.base, 0, 'f', 0)
        .arg(row.next, 0, 'f', 0)
        .arg(row.inBase ? "" : " added", row.inNew ? "" : " removed");
}

QStringList rowTexts(const CriticalPathComparison& c)
{
    QStringList rows;
    for (const auto& row : c.rows())
        rows << rowText(row);
    return rows;
}

} // namespace

Q_DECLARE_METATYPE(Comparison::Verdict)
Q_DECLARE_METATYPE(Comparison::Test)

// The comparison of one label's critical paths between runs
// (docs/compare.md, "Critical path in compare mode"), on generated Chronos
// logs whose paths are known to the nanosecond (criticalpathworkload.h).
class TestCriticalPathComparison : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The workload's paths are what its header says, so the rows below
    // can be computed by hand: running handler 2000, running query d_i,
    // queued behind flush 500 per task.
    void workloadPathsAreKnown()
    {
        const Loaded base = load({});
        QCOMPARE(base.summary->tasks().size(), std::size_t(20));
        QCOMPARE(base.summary->kindTotals()[std::size_t(Kind::Running)], 20 * 2000 + 219000);
        QCOMPARE(base.summary->kindTotals()[std::size_t(Kind::Queued)], 20 * 500);
        QCOMPARE(base.summary->kindTotals()[std::size_t(Kind::Idle)], 0);
        QCOMPARE(base.summary->kindTotals()[std::size_t(Kind::Waiting)], 0);
        QCOMPARE(base.summary->wall(), 20 * 2500 + 219000);
        QCOMPARE(CriticalPathWorkload{}.wakerTotal(), 219000LL);
    }

    // The waker's running time +30 % in the new run: the Δ of running
    // query is exactly what was planted (Σ 0.3 d_i = 65700 ns), nothing
    // else moved, and the running kind, tested over each task's running
    // time (one run per side), is regressed.
    void plantedWakerRegression()
    {
        const std::vector<Loaded> base = loadAll({100});
        const std::vector<Loaded> next = loadAll({130});
        const auto c = CriticalPathComparison::compute(runsOf(base), runsOf(next), CompareOptions{});
        CriticalPathWorkload slower;
        slower.percent = 130;
        const long long planted = slower.wakerTotal() - CriticalPathWorkload{}.wakerTotal();
        QCOMPARE(planted, 65700LL);
        QCOMPARE(rowTexts(c), (QStringList{"running query 65700 (base 219000, new 284700)",
                                           "running handler 0 (base 40000, new 40000)",
                                           "queued flush 0 (base 10000, new 10000)"}));
        QCOMPARE(c.rows().front().deltaPct, 0.3);
        QCOMPARE(c.rows().front().file, std::string("app.nim"));
        QCOMPARE(c.rows().front().line, 20);

        const Comparison::MetricResult& running = c.kind(Kind::Running);
        QCOMPARE(running.delta, double(planted));
        QCOMPARE(running.base.median, 259000.0);
        QCOMPARE(running.next.median, 324700.0);
        QCOMPARE(running.test, Comparison::Test::Calls);
        QCOMPARE(running.method, Comparison::IntervalMethod::TotalOverCalls);
        QVERIFY(running.p < 1e-6);
        QCOMPARE(running.verdict, Verdict::Regressed);
        QCOMPARE(c.kind(Kind::Queued).delta, 0.0);
        QCOMPARE(c.kind(Kind::Queued).verdict, Verdict::Unchanged);
        QCOMPARE(c.kind(Kind::Idle).verdict, Verdict::Unchanged);
        QCOMPARE(c.kind(Kind::Waiting).verdict, Verdict::Unchanged);
        QCOMPARE(c.verdict(), Verdict::Regressed);
        QCOMPARE(c.baseTasks(), 20.0);
        QCOMPARE(c.newWall(), double(20 * 2500 + 284700));
        QCOMPARE(c.warnings(), (std::vector<std::string>{"one run per side: tested over each task's values, not over runs"}));
    }

    // The verdicts are the compare rank's: Comparison's figures for the
    // same samples, and its rules on runs, threshold and floor.
    void verdictsFollowTheCompareRules_data()
    {
        QTest::addColumn<QList<int>>("basePercents");
        QTest::addColumn<QList<int>>("newPercents");
        QTest::addColumn<qint64>("floor"); // -1: the default
        QTest::addColumn<double>("delta");
        QTest::addColumn<Comparison::Test>("test");
        QTest::addColumn<Comparison::Verdict>("verdict");
        QTest::newRow("the same run") << QList<int>{100} << QList<int>{100} << qint64(-1) << 0.0
                                      << Comparison::Test::Calls << Verdict::Unchanged;
        // Σ 0.02 d_i = 4380 of 259000: 1.7 %, within 5 %.
        QTest::newRow("+2 % in the waker: within the threshold")
            << QList<int>{100} << QList<int>{102} << qint64(-1) << 4380.0 << Comparison::Test::Calls
            << Verdict::Unchanged;
        QTest::newRow("+30 %, but under a floor of 100 us")
            << QList<int>{100} << QList<int>{130} << qint64(100000) << 65700.0 << Comparison::Test::Calls
            << Verdict::Unchanged;
        QTest::newRow("+30 %, one new run against two base runs: fewer than 3")
            << QList<int>{100, 100} << QList<int>{130} << qint64(-1) << 65700.0 << Comparison::Test::Runs
            << Verdict::Inconclusive;
        // Three runs a side: the exact Mann-Whitney p is at least 0.1.
        QTest::newRow("+30 %, three runs a side") << QList<int>{100, 100, 100} << QList<int>{130, 130, 130}
                                                  << qint64(-1) << 65700.0 << Comparison::Test::Runs
                                                  << Verdict::Inconclusive;
        QTest::newRow("+30 %, five runs a side")
            << QList<int>{100, 101, 99, 100, 102} << QList<int>{130, 131, 129, 130, 128} << qint64(-1) << 65700.0
            << Comparison::Test::Runs << Verdict::Regressed;
    }
    void verdictsFollowTheCompareRules()
    {
        QFETCH(QList<int>, basePercents);
        QFETCH(QList<int>, newPercents);
        QFETCH(qint64, floor);
        QFETCH(double, delta);
        QFETCH(Comparison::Test, test);
        QFETCH(Comparison::Verdict, verdict);
        const std::vector<Loaded> base = loadAll(basePercents);
        const std::vector<Loaded> next = loadAll(newPercents);
        CompareOptions options;
        if (floor >= 0)
            options.floor = double(floor);
        const auto c = CriticalPathComparison::compute(runsOf(base), runsOf(next), options);
        const Comparison::MetricResult& running = c.kind(Kind::Running);
        QCOMPARE(running.delta, delta);
        QCOMPARE(running.test, test);
        QCOMPARE(running.verdict, verdict);
        QCOMPARE(c.verdict(), verdict);
        // The rows' Δ is the same median change.
        QCOMPARE(c.rows().front().delta, delta);

        // The same samples through Comparison directly: the same figures.
        RunSet b;
        RunSet n;
        for (const auto& [set, side] : {std::pair{&b, &base}, std::pair{&n, &next}}) {
            for (const Loaded& l : *side) {
                RunSet::Label label;
                label.key = {"running", "", 0};
                double sum = 0;
                for (const auto& task : l.summary->tasks()) {
                    Time ns = 0;
                    for (const auto& e : task.breakdown)
                        ns += e.kind == Kind::Running ? e.ns : 0;
                    label.callExec.push_back(double(ns));
                    sum += double(ns);
                }
                CompareMetrics::Values v{};
                v[std::size_t(CompareMetric::Calls)] = double(label.callExec.size());
                v[std::size_t(CompareMetric::Exec)] = sum;
                RunSet::Run run;
                run.busy = l.run.busy;
                set->add(run, {{label, v}});
            }
        }
        const Comparison direct = Comparison::compute(b, n, options);
        const Comparison::MetricResult& m = direct.labels().front().metrics.front();
        QCOMPARE(running.p, m.p);
        QCOMPARE(running.ci.low, m.ci.low);
        QCOMPARE(running.ci.high, m.ci.high);
        QCOMPARE(running.verdict, m.verdict);
        QCOMPARE(c.kindComparison().floor(), direct.floor());
    }

    // Label ids differ between the profiles (flush 0, query 1, handler 2 in
    // the new one): rows still match by name, and nothing changed.
    void matchesLabelsByName()
    {
        const std::vector<Loaded> base = loadAll({100});
        CriticalPathWorkload shape;
        shape.othersFirst = true;
        const std::vector<Loaded> next = loadAll({100}, shape);
        const Profile& bp = *base.front().profile;
        const Profile& np = *next.front().profile;
        QCOMPARE(labelNamed(bp, "handler"), LabelId(0));
        QCOMPARE(labelNamed(bp, "flush"), LabelId(2));
        QCOMPARE(labelNamed(np, "flush"), LabelId(0));
        QCOMPARE(labelNamed(np, "handler"), LabelId(2));
        const auto c = CriticalPathComparison::compute(runsOf(base), runsOf(next), CompareOptions{});
        QCOMPARE(rowTexts(c), (QStringList{"running handler 0 (base 40000, new 40000)",
                                           "running query 0 (base 219000, new 219000)",
                                           "queued flush 0 (base 10000, new 10000)"}));
        QCOMPARE(c.verdict(), Verdict::Unchanged);
    }

    // The new run's loop is blocked by `compact` where the base's was by
    // `flush`: one row added, one removed, ties of |Δ| ordered by kind
    // then name; the queued kind itself did not change.
    void labelMissingInOneRun()
    {
        const std::vector<Loaded> base = loadAll({100});
        CriticalPathWorkload shape;
        shape.blocker = "compact";
        const std::vector<Loaded> next = loadAll({100}, shape);
        const auto c = CriticalPathComparison::compute(runsOf(base), runsOf(next), CompareOptions{});
        QCOMPARE(rowTexts(c), (QStringList{"queued compact 10000 (base 0, new 10000) added",
                                           "queued flush -10000 (base 10000, new 0) removed",
                                           "running handler 0 (base 40000, new 40000)",
                                           "running query 0 (base 219000, new 219000)"}));
        QVERIFY(std::isinf(c.rows()[0].deltaPct) && c.rows()[0].deltaPct > 0);
        QCOMPARE(c.rows()[1].deltaPct, -1.0);
        QCOMPARE(c.kind(Kind::Queued).delta, 0.0);
        QCOMPARE(c.verdict(), Verdict::Unchanged);
    }

    // The label has no task in the base: every row is added, and the
    // kinds compare 20 tasks against none (the runs' totals: inconclusive).
    void labelWithoutTasksInTheBase()
    {
        std::vector<Loaded> base;
        base.push_back(load({}, "request"));
        const std::vector<Loaded> next = loadAll({100});
        const auto c = CriticalPathComparison::compute(runsOf(base), runsOf(next), CompareOptions{});
        QCOMPARE(c.baseTasks(), 0.0);
        QCOMPARE(rowTexts(c), (QStringList{"running query 219000 (base 0, new 219000) added",
                                           "running handler 40000 (base 0, new 40000) added",
                                           "queued flush 10000 (base 0, new 10000) added"}));
        QCOMPARE(c.kind(Kind::Running).test, Comparison::Test::Runs);
        QCOMPARE(c.kind(Kind::Running).verdict, Verdict::Inconclusive);
    }

    // Per task: the rows and the kinds divided by each run's tasks.
    void perTask()
    {
        const std::vector<Loaded> base = loadAll({100});
        CriticalPathWorkload shape;
        shape.requests = 10;
        const std::vector<Loaded> next = loadAll({100}, shape);
        CompareOptions options;
        options.per = CompareOptions::Per::Call;
        const auto c = CriticalPathComparison::compute(runsOf(base), runsOf(next), options);
        // Query: 219000 / 20 = 10950 against (100000 + 4500) / 10 = 10450.
        QCOMPARE(rowTexts(c), (QStringList{"running query -500 (base 10950, new 10450)",
                                           "running handler 0 (base 2000, new 2000)",
                                           "queued flush 0 (base 500, new 500)"}));
        QCOMPARE(c.kind(Kind::Running).delta, -500.0);
    }
};

QTEST_GUILESS_MAIN(TestCriticalPathComparison)
#include "tst_criticalpathcomparison.moc"
