#include "measurementmetrics.h"
#include "testsupport.h"

#include <QDirIterator>
#include <QtTest>

using namespace runlane;
using runlane::test::dataPath;

// Every real profile in tests/data/samples (see SOURCES.md there) loads, with
// exact counts, and the loaded model keeps its invariants. Counts were
// checked against the files: e.g. big_trace has 933 B and 933 E events (933
// calls); flow has 1625 B and 1622 E (3 unfinished) and 866 s + 886 f flow
// events; x_event_trace has 2799 X + 442 B/E pairs + 53 legacy S/F. Flow
// events are read, not skipped; those that connect nothing are warnings (the
// counts are checked in tst_chromeflowcollector): flow 456, multiple_input_
// latency 2154, chrome69-simple 6 and chrome70-worker 5 (v2 sources no sink
// follows), chrome85-esbuild 3.
class TestSamples : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everySampleIsListed()
    {
        // A sample added to the data without a row here must not go unnoticed.
        QStringList found;
        QDirIterator it(dataPath("samples"), {"*.json", "*.txt", "*.pb", "*.gz", "*.cpu", "*.prof", "*.cpuprofile"}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            found << QDir(dataPath("samples")).relativeFilePath(it.next());
        found.sort();
        QStringList listed = m_listed;
        listed.sort();
        QCOMPARE(found, listed);
    }

    void loads_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("tracks");
        QTest::addColumn<int>("measurements");
        QTest::addColumn<int>("intervals");
        QTest::addColumn<int>("unfinished");
        QTest::addColumn<int>("warnings");
        QTest::addColumn<int>("skipped");
        auto row = [](const char* file, int t, int m, int i, int u, int w, int s) {
            QTest::newRow(file) << QString::fromLatin1(file) << t << m << i << u << w << s;
        };
        row("chrome-trace/catapult/async_begin_end.json", 4, 13, 15, 3, 4, 0);
        row("chrome-trace/catapult/big_trace.json", 4, 933, 933, 0, 0, 0);
        row("chrome-trace/catapult/flow.json", 9, 1625, 1625, 3, 459, 0);
        row("chrome-trace/catapult/flow_simple.json", 5, 5, 5, 0, 0, 1);
        row("chrome-trace/catapult/instance_counters.json", 1, 2, 2, 0, 0, 0);
        row("chrome-trace/catapult/instant_events.json", 3, 0, 0, 0, 0, 0);
        row("chrome-trace/catapult/main_thread_has_unclosed_slices.json", 22, 1684, 1684, 4, 4, 0);
        row("chrome-trace/catapult/multiple_input_latency.json", 8, 8930, 9191, 33, 2189, 1);
        row("chrome-trace/catapult/nanoseconds.json", 1, 8, 8, 0, 0, 0);
        row("chrome-trace/catapult/nestable_async.json", 1, 9, 9, 0, 2, 1);
        row("chrome-trace/catapult/nestable_async_annotation.json", 1, 9, 9, 0, 2, 0);
        row("chrome-trace/catapult/simple_trace.json", 2, 12, 12, 0, 1, 4);
        row("chrome-trace/catapult/tall_trace.json", 16, 18, 18, 0, 0, 0);
        row("chrome-trace/catapult/trivial_trace.json", 1, 2, 2, 0, 0, 0);
        row("chrome-trace/catapult/x_event_trace.json", 4, 3243, 3294, 0, 0, 5);
        row("chrome-trace/devtools/chrome116-Trace-20230603T221323.json", 15, 2848, 2848, 0, 1, 9);
        row("chrome-trace/devtools/chrome141-no-arg-data.json", 1, 76, 76, 0, 3, 5);
        row("chrome-trace/devtools/chrome69-simple.json", 19, 1289, 1289, 6, 15, 20);
        row("chrome-trace/devtools-samples/chrome66-worker-cpuprofile-event.json", 25, 2079, 2079, 7, 15, 17);
        row("chrome-trace/devtools-samples/chrome70-worker.json", 24, 2486, 2486, 5, 15, 18);
        row("chrome-trace/devtools-samples/chrome85-esbuild.json", 14, 1667, 1667, 5, 9, 40);
        row("chrome-trace/devtools-samples/firefox-chrome-trace-issue-5429.json.gz", 2, 291, 291, 0, 0, 0);
        row("chrome-trace/devtools-samples/firefox-test.chrome-unchunked.json", 5, 180, 180, 6, 16, 10);
        row("cpuprofile/chrome65-simple.cpuprofile", 1, 6, 6, 0, 0, 0);
        row("cpuprofile/node-hello.cjs.cpuprofile", 1, 165, 165, 0, 0, 0);
        row("cpuprofile/node10-example.cpuprofile", 1, 6, 6, 0, 1, 0);
        row("node/http-async-hooks.cpuprofile", 1, 2469, 2469, 0, 0, 0);
        row("node/http-async-hooks.trace.json", 2, 5842, 4797, 166, 2, 4); // async_hooks resources as tasks (NodeAsyncHooks)
        row("viztracer/async_simple.json", 1, 652, 656, 0, 0, 0); // 6 asyncio tasks of 10 steps, back on MainThread (AsyncioTasks)
        row("chrome-trace/perfetto/connected_flow_data.json", 4, 11, 11, 0, 0, 0);
        row("chrome-trace/perfetto/flow_events_json_v1.json", 5, 5, 5, 0, 0, 1);
        row("chrome-trace/perfetto/flow_events_json_v2.json", 5, 6, 6, 0, 0, 0);
        row("chrome-trace/speedscope-fixtures/bex-interaction.json", 1, 12, 12, 0, 0, 0);
        row("chrome-trace/speedscope-fixtures/end-event-with-empty-stack.json", 1, 1, 1, 0, 1, 0);
        row("chrome-trace/speedscope-fixtures/end-non-top-of-stack.json", 1, 3, 3, 1, 2, 0);
        row("chrome-trace/speedscope-fixtures/event-reordering-name-match.json", 1, 3, 3, 0, 0, 0);
        row("chrome-trace/speedscope-fixtures/hermes-multiple-frames.json", 1, 4, 4, 0, 0, 0);
        row("chrome-trace/speedscope-fixtures/invalid-x-nesting.json", 1, 2, 2, 0, 1, 0);
        row("chrome-trace/speedscope-fixtures/matching-x.json", 1, 5, 5, 0, 0, 0);
        row("chrome-trace/speedscope-fixtures/mismatched-args.json", 1, 1, 1, 0, 0, 0);
        row("chrome-trace/speedscope-fixtures/mismatched-name.json", 1, 1, 1, 0, 1, 0);
        row("chrome-trace/speedscope-fixtures/multi-thread-with-samples.json", 2, 2, 2, 0, 0, 2);
        row("chrome-trace/speedscope-fixtures/multiprocess.json", 8, 8, 8, 0, 0, 0);
        row("chrome-trace/speedscope-fixtures/must-retain-original-order.json", 1, 7, 7, 0, 0, 0);
        row("chrome-trace/speedscope-fixtures/not-enough-end-events.json", 1, 3, 3, 2, 2, 0);
        row("chrome-trace/speedscope-fixtures/only-begin-events.json", 1, 3, 3, 3, 3, 0);
        row("chrome-trace/speedscope-fixtures/out-of-order-unbalanced-name.json", 1, 2, 2, 0, 2, 0);
        row("chrome-trace/speedscope-fixtures/out-of-order.json", 1, 3, 3, 0, 0, 0);
        row("chrome-trace/speedscope-fixtures/simple-hermes.json", 1, 2, 2, 0, 0, 0);
        row("chrome-trace/speedscope-fixtures/simple-object.json", 1, 3, 3, 0, 0, 0);
        row("chrome-trace/speedscope-fixtures/simple-partial-trailing-comma.json", 1, 4, 4, 0, 1, 0);
        row("chrome-trace/speedscope-fixtures/simple-partial-whitespace.json", 1, 4, 4, 0, 1, 0);
        row("chrome-trace/speedscope-fixtures/simple-partial.json", 1, 4, 4, 0, 1, 0);
        row("chrome-trace/speedscope-fixtures/simple-with-samples.json", 0, 0, 0, 0, 0, 2);
        row("chrome-trace/speedscope-fixtures/simple.json", 1, 4, 4, 0, 0, 0);
        row("chrome-trace/speedscope-fixtures/simultaneous-anonymous-calls.json", 1, 6, 6, 0, 0, 0);
        row("chrome-trace/speedscope-fixtures/too-many-end-events.json", 1, 2, 2, 0, 2, 0);
        row("chrome-trace/speedscope-fixtures/unbalanced-args.json", 1, 2, 2, 0, 0, 0);
        row("chrome-trace/speedscope-fixtures/unbalanced-name.json", 1, 2, 2, 0, 2, 0);
        row("chrome-trace/speedscope-fixtures/x-events-matching-end.json", 1, 9, 9, 0, 0, 0);
        row("chrome-trace/speedscope-fixtures/x-events-matching-start.json", 1, 9, 9, 0, 0, 0);
        row("chrome-trace/speedscope-fixtures/zero-duration-events.json", 1, 4, 4, 0, 0, 0);
        row("enso/enso-format-stability-fixture.json", 1, 4, 0, 3, 8, 0);
        row("folded/alternating.txt", 1, 364, 364, 0, 0, 0);
        row("folded/inferno/austin_flames.txt", 1, 14, 14, 0, 0, 4);
        row("folded/inferno/bad-lines_bad-lines.txt", 1, 19, 19, 0, 2, 0);
        row("folded/inferno/colors_async-profiler-collapsed-part.txt", 1, 508, 508, 0, 0, 0);
        row("folded/inferno/differential_perf-cycles-instructions-01-collapsed-all-diff.txt", 1, 19, 19, 0, 1, 0);
        row("folded/inferno/fractional-samples_fractional.txt", 1, 19, 19, 0, 0, 0);
        row("folded/inferno/fractional-samples_with-space.txt", 1, 20, 20, 0, 0, 0);
        // 360: line 15 ends in a blank frame, a call path of its own.
        row("folded/perf-vertx-stacks-01-collapsed-all.txt", 1, 360, 360, 0, 0, 0);
        row("folded/recursion.txt", 1, 16, 16, 0, 0, 0);
        row("folded/simple-crlf.txt", 1, 5, 5, 0, 0, 0);
        row("folded/simple-utf16-be.txt", 1, 5, 5, 0, 0, 0);
        row("folded/simple-utf16-le.txt", 1, 5, 5, 0, 0, 0);
        row("folded/simple-with-invalids.txt", 1, 5, 5, 0, 1, 2);
        row("folded/simple.txt", 1, 5, 5, 0, 0, 0);
        row("folded/tall.txt", 1, 26, 26, 0, 0, 0);
        // One interval per call path (pprof has no timestamps).
        row("pprof/pprof-report-sample.cpu.pb", 1, 17, 17, 0, 0, 0);
        row("pprof/speedscope-simple.prof.pb", 1, 27, 27, 0, 0, 0);
        // The originals, gzip-compressed: the same profiles.
        row("pprof/pprof-report-sample.cpu", 1, 17, 17, 0, 0, 0);
        row("pprof/speedscope-simple.prof", 1, 27, 27, 0, 0, 0);
        // Firefox Profiler: per thread a samples track and its markers
        // track(s); the DevTools recording has one content thread.
        row("gecko/firefox-gecko-1.json", 6, 30, 30, 0, 0, 0);
        row("gecko/firefox-gecko-2.json", 8, 36, 36, 0, 0, 0);
        row("gecko/firefox-processed-1.json", 6, 30, 30, 0, 0, 0);
        row("gecko/firefox-processed-2.json", 8, 35, 35, 0, 0, 0);
        row("gecko/speedscope-firefox63-simple.json", 2, 187, 187, 0, 0, 0);
        row("linux-perf/firefox-test.perf.gz", 15, 216, 216, 0, 1, 1);
        // One sample of another event (cycles:ppp): skipped, with a warning.
        row("linux-perf/firefox-test.perf.txt", 15, 216, 216, 0, 1, 1);
        row("linux-perf/forks.linux-perf.txt", 4, 1163, 1163, 0, 0, 0);
        row("linux-perf/rust-mangled.linux-perf.txt", 1, 91, 91, 0, 0, 0);
        row("linux-perf/simple-with-header.linux-perf.txt", 1, 150, 150, 0, 0, 0);
        row("linux-perf/simple-with-pid.linux-perf.txt", 1, 165, 165, 0, 0, 0);
        row("linux-perf/simple.linux-perf.txt", 1, 5, 5, 0, 0, 0);
        row("speedscope/0.0.1_simple-no-pretty-print.speedscope.json", 1, 5, 5, 0, 0, 0);
        row("speedscope/0.0.1_simple.speedscope.json", 1, 5, 5, 0, 0, 0);
        row("speedscope/0.1.2_simple-sampled.speedscope.json", 1, 5, 5, 0, 0, 0);
        row("speedscope/0.6.0_two-sampled.speedscope.json", 2, 10, 10, 0, 0, 0);
        row("speedscope/invalid_incomplete-trace.json", 1, 1, 1, 1, 1, 0);
        row("speedscope/invalid_out-of-order-events.json", 1, 4, 4, 0, 2, 0);
    }

    void loads()
    {
        QFETCH(QString, file);
        QFETCH(int, tracks);
        QFETCH(int, measurements);
        QFETCH(int, intervals);
        QFETCH(int, unfinished);
        QFETCH(int, warnings);
        QFETCH(int, skipped);
        const LoadResult r = ProfileLoader::load(dataPath("samples/" + file));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(int(p.trackCount()), tracks);
        QCOMPARE(int(p.measurementCount()), measurements);
        QCOMPARE(int(p.intervalCount()), intervals);
        int open = 0;
        for (const Measurement& m : p.measurements())
            open += m.finalState() == FinalState::Unfinished ? 1 : 0;
        QCOMPARE(open, unfinished);
        QCOMPARE(int(p.diagnostics().warningCount()), warnings);
        QCOMPARE(int(p.diagnostics().skippedCount()), skipped);
        checkInvariants(p);
    }

private:
    static void checkInvariants(const Profile& p)
    {
        // Tracks tile the interval array; each depth is start-sorted and
        // disjoint; a parent is one depth up and contains the child's start.
        // (Asserted here over real files rather than only over made-up ones.)
        IntervalId next = 0;
        for (TrackId t = 0; t < p.trackCount(); ++t) {
            const Track& track = p.track(t);
            QCOMPARE(track.begin, next);
            next = track.end;
            for (int d = 0; d < track.depthCount(); ++d) {
                const auto slice = p.depthSlice(t, d);
                for (std::size_t i = 0; i < slice.size(); ++i) {
                    const Interval& iv = slice[i];
                    QVERIFY(iv.start <= iv.end);
                    QVERIFY(iv.start >= p.startTime() && iv.end <= p.endTime());
                    if (i > 0)
                        QVERIFY(slice[i - 1].end <= iv.start);
                    // On an async track tasks are packed into rows, so a
                    // task's top-level slices may sit at any depth.
                    const bool mayBeTopLevel = d == 0 || track.kind == TrackKind::Async;
                    if (d == 0)
                        QCOMPARE(iv.parent, kNone);
                    if (!mayBeTopLevel)
                        QVERIFY(iv.parent != kNone);
                    if (iv.parent != kNone) {
                        QCOMPARE(p.depthOf(iv.parent), d - 1);
                        const Interval& parent = p.interval(iv.parent);
                        QVERIFY(parent.start <= iv.start && iv.start < std::max(parent.end, parent.start + 1));
                    }
                    QCOMPARE(p.measurement(iv.measurement).track, t);
                }
            }
        }
        QCOMPARE(std::size_t(next), p.intervalCount());
        // Every interval is listed once, in time order, by its measurement.
        std::vector<int> seen(p.intervalCount(), 0);
        for (MeasurementId id = 0; id < p.measurementCount(); ++id) {
            const Measurement& m = p.measurement(id);
            if (m.creator != kNone)
                QVERIFY(m.creator < id);
            QVERIFY(m.created <= m.finished);
            Time last = m.created;
            for (const IntervalId iv : p.intervalsOf(id)) {
                QCOMPARE(p.interval(iv).measurement, id);
                QVERIFY(p.interval(iv).start >= last);
                last = p.interval(iv).end;
                ++seen[iv];
            }
            QVERIFY(last <= m.finished);
        }
        QVERIFY(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
        // Exec times are never negative and add up to each track's busy
        // time, but for a sampled thread's "(idle)", which is not busy.
        const MeasurementMetrics metrics(p);
        std::vector<Time> perTrack(p.trackCount(), 0);
        for (MeasurementId id = 0; id < p.measurementCount(); ++id) {
            QVERIFY(metrics.exec(id) >= 0);
            QVERIFY(metrics.total(id) >= metrics.exec(id));
            if (!p.isIdle(p.measurement(id).label))
                perTrack[p.measurement(id).track] += metrics.exec(id);
        }
        for (TrackId t = 0; t < p.trackCount(); ++t)
            QCOMPARE(perTrack[t], metrics.busy(t));
    }

    QStringList m_listed = {
        "chrome-trace/catapult/async_begin_end.json",
        "chrome-trace/catapult/big_trace.json",
        "chrome-trace/catapult/flow.json",
        "chrome-trace/catapult/flow_simple.json",
        "chrome-trace/catapult/instance_counters.json",
        "chrome-trace/catapult/instant_events.json",
        "chrome-trace/catapult/main_thread_has_unclosed_slices.json",
        "chrome-trace/catapult/multiple_input_latency.json",
        "chrome-trace/catapult/nanoseconds.json",
        "chrome-trace/catapult/nestable_async.json",
        "chrome-trace/catapult/nestable_async_annotation.json",
        "chrome-trace/catapult/simple_trace.json",
        "chrome-trace/catapult/tall_trace.json",
        "chrome-trace/catapult/trivial_trace.json",
        "chrome-trace/catapult/x_event_trace.json",
        "chrome-trace/devtools/chrome116-Trace-20230603T221323.json",
        "chrome-trace/devtools/chrome141-no-arg-data.json",
        "chrome-trace/devtools/chrome69-simple.json",
        "chrome-trace/devtools-samples/chrome66-worker-cpuprofile-event.json",
        "chrome-trace/devtools-samples/chrome70-worker.json",
        "chrome-trace/devtools-samples/chrome85-esbuild.json",
        "chrome-trace/devtools-samples/firefox-chrome-trace-issue-5429.json.gz",
        "chrome-trace/devtools-samples/firefox-test.chrome-unchunked.json",
        "cpuprofile/chrome65-simple.cpuprofile",
        "cpuprofile/node-hello.cjs.cpuprofile",
        "cpuprofile/node10-example.cpuprofile",
        "node/http-async-hooks.cpuprofile",
        "node/http-async-hooks.trace.json",
        "viztracer/async_simple.json",
        "chrome-trace/perfetto/connected_flow_data.json",
        "chrome-trace/perfetto/flow_events_json_v1.json",
        "chrome-trace/perfetto/flow_events_json_v2.json",
        "chrome-trace/speedscope-fixtures/bex-interaction.json",
        "chrome-trace/speedscope-fixtures/end-event-with-empty-stack.json",
        "chrome-trace/speedscope-fixtures/end-non-top-of-stack.json",
        "chrome-trace/speedscope-fixtures/event-reordering-name-match.json",
        "chrome-trace/speedscope-fixtures/hermes-multiple-frames.json",
        "chrome-trace/speedscope-fixtures/invalid-x-nesting.json",
        "chrome-trace/speedscope-fixtures/matching-x.json",
        "chrome-trace/speedscope-fixtures/mismatched-args.json",
        "chrome-trace/speedscope-fixtures/mismatched-name.json",
        "chrome-trace/speedscope-fixtures/multi-thread-with-samples.json",
        "chrome-trace/speedscope-fixtures/multiprocess.json",
        "chrome-trace/speedscope-fixtures/must-retain-original-order.json",
        "chrome-trace/speedscope-fixtures/not-enough-end-events.json",
        "chrome-trace/speedscope-fixtures/only-begin-events.json",
        "chrome-trace/speedscope-fixtures/out-of-order-unbalanced-name.json",
        "chrome-trace/speedscope-fixtures/out-of-order.json",
        "chrome-trace/speedscope-fixtures/simple-hermes.json",
        "chrome-trace/speedscope-fixtures/simple-object.json",
        "chrome-trace/speedscope-fixtures/simple-partial-trailing-comma.json",
        "chrome-trace/speedscope-fixtures/simple-partial-whitespace.json",
        "chrome-trace/speedscope-fixtures/simple-partial.json",
        "chrome-trace/speedscope-fixtures/simple-with-samples.json",
        "chrome-trace/speedscope-fixtures/simple.json",
        "chrome-trace/speedscope-fixtures/simultaneous-anonymous-calls.json",
        "chrome-trace/speedscope-fixtures/too-many-end-events.json",
        "chrome-trace/speedscope-fixtures/unbalanced-args.json",
        "chrome-trace/speedscope-fixtures/unbalanced-name.json",
        "chrome-trace/speedscope-fixtures/x-events-matching-end.json",
        "chrome-trace/speedscope-fixtures/x-events-matching-start.json",
        "chrome-trace/speedscope-fixtures/zero-duration-events.json",
        "enso/enso-format-stability-fixture.json",
        "folded/alternating.txt",
        "folded/inferno/austin_flames.txt",
        "folded/inferno/bad-lines_bad-lines.txt",
        "folded/inferno/colors_async-profiler-collapsed-part.txt",
        "folded/inferno/differential_perf-cycles-instructions-01-collapsed-all-diff.txt",
        "folded/inferno/fractional-samples_fractional.txt",
        "folded/inferno/fractional-samples_with-space.txt",
        "folded/perf-vertx-stacks-01-collapsed-all.txt",
        "folded/recursion.txt",
        "folded/simple-crlf.txt",
        "folded/simple-utf16-be.txt",
        "folded/simple-utf16-le.txt",
        "folded/simple-with-invalids.txt",
        "folded/simple.txt",
        "folded/tall.txt",
        "pprof/pprof-report-sample.cpu.pb",
        "pprof/speedscope-simple.prof.pb",
        "pprof/pprof-report-sample.cpu",
        "pprof/speedscope-simple.prof",
        "gecko/firefox-gecko-1.json",
        "gecko/firefox-gecko-2.json",
        "gecko/firefox-processed-1.json",
        "gecko/firefox-processed-2.json",
        "gecko/speedscope-firefox63-simple.json",
        "linux-perf/firefox-test.perf.gz",
        "linux-perf/firefox-test.perf.txt",
        "linux-perf/forks.linux-perf.txt",
        "linux-perf/rust-mangled.linux-perf.txt",
        "linux-perf/simple-with-header.linux-perf.txt",
        "linux-perf/simple-with-pid.linux-perf.txt",
        "linux-perf/simple.linux-perf.txt",
        "speedscope/0.0.1_simple-no-pretty-print.speedscope.json",
        "speedscope/0.0.1_simple.speedscope.json",
        "speedscope/0.1.2_simple-sampled.speedscope.json",
        "speedscope/0.6.0_two-sampled.speedscope.json",
        "speedscope/invalid_incomplete-trace.json",
        "speedscope/invalid_out-of-order-events.json",
    };
};

QTEST_GUILESS_MAIN(TestSamples)
#include "tst_samples.moc"
