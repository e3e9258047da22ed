#include "app/cli/clirun.h"
#include "core/compare/criticalpathworkload.h"
#include "core/compare/runsgenerator.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

using runlane::test::cli;
using runlane::test::dataPath;
using runlane::test::Run;

namespace {

const QString fgh = dataPath(QStringLiteral("profiles/fgh-chrome.json"));

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void help_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("start");
        QTest::newRow("--help") << QStringList{"--help"} << "Usage: runlane-cli COMMAND";
        QTest::newRow("help") << QStringList{"help"} << "Usage: runlane-cli COMMAND";
        QTest::newRow("formats --help") << QStringList{"formats", "--help"} << "Usage: runlane-cli formats";
        QTest::newRow("compare --help") << QStringList{"compare", "--help"} << "Usage: runlane-cli compare --base";
        QTest::newRow("report --help") << QStringList{"report", "--help"} << "Usage: runlane-cli report PROFILE...";
        QTest::newRow("record --help") << QStringList{"record", "--help"} << "Usage: runlane-cli record URL -o FILE";
        QTest::newRow("messages --help") << QStringList{"messages", "--help"} << "Usage: runlane-cli messages FILE";
        for (const char* command : {"summary", "rank", "tree", "usage", "critical-path", "convert", "render"}) {
            QTest::addRow("%s --help", command) << QStringList{command, "--help"}
                                                << QStringLiteral("Usage: runlane-cli %1 FILE").arg(command);
            QTest::addRow("%s -h", command) << QStringList{command, "-h"}
                                            << QStringLiteral("Usage: runlane-cli %1 FILE").arg(command);
        }
    }

    void help()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, start);
        const Run run = cli(args);
        QCOMPARE(run.code, 0);
        QVERIFY2(run.out.startsWith(start), qPrintable(run.out));
        QCOMPARE(run.err, QString());
    }

    // Bad arguments: exit code 2 and one line that says what is wrong.
    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown command") << QStringList{"frobnicate", fgh} << "unknown command 'frobnicate'";
        QTest::newRow("unknown flag") << QStringList{"summary", "--fast", fgh} << "unknown option --fast";
        QTest::newRow("missing file") << QStringList{"rank"} << "missing the profile file";
        QTest::newRow("two files") << QStringList{"tree", fgh, fgh} << QStringLiteral("unexpected argument '%1'").arg(fgh);
        QTest::newRow("missing value") << QStringList{"rank", fgh, "--sort"} << "option --sort needs a value";
        QTest::newRow("bad sort") << QStringList{"rank", fgh, "--sort", "speed"}
                                  << "unknown --sort key 'speed' (exec, busy, total, wall, calls, unfinished, stillborn, "
                                     "primitive, failed, cancelled, zombie, max, mean, p50, p90, p99, wall_max, wall_p50, "
                                     "wall_p90, wall_p99, delays, delay_sum, delay_max, delay_p90, name, file)";
        // A variant is a usage error, whatever reads the file (pprof and
        // perf in tst_clisamples): one named for a file without variants,
        // an empty name (refused before the file is read).
        for (const char* command : {"summary", "rank", "tree"}) {
            QTest::addRow("%s: variant of a trace", command)
                << QStringList{command, fgh, "--variant", "cycles"}
                << QStringLiteral("--variant 'cycles': %1 has no variants (pprof sample types and perf events are)").arg(fgh);
            QTest::addRow("%s: empty variant", command)
                << QStringList{command, fgh, "--variant="}
                << "--variant needs a name ('runlane-cli summary FILE' lists a file's variants)";
        }
        QTest::newRow("bad format") << QStringList{"rank", fgh, "--format", "xml"} << "unknown --format 'xml' (table, csv, json)";
        QTest::newRow("messages bad format") << QStringList{"messages", fgh, "--format", "png"}
                                             << "unknown --format 'png' (table, csv, json, svg)";
        QTest::newRow("top 0") << QStringList{"rank", fgh, "--top", "0"} << "--top takes a whole number of rows, at least 1";
        QTest::newRow("range without dots") << QStringList{"rank", fgh, "--range", "5ms"} << "--range takes A..B, e.g. 10ms..20ms";
        QTest::newRow("range end before start")
            << QStringList{"rank", fgh, "--range", "50us..10us"} << "bad --range '50us..10us': the end is before the start";
        QTest::newRow("range without unit") << QStringList{"rank", fgh, "--range", "10..20"}
                                            << "bad --range '10..20': times need a unit (ns, us, ms, s), e.g. 10ms..20ms";
        QTest::newRow("bin 0") << QStringList{"usage", fgh, "--bin", "0"}
                               << "bad --bin '0': give a positive duration with a unit, e.g. 5ms";
        QTest::newRow("bin without unit") << QStringList{"usage", fgh, "--bin", "10"}
                                          << "bad --bin '10': give a positive duration with a unit, e.g. 5ms";
        QTest::newRow("negative bin") << QStringList{"usage", fgh, "--bin=-5ms"}
                                      << "bad --bin '-5ms': give a positive duration with a unit, e.g. 5ms";
        QTest::newRow("usage top 0") << QStringList{"usage", fgh, "--top", "0"} << "--top takes a whole number of labels, at least 1";
        QTest::newRow("unknown track") << QStringList{"usage", fgh, "--track", "gpu"}
                                       << "no track is named 'gpu' (see 'runlane-cli summary')";
        QTest::newRow("convert without --to") << QStringList{"convert", fgh, "-o", "x.json"} << "convert needs --to chrome or --to perfetto";
        QTest::newRow("convert to svg") << QStringList{"convert", fgh, "--to", "svg", "-o", "x.json"}
                                        << "unknown --to format 'svg' (chrome, perfetto)";
        QTest::newRow("convert without -o") << QStringList{"convert", fgh, "--to", "chrome"} << "convert needs -o OUT";
        QTest::newRow("max-depth words") << QStringList{"tree", fgh, "--max-depth", "deep"}
                                         << "--max-depth takes a whole number";
        QTest::newRow("flag with value") << QStringList{"summary", "--help=yes", fgh} << "option --help takes no value";
        QTest::newRow("critical-path --base with --slowest")
            << QStringList{"critical-path", fgh, "--label", "a", "--slowest", "2", "--base", fgh}
            << "--base compares the tasks of one --label over whole runs: no --slowest, --each or --range";
        QTest::newRow("critical-path --threshold without --base")
            << QStringList{"critical-path", fgh, "--label", "a", "--threshold", "5%"}
            << "--threshold compares runs: give --base BASE too";
        QTest::newRow("critical-path --per call")
            << QStringList{"critical-path", fgh, "--label", "a", "--base", fgh, "--per", "call"}
            << "unknown --per 'call' (run, task)";
        // Every subcommand: an unknown option, a value given twice.
        for (const char* command : {"summary", "rank", "tree", "usage", "critical-path", "convert", "render"}) {
            QTest::addRow("%s: unknown option", command) << QStringList{command, fgh, "--colour"} << "unknown option --colour";
            QTest::addRow("%s: single dash", command) << QStringList{command, "-x", fgh} << "unknown option -x";
        }
        QTest::newRow("option twice") << QStringList{"rank", fgh, "--top", "1", "--top=2"} << "option --top is given twice";
        // Durations and ranges: malformed, negative, overflowing, reversed,
        // past the end (the f/g/h profile lasts 160 µs).
        const QString huge = QStringLiteral("99999999999999999999s");
        const char* tooLong = "longer than any profile can be (about 292 years at most)";
        for (const char* command : {"rank", "usage"}) {
            QTest::addRow("%s: range end before start", command)
                << QStringList{command, fgh, "--range", "50us..10us"} << "bad --range '50us..10us': the end is before the start";
            QTest::addRow("%s: negative range", command) << QStringList{command, fgh, "--range=-5us..10us"}
                                                         << "bad --range '-5us..10us': times count from the profile start and cannot be negative";
            QTest::addRow("%s: overflowing range", command)
                << QStringList{command, fgh, "--range", huge + ".."}
                << QStringLiteral("bad --range '%1..': %2").arg(huge, QString::fromUtf8(tooLong));
            QTest::addRow("%s: range after the end", command)
                << QStringList{command, fgh, "--range", "1s.."} << "bad --range '1s..': it starts after the profile ends (at 160 µs)";
            QTest::addRow("%s: range of words", command)
                << QStringList{command, fgh, "--range", "soon..later"}
                << "bad --range 'soon..later': times need a unit (ns, us, ms, s), e.g. 10ms..20ms";
        }
        QTest::newRow("overflowing bin") << QStringList{"usage", fgh, "--bin", huge}
                                         << QStringLiteral("bad --bin '%1': %2").arg(huge, QString::fromUtf8(tooLong));
        QTest::newRow("bin of an exponent") << QStringList{"usage", fgh, "--bin", "1e400ms"}
                                            << QStringLiteral("bad --bin '1e400ms': %1").arg(QString::fromUtf8(tooLong));
        QTest::newRow("bin below a nanosecond") << QStringList{"usage", fgh, "--bin", "0.1ns"}
                                                << "bad --bin '0.1ns': give a positive duration with a unit, e.g. 5ms";
        QTest::newRow("top negative") << QStringList{"rank", fgh, "--top", "-1"} << "--top takes a whole number of rows, at least 1";
        QTest::newRow("top fraction") << QStringList{"rank", fgh, "--top", "1.5"} << "--top takes a whole number of rows, at least 1";
        QTest::newRow("top empty") << QStringList{"rank", fgh, "--top="} << "--top takes a whole number of rows, at least 1";
        QTest::newRow("top beyond reason") << QStringList{"usage", fgh, "--top", "99999999999"}
                                           << "--top takes a whole number of labels, at least 1";
        QTest::newRow("max-depth negative") << QStringList{"tree", fgh, "--max-depth", "-1"}
                                            << "--max-depth takes a whole number";
        QTest::newRow("convert -o without value") << QStringList{"convert", fgh, "--to", "chrome", "-o"}
                                                  << "option -o needs a value";
        const QString formats = QStringLiteral("chrome, enso, ensomessages, chronos, chroprof, speedscope, cpuprofile, gecko, pprof, perfetto, folded, perf, tokio, prometheus");
        for (const char* command : {"summary", "rank", "tree", "usage", "critical-path", "convert", "render"}) {
            QTest::addRow("%s: unknown input format", command)
                << QStringList{command, fgh, "--input-format", "json"}
                << QStringLiteral("unknown --input-format 'json' (%1)").arg(formats);
        }
        QTest::newRow("add-thread without add") << QStringList{"summary", fgh, "--add-thread", "1:1"}
                                                << "--add-thread says where --add PROFILE goes; no --add is given";
        QTest::newRow("bad add-thread") << QStringList{"rank", fgh, "--add", fgh, "--add-thread", "main"}
                                        << "bad --add-thread 'main': give PID:TID, e.g. 19372:19372";
        QTest::newRow("formats takes no file") << QStringList{"formats", fgh} << "unexpected argument '" + fgh + "'";
    }

    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run run = cli(args);
        QCOMPARE(run.code, 2);
        QCOMPARE(run.err, QStringLiteral("runlane-cli: %1 (see --help)\n").arg(message));
        QCOMPARE(run.out, QString());
    }

    // Issue 39, item 17: the version is the project's (CMake's
    // PROJECT_VERSION), from --version and at the end of the help.
    void version()
    {
        const QString line = QStringLiteral("runlane-cli %1\n").arg(QStringLiteral(RUNLANE_VERSION));
        const Run run = cli({"--version"});
        QCOMPARE(run.code, 0);
        QCOMPARE(run.out, line);
        QCOMPARE(run.err, QString());
        for (const char* help : {"--help", "help"}) {
            const Run shown = cli({help});
            QCOMPARE(shown.code, 0);
            QVERIFY2(shown.out.endsWith(QStringLiteral("(compare and history check --fail-on-regression).\n\n") + line),
                     qPrintable(shown.out));
            QVERIFY(shown.out.startsWith(QStringLiteral("Usage: runlane-cli COMMAND [OPTIONS] FILE\n"
                                                        "       runlane-cli --version\n")));
        }
    }

    void noArguments()
    {
        const Run run = cli({});
        QCOMPARE(run.code, 2);
        QVERIFY(run.err.startsWith(QStringLiteral("Usage: runlane-cli COMMAND")));
    }

    void inputErrors()
    {
        const QString missing = dataPath(QStringLiteral("no-such-profile.json"));
        Run run = cli({"summary", missing});
        QCOMPARE(run.code, 3);
        QCOMPARE(run.err, QStringLiteral("runlane-cli: %1: no such file\n").arg(missing));
        run = cli({"rank", dataPath(QStringLiteral("profiles/README.md"))});
        QCOMPARE(run.code, 3);
        QCOMPARE(run.err, QStringLiteral("runlane-cli: %1: not a profile: expected JSON ('[' or '{') or Enso Language Server message log or folded stacks or perf script, found '#' at byte 0\n")
                              .arg(dataPath(QStringLiteral("profiles/README.md"))));
    }

    // The registry's table, as users see it.
    void formats()
    {
        const Run run = cli({"formats"});
        QCOMPARE(run.code, 0);
        QCOMPARE(run.err, QString());
        QCOMPARE(run.out, QStringLiteral(
            "id            name                               files                             memory\n"
            "chrome        Chrome Trace Event Format          *.json                            1.5 x file\n"
            "enso          Enso profiler event log            *.json                            1.5 x file\n"
            "ensomessages  Enso Language Server message log   *.csv                             2 x file\n"
            "chronos       Chronos future event log           *.json                            1.5 x file\n"
            "chroprof      Chroprof metrics                   *.json                            1.5 x file\n"
            "speedscope    speedscope                         *.json                            3 x file\n"
            "cpuprofile    V8 CPU profile                     *.cpuprofile *.json               8 x file\n"
            "gecko         Firefox Profiler                   *.json                            12 x file\n"
            "pprof         pprof                              *.pb.gz *.pb *.pprof *.prof       16 x file\n"
            "perfetto      Perfetto trace                     *.pftrace *.perfetto-trace *.pb   16 x file\n"
            "folded        folded stacks                      *.txt *.folded *.collapsed        16 x file\n"
            "perf          perf script                        *.perf *.txt                      3 x file\n"
            "tokio         tokio-console recording            *.json *.jsonl                    1 x file\n"
            "prometheus    Prometheus query_range (Chroprof)  *.json                            3 x file\n"));
    }
    // --input-format reads the file as that format whatever it holds: the
    // same profile as detection gives for its own format, that reader's
    // error for another one.
    void inputFormat()
    {
        const QString chronos = dataPath(QStringLiteral("profiles/chronos-states.json"));
        const Run detected = cli({"rank", chronos, "--format", "csv"});
        const Run forced = cli({"rank", chronos, "--format", "csv", "--input-format", "chronos"});
        QCOMPARE(forced.code, 0);
        QCOMPARE(forced.out, detected.out);
        const Run wrong = cli({"summary", fgh, "--input-format", "chronos"});
        QCOMPARE(wrong.code, 3);
        QCOMPARE(wrong.err, QStringLiteral("runlane-cli: %1: line 1, column 1 (byte 0): expected '{' starting a Chronos "
                                           "future event log, found '['\n").arg(fgh));
        const Run render = cli({"render", fgh, "--input-format", "chronos", "-o", QDir::temp().filePath(QStringLiteral("never.png"))});
        QCOMPARE(render.code, 3);
        QCOMPARE(render.err, wrong.err);
    }

    // Two sets of 5 generated runs, f7 planted 25 % slower in the new one:
    // the table, JSON, Markdown and the CI gate's exit code.
    void compare()
    {
        QTemporaryDir dir;
        QStringList base;
        QStringList next;
        for (int r = 0; r < 10; ++r) {
            runlane::test::RunsGenerator generator(std::uint64_t(100 + r));
            if (r >= 5)
                generator.factors = {{"f7", 1.25}};
            const QString path = dir.filePath(QStringLiteral("run%1.json").arg(r));
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(generator.chronosLog());
            (r < 5 ? base : next) << path;
        }
        const QStringList sets = QStringList{"compare", "--base"} + base + QStringList{"--new"} + next;
        Run run = cli(sets);
        QCOMPARE(run.code, 0);
        QVERIFY2(run.out.startsWith(QStringLiteral("compare: 5 base run(s), 5 new run(s); exec per run (totals); "
                                                   "Mann-Whitney U over the runs; threshold 5 %, alpha 0.05, floor ")),
                 qPrintable(run.out));
        QVERIFY2(run.out.contains(QStringLiteral("\nregressed    f7 (work.nim:17)")), qPrintable(run.out));
        QVERIFY(run.out.contains(QStringLiteral("\n1 regressed, 0 improved, ")));
        QVERIFY(run.out.contains(QStringLiteral("warning: fewer than 9 runs on a side: small changes may go unseen\n")));

        run = cli(sets + QStringList{"--fail-on-regression"});
        QCOMPARE(run.code, 4);
        run = cli(QStringList{"compare", "--base"} + base + QStringList{"--new"} + base + QStringList{"--fail-on-regression"});
        QCOMPARE(run.code, 0);

        run = cli(sets + QStringList{"--format", "json", "--metric", "exec,wall"});
        QCOMPARE(run.code, 0);
        const QJsonObject json = QJsonDocument::fromJson(run.out.toUtf8()).object();
        QCOMPARE(json[QStringLiteral("base_runs")].toInt(), 5);
        QCOMPARE(json[QStringLiteral("new_runs")].toInt(), 5);
        QCOMPARE(json[QStringLiteral("test")].toString(), QStringLiteral("mann-whitney-runs"));
        QCOMPARE(json[QStringLiteral("metric")].toArray().size(), 2);
        const QJsonObject f7 = json[QStringLiteral("labels")].toArray().first().toObject();
        QCOMPARE(f7[QStringLiteral("name")].toString(), QStringLiteral("f7"));
        QCOMPARE(f7[QStringLiteral("verdict")].toString(), QStringLiteral("regressed"));
        const QJsonObject exec = f7[QStringLiteral("metrics")].toObject()[QStringLiteral("exec")].toObject();
        for (const char* field : {"base_median_ns", "new_median_ns", "delta_ns", "delta_pct", "p_value", "ci_low_ns",
                                  "ci_high_ns", "base_runs", "new_runs"})
            QVERIFY2(exec.contains(QLatin1String(field)), field);
        QCOMPARE(exec[QStringLiteral("p_value")].toDouble(), 2.0 / 252);
        QVERIFY(exec[QStringLiteral("delta_pct")].toDouble() > 15);

        run = cli(sets + QStringList{"--format", "markdown"});
        QVERIFY2(run.out.startsWith(QString::fromUtf8("### Runlane: ❌ 1 regression\n")), qPrintable(run.out));
        QVERIFY(run.out.contains(QStringLiteral("**Regressions**")));

        // A baseline report stands for the base runs.
        const QString report = dir.filePath(QStringLiteral("baseline.json"));
        run = cli(QStringList{"report"} + base + QStringList{"-o", report});
        QCOMPARE(run.code, 0);
        const Run fromReport = cli(QStringList{"compare", "--baseline", report, "--new"} + next + QStringList{"--format", "json"});
        const Run fromProfiles = cli(sets + QStringList{"--format", "json"});
        QCOMPARE(fromReport.code, 0);
        QCOMPARE(fromReport.out, fromProfiles.out);

        run = cli({"compare", "--new", next.first()});
        QCOMPARE(run.code, 2);
        QCOMPARE(run.err, QStringLiteral("runlane-cli: compare needs --base FILE... (or --baseline REPORT) (see --help)\n"));
        run = cli({"compare", "--base", base.first(), "--new", next.first(), "--metric", "speed"});
        QCOMPARE(run.code, 2);
        run = cli({"compare", "--base", dir.filePath(QStringLiteral("none.json")), "--new", next.first()});
        QCOMPARE(run.code, 3);

        // A base through a pipe (bash's process substitution) compares as
        // the file does: checking whether it is a report must not take its
        // first bytes ("the file is empty" before).
        QProcess shell;
        shell.start(QStringLiteral("bash"),
                    {QStringLiteral("-c"), QStringLiteral("\"$0\" compare --base <(cat \"$1\") --new \"$2\" --format json"),
                     QStringLiteral(RUNLANE_CLI), base.first(), next.first()});
        QVERIFY(shell.waitForFinished(60000));
        QCOMPARE(shell.exitCode(), 0);
        const QJsonObject piped = QJsonDocument::fromJson(shell.readAllStandardOutput()).object();
        const QJsonObject direct =
            QJsonDocument::fromJson(cli({"compare", "--base", base.first(), "--new", next.first(), "--format", "json"}).out.toUtf8())
                .object();
        QCOMPARE(piped[QStringLiteral("labels")], direct[QStringLiteral("labels")]);
        QCOMPARE(piped[QStringLiteral("labels")].toArray().size(), 20);
    }

    void summary()
    {
        const Run run = cli({"summary", dataPath(QStringLiteral("profiles/enso-async.json"))});
        QCOMPARE(run.code, 0);
        const QStringList lines = run.out.split(QLatin1Char('\n'));
        QCOMPARE(lines[1], QStringLiteral("format:        Enso profiler event log"));
        QCOMPARE(lines[2], QString::fromUtf8("time span:     130 µs (130000 ns)"));
        QCOMPARE(lines[3], QStringLiteral("tracks:        2"));
        QCOMPARE(lines[4], QStringLiteral("measurements:  7 (4 async tasks, 1 unfinished)"));
        QCOMPARE(lines[5], QStringLiteral("intervals:     8 (max depth 3)"));
        QVERIFY(run.out.contains(QString::fromUtf8("  Ide  [thread]  6 intervals, depth 3, busy 120 µs\n")));
        QVERIFY(run.out.contains(QString::fromUtf8("  LanguageServer  [thread]  2 intervals, depth 1, busy 60.0 µs\n")));
    }

    // Flows between slices are counted, with the flow events that connect
    // nothing; flow phases are no longer skipped.
    void summaryCountsFlows_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("line");
        const QString c = QStringLiteral("samples/chrome-trace/");
        QTest::newRow("flow_simple") << c + "catapult/flow_simple.json" << "flows:         3 (0 ends unbound)";
        QTest::newRow("chrome116") << c + "devtools/chrome116-Trace-20230603T221323.json"
                                   << "flows:         13 (0 ends unbound)";
        QTest::newRow("multiple_input_latency")
            << c + "catapult/multiple_input_latency.json" << "flows:         906 (2154 ends unbound)";
        QTest::newRow("no flows") << QStringLiteral("profiles/enso-async.json") << "flows:         0 (0 ends unbound)";
    }
    void summaryCountsFlows()
    {
        QFETCH(QString, file);
        QFETCH(QString, line);
        const Run run = cli({"summary", dataPath(file)});
        QCOMPARE(run.code, 0);
        const QStringList lines = run.out.split(QLatin1Char('\n'));
        QVERIFY2(lines.contains(line), qPrintable(run.out));
        for (const char* phase : {"phase 's'", "phase 't'", "phase 'f'"})
            QVERIFY2(!run.out.contains(QLatin1String(phase)), qPrintable(run.out));
    }

    void tree()
    {
        const Run run = cli({"tree", fgh});
        QCOMPARE(run.code, 0);
        QCOMPARE(run.out, QString::fromUtf8("== pid 1 / tid 1\n"
                                            "f (app.rs:1)  created 0 ns  active [0 ns, 160 µs)  completed\n"
                                            "  g (app.rs:2)  created 10.0 µs  active [10.0 µs, 100 µs)  completed\n"
                                            "    h (app.rs:3)  created 30.0 µs  active [30.0 µs, 60.0 µs)  completed\n"));
        const Run shallow = cli({"tree", fgh, "--max-depth", "1"});
        QCOMPARE(shallow.out.count(QLatin1Char('\n')), 3);
    }

    void usage()
    {
        const Run run = cli({"usage", fgh, "--bin", "80us", "--top", "2"});
        QCOMPARE(run.code, 0);
        QCOMPARE(run.out, QStringLiteral("track,bin_start_ns,bin_end_ns,series,share\n"
                                         "\"pid 1 / tid 1\",0,80000,\"f (app.rs:1)\",0.125000\n"
                                         "\"pid 1 / tid 1\",0,80000,\"g (app.rs:2)\",0.500000\n"
                                         "\"pid 1 / tid 1\",0,80000,\"(other)\",0.375000\n"
                                         "\"pid 1 / tid 1\",80000,160000,\"f (app.rs:1)\",0.750000\n"
                                         "\"pid 1 / tid 1\",80000,160000,\"g (app.rs:2)\",0.250000\n"
                                         "\"pid 1 / tid 1\",80000,160000,\"(other)\",0.000000\n"));
        const Run json = cli({"usage", dataPath(QStringLiteral("profiles/enso-async.json")), "--track", "Language",
                              "--format", "json", "--bin", "45us"});
        QCOMPARE(json.code, 0);
        QVERIFY2(json.out.contains(QStringLiteral("\"track\": \"LanguageServer\"")), qPrintable(json.out));
        QVERIFY(json.out.contains(QStringLiteral("\"bin_ns\": 45000")));
        QVERIFY(!json.out.contains(QStringLiteral("\"track\": \"Ide\"")));
    }

    // semantics.md §9's worked example through the command: the table, the
    // JSON of each task to the nanosecond, and a mistyped label.
    void criticalPath()
    {
        const QString example = dataPath(QStringLiteral("profiles/chronos-critical-path.json"));
        const Run table = cli({"critical-path", example, "--label", "handler"});
        QCOMPARE(table.code, 0);
        QCOMPARE(table.out, QString::fromUtf8("Critical path of 1 task of handler: 52 ns of wall time\n"
                                              "   53.8 %       28 ns  queued behind other (app.nim:40)\n"
                                              "   17.3 %        9 ns  running handler (app.nim:10)\n"
                                              "   17.3 %        9 ns  running query (app.nim:20)\n"
                                              "    7.7 %        4 ns  queued behind flush (app.nim:50)\n"
                                              "    1.9 %        1 ns  idle\n"
                                              "    1.9 %        1 ns  waiting for sleepAsync (app.nim:30)\n"));
        const Run json = cli({"critical-path", example, "--slowest", "2", "--each", "--format", "json"});
        QCOMPARE(json.code, 0);
        const QJsonObject doc = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QVERIFY(doc.value(QStringLiteral("label")).isNull());
        QCOMPARE(doc.value(QStringLiteral("tasks_count")).toInt(), 2);
        QCOMPARE(doc.value(QStringLiteral("wall_ns")).toInt(), 52 + 41);
        QCOMPARE(doc.value(QStringLiteral("wake_source")).toString(), QStringLiteral("children"));
        const QJsonArray tasks = doc.value(QStringLiteral("tasks")).toArray();
        QCOMPARE(tasks.size(), 2);
        // handler (created 0), then query (created 5): creation order.
        QStringList segments;
        for (const QJsonValue task : tasks) {
            const QJsonObject t = task.toObject();
            segments << QStringLiteral("task %1-%2").arg(t.value(QStringLiteral("created_ns")).toInt())
                            .arg(t.value(QStringLiteral("finished_ns")).toInt());
            for (const QJsonValue v : t.value(QStringLiteral("segments")).toArray()) {
                const QJsonObject s = v.toObject();
                segments << QStringLiteral("%1-%2 %3 %4 %5")
                                .arg(s.value(QStringLiteral("start_ns")).toInt())
                                .arg(s.value(QStringLiteral("end_ns")).toInt())
                                .arg(s.value(QStringLiteral("kind")).toString(),
                                     s.value(QStringLiteral("name")).isNull() ? QStringLiteral("null")
                                                                              : s.value(QStringLiteral("name")).toString(),
                                     s.value(QStringLiteral("track")).toString());
            }
        }
        const QStringList expected = {
            "task 0-52", "0-5 running handler main", "5-8 running query main", "8-10 running handler main",
            "10-11 waiting sleepAsync main", "11-12 idle null main", "12-40 queued other main",
            "40-46 running query main", "46-50 queued flush main", "50-52 running handler main",
            "task 5-46", "5-8 running query main", "8-11 waiting sleepAsync main", "11-12 idle null main",
            "12-40 queued other main", "40-46 running query main",
        };
        QCOMPARE(segments, expected);
        const Run csv = cli({"critical-path", example, "--label", "query", "--format", "csv"});
        QCOMPARE(csv.out, QStringLiteral("kind,name,file,line,ns\n"
                                         "queued,other,app.nim,40,28\n"
                                         "running,query,app.nim,20,9\n"
                                         "waiting,sleepAsync,app.nim,30,3\n"
                                         "idle,,,,1\n"));
        const Run unknown = cli({"critical-path", example, "--label", "handlr"});
        QCOMPARE(unknown.code, 2);
        QCOMPARE(unknown.err, QStringLiteral("runlane-cli: no label is named 'handlr'; the closest: 'handler' (see --help)\n"));
        const Run neither = cli({"critical-path", example});
        QCOMPARE(neither.code, 2);
    }

    // critical-path --base: 20 requests whose waker (query) runs 30 %
    // longer in the new run (criticalpathworkload.h): its row's Δ is the
    // planted Σ 0.3 d_i = 65,700 ns, the running kind regressed.
    void criticalPathCompare()
    {
        QTemporaryDir dir;
        runlane::test::CriticalPathWorkload workload;
        const QString base = runlane::test::writeTemp(dir, workload.log(), QStringLiteral("base.json"));
        workload.percent = 130;
        const QString next = runlane::test::writeTemp(dir, workload.log(), QStringLiteral("new.json"));
        const Run json = cli({"critical-path", next, "--label", "handler", "--base", base, "--format", "json"});
        QCOMPARE(json.code, 0);
        const QJsonObject doc = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QCOMPARE(doc.value(QStringLiteral("verdict")).toString(), QStringLiteral("regressed"));
        QCOMPARE(doc.value(QStringLiteral("test")).toString(), QStringLiteral("mann-whitney-calls"));
        QCOMPARE(doc.value(QStringLiteral("base_tasks")).toInt(), 20);
        QCOMPARE(doc.value(QStringLiteral("new_wall_ns")).toInt(), 20 * 2500 + 284700);
        const QJsonObject running = doc.value(QStringLiteral("kinds")).toArray().at(0).toObject();
        QCOMPARE(running.value(QStringLiteral("kind")).toString(), QStringLiteral("running"));
        QCOMPARE(running.value(QStringLiteral("delta_ns")).toInt(), 65700);
        QCOMPARE(running.value(QStringLiteral("verdict")).toString(), QStringLiteral("regressed"));
        QStringList rows;
        for (const QJsonValue v : doc.value(QStringLiteral("breakdown")).toArray()) {
            const QJsonObject r = v.toObject();
            rows << QStringLiteral("%1 %2 %3 %4 %5")
                        .arg(r.value(QStringLiteral("kind")).toString(), r.value(QStringLiteral("name")).toString())
                        .arg(r.value(QStringLiteral("base_ns")).toInt())
                        .arg(r.value(QStringLiteral("new_ns")).toInt())
                        .arg(r.value(QStringLiteral("delta_ns")).toInt());
        }
        QCOMPARE(rows, (QStringList{"running query 219000 284700 65700", "running handler 40000 40000 0",
                                    "queued flush 10000 10000 0"}));
        const Run table = cli({"critical-path", next, "--label", "handler", "--base", base});
        QCOMPARE(table.code, 0);
        QVERIFY2(table.out.contains(QString::fromUtf8("\n  running query (app.nim:20) +65.7 µs  (+30.0 %: 219 µs → 285 µs)\n")),
                 qPrintable(table.out));
        const Run csv = cli({"critical-path", next, "--label", "handler", "--base", base, "--format", "csv"});
        QCOMPARE(csv.code, 0);
        QVERIFY2(csv.out.contains(QStringLiteral("\nlabel,running,query,app.nim,20,219000,284700,65700,30,,,,\n")),
                 qPrintable(csv.out));
    }

    // Event-loop usage of the Chronos overlap case, 20 ms bins. The
    // profile ends at 103 ms: the last bin is [100, 103) ms, and its share
    // is of those 3 ms (issue 39), all of them the child's.
    void chronosUsage()
    {
        const Run run = cli({"usage", dataPath(QStringLiteral("profiles/chronos-overlap.json")), "--bin", "20ms"});
        QCOMPARE(run.code, 0);
        QCOMPARE(run.out, QStringLiteral("track,bin_start_ns,bin_end_ns,series,share\n"
                                         "\"main\",0,20000000,\"child (overlap.nim:9)\",0.500000\n"
                                         "\"main\",0,20000000,\"parent (overlap.nim:5)\",0.500000\n"
                                         "\"main\",0,20000000,\"(other)\",0.000000\n"
                                         "\"main\",20000000,40000000,\"child (overlap.nim:9)\",1.000000\n"
                                         "\"main\",20000000,40000000,\"parent (overlap.nim:5)\",0.000000\n"
                                         "\"main\",20000000,40000000,\"(other)\",0.000000\n"
                                         "\"main\",40000000,60000000,\"child (overlap.nim:9)\",1.000000\n"
                                         "\"main\",40000000,60000000,\"parent (overlap.nim:5)\",0.000000\n"
                                         "\"main\",40000000,60000000,\"(other)\",0.000000\n"
                                         "\"main\",60000000,80000000,\"child (overlap.nim:9)\",0.000000\n"
                                         "\"main\",60000000,80000000,\"parent (overlap.nim:5)\",0.250000\n"
                                         "\"main\",60000000,80000000,\"(other)\",0.000000\n"
                                         "\"main\",80000000,100000000,\"child (overlap.nim:9)\",0.000000\n"
                                         "\"main\",80000000,100000000,\"parent (overlap.nim:5)\",0.000000\n"
                                         "\"main\",80000000,100000000,\"(other)\",0.000000\n"
                                         "\"main\",100000000,103000000,\"child (overlap.nim:9)\",1.000000\n"
                                         "\"main\",100000000,103000000,\"parent (overlap.nim:5)\",0.000000\n"
                                         "\"main\",100000000,103000000,\"(other)\",0.000000\n"));
        // JSON: where the last bin ends.
        const Run json = cli({"usage", dataPath(QStringLiteral("profiles/chronos-overlap.json")), "--bin", "20ms",
                              "--format", "json"});
        QVERIFY2(json.out.contains(QStringLiteral("\"end_ns\": 103000000")), qPrintable(json.out));
        // A range past the end is cut there: no bin past 103 ms.
        const Run ranged = cli({"usage", dataPath(QStringLiteral("profiles/chronos-overlap.json")), "--bin", "20ms",
                                "--range", "90ms..200ms", "--top", "1"});
        QCOMPARE(ranged.out, QStringLiteral("track,bin_start_ns,bin_end_ns,series,share\n"
                                            "\"main\",90000000,103000000,\"child (overlap.nim:9)\",0.230769\n"
                                            "\"main\",90000000,103000000,\"(other)\",0.000000\n"));
    }

    // Chrome keeps every profile's rank, Perfetto that of a profile of plain calls.
    void convertKeepsTheRank_data()
    {
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("format");
        QTest::newRow("chrome") << "chrome" << "profiles/enso-async.json" << "Chrome Trace Event Format";
        QTest::newRow("perfetto") << "perfetto" << "profiles/fgh-chrome.json" << "Perfetto trace";
    }
    void convertKeepsTheRank()
    {
        QFETCH(QString, to);
        QFETCH(QString, source);
        QFETCH(QString, format);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("converted.") + to);
        const QString path = dataPath(source);
        const Run run = cli({"convert", path, "--to", to, "-o", out});
        QCOMPARE(run.code, 0);
        QCOMPARE(run.err, QString());
        const Run before = cli({"rank", path, "--format", "csv"});
        const Run after = cli({"rank", out, "--format", "csv"});
        QCOMPARE(after.code, 0);
        QCOMPARE(after.out, before.out);
        const Run summary = cli({"summary", out});
        QVERIFY(summary.out.contains(QStringLiteral("format:        ") + format));
        const Run unwritable = cli({"convert", path, "--to", to, "-o", dir.filePath(QStringLiteral("no/dir.out"))});
        QCOMPARE(unwritable.code, 1);
        QVERIFY(unwritable.err.startsWith(QStringLiteral("runlane-cli: cannot write ")));
    }

    void render_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QSize>("size");
        QTest::newRow("window") << fgh << QStringList{"--size", "800x500"} << QSize(800, 500);
        QTest::newRow("icicle at 2x") << fgh << QStringList{"--view", "icicle", "--size", "640x300", "--scale", "2"}
                                      << QSize(1280, 600);
        QTest::newRow("lanes of the demo, zoomed")
            << QStringLiteral(RUNLANE_DEMO_PROFILE) << QStringList{"--view", "lanes", "--size", "900x400", "--range", "25s..25.12s"}
            << QSize(900, 400);
        QTest::newRow("usage chart of the demo")
            << QStringLiteral(RUNLANE_DEMO_PROFILE) << QStringList{"--view", "usage", "--size", "1000x300"} << QSize(1000, 300);
        QTest::newRow("rank table") << fgh << QStringList{"--view", "rank", "--size", "900x300"} << QSize(900, 300);
        QTest::newRow("messages between processes")
            << dataPath(QStringLiteral("profiles/enso-ide-ls.json")) << QStringList{"--view", "messages", "--size", "900x200"}
            << QSize(900, 200);
        QTest::newRow("aggregated folded stacks")
            << dataPath(QStringLiteral("samples/folded/simple.txt")) << QStringList{"--view", "icicle", "--aggregated"}
            << QSize(1600, 1000);
        // Two async tasks of 158 years: the ruler's ticks and the usage
        // bins near 2^63 ns once wrapped around and never ended.
        const QString centuries = dataPath(QStringLiteral("profiles/chrome-158-years.json"));
        QTest::newRow("158 years, window") << centuries << QStringList{"--size", "800x500"} << QSize(800, 500);
        QTest::newRow("158 years, aggregated") << centuries << QStringList{"--aggregated", "--size", "800x500"}
                                               << QSize(800, 500);
        QTest::newRow("158 years, usage") << centuries << QStringList{"--view", "usage", "--size", "600x200"}
                                          << QSize(600, 200);
        // Compare mode: the compare rank, the differential flame graph.
        QTest::newRow("compare rank") << fgh << QStringList{"--base", fgh, "--view", "rank", "--size", "900x300"}
                                      << QSize(900, 300);
        const QString folded = dataPath(QStringLiteral("samples/folded/simple.txt"));
        QTest::newRow("differential flame graph") << folded << QStringList{"--view", "icicle", "--base", folded}
                                                  << QSize(1600, 1000);
        QTest::newRow("compare window") << fgh << QStringList{"--base", fgh, fgh, "--size", "800x500"} << QSize(800, 500);
        // One call of no length: a 1 ns axis; the rank view focuses it.
        QTest::newRow("zero-length call, rank view")
            << dataPath(QStringLiteral("profiles/chrome-zero-length.json")) << QStringList{"--view", "rank", "--size", "800x500"}
            << QSize(800, 500);
    }
    void render()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, options);
        QFETCH(QSize, size);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("view.png"));
        const Run run = cli(QStringList{"render", file, "-o", out} + options);
        QCOMPARE(run.err, QString());
        QCOMPARE(run.code, 0);
        QCOMPARE(run.out, QStringLiteral("%1: %2x%3\n").arg(out).arg(size.width()).arg(size.height()));
        const QImage image(out);
        QCOMPARE(image.size(), size);
        // Not blank: the views drew more than a handful of colours.
        QSet<QRgb> colors;
        for (int y = 0; y < image.height(); y += 7) {
            for (int x = 0; x < image.width(); x += 7)
                colors.insert(image.pixel(x, y));
        }
        QVERIFY2(colors.size() >= 8, qPrintable(QString::number(colors.size())));
    }

    void renderBaseThenNew()
    {
        // "render --base A.json B.json": the last file is the new run.
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("compare.png"));
        const QString demo = QStringLiteral(RUNLANE_DEMO_PROFILE);
        const Run run = cli({"render", "--base", fgh, demo, "-o", out, "--view", "rank", "--size", "700x300"});
        QCOMPARE(run.err, QString());
        QCOMPARE(run.code, 0);
        QCOMPARE(QImage(out).size(), QSize(700, 300));
    }

    void renderErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("no output") << QStringList{"render", fgh} << 2 << "render needs -o OUT.png";
        QTest::newRow("unknown view") << QStringList{"render", fgh, "-o", "x.png", "--view", "flame"} << 2
                                      << "unknown --view 'flame' (window, icicle, lanes, usage, messages, rank)";
        QTest::newRow("tiny size") << QStringList{"render", fgh, "-o", "x.png", "--size", "10x10"} << 2 << "bad --size '10x10'";
        QTest::newRow("scale 3") << QStringList{"render", fgh, "-o", "x.png", "--scale", "3"} << 2 << "--scale takes 1 or 2";
        QTest::newRow("bad range") << QStringList{"render", fgh, "-o", "x.png", "--range", "soon..later"} << 2 << "--range";
        QTest::newRow("range end before start") << QStringList{"render", fgh, "-o", "x.png", "--range", "50us..10us"} << 2
                                                << "runlane-cli: bad --range '50us..10us': the end is before the start (see --help)\n";
        QTest::newRow("size without height") << QStringList{"render", fgh, "-o", "x.png", "--size", "1600x"} << 2
                                             << "bad --size '1600x'";
        QTest::newRow("huge size") << QStringList{"render", fgh, "-o", "x.png", "--size", "100000x100000"} << 2
                                   << "bad --size '100000x100000'";
        QTest::newRow("nothing to select") << QStringList{"render", fgh, "-o", "x.png", "--select", "nope"} << 2
                                           << "runlane-cli: nothing named 'nope' in the visible range\n";
        QTest::newRow("missing input") << QStringList{"render", "/nonexistent/trace.json", "-o", "x.png"} << 3
                                       << "/nonexistent/trace.json";
        QTest::newRow("unwritable output") << QStringList{"render", fgh, "-o", "/nonexistent/dir/x.png"} << 1
                                           << "cannot write /nonexistent/dir/x.png";
        QTest::newRow("unreadable base") << QStringList{"render", fgh, "-o", "x.png", "--base", "/nonexistent/base.json"} << 3
                                         << "/nonexistent/base.json";
        QTest::newRow("a base and nothing to compare") << QStringList{"render", "--base", fgh, "-o", "x.png"} << 2
                                                       << "render needs a profile FILE";
    }
    void renderErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QProcess process;
        process.setWorkingDirectory(dir.path());
        process.start(QStringLiteral(RUNLANE_CLI), args);
        QVERIFY(process.waitForFinished(60000));
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QCOMPARE(process.exitCode(), code);
        QVERIFY2(err.contains(message), qPrintable(err));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x.png"))));
    }

    // docs/cli.md is the user's reference of runlane-cli: a section for each
    // command the main help lists, mentioning every option that command's
    // --help prints. Both lists come from the program, so a new command or
    // option fails here until the guide describes it.
    void cliGuide_data()
    {
        QTest::addColumn<QString>("command");
        const Run run = cli({"help"});
        QCOMPARE(run.code, 0);
        // The commands are the indented lines between "Commands:" and the
        // blank line after them: "  summary   format, tracks, ...".
        const qsizetype start = run.out.indexOf(QStringLiteral("Commands:\n"));
        QVERIFY2(start >= 0, qPrintable(run.out));
        const qsizetype end = run.out.indexOf(QStringLiteral("\n\n"), start);
        const QStringList lines = run.out.mid(start, end - start).split(QLatin1Char('\n')).mid(1);
        static const QRegularExpression commandLine(QStringLiteral("^  ([a-z-]+)  "));
        QVERIFY2(lines.size() > 1, qPrintable(run.out));
        for (const QString& line : lines) {
            const QRegularExpressionMatch m = commandLine.match(line);
            QVERIFY2(m.hasMatch(), qPrintable(line));
            QTest::newRow(qPrintable(m.captured(1))) << m.captured(1);
        }
    }
    void cliGuide()
    {
        QFETCH(QString, command);
        const QString path = QDir::cleanPath(dataPath(QStringLiteral("../../docs/cli.md")));
        QFile file(path);
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
        const QString guide = QString::fromUtf8(file.readAll());

        // The command's section: from its heading ("## summary", "## `summary`")
        // to the next heading of the same or a higher level.
        const QRegularExpression heading(
            QStringLiteral("^(#{2,3}) +`?(?:runlane-cli +)?%1\\b[^\n]*$").arg(QRegularExpression::escape(command)),
            QRegularExpression::MultilineOption);
        const QRegularExpressionMatch h = heading.match(guide);
        QVERIFY2(h.hasMatch(), qPrintable(QStringLiteral("%1 has no section for '%2'").arg(path, command)));
        const QRegularExpression next(QStringLiteral("^#{1,%1} ").arg(h.captured(1).size()),
                                      QRegularExpression::MultilineOption);
        const QRegularExpressionMatch n = next.match(guide, h.capturedEnd());
        const QString section = guide.mid(h.capturedEnd(), n.hasMatch() ? n.capturedStart() - h.capturedEnd() : -1);

        // Every option the command's help prints (its usage lines included):
        // "--range", "-o"; not the "-cli" of "runlane-cli" or "Mann-Whitney".
        const Run help = cli({command, "--help"});
        QCOMPARE(help.code, 0);
        static const QRegularExpression option(QStringLiteral("(?<![\\w-])(--?[a-z][a-z0-9-]*)"));
        QSet<QString> options;
        for (const QRegularExpressionMatch& m : option.globalMatch(help.out))
            options.insert(m.captured(1));
        QStringList missing;
        for (const QString& o : std::as_const(options)) {
            const QRegularExpression mention(QStringLiteral("(?<![\\w-])%1(?![\\w-])").arg(QRegularExpression::escape(o)));
            if (!section.contains(mention))
                missing.append(o);
        }
        missing.sort();
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("the '%1' section of %2 does not mention %3")
                                                   .arg(command, path, missing.join(QStringLiteral(", ")))));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
