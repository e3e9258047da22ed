// runlane-cli rank: its formats, ranges, sort keys and the scheduling
// delays of a tokio recording, through the real binary (RUNLANE_CLI).

#include "app/cli/clirun.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QTemporaryDir>
#include <QtTest>

using runlane::test::cli;
using runlane::test::dataPath;
using runlane::test::Run;

namespace {

const QString fgh = dataPath(QStringLiteral("profiles/fgh-chrome.json"));

} // namespace

class TestRankCommand : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // A tokio recording's wakes and scheduling delays (the figures of
    // tests/data/profiles/README.md).
    void tokioDelays()
    {
        const QString tokio = dataPath(QStringLiteral("profiles/tokio-hand.jsonl"));
        const Run summary = cli({"summary", tokio});
        QCOMPARE(summary.code, 0);
        QVERIFY2(summary.out.contains(QStringLiteral("wakes:         4 (1 self-wakes, 1 by ref)\n"
                                                     "sched. delay:  1.90 µs in all, max 1.00 µs, over 3 polls after a wake\n")),
                 qPrintable(summary.out));
        const Run rank = cli({"rank", tokio});
        QCOMPARE(rank.code, 0);
        QVERIFY2(rank.out.endsWith(QStringLiteral("scheduling delay (wake -> next poll, whole recording):\n"
                                                  "  delays         sum         max         p90  label\n"
                                                  "       2      900 ns      500 ns      500 ns  main loop (src/main.rs:10)\n"
                                                  "       1     1.00 µs     1.00 µs     1.00 µs  src/conn.rs:20\n")),
                 qPrintable(rank.out));
    }

    // Issue 39, item 14: CSV and JSON end each row with the scheduling
    // delays the viewer shows (count, sum, max, p90; none: empty, null),
    // and the rank sorts by them.
    void tokioDelayColumns_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("out");
        const QString header = QStringLiteral("name,file,line,calls,unfinished,stillborn,primitive,failed,cancelled,exec_ns,"
                                              "total_ns,wall_ns,max_ns,mean_ns,p50_ns,p90_ns,p99_ns,wall_max_ns,wall_p50_ns,"
                                              "wall_p90_ns,wall_p99_ns,busy_share,delays,delay_sum_ns,delay_max_ns,delay_p90_ns\n");
        // main loop never closes: its wall runs to the end (7600 ns).
        const QString mainLoop = QStringLiteral("main loop,src/main.rs,10,0,1,0,0,0,0,1700,2400,6600,1700,1700,1700,1700,"
                                                "1700,6600,6600,6600,6600,0.708333,2,900,500,500\n");
        const QString conn = QStringLiteral("src/conn.rs:20,,,1,0,0,0,0,0,700,700,4100,700,700,700,700,700,4100,4100,4100,"
                                            "4100,0.291667,1,1000,1000,1000\n");
        QTest::newRow("by exec") << QStringList{} << header + mainLoop + conn;
        QTest::newRow("by delay_sum") << QStringList{"--sort", "delay_sum"} << header + conn + mainLoop;
        QTest::newRow("by delays") << QStringList{"--sort", "delays"} << header + mainLoop + conn;
        QTest::newRow("by delay_max") << QStringList{"--sort", "delay_max"} << header + conn + mainLoop;
        // [1000, 6000) ns: only the polls that start in it, main loop's
        // at 3500 (conn's at 6000 is out: no delay, empty cells, last).
        QTest::newRow("a range") << QStringList{"--range", "0ns..5000ns", "--sort", "delay_sum"}
                                 << header
                                        + QStringLiteral("main loop,src/main.rs,10,0,1,0,0,0,0,1500,1700,5000,1500,1500,1500,1500,"
                                                         "1500,5000,5000,5000,5000,0.882353,1,500,500,500\n"
                                                         "src/conn.rs:20,,,1,0,0,0,0,0,200,200,3500,200,200,200,200,200,3500,"
                                                         "3500,3500,3500,0.117647,0,,,\n");
    }
    void tokioDelayColumns()
    {
        QFETCH(QStringList, options);
        QFETCH(QString, out);
        const QString tokio = dataPath(QStringLiteral("profiles/tokio-hand.jsonl"));
        const Run run = cli(QStringList{"rank", tokio, "--format", "csv"} + options);
        QCOMPARE(run.err, QString());
        QCOMPARE(run.code, 0);
        QCOMPARE(run.out, out);
        const Run json = cli(QStringList{"rank", tokio, "--format", "json"} + options);
        QCOMPARE(json.code, 0);
        const QJsonArray rows = QJsonDocument::fromJson(json.out.toUtf8()).array();
        QStringList csvRows = out.split(QLatin1Char('\n'), Qt::SkipEmptyParts).mid(1);
        QCOMPARE(rows.size(), csvRows.size());
        for (int i = 0; i < rows.size(); ++i) {
            const QJsonObject row = rows[i].toObject();
            const QStringList cells = csvRows[i].split(QLatin1Char(','));
            auto cell = [](const QJsonValue& v) { return v.isNull() ? QString() : QString::number(v.toInteger()); };
            QCOMPARE(row[QLatin1String("name")].toString(), cells[0]);
            QCOMPARE(QStringList({cell(row[QLatin1String("delays")]), cell(row[QLatin1String("delay_sum_ns")]),
                                  cell(row[QLatin1String("delay_max_ns")]), cell(row[QLatin1String("delay_p90_ns")])}),
                     cells.mid(22));
        }
    }

    void rankCsv()
    {
        const Run run = cli({"rank", fgh, "--format", "csv"});
        QCOMPARE(run.code, 0);
        QCOMPARE(run.out, QStringLiteral(
                              "name,file,line,calls,unfinished,stillborn,primitive,failed,cancelled,exec_ns,total_ns,"
                              "wall_ns,max_ns,mean_ns,p50_ns,p90_ns,p99_ns,wall_max_ns,wall_p50_ns,wall_p90_ns,wall_p99_ns,"
                              "busy_share\n"
                              "f,app.rs,1,1,0,0,0,0,0,70000,160000,160000,70000,70000,70000,70000,70000,160000,160000,"
                              "160000,160000,0.437500\n"
                              "g,app.rs,2,1,0,0,0,0,0,60000,90000,90000,60000,60000,60000,60000,60000,90000,90000,90000,"
                              "90000,0.375000\n"
                              "h,app.rs,3,1,0,0,0,0,0,30000,30000,30000,30000,30000,30000,30000,30000,30000,30000,30000,"
                              "30000,0.187500\n"));
    }

    // The commands of issue #20: in a range, time with children counts what
    // a creator that finished before it created, recursion once.
    void rankOfARangeOfAsyncCode_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("range");
        QTest::addColumn<QStringList>("expected"); // "name calls exec total wall", by exec
        QTest::newRow("recursion") << "profiles/chronos-range-recursion.json" << "50ns..200ns"
                                   << QStringList{"rec 1 50 50 100"};
        QTest::newRow("creator finished before the range")
            << "profiles/chronos-range-finished-creator.json" << "50ns..300ns" << QStringList{"c 1 100 100 150", "p 0 0 100 0"};
    }

    void rankOfARangeOfAsyncCode()
    {
        QFETCH(QString, file);
        QFETCH(QString, range);
        QFETCH(QStringList, expected);
        const Run run = cli({"rank", dataPath(file), "--range", range, "--format", "json"});
        QCOMPARE(run.code, 0);
        QStringList rows;
        for (const QJsonValue& value : QJsonDocument::fromJson(run.out.toUtf8()).array()) {
            const QJsonObject row = value.toObject();
            rows << QStringLiteral("%1 %2 %3 %4 %5")
                        .arg(row[QLatin1String("name")].toString())
                        .arg(row[QLatin1String("calls")].toInteger())
                        .arg(row[QLatin1String("exec_ns")].toInteger())
                        .arg(row[QLatin1String("total_ns")].toInteger())
                        .arg(row[QLatin1String("wall_ns")].toInteger());
        }
        QCOMPARE(rows, expected);
    }

    // Issue 39, item 17: every column sorts, p50, p90 and p99 included.
    // a: 9 calls of 1 µs and one of 50 µs; b: 5 of 2 µs, 5 of 10 µs; c:
    // one of 5 µs (nearest-rank percentiles).
    void rankSortsByEveryColumn_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("order");
        QTest::newRow("exec") << "exec" << "bac"; // 60, 59, 5 µs
        QTest::newRow("busy") << "busy" << "bac";
        QTest::newRow("mean") << "mean" << "bac"; // 6, 5.9, 5 µs
        QTest::newRow("max") << "max" << "abc"; // 50, 10, 5 µs
        QTest::newRow("p50") << "p50" << "cba"; // 5, 2, 1 µs
        QTest::newRow("p90") << "p90" << "bca"; // 10, 5, 1 µs
        QTest::newRow("p99") << "p99" << "abc"; // 50, 10, 5 µs
        QTest::newRow("wall_p50") << "wall_p50" << "cba";
        QTest::newRow("wall_p90") << "wall_p90" << "bca";
        QTest::newRow("calls") << "calls" << "abc"; // 10, 10, 1: a tie keeps the labels' order
        QTest::newRow("name") << "name" << "abc";
        QTest::newRow("file") << "file" << "cab"; // a.rs:1, z.rs:1, z.rs:2
    }
    void rankSortsByEveryColumn()
    {
        QFETCH(QString, key);
        QFETCH(QString, order);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("percentiles.json"));
        QString events;
        double ts = 0;
        auto call = [&](const char* name, const char* file, int line, double dur) {
            events += QStringLiteral("%1{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"%2\",\"ts\":%3,\"dur\":%4,"
                                     "\"args\":{\"file\":\"%5\",\"line\":%6}}")
                          .arg(events.isEmpty() ? "" : ",", QLatin1String(name))
                          .arg(ts)
                          .arg(dur)
                          .arg(QLatin1String(file))
                          .arg(line);
            ts += dur + 1;
        };
        for (int i = 0; i < 9; ++i)
            call("a", "z.rs", 1, 1);
        call("a", "z.rs", 1, 50);
        for (int i = 0; i < 5; ++i) {
            call("b", "z.rs", 2, 2);
            call("b", "z.rs", 2, 10);
        }
        call("c", "a.rs", 1, 5);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QStringLiteral("[%1]").arg(events).toUtf8());
        file.close();
        const QMap<QChar, QString> rows{
            {'a', "a,z.rs,1,10,0,0,0,0,0,59000,59000,59000,50000,5900,1000,1000,50000,50000,1000,1000,50000,0.475806"},
            {'b', "b,z.rs,2,10,0,0,0,0,0,60000,60000,60000,10000,6000,2000,10000,10000,10000,2000,10000,10000,0.483871"},
            {'c', "c,a.rs,1,1,0,0,0,0,0,5000,5000,5000,5000,5000,5000,5000,5000,5000,5000,5000,5000,0.040323"},
        };
        QStringList expected{QStringLiteral("name,file,line,calls,unfinished,stillborn,primitive,failed,cancelled,exec_ns,"
                                            "total_ns,wall_ns,max_ns,mean_ns,p50_ns,p90_ns,p99_ns,wall_max_ns,wall_p50_ns,"
                                            "wall_p90_ns,wall_p99_ns,busy_share")};
        for (const QChar name : order)
            expected << rows[name];
        const Run run = cli({"rank", path, "--format", "csv", "--sort", key});
        QCOMPARE(run.err, QString());
        QCOMPARE(run.code, 0);
        QCOMPARE(run.out, expected.join(QLatin1Char('\n')) + QLatin1Char('\n'));
    }

    void rankOptions()
    {
        Run run = cli({"rank", fgh, "--format=csv", "--range", "20us..80us", "--sort", "name", "--top", "2"});
        QCOMPARE(run.code, 0);
        QStringList lines = run.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[1].startsWith(QStringLiteral("f,app.rs,1,1,0,0,0,0,0,0,60000,60000,")));
        QVERIFY(lines[2].startsWith(QStringLiteral("g,app.rs,2,1,0,0,0,0,0,30000,60000,60000,")));
        run = cli({"rank", fgh, "--format", "json", "--top", "1"});
        QCOMPARE(run.code, 0);
        for (const char* pair : {"\"name\": \"f\"", "\"exec_ns\": 70000", "\"total_ns\": 160000", "\"wall_ns\": 160000",
                                 "\"calls\": 1", "\"unfinished\": 0", "\"max_ns\": 70000", "\"mean_ns\": 70000",
                                 "\"p50_ns\": 70000", "\"p90_ns\": 70000", "\"p99_ns\": 70000", "\"line\": 1",
                                 "\"file\": \"app.rs\""})
            QVERIFY2(run.out.contains(QLatin1String(pair)), pair);
        QVERIFY(!run.out.contains(QLatin1String("\"name\": \"g\"")));
        run = cli({"rank", fgh});
        QCOMPARE(run.code, 0);
        QVERIFY(run.out.startsWith(QStringLiteral("   exec   busy    total     wall  calls")));
        QVERIFY(run.out.contains(QString::fromUtf8("70.0 µs  43.8%   160 µs   160 µs      1")));
    }

    void chronosRank()
    {
        const Run run = cli({"rank", dataPath(QStringLiteral("profiles/chronos-states.json")), "--format", "json"});
        QCOMPARE(run.code, 0);
        const QString out = run.out.simplified();
        QVERIFY2(out.contains(QStringLiteral("\"calls\": 1, \"cancelled\": 1,")), qPrintable(out));
        QVERIFY(out.contains(QStringLiteral("\"exec_ns\": 54500,")));
        QCOMPARE(out.count(QStringLiteral("\"stillborn\": 1,")), 2);
        QCOMPARE(out.count(QStringLiteral("\"primitive\": 1,")), 1);
        QCOMPARE(out.count(QStringLiteral("\"failed\": 1,")), 2);
        const Run table = cli({"rank", dataPath(QStringLiteral("profiles/chronos-states.json"))});
        QVERIFY(table.out.startsWith(QStringLiteral(
            "   exec   busy    total     wall  calls  stillb  prim  failed  canc      max     mean      p50      p90      p99  name\n")));
        QVERIFY(table.out.contains(QString::fromUtf8(
            "54.5 µs  90.8%  60.0 µs  60.0 µs      1       0     0       0     0  54.5 µs  54.5 µs  54.5 µs  54.5 µs  54.5 µs  main (states.nim:1)\n")));
    }
};

QTEST_GUILESS_MAIN(TestRankCommand)
#include "tst_rankcommand.moc"
