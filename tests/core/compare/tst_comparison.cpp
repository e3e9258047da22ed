#include "baselinereport.h"
#include "compareformatter.h"
#include "comparison.h"
#include "profileloader.h"
#include "runsgenerator.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlane;
using runlane::test::RunsGenerator;

namespace {

using Verdict = Comparison::Verdict;

// `runs` runs from consecutive seeds, with the planted factors.
RunSet runsOf(std::uint64_t seed, int runs, std::map<std::string, double> factors = {}, bool keepCalls = false,
              int calls = 20)
{
    RunSet set;
    for (int r = 0; r < runs; ++r) {
        RunsGenerator generator(seed * 1000 + std::uint64_t(r));
        generator.factors = factors;
        generator.calls = calls;
        const auto profile = generator.profile();
        if (!profile)
            qFatal("the generated profile does not load");
        set.add(*profile, "run" + std::to_string(r), keepCalls);
    }
    return set;
}

const Comparison::LabelResult* find(const Comparison& c, const std::string& name)
{
    for (const Comparison::LabelResult& label : c.labels()) {
        if (label.key.name == name)
            return &label;
    }
    return nullptr;
}

// Labels other than `planted` that were flagged either way.
QStringList flagged(const Comparison& c, const std::string& planted = {})
{
    QStringList names;
    for (const Comparison::LabelResult& label : c.labels()) {
        if (label.key.name != planted && (label.verdict == Verdict::Regressed || label.verdict == Verdict::Improved))
            names << QString::fromStdString(label.key.name);
    }
    return names;
}

} // namespace

class TestComparison : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // 5 runs per side, 20 labels with 3 % noise: a +20 % label regressed,
    // a -20 % one improved, nothing else flagged.
    void plantedChanges_data()
    {
        QTest::addColumn<double>("factor");
        QTest::addColumn<int>("verdict");
        QTest::newRow("+20 %") << 1.2 << int(Verdict::Regressed);
        QTest::newRow("-20 %") << 0.8 << int(Verdict::Improved);
    }

    void plantedChanges()
    {
        QFETCH(double, factor);
        QFETCH(int, verdict);
        for (std::uint64_t seed = 1; seed <= 5; ++seed) {
            const RunSet base = runsOf(seed, 5);
            const RunSet next = runsOf(seed + 100, 5, {{"f7", factor}});
            const Comparison c = Comparison::compute(base, next, {});
            const Comparison::LabelResult* f7 = find(c, "f7");
            QVERIFY(f7);
            QCOMPARE(int(f7->verdict), verdict);
            QCOMPARE(f7->metrics.front().test, Comparison::Test::Runs);
            QVERIFY2(std::fabs(f7->metrics.front().deltaPct - (factor - 1)) < 0.1, qPrintable(QString::number(f7->metrics.front().deltaPct)));
            QVERIFY2(flagged(c, "f7").isEmpty(), qPrintable(flagged(c, "f7").join(QLatin1Char(' '))));
            QCOMPARE(c.labels().size(), std::size_t(20));
            QCOMPARE(c.count(Verdict::Regressed) + c.count(Verdict::Improved), std::size_t(1));
        }
    }

    // A/A: the same workload with fresh noise flags no label in at least
    // 95 % of 40 seeded repetitions.
    void identicalWorkloadsRarelyAlarm()
    {
        int alarms = 0;
        for (std::uint64_t seed = 1; seed <= 40; ++seed) {
            const Comparison c = Comparison::compute(runsOf(seed, 5), runsOf(seed + 500, 5), {});
            alarms += flagged(c).isEmpty() ? 0 : 1;
        }
        QVERIFY2(alarms <= 2, qPrintable(QStringLiteral("%1 of 40 comparisons raised an alarm").arg(alarms)));
    }

    // One profile per side: every call of f3 30 % slower is found by the
    // test over each call's values.
    void passesMergeToTheWholeComparison_data()
    {
        QTest::addColumn<int>("runs");
        QTest::newRow("one run a side (each call's values)") << 1;
        QTest::newRow("five runs a side") << 5;
    }
    void passesMergeToTheWholeComparison()
    {
        // The viewer computes the rank's metric first and the rest after:
        // added together they are the comparison of every metric at once.
        QFETCH(int, runs);
        const RunSet base = runsOf(7, runs, {}, runs == 1);
        const RunSet next = runsOf(8, runs, {{"f3", 1.3}, {"f5", 0.7}}, runs == 1);
        CompareOptions all;
        all.metrics = CompareMetrics::list();
        CompareOptions first;
        first.metrics = {CompareMetric::Wall, CompareMetric::Calls};
        CompareOptions rest;
        for (const CompareMetric m : all.metrics) {
            if (m != CompareMetric::Wall && m != CompareMetric::Calls)
                rest.metrics.push_back(m);
        }
        const Comparison whole = Comparison::compute(base, next, all);
        const Comparison merged = Comparison::compute(base, next, first).with(Comparison::compute(base, next, rest));
        QCOMPARE(merged.options().metrics.size(), all.metrics.size());
        QCOMPARE(merged.labels().size(), whole.labels().size());
        // Labels in the order of their first metric's change; by key here.
        for (const Comparison::LabelResult& w : whole.labels()) {
            const Comparison::LabelResult* found = find(merged, w.key.name);
            QVERIFY(found);
            const Comparison::LabelResult& m = *found;
            QCOMPARE(m.key, w.key);
            QCOMPARE(m.verdict, w.verdict);
            QCOMPARE(m.metrics.size(), w.metrics.size());
            for (const Comparison::MetricResult& r : w.metrics) {
                const Comparison::MetricResult* o = m.metric(r.metric);
                QVERIFY(o);
                QCOMPARE(o->p, r.p);
                QCOMPARE(o->ci.low, r.ci.low);
                QCOMPARE(o->ci.high, r.ci.high);
                QCOMPARE(o->verdict, r.verdict);
            }
        }
        // Per metric counts, as a comparison of that metric alone counts.
        for (const Verdict v : {Verdict::Regressed, Verdict::Improved, Verdict::Inconclusive, Verdict::Unchanged}) {
            for (const CompareMetric metric : all.metrics)
                QCOMPARE(merged.count(v, metric), merged.only(metric).count(v));
        }
        QCOMPARE(merged.count(Verdict::Regressed, CompareMetric::Calls), std::size_t(0)); // 20 calls each
        if (runs == 5) { // f3 regressed, f5 improved, and nothing else
            QCOMPARE(merged.count(Verdict::Regressed, CompareMetric::Exec), std::size_t(1));
            QCOMPARE(merged.count(Verdict::Improved, CompareMetric::Exec), std::size_t(1));
        }
    }

    void runCutShortIsSaidFirst()
    {
        // A base run whose file was cut short: compared for what came
        // before the cut, and the first warning says so; a report keeps it.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cut.json"));
        QByteArray text = test::RunsGenerator(5).chronosLog();
        text.truncate(text.size() / 2);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(text) == text.size());
        file.close();
        const LoadResult cut = ProfileLoader::load(path);
        QVERIFY(cut.ok());
        RunSet base;
        base.add(*cut.profile, "cut.json", false);
        const std::string where = base.runs().front().cut;
        QCOMPARE(where, cut.profile->diagnostics().firstMessage("truncated file"));
        QVERIFY(!where.empty());
        const RunSet next = runsOf(6, 1);
        const Comparison c = Comparison::compute(base, next, CompareOptions{});
        QVERIFY(!c.warnings().empty());
        QCOMPARE(c.warnings().front(), "base run cut.json is cut short (" + where + "): only what came before the cut is compared");
        RunSet again;
        std::string error;
        QVERIFY(BaselineReport::read(BaselineReport::write(base, "test"), again, error));
        QCOMPARE(again.runs().front().cut, base.runs().front().cut);
        QVERIFY(runsOf(6, 1).runs().front().cut.empty());
    }

    void labelKeysOfAProfile()
    {
        test::RunsGenerator generator(3);
        const auto profile = generator.profile();
        QVERIFY(profile);
        const LabelId f3 = RunSet::labelsOf(*profile, LabelKey{"f3", "work.nim", 13}, RunSet::Match::NameFileLine).at(0);
        QCOMPARE(RunSet::keyOf(*profile, f3, RunSet::Match::NameFileLine), (LabelKey{"f3", "work.nim", 13}));
        QCOMPARE(RunSet::keyOf(*profile, f3, RunSet::Match::Name), (LabelKey{"f3", "", 0}));
        // The code moved: the name finds it.
        QCOMPARE(RunSet::labelsOf(*profile, LabelKey{"f3", "moved.nim", 99}, RunSet::Match::NameFileLine),
                 std::vector<LabelId>{f3});
        QCOMPARE(RunSet::labelsOf(*profile, LabelKey{"f3", "", 0}, RunSet::Match::Name), std::vector<LabelId>{f3});
        QVERIFY(RunSet::labelsOf(*profile, LabelKey{"nope", "work.nim", 13}, RunSet::Match::NameFileLine).empty());
    }

    void perCallTestsAreSharedAndOrderFree()
    {
        // One run per side: exec and the per-call figures (p50 … max) test
        // the same values, so they get the same p and interval, and a
        // metric's figures do not depend on which others are asked for.
        const RunSet base = runsOf(7, 1, {}, true);
        const RunSet next = runsOf(8, 1, {{"f3", 1.3}}, true);
        CompareOptions alone;
        CompareOptions several;
        several.metrics = {CompareMetric::P90, CompareMetric::Wall, CompareMetric::Exec, CompareMetric::P50};
        const Comparison a = Comparison::compute(base, next, alone);
        const Comparison b = Comparison::compute(base, next, several);
        QCOMPARE(a.labels().size(), b.labels().size());
        for (const Comparison::LabelResult& label : a.labels()) {
            const Comparison::LabelResult* other = find(b, label.key.name);
            QVERIFY(other);
            const auto* exec = label.metric(CompareMetric::Exec);
            for (const CompareMetric m : {CompareMetric::Exec, CompareMetric::P50, CompareMetric::P90}) {
                const auto* r = other->metric(m);
                QVERIFY(exec && r);
                QCOMPARE(r->test, Comparison::Test::Calls);
                QCOMPARE(r->p, exec->p);
                QCOMPARE(r->ci.low, exec->ci.low);
                QCOMPARE(r->ci.high, exec->ci.high);
            }
            QCOMPARE(other->metric(CompareMetric::Exec)->verdict, exec->verdict);
        }
    }

    void oneRunPerSideTestsCalls()
    {
        const RunSet base = runsOf(7, 1, {}, true);
        const RunSet next = runsOf(8, 1, {{"f3", 1.3}}, true);
        const Comparison c = Comparison::compute(base, next, {});
        QCOMPARE(c.test(), Comparison::Test::Calls);
        const Comparison::LabelResult* f3 = find(c, "f3");
        QVERIFY(f3);
        QCOMPARE(f3->metrics.front().test, Comparison::Test::Calls);
        QCOMPARE(f3->verdict, Verdict::Regressed);
        QVERIFY(f3->metrics.front().p < 1e-6);
        QCOMPARE(c.warnings().front(), std::string("one run per side: tested over each call's values, not over runs"));
    }

    void fewRunsAreInconclusive()
    {
        const Comparison c = Comparison::compute(runsOf(3, 2), runsOf(4, 2, {{"f5", 1.5}}), {});
        QCOMPARE(find(c, "f5")->verdict, Verdict::Inconclusive);
        QCOMPARE(c.count(Verdict::Regressed), std::size_t(0));
        QCOMPARE(c.warnings().front(),
                 std::string("fewer than 3 runs on a side: no change can be told from noise (inconclusive)"));
    }

    // A change smaller than the floor is no regression, however sure.
    void floorHidesSmallChanges()
    {
        CompareOptions options;
        options.floor = 1e12; // 1000 s
        const Comparison c = Comparison::compute(runsOf(1, 5), runsOf(2, 5, {{"f7", 1.5}}), options);
        QCOMPARE(find(c, "f7")->verdict, Verdict::Unchanged);
        // The default floor: 0.1 % of the base's median busy time.
        const RunSet base = runsOf(1, 5);
        const Comparison d = Comparison::compute(base, base, {});
        std::vector<double> busy;
        for (const RunSet::Run& run : base.runs())
            busy.push_back(run.busy);
        QCOMPARE(d.floor(), 0.001 * Statistics::median(busy));
        QCOMPARE(d.count(Verdict::Unchanged), std::size_t(20));
    }

    // By name, file and line; by name when it is unique on both sides
    // (moved code); otherwise added and removed.
    void matching()
    {
        const auto label = [](std::string name, std::string file, int line, double exec) {
            RunSet::Label l;
            l.key = {std::move(name), std::move(file), line};
            CompareMetrics::Values v{};
            v[std::size_t(CompareMetric::Calls)] = 1;
            v[std::size_t(CompareMetric::Exec)] = exec;
            return std::pair{l, v};
        };
        RunSet base;
        RunSet next;
        base.add(RunSet::Run{"a", "x", 100, {}}, {label("moved", "a.nim", 1, 10), label("dup", "a.nim", 2, 10),
                                                   label("dup", "b.nim", 3, 10), label("gone", "a.nim", 4, 10),
                                                   label("same", "c.nim", 5, 10)});
        next.add(RunSet::Run{"b", "x", 100, {}}, {label("moved", "z.nim", 9, 10), label("dup", "q.nim", 7, 10),
                                                   label("new", "a.nim", 6, 10), label("same", "c.nim", 5, 10)});
        const Comparison c = Comparison::compute(base, next, {});
        const Comparison::LabelResult* moved = find(c, "moved");
        QVERIFY(moved->movedMatch);
        QCOMPARE(moved->baseKey.file, std::string("a.nim"));
        QCOMPARE(moved->key.file, std::string("z.nim"));
        QCOMPARE(find(c, "same")->movedMatch, false);
        QCOMPARE(find(c, "gone")->verdict, Verdict::Removed);
        QCOMPARE(find(c, "new")->verdict, Verdict::Added);
        // "dup" is not unique in the base: three labels, none matched.
        QCOMPARE(c.count(Verdict::Removed), std::size_t(3));
        QCOMPARE(c.count(Verdict::Added), std::size_t(2));

        // By name only: one "dup" per side, its exec summed.
        RunSet byNameBase(RunSet::Match::Name);
        byNameBase.add(RunSet::Run{"a", "x", 100, {}}, {label("dup", "a.nim", 2, 10), label("dup", "b.nim", 3, 15)});
        QCOMPARE(byNameBase.labels().size(), std::size_t(1));
        QCOMPARE(byNameBase.values(byNameBase.labels()[0], CompareMetric::Exec), std::vector<double>{25});
        QCOMPARE(byNameBase.values(byNameBase.labels()[0], CompareMetric::Calls), std::vector<double>{2});
    }

    // --per call divides each run's sums by its calls: twice the calls at
    // the same cost per call is no change.
    void perCall()
    {
        CompareOptions options;
        options.per = CompareOptions::Per::Call;
        RunSet base;
        RunSet next;
        for (int r = 0; r < 5; ++r) {
            RunsGenerator a(std::uint64_t(10 + r));
            a.calls = 10;
            base.add(*a.profile(), "a", false);
            RunsGenerator b(std::uint64_t(20 + r));
            b.calls = 20;
            next.add(*b.profile(), "b", false);
        }
        const Comparison perRun = Comparison::compute(base, next, {});
        QCOMPARE(perRun.count(Verdict::Regressed), std::size_t(20));
        const Comparison perCall = Comparison::compute(base, next, options);
        QVERIFY2(flagged(perCall).isEmpty(), qPrintable(flagged(perCall).join(QLatin1Char(' '))));
    }

    // A baseline report stands for its runs: the same comparison, whether
    // from the profiles or from the report.
    void baselineReportRoundTrip_data()
    {
        QTest::addColumn<int>("runs");
        QTest::newRow("5 runs") << 5;
        QTest::newRow("1 run, with its calls") << 1;
    }

    void baselineReportRoundTrip()
    {
        QFETCH(int, runs);
        const RunSet base = runsOf(11, runs, {}, runs == 1);
        const RunSet next = runsOf(12, runs, {{"f2", 1.25}}, runs == 1);
        const std::string text = BaselineReport::write(base, "runlane test");
        QVERIFY(BaselineReport::isReport(text.substr(0, 64)));
        RunSet read;
        std::string error;
        QVERIFY2(BaselineReport::read(text, read, error), error.c_str());
        QCOMPARE(read.runs().size(), base.runs().size());
        QCOMPARE(read.labels().size(), base.labels().size());
        QCOMPARE(BaselineReport::write(read, "runlane test"), text);
        const std::string fromProfiles = CompareFormatter::json(Comparison::compute(base, next, {}));
        const std::string fromReport = CompareFormatter::json(Comparison::compute(read, next, {}));
        QCOMPARE(QString::fromStdString(fromReport), QString::fromStdString(fromProfiles));
        QVERIFY(QString::fromStdString(fromReport).contains(QStringLiteral("\"verdict\": \"regressed\"")));
    }

    void badReports_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error");
        QTest::newRow("not json") << QByteArray("{\"runlaneBaseline\": 1,") << QString("not a baseline report: ");
        QTest::newRow("no marker") << QByteArray("{\"runs\": []}")
                                   << QString("not a baseline report: missing \"runlaneBaseline\": 1 (write one with 'runlane-cli report')");
        QTest::newRow("version") << QByteArray("{\"runlaneBaseline\": 2, \"runs\": [], \"labels\": []}")
                                 << QString("unsupported baseline report version 2 (this Runlane reads version 1)");
        QTest::newRow("values per run")
            << QByteArray("{\"runlaneBaseline\": 1, \"runs\": [{}], \"labels\": [{\"name\": \"f\", \"values\": {\"calls\": [1, 2], "
                          "\"exec\": [1], \"total\": [1], \"wall\": [1], \"p50\": [1], \"p90\": [1], \"p99\": [1], \"max\": [1], "
                          "\"wait\": [1]}}]}")
            << QString("malformed baseline report: label 'f' has 2 values of calls for 1 runs");
        QTest::newRow("version past 32 bits") << QByteArray("{\"runlaneBaseline\": 4294967297, \"runs\": [], \"labels\": []}")
                                              << QString("unsupported baseline report version 4294967297");
        // Found by fuzz_baseline: a number past a double escaped as an
        // exception; a line past 32 bits was a cast out of range.
        QTest::newRow("number past a double")
            << QByteArray("{\"runlaneBaseline\": 1, \"runs\": [{\"busy\": 1e400}], \"labels\": []}")
            << QString("not a baseline report: ");
        QTest::newRow("line past 32 bits")
            << QByteArray("{\"runlaneBaseline\": 1, \"runs\": [{}], \"labels\": [{\"name\": \"f\", \"line\": 79223372036854775807, "
                          "\"values\": {}}]}")
            << QString("malformed baseline report: line 7.922337203685478e+19 is out of range");
        QTest::newRow("text value")
            << QByteArray("{\"runlaneBaseline\": 1, \"runs\": [{}], \"labels\": [{\"name\": \"f\", \"values\": {\"calls\": [\"1\"]}}]}")
            << QString("malformed baseline report: 'values.calls' must be an array of numbers");
    }

    void badReports()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        RunSet set;
        std::string message;
        QVERIFY(!BaselineReport::read(std::string_view(text.constData(), std::size_t(text.size())), set, message));
        QVERIFY2(QString::fromStdString(message).startsWith(error), message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestComparison)
#include "tst_comparison.moc"
