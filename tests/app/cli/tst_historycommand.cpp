#include "app/cli/clirun.h"
#include "core/compare/runsgenerator.h"
#include "pgserver.h"
#include "testsupport.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

using runlane::test::cli;
using runlane::test::Run;

namespace {

QJsonDocument json(const Run& run)
{
    return QJsonDocument::fromJson(run.out.toUtf8());
}

// runlane-cli started, not waited for.
QProcess* startCli(const QStringList& args, QObject* parent, const QByteArray& abortAfter = {})
{
    auto* process = new QProcess(parent);
    if (!abortAfter.isEmpty()) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("RUNLANE_HISTORY_ABORT_AFTER_ROWS"), QString::fromLatin1(abortAfter));
        process->setProcessEnvironment(env);
    }
    process->start(QStringLiteral(RUNLANE_CLI), args);
    return process;
}

} // namespace

class TestHistoryCommand : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    runlane::test::HistoryBackends m_backends;
    int m_databases = 0;
    QStringList m_profiles; // 30 generated runs of one workload

    QString newHistory() { return m_backends.newHistory(); }

    static int runCount(const QString& db)
    {
        const Run list = cli({"history", "list", "--db", db, "--format", "json"});
        return list.code == 0 ? int(json(list).array().size()) : -1;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // Chronos logs of 12 labels, 1 % run-to-run noise; f5 takes 15 %
        // longer from run 25 on.
        for (int r = 1; r <= 30; ++r) {
            runlane::test::RunsGenerator generator(std::uint64_t(7000 + r));
            generator.labels = 12;
            generator.calls = 5;
            generator.noise = 0.01;
            if (r >= 25)
                generator.factors["f5"] = 1.15;
            m_profiles << runlane::test::writeTemp(m_dir, generator.chronosLog(), QStringLiteral("run%1.json").arg(r));
        }
        m_backends.initTestCase();
    }
    void cleanupTestCase() { m_backends.cleanupTestCase(); }
    void init() { m_backends.init(); }

    // 30 runs recorded one by one; check on run 25 flags exactly f5, with
    // compare's per-label keys and threshold_pct; exit 4 with
    // --fail-on-regression.
    void stepChange_data() { runlane::test::HistoryBackends::addRows(); }
    void stepChange()
    {
        const QString db = newHistory();
        for (int r = 0; r < 30; ++r) {
            const Run record = cli({"history", "record", "--db", db, "--workload", "server", "--commit",
                                    QStringLiteral("c%1").arg(r + 1), "--branch", "main", "--tag", "os=linux",
                                    m_profiles[r]});
            QVERIFY2(record.code == 0, qPrintable(record.err));
            QCOMPARE(record.out, QStringLiteral("recorded 1 run(s) of server: %1 (run set %1)\n").arg(r + 1));
        }
        const Run check = cli({"history", "check", "--db", db, "--workload", "server", "--run", "25", "--format", "json",
                               "--fail-on-regression"});
        QCOMPARE(check.code, 4);
        const QJsonObject result = json(check).object();
        QCOMPARE(result["base_runs"].toInt(), 24);
        QCOMPARE(result["new_runs"].toInt(), 1);
        QCOMPARE(result["run"].toObject()["commit"].toString(), QStringLiteral("c25"));
        QCOMPARE(result["window"].toArray().size(), 24);
        QStringList regressed;
        const QJsonArray labels = result["labels"].toArray();
        QCOMPARE(labels.size(), 12);
        for (const QJsonValue& label : labels) {
            if (label["verdict"].toString() != QLatin1String("unchanged"))
                regressed << label["name"].toString() + QLatin1Char(' ') + label["verdict"].toString();
        }
        QCOMPARE(regressed, QStringList{"f5 regressed"});
        const QJsonObject f5 = labels.first().toObject();
        QVERIFY(f5["delta_pct"].toDouble() > f5["threshold_pct"].toDouble());
        // The keys of compare --format json's labels, and threshold_pct.
        const Run compare = cli({"compare", "--base", m_profiles[0], m_profiles[1], "--new", m_profiles[2], "--format", "json"});
        QCOMPARE(compare.code, 0);
        QStringList compareKeys = json(compare).object()["labels"].toArray().first().toObject().keys();
        compareKeys << "threshold_pct";
        compareKeys.sort();
        for (const QJsonValue& label : labels)
            QCOMPARE(label.toObject().keys(), compareKeys);

        // The run before the step: nothing; the table says each threshold.
        const Run before = cli({"history", "check", "--db", db, "--workload", "server", "--run", "24",
                                "--fail-on-regression"});
        QCOMPARE(before.code, 0);
        QVERIFY2(before.out.contains(QLatin1String("0 regressed, 0 improved, 12 unchanged")), qPrintable(before.out));
        QVERIFY(before.out.contains(QLatin1String("threshold")));
        const Run markdown = cli({"history", "check", "--db", db, "--workload", "server", "--run", "25", "--format",
                                  "markdown"});
        QCOMPARE(markdown.code, 0);
        QVERIFY2(markdown.out.startsWith(QString::fromUtf8("### Runlane history: ❌ 1 regression\n")), qPrintable(markdown.out));
        QVERIFY2(markdown.out.contains(QLatin1String("| regressed | `f5 (work.nim:15)` |")), qPrintable(markdown.out));

        // show: one label over the runs, oldest first.
        const Run show = cli({"history", "show", "--db", db, "--workload", "server", "--label", "f5", "--last", "10",
                              "--format", "csv"});
        QCOMPARE(show.code, 0);
        const QStringList lines = show.out.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 11);
        QCOMPARE(lines[0], QStringLiteral("run,run_set,recorded_at,commit,branch,name,file,line,metric,value,unit"));
        QVERIFY(lines[1].startsWith(QLatin1String("21,21,")));
        QVERIFY(lines[1].contains(QLatin1String(",c21,main,f5,work.nim,15,exec,")));
        QVERIFY(lines[10].startsWith(QLatin1String("30,30,")));
        const Run list = cli({"history", "list", "--db", db, "--last", "2", "--format", "json"});
        QCOMPARE(list.code, 0);
        const QJsonArray runs = json(list).array();
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs[0]["id"].toInt(), 29);
        QCOMPARE(runs[0]["tags"].toObject()["os"].toString(), QStringLiteral("linux"));
        QCOMPARE(runs[0]["source"].toString(), QStringLiteral("run29.json"));
        QCOMPARE(runs[0]["source_path"].toString(), m_profiles[28]);
        QCOMPARE(runs[0]["format"].toString(), QStringLiteral("Chronos future event log"));
    }

    // Without --db: the history in the data folder (the viewer's default
    // too), not in the folder runlane-cli was started in.
    void defaultLocation()
    {
#if !defined(Q_OS_LINUX)
        QSKIP("the data folder is XDG_DATA_HOME on Linux only");
#endif
        QTemporaryDir data;
        QTemporaryDir cwd;
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_DATA_HOME"), data.path());
        process.setProcessEnvironment(env);
        process.setWorkingDirectory(cwd.path());
        process.start(QStringLiteral(RUNLANE_CLI), {"history", "record", "--workload", "w", m_profiles[0]});
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitCode(), 0);
        QVERIFY(QFileInfo(data.filePath(QStringLiteral("Runlane/runlane-history.sqlite"))).isFile());
        QCOMPARE(QDir(cwd.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList());
        QCOMPARE(runCount(data.filePath(QStringLiteral("Runlane/runlane-history.sqlite"))), 1);
    }

    // A recorder killed between two value rows leaves no trace of its run.
    void atomicity_data() { runlane::test::HistoryBackends::addRows(); }
    void atomicity()
    {
        const QString db = newHistory();
        QCOMPARE(cli({"history", "record", "--db", db, "--workload", "w", m_profiles[0]}).code, 0);
        QProcess* killed =
            startCli({"history", "record", "--db", db, "--workload", "w", m_profiles[1], m_profiles[2]}, this, "17");
        QVERIFY(killed->waitForFinished(60000));
        QCOMPARE(killed->exitStatus(), QProcess::CrashExit);
        QCOMPARE(runCount(db), 1);
        const Run show = cli({"history", "show", "--db", db, "--workload", "w", "--label", "f0", "--format", "json"});
        QCOMPARE(json(show).array().size(), 1);
        // The history is whole: the next record lands.
        QCOMPARE(cli({"history", "record", "--db", db, "--workload", "w", m_profiles[1], m_profiles[2]}).code, 0);
        QCOMPARE(runCount(db), 3);
    }

    // Two recorders at once on a new history: both land.
    void concurrentRecords_data() { runlane::test::HistoryBackends::addRows(); }
    void concurrentRecords()
    {
        const QString db = newHistory();
        QProcess* first = startCli(QStringList{"history", "record", "--db", db, "--workload", "w"} + m_profiles.mid(0, 4), this);
        QProcess* second = startCli(QStringList{"history", "record", "--db", db, "--workload", "w"} + m_profiles.mid(4, 4), this);
        for (QProcess* p : {first, second}) {
            QVERIFY(p->waitForFinished(60000));
            QCOMPARE(p->exitStatus(), QProcess::NormalExit);
            QVERIFY2(p->exitCode() == 0, p->readAllStandardError().constData());
        }
        const Run list = cli({"history", "list", "--db", db, "--format", "json"});
        const QJsonArray runs = json(list).array();
        QCOMPARE(runs.size(), 8);
        // Two run sets of four runs (on PostgreSQL their ids interleave:
        // both transactions draw from one sequence at once).
        QMap<int, int> sets;
        for (const QJsonValue& run : runs)
            ++sets[run["run_set"].toInt()];
        QCOMPARE(sets.size(), 2);
        QCOMPARE(sets.first(), 4);
        QCOMPARE(sets.last(), 4);
    }

    // export from one backend, import into the other's empty history.
    void exportImport_data() { runlane::test::HistoryBackends::addRows(); }
    void exportImport()
    {
        const QString source = m_dir.filePath(QStringLiteral("export-source%1.sqlite").arg(++m_databases));
        QCOMPARE(cli({"history", "record", "--db", source, "--workload", "w", "--tag", "a=b", m_profiles[0],
                      m_profiles[1]})
                     .code,
                 0);
        QCOMPARE(cli({"history", "record", "--db", source, "--workload", "w", m_profiles[2]}).code, 0);
        const QString file = m_dir.filePath(QStringLiteral("export%1.jsonl").arg(m_databases));
        QCOMPARE(cli({"history", "export", "--db", source, file}).code, 0);
        const QString target = newHistory();
        const Run import = cli({"history", "import", "--db", target, file});
        QCOMPARE(import.code, 0);
        QCOMPARE(import.out, QStringLiteral("imported 3 run(s)\n"));
        const QString again = file + QStringLiteral(".again");
        QCOMPARE(cli({"history", "export", "--db", target, again}).code, 0);
        QCOMPARE(runlane::test::readAll(again), runlane::test::readAll(file));
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        const QString db = m_dir.filePath(QStringLiteral("errors.sqlite"));
        QTest::newRow("no subcommand") << QStringList{"history"} << 2
                                       << "history needs record, list, show, check, export or import";
        QTest::newRow("unknown subcommand") << QStringList{"history", "plot"} << 2 << "unknown history command 'plot'";
        QTest::newRow("record without workload") << QStringList{"history", "record", "--db", db, "x.json"} << 2
                                                 << "history record needs --workload NAME";
        QTest::newRow("record without profile") << QStringList{"history", "record", "--db", db, "--workload", "w"} << 2
                                                << "missing the profile file";
        QTest::newRow("bad tag") << QStringList{"history", "record", "--db", db, "--workload", "w", "--tag", "novalue", "x"}
                                 << 2 << "bad --tag 'novalue': give key=value";
        QTest::newRow("bad metric") << QStringList{"history", "check", "--db", db, "--workload", "w", "--metric", "speed"}
                                    << 2 << "unknown --metric 'speed'";
        QTest::newRow("bad format") << QStringList{"history", "list", "--db", db, "--format", "csv"} << 2
                                    << "unknown --format 'csv' (table, json)";
        QTest::newRow("bad run") << QStringList{"history", "check", "--db", db, "--workload", "w", "--run", "last"} << 2
                                 << "bad --run 'last': give a run id or latest";
        QTest::newRow("unknown workload") << QStringList{"history", "check", "--db", db, "--workload", "w"} << 3
                                          << "no runs of the workload 'w' in the history";
        QTest::newRow("unknown label") << QStringList{"history", "show", "--db", db, "--workload", "w", "--label", "f"}
                                       << 3 << "no label 'f' in the runs of the workload 'w'";
        QTest::newRow("missing profile") << QStringList{"history", "record", "--db", db, "--workload", "w", "/nonexistent.json"}
                                         << 3 << "/nonexistent.json";
        QTest::newRow("password in the URL") << QStringList{"history", "list", "--db", "postgresql://u:pw@localhost/db"}
                                             << 3 << "no password in the URL: give it in PGPASSWORD or ~/.pgpass";
        QTest::newRow("not an export") << QStringList{"history", "import", "--db", db, RUNLANE_DEMO_PROFILE} << 3
                                       << "line 1: not a Runlane history export";
    }
    void errors()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, message);
        const Run run = cli(args);
        QCOMPARE(run.code, code);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
    }

    void help()
    {
        const Run run = cli({"history", "--help"});
        QCOMPARE(run.code, 0);
        QVERIFY(run.out.startsWith(QLatin1String("Usage: runlane-cli history record")));
        const Run sub = cli({"history", "check", "--help"});
        QCOMPARE(sub.code, 0);
        QCOMPARE(sub.out, run.out);
        QVERIFY(cli({"--help"}).out.contains(QLatin1String("  history        keep every run's figures")));
    }
};

QTEST_GUILESS_MAIN(TestHistoryCommand)
#include "tst_historycommand.moc"
