#include "measurementmetrics.h"
#include "rankformatter.h"
#include "ranktable.h"
#include "snapshotsupport.h"
#include "testsupport.h"
#include "usageseries.h"

#include <QtTest>

using namespace runlane;
using runlane::test::dataPath;
using runlane::test::loadText;
using runlane::test::rankLines;

class TestChroprofLoader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rowsOpenAsARank()
    {
        const LoadResult r = ProfileLoader::load(dataPath("profiles/chroprof-rows.json"));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.formatName(), std::string_view("Chroprof metrics"));
        QCOMPARE(p.intervalCount(), std::size_t(0));
        QCOMPARE(p.snapshots().size(), std::size_t(1));
        QVERIFY(!p.snapshotsAreTimed());
        const RankTable t = RankTable::compute(MeasurementMetrics(p));
        QCOMPARE(rankLines(p, t), (QStringList{
                                      "taskHandler calls=3 stillborn=0 zombies=0 exec=900 total=900 wall=0 max=0 mean=300",
                                      "fetchBlock calls=4 stillborn=1 zombies=0 exec=300 total=350 wall=1000 max=120 mean=75",
                                      "sleepAsync calls=10 stillborn=0 zombies=2 exec=0 total=0 wall=5000 max=0 mean=0",
                                  }));
        QVERIFY(!t.rows()[0].hasDistribution);
        QCOMPARE(t.busyTime(), Time(1200));
        QCOMPARE(t.rows()[0].busyShare, 0.75);
        // No per-call distribution: empty CSV cells.
        const QString csv = QString::fromStdString(RankFormatter::csv(p, t));
        QVERIFY2(csv.contains(QStringLiteral("\ntaskHandler,engine.nim,120,3,0,0,0,0,0,900,900,0,0,300,,,,,,,,0.750000\n")),
                 qPrintable(csv));
        QCOMPARE(p.string(p.label(t.rows()[1].label).file), std::string_view("engine.nim"));
        QCOMPARE(p.label(t.rows()[1].label).line, 563);
    }

    // The rank shows each proc's last snapshot: b is 450 at t = 4000; a was
    // reset and is 100.
    void snapshotsRank()
    {
        const LoadResult r = ProfileLoader::load(dataPath("profiles/chroprof-snapshots.json"));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.formatName(), std::string_view("Chroprof metric snapshots"));
        QVERIFY(p.snapshotsAreTimed());
        QCOMPARE(p.duration(), Time(4000));
        const MeasurementMetrics m(p);
        QCOMPARE(rankLines(p, RankTable::compute(m)),
                 (QStringList{"b calls=4 stillborn=0 zombies=0 exec=450 total=450 wall=0 max=0 mean=112",
                              "a calls=1 stillborn=0 zombies=0 exec=100 total=100 wall=0 max=0 mean=100"}));
        // A range: the snapshots at its end less those at its start.
        QCOMPARE(rankLines(p, RankTable::compute(m, TimeRange{1000, 3000})),
                 (QStringList{"a calls=4 stillborn=0 zombies=0 exec=700 total=700 wall=0 max=0 mean=175",
                              "b calls=2 stillborn=0 zombies=0 exec=300 total=300 wall=0 max=0 mean=150"}));
        // b is missing at t = 2000: its start value is its last one, at 1000.
        QCOMPARE(rankLines(p, RankTable::compute(m, TimeRange{2500, 4000})),
                 (QStringList{"b calls=3 stillborn=0 zombies=0 exec=350 total=350 wall=0 max=0 mean=116",
                              "a calls=1 stillborn=0 zombies=0 exec=100 total=100 wall=0 max=0 mean=100"}));
    }

    // De-accumulation: the step of a proc missing from a snapshot spans
    // from its last sample; a counter that went down starts over.
    void snapshotsUsage()
    {
        const LoadResult r = ProfileLoader::load(dataPath("profiles/chroprof-snapshots.json"));
        QVERIFY(r.ok());
        const Profile& p = *r.profile;
        const UsageSeries u = UsageSeries::compute(p, 0, 1000, 5);
        QCOMPARE(u.binCount(), std::size_t(4));
        QCOMPARE(p.labelName(u.labels()[0]), std::string_view("a"));
        QCOMPARE(p.labelName(u.labels()[1]), std::string_view("b"));
        const double a[] = {0.2, 0.5, 0.2, 0.0};
        const double b[] = {0.1, 0.15, 0.15, 0.05};
        for (std::size_t k = 0; k < 4; ++k) {
            QCOMPARE(u.share(k, 0), a[k]);
            QCOMPARE(u.share(k, 1), b[k]);
            QCOMPARE(u.share(k, 2), 0.0);
        }
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("negative exec") << JSON([{"location" : {"procedure" : "p"}, "execTime" : -5}])
                                       << "'execTime' must be a non-negative integer (nanoseconds or a count), found -5";
        QTest::newRow("text count") << JSON([{"location" : {"procedure" : "p"}, "callCount" : "3"}])
                                    << "'callCount' must be a non-negative integer (nanoseconds or a count), found \"3\"";
        QTest::newRow("no procedure") << JSON([{"location" : {"file" : "f"}, "callCount" : 3}])
                                      << "a row needs \"location\": {\"procedure\": ...}";
        QTest::newRow("location not object") << JSON([{"location" : "p", "callCount" : 3}])
                                             << "'location' must be an object {procedure, file, line}";
        QTest::newRow("no marker") << JSON({"snapshots" : []})
                                   << "missing \"chroprofSnapshots\": 1, the marker of Chroprof metric snapshots";
        QTest::newRow("no time") << JSON({"chroprofSnapshots" : 1, "snapshots" : [{"rows" : []}]})
                                 << "snapshot #0 has no \"t\" (its time in ns)";
        QTest::newRow("version") << JSON({"chroprofSnapshots" : 3, "snapshots" : []})
                                 << "unsupported Chroprof snapshot version 3 (this Runlane reads version 1)";
    }

    void errors()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        const LoadResult r = loadText(json);
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error.message), message);
    }

    void duplicateRowsAreAdded()
    {
        const LoadResult r = loadText(JSON([
            {"location" : {"procedure" : "p", "file" : "f", "line" : 1}, "execTime" : 5, "execTimeMax" : 3, "callCount" : 1},
            {"location" : {"procedure" : "p", "file" : "f", "line" : 1}, "execTime" : 7, "execTimeMax" : 6, "callCount" : 2}
        ]));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const RankTable t = RankTable::compute(MeasurementMetrics(*r.profile));
        QCOMPARE(rankLines(*r.profile, t),
                 QStringList{"p calls=3 stillborn=0 zombies=0 exec=12 total=12 wall=0 max=6 mean=4"});
        QCOMPARE(r.profile->diagnostics().warningKinds().at("duplicate row"), std::uint64_t(1));
    }
    // Cut inside the third snapshot (the writer died): the two before it.
    void truncatedSnapshotsKeepTheCompleteOnes()
    {
        QFile file(dataPath(QStringLiteral("profiles/chroprof-snapshots.json")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray whole = file.readAll();
        const LoadResult r = loadText(whole.left(whole.indexOf("\"execTime\": 700")));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(r.profile->snapshots().size(), std::size_t(2));
        QCOMPARE(r.profile->snapshots().back().time(), Time(1000));
        const Diagnostics& d = r.profile->diagnostics();
        QCOMPARE(d.warningCount(), std::uint64_t(1));
        QCOMPARE(d.examples().front(), std::string("the file ends inside the snapshot array after 2 snapshot(s); the rest is missing"));
    }
};

QTEST_GUILESS_MAIN(TestChroprofLoader)
#include "tst_chroprofloader.moc"
