#include "chromefastreader.h"
#include "measurementmetrics.h"
#include "ranktable.h"
#include "testsupport.h"

#include <QtTest>

using namespace runlane;
using runlane::test::byName;
using runlane::test::qstr;
using runlane::test::dataPath;
using runlane::test::loadText;

namespace {


// "name start..end @depth" for every interval of a track, depth by depth;
// times in ns from the profile start.
QStringList layout(const Profile& p, TrackId t = 0)
{
    QStringList out;
    for (int d = 0; d < p.track(t).depthCount(); ++d) {
        for (const Interval& iv : p.depthSlice(t, d)) {
            out << QStringLiteral("%1 %2..%3 @%4")
                       .arg(qstr(p.labelName(p.measurement(iv.measurement).label)))
                       .arg(iv.start - p.startTime())
                       .arg(iv.end - p.startTime())
                       .arg(d);
        }
    }
    return out;
}

int unfinishedCount(const Profile& p)
{
    int n = 0;
    for (const Measurement& m : p.measurements())
        n += m.finalState() == FinalState::Unfinished ? 1 : 0;
    return n;
}


// "name exec/total/wall" per label in ns, by name.
QStringList rankByName(const Profile& p)
{
    RankTable t = RankTable::compute(MeasurementMetrics(p));
    t.sort(p, RankSortKey::Name, false);
    QStringList out;
    for (const RankRow& r : t.rows())
        out << QStringLiteral("%1 %2/%3/%4").arg(qstr(p.labelName(r.label))).arg(r.exec).arg(r.total).arg(r.wall);
    return out;
}

QStringList warningExamples(const Profile& p)
{
    QStringList out;
    for (const std::string& example : p.diagnostics().examples())
        out << QString::fromStdString(example);
    return out;
}

QStringList trackNames(const Profile& p)
{
    QStringList names;
    for (const Track& t : p.tracks())
        names << qstr(p.string(t.name));
    return names;
}

} // namespace

class TestChromeLoader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Real fixtures (tests/data/samples, see SOURCES.md) with the layout we
    // expect, worked out by hand from the events in each file.
    void fixtures_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("expected");
        QTest::addColumn<int>("warnings");
        QTest::addColumn<int>("unfinished");

        const QString f = QStringLiteral("samples/chrome-trace/speedscope-fixtures/");
        const QStringList simple{"alpha 0..14000 @0", "beta 1000..13000 @1", "gamma 2000..7000 @2",
                                 "epsilon 7000..11000 @2"};
        QTest::newRow("simple") << f + "simple.json" << simple << 0 << 0;
        QTest::newRow("no closing ]") << f + "simple-partial.json" << simple << 1 << 0;
        QTest::newRow("trailing comma") << f + "simple-partial-trailing-comma.json" << simple << 1 << 0;
        QTest::newRow("trailing comma + blanks") << f + "simple-partial-whitespace.json" << simple << 1 << 0;
        QTest::newRow("object form, unnamed X with tdur")
            << f + "simple-object.json"
            << QStringList{"alpha 0..14000 @0", "beta 1000..13000 @1", "(unnamed) 7000..11000 @2"} << 0 << 0;
        QTest::newRow("sub-µs float ts") << QStringLiteral("samples/chrome-trace/catapult/nanoseconds.json")
                                         << QStringList{"us1 0..1100 @0",    "us2 1100..1300 @0", "us3 1300..1600 @0",
                                                        "us4 1700..2100 @0", "ns1 3000..3011 @0", "ns2 3011..3013 @0",
                                                        "ns3 3013..3016 @0", "ns4 3017..3021 @0"}
                                         << 0 << 0;
        QTest::newRow("zero durations, E before B at one ts")
            << f + "zero-duration-events.json"
            << QStringList{"A 0..10000 @0", "B 1000..1000 @1", "C 2000..2000 @1", "D 3000..3000 @1"} << 0 << 0;
        QTest::newRow("file order at equal ts")
            << f + "must-retain-original-order.json"
            << QStringList{"A 0..3000 @0", "A 4000..7000 @0", "X 7000..10000 @0", "B 0..2000 @1", "B 5000..7000 @1",
                           "C 0..1000 @2", "C 6000..7000 @2"}
            << 0 << 0;
        QTest::newRow("E reordered at equal ts")
            << f + "event-reordering-name-match.json"
            << QStringList{"alpha 0..10000 @0", "beta 1000..2000 @1", "gamma 1000..2000 @2"} << 0 << 0;
        QTest::newRow("E of an outer B ends the innermost")
            << f + "end-non-top-of-stack.json" << QStringList{"A 0..11000 @0", "B 1000..10000 @1", "Z 10000..11000 @1"}
            << 2 << 1;
        QTest::newRow("E without B") << f + "end-event-with-empty-stack.json" << QStringList{"alpha 0..1000 @0"} << 1
                                     << 0;
        QTest::newRow("B never closed")
            << f + "not-enough-end-events.json"
            << QStringList{"A 0..11000 @0", "A 1000..11000 @1", "A 10000..11000 @2"} << 2 << 2;
        QTest::newRow("only B") << f + "only-begin-events.json"
                                << QStringList{"A 0..2000 @0", "C 2000..2000 @0", "B 1000..2000 @1"} << 3 << 3;
        QTest::newRow("too many E, the stray ones ignored")
            << f + "too-many-end-events.json" << QStringList{"alpha 0..14000 @0", "beta 1000..13000 @1"} << 2 << 0;
        QTest::newRow("E names swapped") << f + "unbalanced-name.json"
                                         << QStringList{"alpha 0..10000 @0", "beta 1000..9000 @1"} << 2 << 0;
        QTest::newRow("unsorted, names swapped") << f + "out-of-order-unbalanced-name.json"
                                                 << QStringList{"alpha 0..10000 @0", "beta 1000..9000 @1"} << 2 << 0;
        QTest::newRow("E name differs") << f + "mismatched-name.json" << QStringList{"alpha 0..10000 @0"} << 1 << 0;
        QTest::newRow("unsorted") << f + "out-of-order.json"
                                  << QStringList{"A 0..10000 @0", "B 1000..9000 @1", "C 2000..8000 @2"} << 0 << 0;
        QTest::newRow("X sharing starts")
            << f + "x-events-matching-start.json"
            << QStringList{"alpha 0..20000 @0",    "beta 1000..3000 @1",   "gamma 5000..7000 @1",
                           "gamma 9000..11000 @1", "beta 13000..15000 @1", "gamma 1000..2000 @2",
                           "beta 5000..6000 @2",   "beta 9000..10000 @2",  "gamma 13000..14000 @2"}
            << 0 << 0;
        QTest::newRow("X sharing ends")
            << f + "x-events-matching-end.json"
            << QStringList{"alpha 0..20000 @0",   "beta 1000..3000 @1",    "gamma 5000..7000 @1",
                           "beta 9000..11000 @1", "gamma 14000..16000 @1", "gamma 2000..3000 @2",
                           "beta 6000..7000 @2",  "gamma 10000..11000 @2", "beta 15000..16000 @2"}
            << 0 << 0;
        QTest::newRow("identical X") << f + "matching-x.json"
                                     << QStringList{"alpha 0..10000 @0", "beta 1000..2000 @1", "gamma 5000..6000 @1",
                                                    "gamma 1000..2000 @2", "beta 5000..6000 @2"}
                                     << 0 << 0;
        QTest::newRow("partially overlapping X, the inner cut")
            << f + "invalid-x-nesting.json" << QStringList{"alpha 0..10000 @0", "beta 5000..10000 @1"} << 1 << 0;
        QTest::newRow("B/E mixed with X")
            << f + "bex-interaction.json"
            << QStringList{"A 0..2000 @0",      "C 10000..12000 @0", "F 20000..22000 @0", "G 30000..32000 @0",
                           "J 40000..42000 @0", "K 50000..52000 @0", "B 0..2000 @1",      "D 10000..12000 @1",
                           "E 20000..21000 @1", "H 30000..31000 @1", "I 41000..42000 @1", "L 51000..52000 @1"}
            << 0 << 0;
        QTest::newRow("same names at equal ts")
            << f + "simultaneous-anonymous-calls.json"
            << QStringList{"anonymous 0..5000 @0",    "anonymous 1000..3000 @1", "anonymous 3000..5000 @1",
                           "function1 1000..3000 @2", "anonymous 3000..5000 @2", "anonymous 1000..3000 @3"}
            << 0 << 0;
    }

    void fixtures()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, expected);
        QFETCH(int, warnings);
        QFETCH(int, unfinished);
        const LoadResult r = ProfileLoader::load(dataPath(file));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(r.profile->formatName(), std::string_view("Chrome Trace Event Format"));
        QCOMPARE(r.profile->trackCount(), std::size_t(1));
        QCOMPARE(layout(*r.profile), expected);
        QCOMPARE(int(r.profile->diagnostics().warningCount()), warnings);
        QCOMPARE(unfinishedCount(*r.profile), unfinished);
    }

    void hermesFramesKeepTheirSourcePosition()
    {
        const LoadResult r = ProfileLoader::load(dataPath("samples/chrome-trace/speedscope-fixtures/hermes-multiple-frames.json"));
        QVERIFY(r.ok());
        const Profile& p = *r.profile;
        bool found = false;
        for (LabelId l = 0; l < p.labelCount(); ++l) {
            if (p.labelName(l) == "beta") {
                QCOMPARE(qstr(p.string(p.label(l).file)),
                         QStringLiteral("/Users/example/test_project/node_modules/metro-runtime/src/polyfills/require.js"));
                QCOMPARE(p.label(l).line, 54);
                found = true;
            }
        }
        QVERIFY(found);
    }

    void tracksAreNamedAndOrdered()
    {
        const LoadResult r = ProfileLoader::load(dataPath("samples/chrome-trace/speedscope-fixtures/multiprocess.json"));
        QVERIFY(r.ok());
        QCOMPARE(trackNames(*r.profile), (QStringList{"p0 / p0t0", "p0 / p0t1", "p1 / p1t0", "p1 / p1t1",
                                                      "pid 2 / p2t0", "pid 2 / p2t1", "p3 / tid 0", "p3 / tid 1"}));
        QCOMPARE(r.profile->diagnostics().skippedCount(), std::uint64_t(0));
    }

    void stringIdsAndTimes()
    {
        const LoadResult r = ProfileLoader::load(dataPath("samples/chrome-trace/speedscope-fixtures/multi-thread-with-samples.json"));
        QVERIFY(r.ok());
        const Profile& p = *r.profile;
        QCOMPARE(trackNames(p), (QStringList{"hermes / mqt_js", "hermes / tid 2"}));
        QCOMPARE(p.startTime(), Time(11550183666000LL));
        QCOMPARE(p.intervalCount(), std::size_t(2));
        QCOMPARE(p.diagnostics().skippedEvents().size(), std::size_t(2)); // samples, stackFrames
    }

    void inlineTraces_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("expected");
        QTest::addColumn<QStringList>("tracks");

        QTest::newRow("string pid and tid name their tracks")
            << JSON([{"ph":"X","name":"a","pid":"renderer","tid":"main","ts":1,"dur":2}])
            << QStringList{"a 0..2000 @0"} << QStringList{"renderer / main"};
        QTest::newRow("numeric strings are numbers")
            << JSON([{"ph":"X","name":"a","pid":"7","tid":"8","ts":"2.5","dur":"1e0"}])
            << QStringList{"a 0..1000 @0"} << QStringList{"pid 7 / tid 8"};
        QTest::newRow("exponent ts") << JSON([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1.5e3,"dur":2.5E-1}])
                                     << QStringList{"a 0..250 @0"} << QStringList{"pid 1 / tid 1"};
        QTest::newRow("missing tid is the main thread")
            << JSON([{"ph":"X","name":"a","pid":4,"ts":0,"dur":1}]) << QStringList{"a 0..1000 @0"}
            << QStringList{"pid 4 / tid 4"};
        QTest::newRow("sort indices order tracks")
            << JSON([{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":1},
                {"ph":"X","name":"b","pid":1,"tid":2,"ts":0,"dur":1},
                {"ph":"M","name":"thread_sort_index","pid":1,"tid":2,"args":{"sort_index":-1}}])
            << QStringList{"b 0..1000 @0"} << QStringList{"pid 1 / tid 2", "pid 1 / tid 1"};
        QTest::newRow("empty events and unknown phases are skipped")
            << JSON([{}, {"ph":"P","ts":1}, {"ph":"XX","ts":1}, {"ph":"X","name":"a","ts":3,"dur":1}])
            << QStringList{"a 0..1000 @0"} << QStringList{"pid 0 / tid 0"};
        QTest::newRow("deep args are not fields")
            << JSON([{"ph":"X","args":{"data":{"ph":"B","ts":99,"name":"no"}},"name":"a","ts":3,"dur":1}])
            << QStringList{"a 0..1000 @0"} << QStringList{"pid 0 / tid 0"};
    }

    void inlineTraces()
    {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, expected);
        QFETCH(QStringList, tracks);
        const LoadResult r = loadText(json);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(trackNames(*r.profile), tracks);
        QCOMPARE(layout(*r.profile), expected);
    }

    // Where peers read a trace differently, what Runlane does (docs/formats.md,
    // "How formats are read"): the layout of the first track, the rank, every
    // warning and how many calls stay unfinished.
    void readingRules_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("expected");
        QTest::addColumn<QStringList>("rank");
        QTest::addColumn<QStringList>("warnings");
        QTest::addColumn<int>("unfinished");

        // semantics.md §4: a's time with children is its duration, 10 µs,
        // not 15; b is cut at a's end.
        QTest::newRow("X that do not nest: the inner is cut")
            << JSON([{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":10},
                {"ph":"X","name":"b","pid":1,"tid":1,"ts":5,"dur":10}])
            << QStringList{"a 0..10000 @0", "b 5000..10000 @1"}
            << QStringList{"a 5000/10000/10000", "b 5000/5000/5000"}
            << QStringList{"call 'b' starts inside 'a' but ends 5000 ns after it; cut at its end"} << 0;
        // speedscope's too-many-end-events.json: catapult, Perfetto and
        // speedscope agree on alpha 14 µs and beta 12 µs. Sorted by time,
        // the E written last would end beta at 5 µs, then alpha.
        QTest::newRow("E out of time order, of no open B: ignored")
            << JSON([{"pid":0,"tid":0,"ph":"B","name":"alpha","ts":0},
                {"pid":0,"tid":0,"ph":"B","name":"beta","ts":1},
                {"pid":0,"tid":0,"ph":"E","name":"beta","ts":13},
                {"pid":0,"tid":0,"ph":"E","name":"alpha","ts":14},
                {"pid":0,"tid":0,"ph":"E","name":"gamma","ts":5},
                {"pid":0,"tid":0,"ph":"E","name":"delta","ts":5}])
            << QStringList{"alpha 0..14000 @0", "beta 1000..13000 @1"}
            << QStringList{"alpha 2000/14000/14000", "beta 12000/12000/12000"}
            << QStringList{"E 'gamma' (event #4) comes after later events and matches no open B on its thread; ignored",
                           "E 'delta' (event #5) comes after later events and matches no open B on its thread; ignored"}
            << 0;
        // Out of order but naming an open B: it ends the innermost one, as
        // any E does (b's E at 4, then a's).
        QTest::newRow("E out of time order, of an open B: ends the innermost")
            << JSON([{"ph":"B","name":"a","ts":0}, {"ph":"B","name":"b","ts":1},
                {"ph":"E","name":"a","ts":9}, {"ph":"E","name":"a","ts":4}])
            << QStringList{"a 0..9000 @0", "b 1000..4000 @1"}
            << QStringList{"a 6000/9000/9000", "b 3000/3000/3000"}
            << QStringList{"E 'a' ends B 'b'"} << 0;
        // Ends at the profile's end, 20 µs, as in catapult (speedscope: at
        // its thread's last event, 3 µs; Perfetto: open-ended).
        QTest::newRow("unclosed B ends at the profile's end")
            << JSON([{"ph":"B","name":"a","pid":1,"tid":1,"ts":0},
                {"ph":"X","name":"c","pid":1,"tid":1,"ts":1,"dur":2},
                {"ph":"X","name":"d","pid":1,"tid":2,"ts":0,"dur":20}])
            << QStringList{"a 0..20000 @0", "c 1000..3000 @1"}
            << QStringList{"a 18000/20000/20000", "c 2000/2000/2000", "d 20000/20000/20000"}
            << QStringList{"B 'a' is never closed; it ends with the profile"} << 1;
        // The innermost B ends, as in catapult (Perfetto: the nearest open
        // B of the E's name, a at 5 µs).
        QTest::newRow("E of another name ends the innermost B")
            << JSON([{"ph":"B","name":"a","ts":0}, {"ph":"B","name":"b","ts":1},
                {"ph":"E","name":"a","ts":5}, {"ph":"E","name":"b","ts":8}])
            << QStringList{"a 0..8000 @0", "b 1000..5000 @1"}
            << QStringList{"a 4000/8000/8000", "b 4000/4000/4000"}
            << QStringList{"E 'a' ends B 'b'", "E 'b' ends B 'a'"} << 0;
        // An empty name is shown as "(empty)", as for folded stacks.
        QTest::newRow("event named \"\"")
            << JSON([{"ph":"X","name":"","ts":0,"dur":1}]) << QStringList{"(empty) 0..1000 @0"}
            << QStringList{"(empty) 1000/1000/1000"} << QStringList{} << 0;
        // Equal extents: the first in the file is the outer one.
        QTest::newRow("X then B/E of the same extent: X outer")
            << JSON([{"ph":"X","name":"x","ts":0,"dur":10}, {"ph":"B","name":"y","ts":0},
                {"ph":"E","name":"y","ts":10}])
            << QStringList{"x 0..10000 @0", "y 0..10000 @1"} << QStringList{"x 0/10000/10000", "y 10000/10000/10000"}
            << QStringList{} << 0;
        QTest::newRow("B/E then X of the same extent: B/E outer")
            << JSON([{"ph":"B","name":"y","ts":0}, {"ph":"E","name":"y","ts":10},
                {"ph":"X","name":"x","ts":0,"dur":10}])
            << QStringList{"y 0..10000 @0", "x 0..10000 @1"} << QStringList{"x 10000/10000/10000", "y 0/10000/10000"}
            << QStringList{} << 0;
        QTest::newRow("B, X, then E of the same extent: B/E outer")
            << JSON([{"ph":"B","name":"y","ts":0}, {"ph":"X","name":"x","ts":0,"dur":10},
                {"ph":"E","name":"y","ts":10}])
            << QStringList{"y 0..10000 @0", "x 0..10000 @1"} << QStringList{"x 10000/10000/10000", "y 0/10000/10000"}
            << QStringList{} << 0;
    }

    void readingRules()
    {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, expected);
        QFETCH(QStringList, rank);
        QFETCH(QStringList, warnings);
        QFETCH(int, unfinished);
        const std::uint64_t before = ChromeFastReader::completedReads();
        const LoadResult r = loadText(json);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        // Read by the fast path, and again by the reference one in the
        // _reference run of this test: both give the same.
        QCOMPARE(ChromeFastReader::completedReads() - before, std::uint64_t(ChromeFastReader::enabled() ? 1 : 0));
        QCOMPARE(layout(*r.profile), expected);
        QCOMPARE(rankByName(*r.profile), rank);
        QCOMPARE(warningExamples(*r.profile), warnings);
        QCOMPARE(int(r.profile->diagnostics().warningCount()), warnings.size());
        QCOMPARE(unfinishedCount(*r.profile), unfinished);
    }

    void skippedEventsAreCounted()
    {
        const LoadResult r = loadText(
            JSON([{}, {"ph":"P","ts":1}, {"ph":"P","ts":2}, {"ph":"N","ts":1,"id":1}, {"ph":"s","ts":1,"id":1}]));
        QVERIFY(r.ok());
        const auto& skipped = r.profile->diagnostics().skippedEvents();
        QCOMPARE(skipped.at("empty event {}"), std::uint64_t(1));
        QCOMPARE(skipped.at("phase 'P'"), std::uint64_t(2));
        QCOMPARE(skipped.at("phase 'N'"), std::uint64_t(1));
        // A flow event is read (tst_chromeflowcollector); on no slice, it
        // is a warning.
        QCOMPARE(skipped.count("phase 's'"), std::size_t(0));
        QCOMPARE(r.profile->diagnostics().warningKinds().at("flow event on no slice"), std::uint64_t(1));
    }

    void nestableAsync()
    {
        const LoadResult r = ProfileLoader::load(dataPath("samples/chrome-trace/catapult/nestable_async.json"));
        QVERIFY(r.ok());
        const Profile& p = *r.profile;
        QCOMPARE(trackNames(p), QStringList{"pid 26037 / async"});
        QCOMPARE(p.track(0).kind, TrackKind::Async);
        // Two ids: 0x313 with nested slices, 0x314 with three top-level ones.
        QCOMPARE(layout(p), (QStringList{"REQUEST_BAR 0..90000 @0", "REQUEST_FOO 100000..190000 @0",
                                         "URL_REQUEST_DELEGATE 10000..20000 @1", "URL_REQUEST_START_JOB 30000..60000 @1",
                                         "URL_REQUEST_DELEGATE_UNMATCHED_BEGIN 70000..90000 @1",
                                         "URL_REQUEST_START_JOB 130000..160000 @1", "URL_REQUEST_DELEGATE 170000..180000 @1",
                                         "URL_REQUEST_INNER 40000..50000 @2", "URL_REQUEST_INNER 140000..150000 @2"}));
        // The unmatched 'b' ends with its task, the unmatched 'e' is ignored.
        QCOMPARE(p.diagnostics().warningKinds().at("async begin without end"), std::uint64_t(1));
        QCOMPARE(p.diagnostics().warningKinds().at("async end without begin"), std::uint64_t(1));
        int tasks = 0;
        for (MeasurementId id = 0; id < p.measurementCount(); ++id) {
            if (p.measurement(id).isAsync()) {
                ++tasks;
                QCOMPARE(p.measurement(id).creator, kNone);
            }
        }
        QCOMPARE(tasks, 2);
        QCOMPARE(p.marks().size(), std::size_t(2)); // the two 'n' instants
        // A task's exec time leaves out its nested slices.
        const MeasurementMetrics m(p);
        QCOMPARE(m.exec(0), Time(90000 - 10000 - 30000 - 20000));
        QCOMPARE(m.exec(byName(p, "REQUEST_FOO")), Time(90000 - 30000 - 10000));
        QCOMPARE(m.total(0), Time(90000));
    }

    void localIdsArePerProcess()
    {
        const LoadResult r = loadText(JSON([
            {"ph":"b","cat":"c","name":"t","id2":{"local":"0x1"},"pid":1,"ts":0},
            {"ph":"b","cat":"c","name":"t","id2":{"local":"0x1"},"pid":2,"ts":1},
            {"ph":"e","cat":"c","name":"t","id2":{"local":"0x1"},"pid":1,"ts":5},
            {"ph":"e","cat":"c","name":"t","id2":{"local":"0x1"},"pid":2,"ts":6},
            {"ph":"b","cat":"c","name":"g","id2":{"global":"0x1"},"pid":1,"ts":0},
            {"ph":"e","cat":"c","name":"g","id2":{"global":"0x1"},"pid":2,"ts":9}]));
        QVERIFY(r.ok());
        QCOMPARE(trackNames(*r.profile), (QStringList{"pid 1 / async", "pid 2 / async"}));
        QCOMPARE(layout(*r.profile, 0), (QStringList{"g 0..9000 @0", "t 0..5000 @1"}));
        QCOMPARE(layout(*r.profile, 1), QStringList{"t 1000..6000 @0"});
    }

    void legacyAsync()
    {
        const LoadResult r = loadText(JSON([
            {"ph":"S","cat":"r","name":"load","id":"1","pid":1,"tid":1,"ts":10},
            {"ph":"T","cat":"r","name":"load","id":"1","pid":1,"tid":1,"ts":15,"args":{"step":"x"}},
            {"ph":"F","cat":"r","name":"load","id":"1","pid":1,"tid":1,"ts":30},
            {"ph":"S","cat":"r","name":"other","id":"1","pid":1,"tid":1,"ts":12}]));
        QVERIFY(r.ok());
        QCOMPARE(layout(*r.profile), (QStringList{"load 0..20000 @0", "other 2000..20000 @1"}));
        QCOMPARE(unfinishedCount(*r.profile), 1);
        QCOMPARE(r.profile->marks().size(), std::size_t(1));
    }

    void countersAndInstants()
    {
        const LoadResult r = loadText(JSON([
            {"ph":"C","name":"mem","pid":1,"ts":0,"args":{"heap":10,"stack":2}},
            {"ph":"C","name":"mem","pid":1,"ts":5,"args":{"heap":12.5,"stack":3}},
            {"ph":"C","name":"mem","id":7,"pid":1,"ts":5,"args":{"heap":1}},
            {"ph":"i","name":"t","pid":1,"tid":2,"ts":1},
            {"ph":"I","name":"p","pid":1,"tid":2,"ts":2,"s":"p"},
            {"ph":"R","name":"g","ts":3,"s":"g"}]));
        QVERIFY(r.ok());
        const Profile& p = *r.profile;
        QCOMPARE(p.counters().size(), std::size_t(3));
        QStringList names;
        for (const CounterSeries& c : p.counters())
            names << qstr(p.string(c.name)) + " " + qstr(p.string(c.key)) + ":" + QString::number(c.values.size());
        QCOMPARE(names, (QStringList{"mem heap:2", "mem stack:2", "mem[7] heap:1"}));
        QCOMPARE(p.counters()[0].values[1], 12.5);
        QCOMPARE(p.marks().size(), std::size_t(3));
        QCOMPARE(p.marks()[0].scope, MarkScope::Thread);
        QCOMPARE(p.marks()[0].track, TrackId(0));
        QCOMPARE(p.marks()[1].scope, MarkScope::Process);
        QCOMPARE(p.marks()[1].pid, std::int64_t(1));
        QCOMPARE(p.marks()[2].scope, MarkScope::Global);
        QCOMPARE(p.duration(), Time(5000));
    }

    void truncatedInsideAnEvent()
    {
        // (Not a raw string: moc misreads one that ends inside a quoted key.)
        const LoadResult r = loadText("[{\"ph\":\"X\",\"name\":\"a\",\"ts\":0,\"dur\":1},{\"ph\":\"X\",\"na");
        QVERIFY(r.ok());
        QCOMPARE(layout(*r.profile), QStringList{"a 0..1000 @0"});
        QCOMPARE(r.profile->diagnostics().warningKinds().at("truncated file"), std::uint64_t(1));
    }

    void trailingData()
    {
        const LoadResult r = loadText("[{\"ph\":\"X\",\"name\":\"a\",\"ts\":0,\"dur\":1}]\n  garbage");
        QVERIFY(r.ok());
        QCOMPARE(r.profile->diagnostics().warningKinds().at("trailing data"), std::uint64_t(1));
        QCOMPARE(QString::fromStdString(r.profile->diagnostics().examples().at(0)),
                 QStringLiteral("7 bytes after the end of the trace (byte 41) are ignored"));
    }

    // The tolerated ends of a bare event array, told apart even when the
    // whole file fits in one read.
    void toleratedEnds_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("warning");
        QTest::addColumn<int>("intervals");
        const QByteArray event = JSON({"ph" : "X", "name" : "a", "ts" : 0, "dur" : 1});
        QTest::newRow("',' then ']'") << "[" + event + ",\n]" << "trailing comma" << 1;
        QTest::newRow("',' then the end") << "[" + event + ",\n" << "unterminated event array" << 1;
        QTest::newRow("no ']'") << "[" + event << "unterminated event array" << 1;
        QTest::newRow("cut in a string") << "[" + event + ",{\"ph\":\"X\",\"na" << "truncated file" << 1;
        QTest::newRow("cut in a number") << "[" + event + ",{\"ph\":\"X\",\"ts\":12" << "truncated file" << 1;
    }
    void toleratedEnds()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, warning);
        QFETCH(int, intervals);
        const LoadResult r = loadText(json);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(r.profile->intervalCount(), std::size_t(intervals));
        QCOMPARE(r.profile->diagnostics().warningCount(), std::uint64_t(1));
        QCOMPARE(r.profile->diagnostics().warningKinds().count(warning.toStdString()), std::size_t(1));
    }

    // A file cut short (a recorder died while writing it), in either form
    // and wherever the cut is: the events before it load, with one
    // "truncated file" warning that says where the cut is (the "cut short"
    // notice). Read by the fast path, and by the reference one in the
    // _reference run.
    void cutShort_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("intervals");
        QTest::addColumn<QString>("warning");
        const QByteArray a = JSON({"ph":"X","pid":1,"tid":1,"name":"a","ts":0,"dur":1});
        const QByteArray b = JSON({"ph":"X","pid":1,"tid":1,"name":"b","ts":2,"dur":1});
        const QByteArray two = "{\"traceEvents\":[" + a + ",\n" + b;
        const QByteArray third = ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"c\",\"ts\":5,\"dur\":1,\"args\":{";
        const QString inThird = QStringLiteral("the file ends inside event #2; that event is dropped");
        const QString afterArray = QStringLiteral("the file ends after the event array, inside the top-level object");
        // (Cuts inside a string are not raw strings: moc misreads those.)
        QTest::newRow("object: in args") << two + third + "\"data\":{\"url\":\"htt" << 2 << inThird;
        QTest::newRow("object: in an array in args") << two + third + "\"frames\":[1,{\"f\":" << 2 << inThird;
        QTest::newRow("object: in a literal in args") << two + third + "\"ok\":tr" << 2 << inThird;
        QTest::newRow("object: in a key") << two + ",{\"ph\":\"X\",\"na" << 2 << inThird;
        QTest::newRow("object: in a number") << two + ",{\"ph\":\"X\",\"ts\":12" << 2 << inThird;
        QTest::newRow("object: after a comma") << two + "," << 2
                                               << "the file ends inside the event array, after 2 events";
        QTest::newRow("object: after a comma and blanks") << two + ",\n  " << 2
                                                          << "the file ends inside the event array, after 2 events";
        QTest::newRow("object: after an event") << two << 2 << "the file ends inside the event array, after 2 events";
        QTest::newRow("object: after the first event") << "{\"traceEvents\":[" + a << 1
                                                       << "the file ends inside the event array, after 1 event";
        QTest::newRow("object: after '['") << QByteArray("{\"traceEvents\":[") << 0
                                          << "the file ends inside the event array, before its first event";
        QTest::newRow("object: other keys first")
            << "{\"otherData\":{\"version\":\"1\",\"list\":[1,{}]},\"traceEvents\":[" + a + ",{\"ph\":\"X\",\"ts\":1"
            << 1 << "the file ends inside event #1; that event is dropped";
        QTest::newRow("object: after the array") << two + "]" << 2 << afterArray;
        QTest::newRow("object: after the array and a comma") << two + "],\n" << 2 << afterArray;
        QTest::newRow("object: in a later key") << two + "],\"stackFr" << 2 << afterArray;
        QTest::newRow("object: after a later value") << two + "],\"displayTimeUnit\":\"ns\"" << 2 << afterArray;
        QTest::newRow("object: after a later object") << two + "],\"metadata\":{\"a\":[1]}" << 2 << afterArray;
        QTest::newRow("object: after a later number") << two + "],\"x\":12" << 2 << afterArray;
        QTest::newRow("object: after a later key") << two + "],\"metadata\"" << 2
                                                   << "the file ends after the event array, inside top-level 'metadata'";
        QTest::newRow("object: after a later colon") << two + "],\"metadata\": " << 2
                                                     << "the file ends after the event array, inside top-level 'metadata'";
        QTest::newRow("object: in a later string") << two + "],\"displayTimeUnit\":\"n" << 2
                                                   << "the file ends after the event array, inside top-level 'displayTimeUnit'";
        QTest::newRow("object: in stackFrames") << two + "],\"stackFrames\":{\"1\":{\"name\":\"f" << 2
                                                << "the file ends after the event array, inside top-level 'stackFrames'";
        QTest::newRow("object: in samples") << two + "],\"samples\":[{\"cpu\":0,\"tid\":1,\"ts\":1" << 2
                                            << "the file ends after the event array, inside top-level 'samples'";
        // The bare array says the same of a cut inside an event.
        QTest::newRow("array: in args") << "[" + a + ",\n" + b + third + "\"data\":{\"url\":\"htt" << 2 << inThird;
        QTest::newRow("array: in a number") << "[" + a + ",\n" + b + ",{\"ph\":\"X\",\"ts\":12" << 2 << inThird;
    }
    void cutShort()
    {
        QFETCH(QByteArray, json);
        QFETCH(int, intervals);
        QFETCH(QString, warning);
        const std::uint64_t before = ChromeFastReader::completedReads();
        const LoadResult r = loadText(json);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(ChromeFastReader::completedReads() - before, std::uint64_t(ChromeFastReader::enabled() ? 1 : 0));
        QCOMPARE(r.profile->intervalCount(), std::size_t(intervals));
        QCOMPARE(r.profile->measurementCount(), std::size_t(intervals));
        QCOMPARE(warningExamples(*r.profile), QStringList{warning});
        QCOMPARE(r.profile->diagnostics().warningCount(), std::uint64_t(1));
        QCOMPARE(qstr(r.profile->diagnostics().firstMessage("truncated file")), warning);
    }

    // Bad input: a precise error, never a crash.
    void errors_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<qint64>("offset");
        QTest::addColumn<qint64>("event");
        QTest::addColumn<QString>("message");

        QTest::newRow("scalar event") << QByteArray("[{\"ph\":\"X\",\"ts\":0},\n 7]") << qint64(-2) << qint64(1)
                                      << "expected an event object, found 7";
        QTest::newRow("wrong ts type") << JSON([{"ph":"X","name":"a","ts":"soon","dur":1}]) << qint64(-2)
                                       << qint64(0) << "'ts' must be a number of microseconds, found \"soon\"";
        QTest::newRow("ts true") << JSON([{"ph":"B","ts":true}]) << qint64(-2) << qint64(0)
                                 << "'ts' must be a number of microseconds, found true";
        QTest::newRow("missing ts") << JSON([{"ph":"X","name":"a","dur":1}]) << qint64(-2) << qint64(0)
                                    << "missing 'ts' (the timestamp in microseconds) in a 'X' event";
        QTest::newRow("missing ph") << JSON([{"name":"a","ts":1},{"ts":2}]) << qint64(-2) << qint64(0)
                                    << "missing 'ph' (the event phase)";
        QTest::newRow("numeric ph") << JSON([{"ph":1,"ts":2}]) << qint64(-2) << qint64(0)
                                    << "'ph' must be a one-letter string, found 1";
        QTest::newRow("ts out of range") << JSON([{"ph":"X","ts":1e300,"dur":1}]) << qint64(-2) << qint64(0)
                                         << "'ts' 1e300 is out of range (more than 292 years from 0)";
        QTest::newRow("dur wrong type") << JSON([{"ph":"X","ts":1,"dur":[1]}]) << qint64(-2) << qint64(0)
                                        << "'dur' must be a number of microseconds, found an array";
        QTest::newRow("pid wrong type") << JSON([{"ph":"X","ts":1,"dur":1,"pid":false}]) << qint64(-2)
                                        << qint64(0) << "'pid' must be a number or a string, found false";
        QTest::newRow("no traceEvents") << JSON({"foo": 1}) << qint64(0) << qint64(-1)
                                        << "expected a 'traceEvents' array in the top-level object";
        QTest::newRow("traceEvents not an array") << JSON({"traceEvents": 5}) << qint64(-2) << qint64(-1)
                                                  << "'traceEvents' must be an array of events, found 5";
        // Cut before its event array: nothing to load.
        QTest::newRow("object cut before its events") << QByteArray("{\"otherData\":{\"version\":[1,")
                                                      << qint64(27) << qint64(-1) << "invalid JSON: syntax error while parsing value - unexpected end of input; "
                                                         "expected '[', '{', or a literal";
        // Not cut: broken inside, or after, the event array.
        QTest::newRow("object: trailing comma") << JSON({"traceEvents":[{"ph":"X","ts":0,"dur":1},]})
                                                << qint64(42) << qint64(-1) << "invalid JSON: syntax error while parsing value - unexpected ']'; "
                                                   "expected '[', '{', or a literal";
        QTest::newRow("object: garbage between events")
            << QByteArray("{\"traceEvents\":[{\"ph\":\"X\",\"ts\":0,\"dur\":1}, @ {}]}") << qint64(43) << qint64(-1)
            << "invalid JSON: syntax error while parsing value - invalid literal; last read: '1}, @'";
        QTest::newRow("object: garbage after the events")
            << QByteArray("{\"traceEvents\":[{\"ph\":\"X\",\"ts\":0,\"dur\":1}] @ }") << qint64(43) << qint64(-1)
            << "invalid JSON: syntax error while parsing object - invalid literal; last read: '1}] @'; expected '}'";
        QTest::newRow("syntax error") << QByteArray("[{\"ph\":\"X\",\"ts\":0,\"dur\":1},\n {\"ph\" \"X\"}]") << qint64(35)
                                      << qint64(1)
                                      << "invalid JSON: syntax error while parsing object separator - "
                                         "unexpected string literal; expected ':'";
        QTest::newRow("invalid UTF-8") << QByteArray("[{\"ph\":\"X\",\"name\":\"\xff\xfe\",\"ts\":1,\"dur\":1}]")
                                       << qint64(18) << qint64(0)
                                       << "invalid JSON: syntax error while parsing value - invalid string: ill-formed "
                                          "UTF-8 byte; last read: '\"\\xff'";
        // The offset names the offending token itself, not what came before it.
        QTest::newRow("missing value") << QByteArray("[{\"ph\": \"X\", \"ts\": 1, \"dur\": }]") << qint64(29) << qint64(0)
                                       << "invalid JSON: syntax error while parsing value - unexpected '}'; expected "
                                          "'[', '{', or a literal";
        QTest::newRow("bad literal") << QByteArray("[{\"ph\": \"X\", \"ts\": tru, \"dur\": 1}]") << qint64(19) << qint64(0)
                                     << "invalid JSON: syntax error while parsing value - invalid literal; last read: "
                                        "'\"ts\": tru,'";
        QTest::newRow("top-level number") << QByteArray("42") << qint64(-2) << qint64(-1)
                                          << "not a profile: expected JSON ('[' or '{') or Enso Language Server message log or folded stacks or perf script, found '4' at byte 0";
    }

    void errors()
    {
        QFETCH(QByteArray, json);
        QFETCH(qint64, offset);
        QFETCH(qint64, event);
        QFETCH(QString, message);
        const LoadResult r = loadText(json);
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error.message), message);
        QCOMPARE(qint64(r.error.eventIndex), event);
        if (offset >= -1)
            QCOMPARE(qint64(r.error.byteOffset), offset);
        else
            QVERIFY(r.error.byteOffset > 0 || event < 0);
        QVERIFY(!r.error.file.empty());
    }

    // The place of an error, as the user reads it; in the object form too,
    // where garbage before the end is an error and not a cut.
    void errorPositionIsLineAndColumn_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("place");
        QTest::newRow("bare array") << QByteArray("[{\"ph\":\"X\",\"ts\":0,\"dur\":1},\n {\"ph\" \"X\"}]")
                                    << ": line 2, column 8 (byte 35), event #1: invalid JSON: syntax error while "
                                       "parsing object separator - unexpected string literal; expected ':'";
        QTest::newRow("object form") << QByteArray("{\"traceEvents\":[\n{\"ph\":\"X\",\"ts\":0,\"dur\":1},\n @ {}]}")
                                     << ": line 3, column 2 (byte 45): invalid JSON: syntax error while parsing value - "
                                        "invalid literal; last read: '1},<U+000A> @'";
    }
    void errorPositionIsLineAndColumn()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, place);
        const LoadResult r = loadText(json);
        QVERIFY(!r.ok());
        const QString text = QString::fromStdString(r.error.toString());
        QVERIFY2(text.endsWith(place), qPrintable(text));
    }
};

QTEST_GUILESS_MAIN(TestChromeLoader)
#include "tst_chromeloader.moc"
