// runlane-cli on the sampled formats (perf script, pprof, Firefox), their
// variants, and a CPU profile added to a trace: the real binary, its exact
// output. Split from tst_cli, which covers the commands on traces.
#include "app/cli/clirun.h"
#include "testsupport.h"

#include <QTemporaryDir>
#include <QtTest>

using runlane::test::cli;
using runlane::test::dataPath;
using runlane::test::Run;

namespace {

const QString fgh = dataPath(QStringLiteral("profiles/fgh-chrome.json"));

} // namespace

class TestCliSamples : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // A perf script file through summary, rank and tree: samples of one
    // thread, timed (each lasts until the next sample).
    void perfScript_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("lines"); // that the output holds
        const QString perf = dataPath(QStringLiteral("samples/linux-perf/simple-with-header.linux-perf.txt"));
        QTest::newRow("summary") << QStringList{"summary", perf}
                                 << QStringList{"format:        perf script",
                                                "time span:     136 ms (136382000 ns)",
                                                "tracks:        1",
                                                "intervals:     150 (max depth 5)",
                                                "  simple-terminat / simple-terminat (tid 9)  [thread]  150 intervals, "
                                                "depth 5, busy 136 ms"};
        QTest::newRow("rank") << QStringList{"rank", perf, "--format", "csv", "--top", "2"}
                              << QStringList{"_Z4betav,/workdir/simple-terminates,,46,0,0,0,0,0,46440000,46440000,46440000,"
                                             "2135000,1009565,993000,1056000,2135000,2135000,993000,1056000,2135000,"
                                             "0.340514",
                                             "_Z5alphav,/workdir/simple-terminates,,42,0,0,0,0,0,44056000,44056000,"
                                             "44056000,2196000,1048952,1000000,1118000,2196000,2196000,1000000,1118000,"
                                             "2196000,0.323034"};
        QTest::newRow("tree") << QStringList{"tree", perf, "--max-depth", "2"}
                              << QStringList{"== simple-terminat / simple-terminat (tid 9)",
                                             QString::fromUtf8("0x6ce258d4c544155  created 0 ns  active [0 ns, 136 ms)  "
                                                               "completed"),
                                             QString::fromUtf8("    main (/workdir/simple-terminates)  created 0 ns  "
                                                               "active [0 ns, 136 ms)  completed")};
    }

    void perfScript()
    {
        QFETCH(QStringList, args);
        QFETCH(QStringList, lines);
        const Run run = cli(args);
        QCOMPARE(run.code, 0);
        QCOMPARE(run.err, QString());
        const QStringList out = run.out.split(QLatin1Char('\n'));
        for (const QString& line : lines)
            QVERIFY2(out.contains(line), qPrintable(line + QStringLiteral("\nnot in\n") + run.out));
    }

    // A CPU profile of the same run added to the node trace: a band under
    // its main thread, said by summary, kept by convert; errors name the
    // added file.
    void addACpuProfile()
    {
        const QString trace = dataPath(QStringLiteral("samples/node/http-async-hooks.trace.json"));
        const QString profile = dataPath(QStringLiteral("samples/node/http-async-hooks.cpuprofile"));
        const Run run = cli({"summary", trace, "--add", profile});
        QCOMPARE(run.code, 0);
        const QStringList lines = run.out.split(QLatin1Char('\n'));
        QCOMPARE(lines[1], QStringLiteral("added:         %1 (V8 CPU profile) under thread 19372:19372, node / JavaScriptMainThread").arg(profile));
        QCOMPARE(lines[4], QStringLiteral("tracks:        3"));
        // The thread holds its 238 slices and the 4,222 async_hooks callbacks
        // (NodeAsyncHooks); the async track the 337 fs, dns, net and
        // environment slices.
        QVERIFY(run.out.endsWith(QString::fromUtf8("tracks:\n  node / JavaScriptMainThread  [thread]  4460 intervals, depth 4, busy 247 ms\n"
                                                   "  node / JavaScriptMainThread (samples)  [samples]  2469 intervals, depth 40, busy 272 ms\n"
                                                   "  node / async  [async]  337 intervals, depth 17, busy 822 ms\n")));
        QCOMPARE(cli({"summary", trace, "--add", profile, "--add-thread", "19372:19372"}).out, run.out);

        QTemporaryDir dir;
        const QString merged = dir.filePath(QStringLiteral("merged.json"));
        QCOMPARE(cli({"convert", trace, "--add", profile, "--to", "chrome", "-o", merged}).code, 0);
        const Run before = cli({"rank", trace, "--add", profile, "--sort", "name", "--format", "csv"});
        QCOMPARE(before.code, 0);
        QCOMPARE(cli({"rank", merged, "--sort", "name", "--format", "csv"}).out, before.out);

        Run failed = cli({"rank", trace, "--add", profile, "--add-thread", "19372:1"});
        QCOMPARE(failed.code, 3);
        QCOMPARE(failed.err, QStringLiteral("runlane-cli: %1: the trace has no thread 19372:1 (pid:tid) to add this to; its "
                                            "threads: 19372:19372 node / JavaScriptMainThread\n").arg(profile));
        failed = cli({"tree", trace, "--add", fgh});
        QCOMPARE(failed.code, 3);
        QCOMPARE(failed.err, QStringLiteral("runlane-cli: %1: this is a Chrome Trace Event Format file; only V8 CPU profiles "
                                            "(.cpuprofile) and Enso Language Server message logs can be added to a "
                                            "trace\n").arg(fgh));
    }

    // A pprof profile (protobuf, no timestamps): summary, rank and tree of
    // its samples end to end, in call path order.
    void pprof()
    {
        const QString file = dataPath(QStringLiteral("samples/pprof/speedscope-simple.prof.pb"));
        const Run summary = cli({"summary", file});
        QCOMPARE(summary.code, 0);
        const QStringList lines = summary.out.split(QLatin1Char('\n'));
        QCOMPARE(lines.mid(1, 7), (QStringList{"format:        pprof", "total weight:  1.50 s (1500000000 ns)",
                                               "view:          aggregated flame graph only (the file has no timestamps)",
                                               "variants:      samples (count), cpu (nanoseconds) (loaded)",
                                               "tracks:        1", "measurements:  27 (0 async tasks, 0 unfinished)",
                                               "intervals:     27 (max depth 12)"}));
        const Run rank = cli({"rank", file, "--format", "csv", "--top", "2"});
        QCOMPARE(rank.code, 0);
        const QString simpleGo = QStringLiteral("/Users/jlfwong/code/speedscope/sample/programs/go/simple.go");
        QCOMPARE(rank.out.split(QLatin1Char('\n')).mid(1),
                 (QStringList{"main.alpha," + simpleGo + ",,2,0,0,0,0,0,480000000,480000000,480000000,260000000,240000000,"
                                  "220000000,260000000,260000000,260000000,220000000,260000000,260000000,0.320000",
                              "main.beta," + simpleGo + ",,2,0,0,0,0,0,390000000,390000000,390000000,250000000,195000000,"
                                  "140000000,250000000,250000000,250000000,140000000,250000000,250000000,0.260000",
                              ""}));
        const Run tree = cli({"tree", file, "--max-depth", "1"});
        QCOMPARE(tree.code, 0);
        QCOMPARE(tree.out.section(QLatin1Char('\n'), 0, 2),
                 "== speedscope-simple.prof.pb\n"
                 "runtime.main (/usr/local/Cellar/go/1.10.1/libexec/src/runtime/proc.go)  created 0 ns  active [0 ns, 1.36 s)  completed\n"
                 "  main.main (" + simpleGo + ")  created 0 ns  active [0 ns, 1.36 s)  completed");

        // No timestamps: no usage over time, no time range; said, not
        // answered with figures of the flame graph's layout.
        const Run usage = cli({"usage", file});
        QCOMPARE(usage.code, 3);
        QCOMPARE(usage.out, QString());
        QCOMPARE(usage.err.trimmed(), QStringLiteral("runlane-cli: %1 has no timestamps (only totals per call stack), so it "
                                                     "has no usage over time; 'runlane-cli rank' and 'tree' give its figures")
                                          .arg(file));
        const Run ranged = cli({"rank", file, "--range", "0..100ms"});
        // The option does not apply to the file: a usage error, as a range
        // past the end of a timeline is.
        QCOMPARE(ranged.code, 2);
        QCOMPARE(ranged.err.trimmed(), QStringLiteral("runlane-cli: %1 has no timestamps (only totals per call stack): "
                                                      "--range needs a timeline (see --help)")
                                           .arg(file));
    }

    // --variant loads another sample type or event; summary lists them;
    // a name the file lacks is a usage error that lists what it has.
    void variants_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("text"); // the first line of the output, or the error
        const QString pprof = dataPath(QStringLiteral("samples/pprof/pprof-report-sample.cpu"));
        const QString perf = dataPath(QStringLiteral("samples/linux-perf/firefox-test.perf.gz"));
        QTest::newRow("pprof, default") << QStringList{"rank", pprof, "--format", "csv", "--top", "1"} << 0
                                        << QStringLiteral("runtime.mapiternext,/usr/lib/google-golang/src/runtime/hashmap.go,,1,0,0,0,0,"
                                                          "0,1280000000,1370000000,1370000000,1280000000,1280000000,1280000000,"
                                                          "1280000000,1280000000,1370000000,1370000000,1370000000,1370000000,0.727273");
        QTest::newRow("pprof, by type") << QStringList{"rank", pprof, "--format", "csv", "--top", "1", "--variant", "samples"} << 0
                                        << QStringLiteral("runtime.mapiternext,/usr/lib/google-golang/src/runtime/hashmap.go,,1,0,0,0,0,"
                                                          "0,128,137,137,128,128,128,128,128,137,137,137,137,0.727273");
        // Issue 39, item 17: a name the file lacks is a usage error (2)
        // that lists what it has, not an error of the file at a byte (3).
        QTest::newRow("pprof, unknown") << QStringList{"rank", pprof, "--variant", "alloc_space"} << 2
                                        << QStringLiteral("runlane-cli: unknown --variant 'alloc_space': %1 has samples "
                                                          "(count), cpu (nanoseconds) (see --help)")
                                               .arg(pprof);
        QTest::newRow("pprof, unknown, summary") << QStringList{"summary", pprof, "--variant", "cycles"} << 2
                                                 << QStringLiteral("runlane-cli: unknown --variant 'cycles': %1 has samples "
                                                                   "(count), cpu (nanoseconds) (see --help)")
                                                        .arg(pprof);
        QTest::newRow("perf, unknown") << QStringList{"tree", perf, "--variant", "branches"} << 2
                                       << QStringLiteral("runlane-cli: unknown --variant 'branches': %1 has cycles:uppp, "
                                                         "cycles:ppp (see --help)")
                                              .arg(perf);
        QTest::newRow("perf, listed") << QStringList{"summary", perf} << 0
                                      << QStringLiteral("variants:      cycles:uppp (loaded), cycles:ppp");
        QTest::newRow("perf, the other") << QStringList{"summary", perf, "--variant", "cycles:ppp"} << 0
                                         << QStringLiteral("variants:      cycles:uppp, cycles:ppp (loaded)");
    }

    void variants()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, text);
        const Run run = cli(args);
        QCOMPARE(run.code, code);
        if (code != 0) {
            QCOMPARE(run.err.trimmed(), text);
            return;
        }
        const QStringList lines = run.out.split(QLatin1Char('\n'));
        if (args.first() == QLatin1String("rank"))
            QCOMPARE(lines.value(1), text);
        else
            QVERIFY2(lines.contains(text), qPrintable(run.out));
    }

    // A Firefox Profiler file (gecko 13, a child process): summary, rank
    // and tree end to end.
    void gecko()
    {
        const QString file = dataPath(QStringLiteral("samples/gecko/firefox-gecko-2.json"));
        const Run summary = cli({"summary", file});
        QCOMPARE(summary.code, 0);
        // The child process started 1 s after the parent: its times move.
        QCOMPARE(summary.out.split(QLatin1Char('\n')).mid(1, 5),
                 (QStringList{"format:        Firefox Profiler", "time span:     1.01 s (1014000000 ns)", "tracks:        8",
                              "measurements:  36 (0 async tasks, 0 unfinished)", "intervals:     36 (max depth 6)"}));
        // Interval markers are calls too, on their own tracks.
        const Run rank = cli({"rank", file, "--format", "csv", "--top", "2"});
        QCOMPARE(rank.code, 0);
        QCOMPARE(rank.out.split(QLatin1Char('\n')).mid(1),
                 (QStringList{"Reflow,,,3,0,0,0,0,0,15000000,18000000,18000000,5000000,5000000,5000000,5000000,5000000,"
                              "6000000,6000000,6000000,6000000,0.229008",
                              "AutoEntryScript Promise resolution or rejection,,,3,0,0,0,0,0,10500000,11500000,11500000,"
                              "10000000,3500000,500000,10000000,10000000,10000000,1000000,10000000,10000000,0.160305",
                              ""}));
        const Run tree = cli({"tree", file, "--max-depth", "1"});
        QCOMPARE(tree.code, 0);
        QCOMPARE(tree.out.section(QLatin1Char('\n'), 0, 2),
                 "== Firefox / GeckoMain markers\n"
                 "Reflow  created 2.00 ms  active [2.00 ms, 8.00 ms)  completed\n"
                 "  Rasterize  created 4.00 ms  active [4.00 ms, 5.00 ms)  completed");
    }
};

QTEST_GUILESS_MAIN(TestCliSamples)
#include "tst_clisamples.moc"
