// runlane-cli processes: Enso's latency by process through the real binary
// (RUNLANE_CLI), on hand-written and generated IDE + Language Server
// profiles.

#include "app/cli/clirun.h"
#include "ensogenerator.h"
#include "testsupport.h"

#include <QTemporaryDir>
#include <QtTest>

using runlane::test::cli;
using runlane::test::Run;
using runlane::test::writeTemp;

namespace {

// formats.md (n)'s rules by hand (µs): the region is 20-220; main work
// 10 + 40 + 10 µs; compile ends at 70, the nested backend call at 95.
const QByteArray enso = JSON([{"L":{"l":"@highlight"}},{"L":{"l":"work (w.rs:1)"}},
    {"L":{"l":"compile_new_shaders (s.rs:1)"}},{"L":{"l":"backend_execution"}},
    {"C":{"p":-1,"t":0,"l":1}},{"S":{"i":0,"t":0}},{"C":{"p":-1,"t":20,"l":0}},{"E":{"i":0,"t":30}},
    {"C":{"p":1,"t":40,"l":2}},{"S":{"i":2,"t":40}},{"E":{"i":2,"t":70}},
    {"C":{"p":1,"t":80,"l":1}},{"S":{"i":3,"t":80}},{"C":{"t":90,"l":3}},{"S":{"i":4,"t":90}},{"E":{"i":4,"t":95}},
    {"E":{"i":3,"t":120}},
    {"S":{"i":1,"t":210}},{"E":{"i":1,"t":220}}]);

// µs as the command writes ms: every digit, no trailing zeros.
QString ms(std::uint64_t us)
{
    QString text = QString::number(us / 1000);
    QString fraction = QStringLiteral("%1").arg(us % 1000, 3, 10, QLatin1Char('0'));
    while (fraction.endsWith(QLatin1Char('0')))
        fraction.chop(1);
    return fraction.isEmpty() ? text : text + QLatin1Char('.') + fraction;
}

} // namespace

class TestProcessesCommand : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void handWritten_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("out");
        QTest::newRow("csv") << QStringList{"compile_new_shaders,backend_execution,absent"}
                             << "profile,main,compile_new_shaders,backend_execution,absent\n"
                                "region,0.06,0.05,0.075,0\n";
        QTest::newRow("no labels") << QStringList{""} << "profile,main\nregion,0.09\n";
        QTest::newRow("work as a foreign process") << QStringList{"work"} << "profile,main,work\nregion,0.04,0.1\n";
        QTest::newRow("a quote in a label") << QStringList{"a\"b"} << "profile,main,\"a\"\"b\"\nregion,0.09,0\n";
        QTest::newRow("json") << QStringList{"compile_new_shaders,backend_execution", "--format", "json"}
                              << "{\"labels\":[\"compile_new_shaders\",\"backend_execution\"],\"profiles\":[\n"
                                 "{\"profile\":\"region\",\"file\":\"FILE\",\"region_ms\":0.2,\"main_ms\":0.06,"
                                 "\"latency_ms\":{\"compile_new_shaders\":0.05,\"backend_execution\":0.075}}\n]}\n";
    }

    void handWritten()
    {
        QFETCH(QStringList, options);
        QFETCH(QString, out);
        QTemporaryDir dir;
        const QString path = writeTemp(dir, enso, QStringLiteral("region.json"));
        QStringList args{QStringLiteral("processes"), options.takeFirst(), path};
        const Run run = cli(args + options);
        QCOMPARE(run.err, QString());
        QCOMPARE(run.code, 0);
        QCOMPARE(run.out, QString(out).replace(QStringLiteral("FILE"), path));
    }

    // Two generated IDE + Language Server profiles, one row each, against
    // what the generator wrote.
    void generated()
    {
        QTemporaryDir dir;
        QStringList args{QStringLiteral("processes"), QStringLiteral("compile_new_shaders,backend_execution")};
        QString expected = QStringLiteral("profile,main,compile_new_shaders,backend_execution\n");
        for (const std::uint64_t seed : {11, 12}) {
            runlane::test::EnsoGenOptions options;
            options.seed = seed;
            options.tasks = 150;
            runlane::test::EnsoGenTruth truth;
            const std::string text = runlane::test::EnsoGenerator::profile(options, &truth);
            const QString name = QStringLiteral("ide-%1.json").arg(seed);
            args << writeTemp(dir, QByteArray::fromStdString(text), name);
            expected += QStringLiteral("ide-%1,%2,%3,%4\n")
                            .arg(seed)
                            .arg(ms(truth.main), ms(truth.latencies[0]), ms(truth.latencies[1]));
        }
        const Run run = cli(args);
        QCOMPARE(run.err, QString());
        QCOMPARE(run.code, 0);
        QCOMPARE(run.out, expected);
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("err");
        const QString exactlyOne = QStringLiteral("; processes needs exactly one (the region of interest)\n");
        QTest::newRow("no highlight") << JSON([{"L":{"l":"a"}},{"C":{"t":0,"l":0}},{"S":{"i":0,"t":0}},{"E":{"i":0,"t":5}}])
                                      << QStringList{"a", "FILE"} << 3
                                      << "runlane-cli: FILE: no measurement is labelled @highlight" + exactlyOne;
        QTest::newRow("two highlights")
            << JSON([{"L":{"l":"@highlight"}},{"C":{"t":0,"l":0}},{"S":{"i":0,"t":0}},{"E":{"i":0,"t":5}},
                     {"C":{"t":6,"l":0}},{"S":{"i":1,"t":6}},{"E":{"i":1,"t":9}}])
            << QStringList{"a", "FILE"} << 3 << "runlane-cli: FILE: 2 measurements are labelled @highlight" + exactlyOne;
        QTest::newRow("the second file has none") << enso << QStringList{"a", "FILE", "NOHIGHLIGHT"} << 3
                                                  << "runlane-cli: NOHIGHLIGHT: no measurement is labelled @highlight" + exactlyOne;
        QTest::newRow("empty label") << enso << QStringList{"a,,b", "FILE"} << 2
                                     << "runlane-cli: LABELS 'a,,b' has an empty label name (see --help)\n";
        QTest::newRow("label twice") << enso << QStringList{"a,b,a", "FILE"} << 2
                                     << "runlane-cli: LABELS 'a,b,a' names 'a' twice (see --help)\n";
        QTest::newRow("no profile") << enso << QStringList{"a"} << 2 << "runlane-cli: missing arguments (see --help)\n";
        QTest::newRow("unknown format") << enso << QStringList{"a", "FILE", "--format", "svg"} << 2
                                        << "runlane-cli: unknown --format 'svg' (csv, json) (see --help)\n";
    }

    void errors()
    {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, err);
        QTemporaryDir dir;
        const QString path = writeTemp(dir, json, QStringLiteral("profile.json"));
        const QString none = writeTemp(dir, JSON([{"L":{"l":"a"}},{"C":{"t":0,"l":0}}]), QStringLiteral("none.json"));
        args.replaceInStrings(QStringLiteral("NOHIGHLIGHT"), none);
        args.replaceInStrings(QStringLiteral("FILE"), path);
        const Run run = cli(QStringList{QStringLiteral("processes")} + args);
        QCOMPARE(run.out, QString());
        QCOMPARE(run.err, QString(err).replace(QStringLiteral("NOHIGHLIGHT"), none).replace(QStringLiteral("FILE"), path));
        QCOMPARE(run.code, code);
    }
};

QTEST_GUILESS_MAIN(TestProcessesCommand)
#include "tst_processescommand.moc"
