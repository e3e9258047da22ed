#include "livetestexporter.h"
#include "profileloader.h"
#include "prometheusserver.h"
#include "prometheusserversource.h"
#include "snapshotreader.h"
#include "testsupport.h"

#include <QtTest>

using namespace runlane;
using runlane::test::LiveTestExporter;
using Received = runlane::test::LiveReceived;
using runlane::test::PrometheusServer;

namespace {

using namespace std::chrono_literals;

} // namespace

// Against the real Prometheus (Debian's prometheus package) scraping the
// test exporter every second: the exporter's values change every second
// scrape, through churn (generation 3) and a reset (generation 5).
class TestPrometheusServerSource : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        m_exporter.setChangeEvery(2);
        QVERIFY2(m_server.start(QStringLiteral("127.0.0.1:%1").arg(m_exporter.port()), error), qPrintable(error));
        // Until the server has stored generation 6 (past the reset).
        QElapsedTimer waited;
        waited.start();
        while (m_exporter.dataRequests() < 14 && waited.elapsed() < 40000)
            PrometheusServer::wait(200);
        QVERIFY2(m_exporter.dataRequests() >= 14, qPrintable(m_server.log()));
        QVERIFY2(m_server.series(QStringLiteral("chronos_exec_time_total")) >= 2, qPrintable(m_server.log()));
    }
    void cleanupTestCase() { m_server.stop(); }

    // The backfill, then a follow-up query: what the exporter served, in
    // order, each change once, at the step where the server first had it.
    void backfillThenFollow()
    {
        PrometheusServerSource source(api(), options(1000ms));
        Received received(source);
        source.start();
        QTRY_COMPARE_WITH_TIMEOUT(received.batches, 1, 10000);
        const std::size_t backfilled = received.snapshots.size();
        QVERIFY2(backfilled >= 6, qPrintable(QString::number(backfilled)));
        // The follow-up queries bring the next generation.
        const int before = m_exporter.dataRequests();
        QTRY_VERIFY_WITH_TIMEOUT(m_exporter.dataRequests() >= before + 4, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(received.snapshots.size() > backfilled, 10000);
        source.stop();
        QCOMPARE(source.status().failures, 0);
        QCOMPARE(source.status().warnings, quint64(0));
        checkServed(received.snapshots);
        const std::vector<ScrapedSnapshot>& served = m_exporter.served();
        for (std::size_t i = 0; i < received.snapshots.size(); ++i) {
            const Time time = received.snapshots[i].time;
            // A step of the 1 s grid, after the scrape that stored it.
            QCOMPARE(time % 1000000000, Time(0));
            QVERIFY2(time >= served[i].time - 100000000 && time <= served[i].time + 3000000000,
                     qPrintable(QStringLiteral("snapshot %1: %2 ns after it was served").arg(i).arg(time - served[i].time)));
            if (i > 0)
                QVERIFY(time > received.snapshots[i - 1].time); // nothing twice
        }
        saveFixture();
    }

    // A backfill of 12,000 steps is more than the server gives in one
    // query (11,000 points per series): it is asked in parts, and gives
    // the same changes.
    void longBackfillInParts()
    {
        PrometheusServerSource source(api(), options(5ms));
        Received received(source);
        source.start();
        QTRY_VERIFY_WITH_TIMEOUT(received.batches >= 2, 15000);
        source.stop();
        QCOMPARE(source.status().failures, 0);
        QVERIFY(received.snapshots.size() >= 6);
        checkServed(received.snapshots);
    }

    // Not a Prometheus API (the exporter's own text): a failure that is
    // retried, nothing delivered.
    void notAnApi()
    {
        LiveOptions patient = options(1000ms);
        patient.retryBase = 10000ms;
        PrometheusServerSource source(QUrl(QStringLiteral("http://127.0.0.1:%1/api/v1").arg(m_exporter.port())), patient);
        Received received(source);
        source.start();
        QTRY_COMPARE_WITH_TIMEOUT(source.status().state, LiveSource::State::Retrying, 10000);
        QCOMPARE(source.status().message,
                 QStringLiteral("unreadable response: invalid JSON: syntax error while parsing value - invalid literal; "
                                "last read: '#' — retrying in 10 s"));
        QCOMPARE(received.snapshots.size(), std::size_t(0));
    }

    // tests/data/profiles/prometheus-query-range.json (README there), a
    // query_range this test took from the real server, through the normal
    // loader: 17 steps, 9 changes (generations 0-8), the last exec of each
    // proc as the exporter served it.
    void savedResponseLoads()
    {
        const LoadResult r = ProfileLoader::load(runlane::test::dataPath(QStringLiteral("profiles/prometheus-query-range.json")));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.formatName(), std::string_view("Prometheus query_range (Chroprof)"));
        QCOMPARE(p.snapshots().size(), std::size_t(9));
        QCOMPARE(p.duration(), Time(16000000000));
        QCOMPARE(p.diagnostics().warningCount(), std::uint64_t(0));
        QCOMPARE(p.diagnostics().skippedEvents(),
                 (std::map<std::string, std::uint64_t, std::less<>>{{"snapshots repeating the previous values", 8}}));
        // The last value of each proc: alpha and gamma in the last
        // snapshot (generation 8, after the reset), beta in its last
        // (generation 2: it left the top-k at 3).
        std::map<std::string, Time> lastExec;
        SnapshotReader reader(p.snapshots());
        for (std::size_t i = 0; i < reader.size(); ++i) {
            for (const AggregateRow& row : reader.rows(i))
                lastExec[std::string(p.labelName(row.label))] = row.exec;
        }
        QCOMPARE(lastExec, (std::map<std::string, Time>{{"alpha", 1200}, {"beta", 6000}, {"gamma", 400}}));
        QCOMPARE(p.snapshots().back().rowCount(), std::size_t(2));
    }

private:
    static LiveOptions options(std::chrono::milliseconds interval)
    {
        LiveOptions options;
        options.interval = interval;
        options.backfill = 1min;
        return options;
    }
    // What was received is what the exporter served first, in order.
    void checkServed(const std::vector<ScrapedSnapshot>& received)
    {
        const std::vector<ScrapedSnapshot>& served = m_exporter.served();
        QVERIFY(received.size() <= served.size());
        QCOMPARE(LiveTestExporter::describe(received),
                 LiveTestExporter::describe(std::vector<ScrapedSnapshot>(served.begin(), served.begin() + qsizetype(received.size()))));
    }
    QUrl api() const { return QUrl(QStringLiteral("http://127.0.0.1:%1/api/v1").arg(m_server.port())); }

    // RUNLANE_SAVE_QUERY_RANGE=FILE: a query_range of this real server,
    // for tests/data/profiles/prometheus-query-range.json.
    void saveFixture()
    {
        const QString path = qEnvironmentVariable("RUNLANE_SAVE_QUERY_RANGE");
        if (path.isEmpty())
            return;
        const qint64 end = QDateTime::currentSecsSinceEpoch();
        const auto [status, body] = m_server.get(
            // One arg() for all: the encoded query has %3D and the like.
            QStringLiteral("/api/v1/query_range?query=%1&start=%2&end=%3&step=1")
                .arg(QString::fromLatin1(QUrl::toPercentEncoding(PrometheusServerSource::query())),
                     QString::number(end - 19), QString::number(end)));
        QCOMPARE(status, 200);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(body);
    }

    LiveTestExporter m_exporter;
    PrometheusServer m_server;
};

QTEST_GUILESS_MAIN(TestPrometheusServerSource)
#include "tst_prometheusserversource.moc"
