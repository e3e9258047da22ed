#include "measurementmetrics.h"
#include "profileloader.h"
#include "ranktable.h"
#include "snapshotsupport.h"
#include "testsupport.h"
#include "usageseries.h"

#include <QtTest>

using namespace runlane;
using runlane::test::dataPath;
using runlane::test::loadText;
using runlane::test::rankLines;

namespace {

constexpr Time kT0 = 1732500000000000000;


} // namespace

// tests/data/profiles/prometheus-handmade.json (README there): six 1 s
// steps of a query whose gauges were refreshed at t0, t0+2, t0+4, t0+5.
class TestPrometheusLoader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void repeatsAreDropped()
    {
        const LoadResult r = ProfileLoader::load(dataPath(QStringLiteral("profiles/prometheus-handmade.json")));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.formatName(), std::string_view("Prometheus query_range (Chroprof)"));
        QVERIFY(p.snapshotsAreTimed());
        QCOMPARE(p.snapshots().size(), std::size_t(4));
        const Time expected[] = {kT0, kT0 + 2000000000, kT0 + 4000000000, kT0 + 5000000000};
        for (std::size_t k = 0; k < 4; ++k)
            QCOMPARE(p.snapshots()[k].time(), expected[k]);
        QCOMPARE(p.diagnostics().warningCount(), std::uint64_t(0));
        // The `up` series, and t0+1 and t0+3 that repeat their predecessors.
        QCOMPARE(p.diagnostics().skippedEvents(),
                 (std::map<std::string, std::uint64_t, std::less<>>{{"series of other metrics", 1},
                                                                    {"snapshots repeating the previous values", 2}}));
        QCOMPARE(p.duration(), Time(5000000000));
    }

    void rank()
    {
        const LoadResult r = ProfileLoader::load(dataPath(QStringLiteral("profiles/prometheus-handmade.json")));
        QVERIFY(r.ok());
        const Profile& p = *r.profile;
        const RankTable t = RankTable::compute(MeasurementMetrics(p));
        QCOMPARE(rankLines(p, t),
                 (QStringList{QStringLiteral("poll calls=70 stillborn=0 zombies=0 exec=700000000 total=900000000 wall=0 max=30000000 mean=10000000"),
                              QStringLiteral("handle calls=35 stillborn=0 zombies=0 exec=350000000 total=350000000 wall=2000000000 max=20000000 mean=10000000")}));
        QCOMPARE(p.string(p.label(t.rows()[1].label).file), std::string_view("server.nim"));
        QCOMPARE(p.label(t.rows()[1].label).line, 42);
    }

    // Exec between accepted snapshots, spread over the time between them:
    // poll 300 ms over t0..t0+2 and again over t0+2..t0+4; handle 200 ms
    // over t0..t0+2 and 100 ms over t0+4..t0+5.
    void usage()
    {
        const LoadResult r = ProfileLoader::load(dataPath(QStringLiteral("profiles/prometheus-handmade.json")));
        QVERIFY(r.ok());
        const Profile& p = *r.profile;
        const UsageSeries u = UsageSeries::compute(p, 0, 1000000000, 5);
        QCOMPARE(u.binCount(), std::size_t(5));
        QCOMPARE(p.labelName(u.labels()[0]), std::string_view("poll"));
        QCOMPARE(p.labelName(u.labels()[1]), std::string_view("handle"));
        const double poll[] = {0.15, 0.15, 0.15, 0.15, 0.0};
        const double handle[] = {0.1, 0.1, 0.0, 0.0, 0.1};
        for (std::size_t k = 0; k < 5; ++k) {
            QCOMPARE(u.share(k, 0) + 1, poll[k] + 1);
            QCOMPARE(u.share(k, 1) + 1, handle[k] + 1);
        }
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("errorStatus")
            << QByteArray(R"({"status":"error","errorType":"timeout","error":"query timed out"})")
            << QStringLiteral("Prometheus answered with an error: timeout: query timed out");
        QTest::newRow("noChroprof") << QByteArray(R"({"status":"success","data":{"resultType":"matrix","result":[ {"metric":{"__name__":"up"},"values":[[1,"1"]]}]}})")
                                    << QStringLiteral("the response holds no values of Chroprof's gauges");
    }

    void errors()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        const LoadResult r = loadText(json);
        QVERIFY(!r.ok());
        QVERIFY2(QString::fromStdString(r.error.message).startsWith(message), r.error.toString().c_str());
    }
};

QTEST_GUILESS_MAIN(TestPrometheusLoader)
#include "tst_prometheusloader.moc"
