#include "livetestexporter.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using runlane::test::LiveTestExporter;

namespace {

// runlane-cli, started without blocking: the exporter in this process
// must keep serving while it runs.
struct CliProcess {
    explicit CliProcess(const QStringList& args) { process.start(QStringLiteral(RUNLANE_CLI), args); }
    // record from `exporter` every 100 ms until a signal, into `file`.
    CliProcess(const LiveTestExporter& exporter, const QString& file)
        : CliProcess({QStringLiteral("record"), exporter.url().toString(), QStringLiteral("--interval"),
                      QStringLiteral("100ms"), QStringLiteral("--until-interrupted"), QStringLiteral("-o"), file})
    {
    }
    ~CliProcess()
    {
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished(5000);
        }
    }
    QProcess process;
};

// `runlane-cli summary FILE`: its "snapshots:" count, -1 if it does not load.
int snapshotsIn(const QString& file, QString& output)
{
    QProcess summary;
    summary.start(QStringLiteral(RUNLANE_CLI), {QStringLiteral("summary"), file});
    summary.waitForFinished(30000);
    output = QString::fromUtf8(summary.readAllStandardOutput() + summary.readAllStandardError());
    if (summary.exitCode() != 0)
        return -1;
    for (const QString& line : output.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("snapshots:")))
            return line.mid(10).trimmed().section(QLatin1Char(' '), 0, 0).toInt();
    }
    return 0;
}

// Lets `cli` record a few snapshots, freezes the exporter's data (so that
// every snapshot served is written), then sends `signal` and waits for
// the end. False if any of it did not happen in time.
bool recordThenSignal(LiveTestExporter& exporter, CliProcess& cli, int signal)
{
    if (!QTest::qWaitFor([&]() { return exporter.dataRequests() >= 6; }, 10000))
        return false;
    exporter.setGenerations(int(exporter.served().size())); // no new data from here on
    QTest::qWait(400);
    ::kill(pid_t(cli.process.processId()), signal);
    return QTest::qWaitFor([&]() { return cli.process.state() == QProcess::NotRunning; }, 5000);
}

} // namespace

class TestRecordCommand : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // About 3 s from the exporter (8 changes, then unchanged values):
    // the file loads with exactly the 8 snapshots it served.
    void recordsForADuration()
    {
        LiveTestExporter exporter;
        exporter.setGenerations(8);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("live.json"));
        CliProcess cli({QStringLiteral("record"), exporter.url().toString(), QStringLiteral("--interval"),
                        QStringLiteral("100ms"), QStringLiteral("--duration"), QStringLiteral("3s"), QStringLiteral("-o"), file});
        QTRY_COMPARE_WITH_TIMEOUT(cli.process.state(), QProcess::NotRunning, 15000);
        const QString err = QString::fromUtf8(cli.process.readAllStandardError());
        QCOMPARE(cli.process.exitCode(), 0);
        QVERIFY2(err.contains(QStringLiteral("runlane-cli: 8 snapshot(s) written to ") + file), qPrintable(err));
        QVERIFY2(exporter.dataRequests() >= 12, qPrintable(QString::number(exporter.dataRequests())));
        QCOMPARE(int(exporter.served().size()), 8);
        QString summary;
        QCOMPARE(snapshotsIn(file, summary), 8);
    }

    // A signal while recording with --until-interrupted. SIGINT and
    // SIGTERM finish the file and exit 0; SIGKILL leaves it unfinished,
    // and it still loads. Either way with every snapshot written, which
    // is every one served.
    void signalled_data()
    {
        QTest::addColumn<int>("signal");
        QTest::addColumn<bool>("finished");
        QTest::newRow("SIGINT") << SIGINT << true;
        QTest::newRow("SIGTERM") << SIGTERM << true;
        QTest::newRow("SIGKILL") << SIGKILL << false;
    }
    void signalled()
    {
        QFETCH(int, signal);
        QFETCH(bool, finished);
        LiveTestExporter exporter;
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("live.json"));
        CliProcess cli(exporter, file);
        QVERIFY(recordThenSignal(exporter, cli, signal));
        QString summary;
        QCOMPARE(snapshotsIn(file, summary), int(exporter.served().size()));
        if (!finished) {
            QCOMPARE(cli.process.exitStatus(), QProcess::CrashExit);
            QVERIFY2(summary.contains(QStringLiteral("the file ends inside the snapshot array")), qPrintable(summary));
            return;
        }
        const QString err = QString::fromUtf8(cli.process.readAllStandardError());
        QCOMPARE(cli.process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(cli.process.exitCode(), 0);
        QVERIFY2(err.contains(QStringLiteral("runlane-cli: interrupted\n")), qPrintable(err));
        QVERIFY2(summary.contains(QStringLiteral("warnings:      0\n")), qPrintable(summary)); // finished, not cut
    }

    // Nothing listens: exit 3 and why.
    void refused()
    {
        LiveTestExporter exporter;
        exporter.close();
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("live.json"));
        CliProcess cli({QStringLiteral("record"), exporter.url().toString(), QStringLiteral("--duration"),
                        QStringLiteral("1500ms"), QStringLiteral("-o"), file});
        QTRY_COMPARE_WITH_TIMEOUT(cli.process.state(), QProcess::NotRunning, 10000);
        const QString err = QString::fromUtf8(cli.process.readAllStandardError());
        QCOMPARE(cli.process.exitCode(), 3);
        QVERIFY2(err.contains(QStringLiteral(": retrying: connection refused — retrying in 1 s\n")), qPrintable(err));
        QVERIFY2(err.endsWith(QStringLiteral("runlane-cli: nothing recorded from %1: connection refused\n")
                                  .arg(exporter.url().toString())),
                 qPrintable(err));
        QVERIFY(!QFile::exists(file));
    }

    // The main help lists it (from the command table).
    void listedInHelp()
    {
        QProcess cli;
        cli.start(QStringLiteral(RUNLANE_CLI), {QStringLiteral("help")});
        QVERIFY(cli.waitForFinished(10000));
        QVERIFY(QString::fromUtf8(cli.readAllStandardOutput())
                    .contains(QStringLiteral("  record         record a running program's Chroprof metrics (its exporter or a "
                                             "Prometheus server)\n")));
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no output") << QStringList{"record", "http://127.0.0.1:1/metrics"} << "record needs -o FILE";
        QTest::newRow("ftp") << QStringList{"record", "ftp://127.0.0.1/metrics", "-o", "x.json"}
                             << "unsupported URL 'ftp://127.0.0.1/metrics': give http://host:port/metrics (an exporter), "
                                "prometheus://host:port or http://host:port/api/v1 (a Prometheus server)";
        QTest::newRow("no host") << QStringList{"record", "http:///metrics", "-o", "x.json"}
                                 << "URL 'http:///metrics' names no host";
        QTest::newRow("bad interval") << QStringList{"record", "http://127.0.0.1:1/metrics", "--interval", "5", "-o", "x.json"}
                                      << "bad --interval '5': give a positive time with a unit, e.g. 500ms, 1s, 2m, 1h";
        QTest::newRow("both ends") << QStringList{"record", "http://127.0.0.1:1/metrics", "--duration", "1s",
                                                  "--until-interrupted", "-o", "x.json"}
                                   << "give --duration or --until-interrupted, not both";
    }
    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QProcess cli;
        cli.start(QStringLiteral(RUNLANE_CLI), args);
        QVERIFY(cli.waitForFinished(10000));
        QCOMPARE(cli.exitCode(), 2);
        QCOMPARE(QString::fromUtf8(cli.readAllStandardError()), QStringLiteral("runlane-cli: %1 (see --help)\n").arg(message));
    }
};

QTEST_GUILESS_MAIN(TestRecordCommand)
#include "tst_recordcommand.moc"
