#include "criticalpathsummary.h"
#include "testsupport.h"

#include <QtTest>

using namespace runlane;
using namespace runlane::test;

using Kind = CriticalPath::Kind;

// semantics.md §9's worked example (tests/data/profiles/README.md): the
// label sums, by track, the critical-path call tree and which tasks count.
class TestCriticalPathSummary : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        LoadResult r = ProfileLoader::load(dataPath(QStringLiteral("profiles/chronos-critical-path.json")));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        m_profile = std::move(r.profile);
    }

    // Which tasks a label's summary is over, with and without a range: a
    // life [created, finished) overlapping [from, to).
    void tasksOf_data()
    {
        QTest::addColumn<QString>("label");
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        QTest::addColumn<int>("count");
        QTest::newRow("handler") << "handler" << qint64(-1) << qint64(-1) << 1;
        QTest::newRow("sleepAsync: finished, never ran") << "sleepAsync" << qint64(-1) << qint64(-1) << 1;
        QTest::newRow("query in [46, 60): it ends at 46") << "query" << qint64(46) << qint64(60) << 0;
        QTest::newRow("query in [45, 46)") << "query" << qint64(45) << qint64(46) << 1;
        QTest::newRow("flush in [0, 46): created at 46") << "flush" << qint64(0) << qint64(46) << 0;
    }
    void tasksOf()
    {
        QFETCH(QString, label);
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        QFETCH(int, count);
        const Profile& p = *m_profile;
        const LabelId l = labelNamed(p, label.toStdString());
        std::optional<TimeRange> range;
        if (from >= 0)
            range = TimeRange{p.startTime() + from, p.startTime() + to};
        QCOMPARE(int(CriticalPathSummary::tasksOf(p, std::span(&l, 1), range).size()), count);
    }

    void slowestKeepsCreationOrder()
    {
        const Profile& p = *m_profile;
        std::vector<LabelId> all;
        for (LabelId l = 0; l < p.labelCount(); ++l)
            all.push_back(l);
        const auto tasks = CriticalPathSummary::slowest(p, CriticalPathSummary::tasksOf(p, all), 3);
        QStringList names;
        for (const MeasurementId m : tasks)
            names << qstr(p.labelName(p.measurement(m).label));
        // Lives: handler 52, query 41, other 28, flush 4, sleepAsync 4.
        QCOMPARE(names, (QStringList{"handler", "query", "other"}));
    }

    // handler and query: their walls add up (52 + 41), and so do the
    // kinds; the call tree puts query's running under handler, its creator.
    void sumsALabelsTasks()
    {
        const Profile& p = *m_profile;
        const std::vector<LabelId> labels = {labelNamed(p, "handler"), labelNamed(p, "query")};
        const CriticalPath path(p, CriticalPath::sourceOf(p));
        const auto summary = CriticalPathSummary::compute(path, CriticalPathSummary::tasksOf(p, labels), true);
        QCOMPARE(summary.tasks().size(), std::size_t(2));
        QCOMPARE(summary.wall(), 93);
        QCOMPARE(summary.kindTotals()[std::size_t(Kind::Running)], 9 + 9 + 9);
        QCOMPARE(summary.kindTotals()[std::size_t(Kind::Queued)], 28 + 4 + 28);
        QCOMPARE(summary.kindTotals()[std::size_t(Kind::Idle)], 2);
        QCOMPARE(summary.kindTotals()[std::size_t(Kind::Waiting)], 1 + 3);
        QStringList breakdown;
        for (const auto& e : summary.breakdown())
            breakdown << QStringLiteral("%1 %2 %3")
                             .arg(qstr(CriticalPath::kindName(e.kind)),
                                  e.label == kNone ? QStringLiteral("-") : qstr(p.labelName(e.label)))
                             .arg(e.ns);
        QCOMPARE(breakdown, (QStringList{"queued other 56", "running query 18", "running handler 9", "queued flush 4",
                                         "waiting sleepAsync 4", "idle - 2"}));
        QCOMPARE(summary.byTrack().size(), std::size_t(1));
        QCOMPARE(summary.byTrack()[0].ns, 93);
        QCOMPARE(summary.byProcess().size(), std::size_t(1));
        QCOMPARE(summary.tasks()[1].segments.size(), std::size_t(5));
        QCOMPARE(summary.tree().size(), std::size_t(2));
        QCOMPARE(qstr(p.labelName(summary.tree()[0].label)), QStringLiteral("handler"));
        QCOMPARE(summary.tree()[0].parent, kNone);
        QCOMPARE(summary.tree()[0].self, 9);
        QCOMPARE(summary.tree()[0].total, 27);
        QCOMPARE(qstr(p.labelName(summary.tree()[1].label)), QStringLiteral("query"));
        QCOMPARE(summary.tree()[1].parent, 0u);
        QCOMPARE(summary.tree()[1].self, 18);
    }

    void cancels()
    {
        const Profile& p = *m_profile;
        const LabelId l = labelNamed(p, "handler");
        const CriticalPath path(p, CriticalPath::sourceOf(p));
        std::atomic<bool> cancel{true};
        QVERIFY_THROWS_EXCEPTION(LoadCancelled, CriticalPathSummary::compute(
                                                    path, CriticalPathSummary::tasksOf(p, std::span(&l, 1)), false, &cancel));
    }

private:
    std::shared_ptr<const Profile> m_profile;
};

QTEST_GUILESS_MAIN(TestCriticalPathSummary)
#include "tst_criticalpathsummary.moc"
