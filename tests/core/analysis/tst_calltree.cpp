#include "calltree.h"
#include "testsupport.h"

#include <QtTest>

using namespace runlane;
using runlane::test::dataPath;
using runlane::test::loadText;
using runlane::test::qstr;

namespace {

constexpr qint64 us = 1000;

// "main/a/x" for a node: its labels from the root down.
QString pathOf(const Profile& p, const CallTree& tree, std::uint32_t node)
{
    QStringList names;
    for (std::uint32_t n = node; n != kNone; n = tree.node(n).parent)
        names.prepend(qstr(p.labelName(tree.node(n).label)));
    return names.join(QLatin1Char('/'));
}

std::uint32_t nodeAt(const Profile& p, const CallTree& tree, const QString& path)
{
    for (std::uint32_t n = 0; n < tree.nodeCount(); ++n) {
        if (pathOf(p, tree, n) == path)
            return n;
    }
    return kNone;
}

// One thread, µs:
//   main [0, 100) > a [0, 30) > x [0, 10)
//                 > a [40, 60)
//                 > b [70, 90) > x [75, 80)
// and a second thread with main [0, 40) > a [0, 40).
QByteArray twoThreads()
{
    return JSON([{"ph" : "X", "pid" : 1, "tid" : 1, "name" : "main", "ts" : 0, "dur" : 100},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "a", "ts" : 0, "dur" : 30},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "x", "ts" : 0, "dur" : 10},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "a", "ts" : 40, "dur" : 20},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "b", "ts" : 70, "dur" : 20},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "x", "ts" : 75, "dur" : 5},
                 {"ph" : "X", "pid" : 1, "tid" : 2, "name" : "main", "ts" : 0, "dur" : 40},
                 {"ph" : "X", "pid" : 1, "tid" : 2, "name" : "a", "ts" : 0, "dur" : 40}]);
}

} // namespace

class TestCallTree : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void mergesIdenticalPaths_data()
    {
        QTest::addColumn<int>("track");
        QTest::addColumn<QString>("path");
        QTest::addColumn<qint64>("total");
        QTest::addColumn<qint64>("self");
        QTest::addColumn<int>("count");
        QTest::addColumn<qint64>("start"); // where its span is laid out
        QTest::addColumn<qint64>("end");
        QTest::newRow("main") << 0 << "main" << 100 * us << 30 * us << 1 << 0 * us << 100 * us;
        QTest::newRow("main/a: two calls merged") << 0 << "main/a" << 50 * us << 40 * us << 2 << 0 * us << 50 * us;
        QTest::newRow("main/a/x") << 0 << "main/a/x" << 10 * us << 10 * us << 1 << 0 * us << 10 * us;
        // b (20) is lighter than a (50): laid out after it.
        QTest::newRow("main/b") << 0 << "main/b" << 20 * us << 15 * us << 1 << 50 * us << 70 * us;
        QTest::newRow("main/b/x: another path") << 0 << "main/b/x" << 5 * us << 5 * us << 1 << 50 * us << 55 * us;
        QTest::newRow("second thread") << 1 << "main/a" << 40 * us << 40 * us << 1 << 0 * us << 40 * us;
    }
    void mergesIdenticalPaths()
    {
        QFETCH(int, track);
        QFETCH(QString, path);
        QFETCH(qint64, total);
        QFETCH(qint64, self);
        QFETCH(int, count);
        QFETCH(qint64, start);
        QFETCH(qint64, end);
        const LoadResult r = loadText(twoThreads());
        QVERIFY(r.ok());
        const CallTree tree(*r.profile);
        QCOMPARE(tree.nodeCount(), std::size_t(7));
        QCOMPARE(tree.axisEnd(), 100 * us);
        std::uint32_t node = kNone;
        for (std::uint32_t n = 0; n < tree.nodeCount(); ++n) {
            if (int(tree.node(n).track) == track && pathOf(*r.profile, tree, n) == path)
                node = n;
        }
        QVERIFY(node != kNone);
        QCOMPARE(tree.node(node).total, total);
        QCOMPARE(tree.node(node).self, self);
        QCOMPARE(tree.node(node).count, std::uint32_t(count));
        const Interval& span = tree.spans()[tree.spanOfNode(node)];
        QCOMPARE(span.start, start);
        QCOMPARE(span.end, end);
        QCOMPARE(span.measurement, node);
        // The span's parent is the parent node's span.
        const std::uint32_t parent = tree.node(node).parent;
        QCOMPARE(span.parent, parent == kNone ? kNone : tree.spanOfNode(parent));
    }

    // Each depth is a start-sorted run of disjoint spans, children within
    // their parent: the shape the icicle paints.
    void layoutIsSortedAndNested_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("inline") << QString();
        QTest::newRow("folded perf-vertx") << "samples/folded/perf-vertx-stacks-01-collapsed-all.txt";
        QTest::newRow("speedscope two sampled") << "samples/speedscope/0.6.0_two-sampled.speedscope.json";
        QTest::newRow("enso async") << "profiles/enso-async.json";
        QTest::newRow("chronos states") << "profiles/chronos-states.json";
    }
    void layoutIsSortedAndNested()
    {
        QFETCH(QString, file);
        const LoadResult r = file.isEmpty() ? loadText(twoThreads()) : ProfileLoader::load(dataPath(file));
        QVERIFY(r.ok());
        const CallTree tree(*r.profile);
        std::size_t spans = 0;
        for (TrackId t = 0; t < tree.trackCount(); ++t) {
            for (int d = 0; d < tree.depthCount(t); ++d) {
                const auto slice = tree.depthSlice(t, d);
                spans += slice.size();
                for (std::size_t i = 0; i < slice.size(); ++i) {
                    QVERIFY(slice[i].start < slice[i].end || tree.node(slice[i].measurement).total == 0);
                    if (i > 0)
                        QVERIFY(slice[i - 1].end <= slice[i].start);
                    if (d == 0) {
                        QCOMPARE(slice[i].parent, kNone);
                    } else {
                        const Interval& parent = tree.spans()[slice[i].parent];
                        QVERIFY(parent.start <= slice[i].start && slice[i].end <= parent.end);
                    }
                }
            }
        }
        QCOMPARE(spans, tree.nodeCount());
    }

    // Two overlapping async tasks of 5e18 ns each (a profile may span
    // almost 292 years): their sum does not fit in 64 bits. The totals
    // and the axis stop at the largest time instead of wrapping (UBSan
    // caught this through fuzz_load; data/malformed keeps its input).
    void hugeTotalsClampInsteadOfOverflowing()
    {
        const LoadResult r = ProfileLoader::load(dataPath(QStringLiteral("profiles/chrome-158-years.json")));
        QVERIFY2(r.ok(), r.error.message.c_str());
        const CallTree tree(*r.profile);
        const std::uint32_t p = nodeAt(*r.profile, tree, QStringLiteral("p"));
        const std::uint32_t q = nodeAt(*r.profile, tree, QStringLiteral("q"));
        QVERIFY(p != kNone && q != kNone);
        QCOMPARE(tree.node(p).total, Time(5000000000000000000));
        QCOMPARE(tree.node(q).total, Time(5000000000000000000));
        QCOMPARE(tree.axisEnd(), kTimeMax);
        // p is laid out first (a tie, broken by label), q after it, cut at the axis end.
        QCOMPARE(tree.spans()[tree.spanOfNode(p)].start, Time(0));
        QCOMPARE(tree.spans()[tree.spanOfNode(p)].end, Time(5000000000000000000));
        QCOMPARE(tree.spans()[tree.spanOfNode(q)].start, Time(5000000000000000000));
        QCOMPARE(tree.spans()[tree.spanOfNode(q)].end, kTimeMax);
    }

    void foldedTotalsAreSampleCounts()
    {
        const LoadResult r = ProfileLoader::load(dataPath(QStringLiteral("samples/folded/perf-vertx-stacks-01-collapsed-all.txt")));
        QVERIFY(r.ok());
        const CallTree tree(*r.profile);
        // 285 samples in all, every one under "java".
        QCOMPARE(tree.axisEnd(), 285 * kTicksPerUnit);
        const std::uint32_t java = nodeAt(*r.profile, tree, QStringLiteral("java"));
        QVERIFY(java != kNone);
        QCOMPARE(tree.node(java).total, 285 * kTicksPerUnit);
        QCOMPARE(tree.spans()[tree.spanOfNode(java)].start, 0);
        QCOMPARE(tree.spans()[tree.spanOfNode(java)].end, 285 * kTicksPerUnit);
    }
};

QTEST_GUILESS_MAIN(TestCallTree)
#include "tst_calltree.moc"
