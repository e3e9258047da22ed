#include "endpointsource.h"
#include "livetestexporter.h"

#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QtTest>

using namespace runlane;
using runlane::test::LiveTestExporter;
using Received = runlane::test::LiveReceived;

namespace {

using namespace std::chrono_literals;

LiveOptions fastOptions()
{
    LiveOptions options;
    options.interval = 50ms;
    options.timeout = 2000ms;
    options.maxResponseBytes = qint64(1) << 20;
    options.retryBase = 10000ms; // one failure per test unless it says otherwise
    options.retryMax = 30000ms;
    return options;
}

// The process's peak resident memory (VmHWM), in bytes.
qint64 peakMemory()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong() * 1024;
    }
    return 0;
}

} // namespace

class TestEndpointSource : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // LiveSource::create picks the source by the URL, or says why not.
    void create_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("kind"); // "" for an error
        QTest::addColumn<QString>("description"); // or the error
        QTest::newRow("exporter") << "http://127.0.0.1:8008/metrics" << "runlane::EndpointSource"
                                  << "http://127.0.0.1:8008/metrics";
        QTest::newRow("https exporter") << "https://host.example:8443/metrics" << "runlane::EndpointSource"
                                        << "https://host.example:8443/metrics";
        QTest::newRow("prometheus://") << "prometheus://127.0.0.1:9090" << "runlane::PrometheusServerSource"
                                       << "http://127.0.0.1:9090/api/v1";
        QTest::newRow("prometheus:// default port") << "prometheus://metrics.example" << "runlane::PrometheusServerSource"
                                                    << "http://metrics.example:9090/api/v1";
        QTest::newRow("api URL") << "http://127.0.0.1:9090/prom/api/v1/" << "runlane::PrometheusServerSource"
                                 << "http://127.0.0.1:9090/prom/api/v1";
        QTest::newRow("ftp") << "ftp://127.0.0.1/metrics" << ""
                             << "unsupported URL 'ftp://127.0.0.1/metrics': give http://host:port/metrics (an exporter), "
                                "prometheus://host:port or http://host:port/api/v1 (a Prometheus server)";
        QTest::newRow("no host") << "http:///metrics" << "" << "URL 'http:///metrics' names no host";
        QTest::newRow("prometheus:// with a path")
            << "prometheus://127.0.0.1:9090/x" << ""
            << "prometheus://host:port takes no path ('prometheus://127.0.0.1:9090/x'); for a server under a path give "
               "its http://…/api/v1 URL";
    }
    void create()
    {
        QFETCH(QString, url);
        QFETCH(QString, kind);
        QFETCH(QString, description);
        QString error;
        const std::unique_ptr<LiveSource> source = LiveSource::create(QUrl(url, QUrl::StrictMode), LiveOptions(), &error);
        if (kind.isEmpty()) {
            QVERIFY(!source);
            QCOMPARE(error, description);
            return;
        }
        QVERIFY2(source, qPrintable(error));
        QCOMPARE(QString::fromLatin1(source->metaObject()->className()), kind);
        QCOMPARE(source->description(), description);
        QCOMPARE(source->status().state, LiveSource::State::Idle);
    }

    // What the exporter served, exactly: seven generations (churn at 3, a
    // reset at 5), scraped every 50 ms; repeats of unchanged values dropped.
    void follows_data()
    {
        QTest::addColumn<int>("changeEvery");
        QTest::addColumn<bool>("timestamps");
        QTest::newRow("changes every scrape") << 1 << false;
        QTest::newRow("unchanged repeats") << 3 << false;
        QTest::newRow("timestamps") << 2 << true;
    }
    void follows()
    {
        QFETCH(int, changeEvery);
        QFETCH(bool, timestamps);
        LiveTestExporter exporter;
        exporter.setChangeEvery(changeEvery);
        exporter.setGenerations(7);
        exporter.setTimestamps(timestamps);
        EndpointSource source(exporter.url(), fastOptions());
        Received received(source);
        source.start();
        QCOMPARE(source.status().state, LiveSource::State::Connecting);
        // Past the last generation by a few scrapes of unchanged values.
        QTRY_VERIFY_WITH_TIMEOUT(exporter.dataRequests() >= 7 * changeEvery + 4, 15000);
        QTRY_COMPARE_WITH_TIMEOUT(received.snapshots.size(), std::size_t(7), 5000);
        source.stop();
        QCOMPARE(LiveTestExporter::describe(received.snapshots), LiveTestExporter::describe(exporter.served()));
        for (std::size_t i = 0; i < received.snapshots.size(); ++i) {
            const Time got = received.snapshots[i].time;
            const Time served = exporter.served()[i].time;
            if (timestamps) {
                QCOMPARE(got, served); // the data's own time
            } else {
                // When it was fetched: just after the exporter served it.
                QVERIFY2(got >= served && got < served + 1000000000, qPrintable(QString::number(got - served)));
            }
        }
        QCOMPARE(source.status().state, LiveSource::State::Stopped);
        QCOMPARE(source.status().failures, 0);
        QCOMPARE(source.status().warnings, quint64(0));
        QVERIFY(source.status().lastFetch.isValid());
    }

    // Each hostile endpoint is a failure that says what happened, is
    // retried, and never makes us hold more than the 1 MiB cap.
    void hostile_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<QString>("message");
        using Mode = LiveTestExporter::Mode;
        QTest::newRow("streams forever") << int(Mode::Forever)
                                         << "response over the limit of 1048576 bytes — retrying in 10 s";
        QTest::newRow("10 GB line") << int(Mode::HugeLine)
                                    << "response of 10000000000 bytes is over the limit of 1048576 bytes — retrying in 10 s";
        QTest::newRow("redirect") << int(Mode::Redirect)
                                  << "redirect to http://127.0.0.1:1/elsewhere refused (HTTP 302); give the final URL — "
                                     "retrying in 10 s";
        QTest::newRow("never answers") << int(Mode::Silent) << "no response within 500 ms (timed out) — retrying in 10 s";
        QTest::newRow("404") << int(Mode::NotFound) << "HTTP 404 Not Found — retrying in 10 s";
        QTest::newRow("refused") << -1 << "connection refused — retrying in 10 s";
    }
    void hostile()
    {
        QFETCH(int, mode);
        QFETCH(QString, message);
        LiveTestExporter exporter;
        if (mode < 0)
            exporter.close();
        else
            exporter.setMode(LiveTestExporter::Mode(mode));
        LiveOptions options = fastOptions();
        options.timeout = 500ms;
        EndpointSource source(exporter.url(), options);
        Received received(source);
        const qint64 peakBefore = peakMemory();
        source.start();
        QTRY_COMPARE_WITH_TIMEOUT(source.status().state, LiveSource::State::Retrying, 10000);
        QCOMPARE(source.status().message, message);
        QCOMPARE(source.status().failures, 1);
        QCOMPARE(source.status().retryIn, std::chrono::milliseconds(10000));
        QVERIFY(!source.status().lastFetch.isValid());
        // The client hung up: what was streamed is the cap plus what the
        // sockets' buffers held, and our peak memory grew by far less than
        // the body the server offered.
        QTest::qWait(200);
        QVERIFY2(exporter.streamed() < (qint64(8) << 20), qPrintable(QString::number(exporter.streamed())));
        QVERIFY2(peakMemory() - peakBefore < (qint64(64) << 20), qPrintable(QString::number(peakMemory() - peakBefore)));
        QCOMPARE(received.snapshots.size(), std::size_t(0));
        QCOMPARE(exporter.requests(), mode < 0 ? 0 : 1); // one request, retried only after the backoff
    }

    // Malformed and non-UTF-8 lines are skipped and counted; the rest is read.
    void malformedLines()
    {
        LiveTestExporter exporter;
        exporter.setMode(LiveTestExporter::Mode::Malformed);
        exporter.setChangeEvery(1000);
        EndpointSource source(exporter.url(), fastOptions());
        Received received(source);
        source.start();
        QTRY_VERIFY_WITH_TIMEOUT(exporter.dataRequests() >= 3, 5000);
        QTRY_COMPARE(source.status().warnings,
                     quint64(exporter.dataRequests() * (LiveTestExporter::kMalformedLines + LiveTestExporter::kInvalidUtf8Lines)));
        source.stop();
        QCOMPARE(LiveTestExporter::describe(received.snapshots), LiveTestExporter::describe(exporter.served()));
        QCOMPARE(source.status().message, QString());
    }

    // An endpoint without Chroprof's gauges (yet): followed, nothing delivered.
    void noChroprofGauges()
    {
        LiveTestExporter exporter;
        exporter.setMode(LiveTestExporter::Mode::NoChroprof);
        EndpointSource source(exporter.url(), fastOptions());
        Received received(source);
        source.start();
        QTRY_VERIFY_WITH_TIMEOUT(exporter.requests() >= 3, 5000);
        QCOMPARE(source.status().state, LiveSource::State::Following);
        QCOMPARE(source.status().warnings, quint64(0));
        source.stop();
        QCOMPARE(received.batches, 0);
    }

    // Refused again and again: 100 ms, 200 ms, 400 ms, then the cap; each
    // attempt after its wait.
    void backoffSequence()
    {
        LiveTestExporter exporter;
        exporter.close();
        LiveOptions options = fastOptions();
        options.retryBase = 100ms;
        options.retryMax = 400ms;
        EndpointSource source(exporter.url(), options);
        std::vector<qint64> waits;
        std::vector<int> failures;
        std::vector<qint64> at;
        QStringList messages;
        QElapsedTimer clock;
        clock.start();
        connect(&source, &LiveSource::statusChanged, this, [&]() {
            if (source.status().state != LiveSource::State::Retrying)
                return;
            waits.push_back(source.status().retryIn.count());
            failures.push_back(source.status().failures);
            messages << source.status().message;
            at.push_back(clock.elapsed());
        });
        source.start();
        QTRY_VERIFY_WITH_TIMEOUT(waits.size() >= 5, 10000);
        source.stop();
        QCOMPARE(std::vector<qint64>(waits.begin(), waits.begin() + 5), (std::vector<qint64>{100, 200, 400, 400, 400}));
        QCOMPARE(std::vector<int>(failures.begin(), failures.begin() + 5), (std::vector<int>{1, 2, 3, 4, 5}));
        QCOMPARE(messages.at(0), QStringLiteral("connection refused — retrying in 100 ms"));
        QCOMPARE(messages.at(2), QStringLiteral("connection refused — retrying in 400 ms"));
        for (std::size_t i = 1; i < 5; ++i)
            QVERIFY2(at[i] - at[i - 1] >= waits[i - 1], qPrintable(QStringLiteral("attempt %1 came %2 ms after the failure")
                                                                      .arg(i + 1)
                                                                      .arg(at[i] - at[i - 1])));
    }

    // The program comes back: the next attempt succeeds, the failures and
    // the message are cleared, its data arrives.
    void recovery()
    {
        LiveTestExporter exporter;
        const quint16 port = exporter.port();
        exporter.close();
        LiveOptions options = fastOptions();
        options.retryBase = 100ms;
        options.retryMax = 200ms;
        EndpointSource source(exporter.url(), options);
        Received received(source);
        source.start();
        QTRY_VERIFY_WITH_TIMEOUT(source.status().failures >= 2, 5000);
        QCOMPARE(source.status().state, LiveSource::State::Retrying);
        QVERIFY(exporter.listen(port));
        exporter.setChangeEvery(1000);
        QTRY_COMPARE_WITH_TIMEOUT(source.status().state, LiveSource::State::Following, 5000);
        QCOMPARE(source.status().failures, 0);
        QCOMPARE(source.status().message, QString());
        QCOMPARE(source.status().retryIn, std::chrono::milliseconds(0));
        QTRY_COMPARE(received.snapshots.size(), std::size_t(1));
        source.stop();
        QCOMPARE(LiveTestExporter::describe(received.snapshots), LiveTestExporter::describe(exporter.served()));
    }

    // stop() while a response is being parsed: its result is dropped
    // (nothing is delivered after stop()) and leaves no trace: started
    // again, the same values are delivered, since the one dropped was
    // never taken as delivered.
    void stopDropsLateResults()
    {
        LiveTestExporter exporter;
        exporter.setChangeEvery(1000);
        EndpointSource source(exporter.url(), fastOptions());
        Received received(source);
        int fetches = 0;
        const QMetaObject::Connection stopper = connect(&source, &PolledSource::fetched, this, [&](qint64 bytes) {
            QVERIFY(bytes > 0);
            ++fetches;
            source.stop();
        });
        source.start();
        QTRY_COMPARE(fetches, 1);
        QTest::qWait(300);
        QCOMPARE(received.batches, 0);
        QCOMPARE(source.status().state, LiveSource::State::Stopped);
        QCOMPARE(exporter.requests(), 1);
        disconnect(stopper);
        source.start();
        QTRY_COMPARE(received.batches, 1);
        source.stop();
        QCOMPARE(LiveTestExporter::describe(received.snapshots), LiveTestExporter::describe(exporter.served()));
    }
};

QTEST_GUILESS_MAIN(TestEndpointSource)
#include "tst_endpointsource.moc"
