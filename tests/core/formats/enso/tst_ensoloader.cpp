#include "ensogenerator.h"
#include "ensologbuilder.h"
#include "measurementmetrics.h"
#include "testsupport.h"

#include <QtTest>

using namespace runlane;
using runlane::test::byName;
using runlane::test::qstr;
using runlane::test::dataPath;
using runlane::test::loadText;

namespace {


constexpr Time us = 1000;

} // namespace

class TestEnsoLoader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void splitLabel_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("line");
        QTest::newRow("position") << "entry_point_ide (app/gui/src/lib.rs:134)" << "entry_point_ide"
                                  << "app/gui/src/lib.rs" << 134;
        QTest::newRow("unknown position") << "APP_LIFETIME (?:?)" << "APP_LIFETIME" << "" << 0;
        QTest::newRow("no position") << "@on_frame" << "@on_frame" << "" << 0;
        QTest::newRow("parenthesis, no line") << "call (later)" << "call (later)" << "" << 0;
        QTest::newRow("spaces in name") << "a b c (x.rs:2)" << "a b c" << "x.rs" << 2;
        QTest::newRow("colon in path") << "f (C:/src/x.rs:7)" << "f" << "C:/src/x.rs" << 7;
    }

    void splitLabel()
    {
        QFETCH(QString, text);
        QFETCH(QString, name);
        QFETCH(QString, file);
        QFETCH(int, line);
        const std::string utf8 = text.toStdString();
        std::string_view n, f;
        std::int32_t l = -1;
        EnsoLogBuilder::splitLabel(utf8, n, f, l);
        QCOMPARE(QString::fromStdString(std::string(n)), name);
        QCOMPARE(QString::fromStdString(std::string(f)), file);
        QCOMPARE(int(l), line);
    }

    // The format-stability fixture: every event kind and field encoding,
    // but not a consistent profile (it uses labels before defining them).
    void formatFixture()
    {
        const LoadResult r = ProfileLoader::load(dataPath("samples/enso/enso-format-stability-fixture.json"));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.formatName(), std::string_view("Enso profiler event log"));
        QCOMPARE(p.trackCount(), std::size_t(1));
        QCOMPARE(p.string(p.track(0).name), std::string_view("Ide"));
        QCOMPARE(p.measurementCount(), std::size_t(4));
        QCOMPARE(p.intervalCount(), std::size_t(0));
        // $TimeOffset shifts every time; the `t: null` root starts at the origin.
        QCOMPARE(p.startTime(), Time(1650900741301300LL) * us);
        QCOMPARE(p.endTime(), (Time(1650900741301300LL) + 5210200) * us);
        const auto& kinds = p.diagnostics().warningKinds();
        QCOMPARE(p.diagnostics().warningCount(), std::uint64_t(8));
        QCOMPARE(kinds.at("undefined label"), std::uint64_t(4));
        QCOMPARE(kinds.at("unexpected state"), std::uint64_t(2));
        QCOMPARE(kinds.at("finished before created"), std::uint64_t(1));
        QCOMPARE(kinds.at("created before its creator"), std::uint64_t(1));
        int ended = 0;
        for (const Measurement& m : p.measurements())
            ended += m.finalState() == FinalState::Ended ? 1 : 0;
        QCOMPARE(ended, 1);
    }

    // semantics.md §3, written as an Enso log in µs ticks.
    void nestedCalls()
    {
        const LoadResult r = loadText(JSON([
            {"L":{"l":"f (app.rs:1)"}},{"L":{"l":"g (app.rs:2)"}},{"L":{"l":"h (app.rs:3)"}},
            {"C":{"p":-1,"t":0,"l":0}},{"S":{"i":0,"t":0}},
            {"C":{"t":10,"l":1}},{"S":{"i":1,"t":10}},
            {"C":{"t":30,"l":2}},{"S":{"i":2,"t":30}},{"E":{"i":2,"t":60}},
            {"E":{"i":1,"t":100}},{"E":{"i":0,"t":160}}]));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        const MeasurementMetrics m(p);
        const MeasurementId f = byName(p, "f"), g = byName(p, "g"), h = byName(p, "h");
        QCOMPARE(m.exec(f), 70 * us);
        QCOMPARE(m.exec(g), 60 * us);
        QCOMPARE(m.exec(h), 30 * us);
        QCOMPARE(m.total(f), 160 * us);
        QCOMPARE(m.total(g), 90 * us);
        QCOMPARE(m.total(h), 30 * us);
        QCOMPARE(p.measurement(g).creator, f);
        QCOMPARE(p.measurement(h).creator, g);
        QCOMPARE(p.string(p.label(p.measurement(f).label).file), std::string_view("app.rs"));
        QCOMPARE(p.label(p.measurement(h).label).line, 3);
        QVERIFY(!p.measurement(f).isAsync());
        QCOMPARE(p.measurement(f).finalState(), FinalState::Ended);
    }

    void asyncPauseResume()
    {
        // `load` is created paused by `main`, runs 10-20, waits, runs 50-80.
        const LoadResult r = loadText(JSON([
            {"L":{"l":"main (app.rs:1)"}},{"L":{"l":"load (net.rs:10)"}},
            {"C":{"p":-1,"t":0,"l":0}},{"S":{"i":0,"t":0}},
            {"C":{"t":5,"l":1}},
            {"P":{"i":0,"t":10}},{"S":{"i":1,"t":10}},{"P":{"i":1,"t":20}},{"S":{"i":0,"t":20}},
            {"S":{"i":1,"t":50}},{"E":{"i":1,"t":80}},
            {"E":{"i":0,"t":100}}]));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        const MeasurementMetrics m(p);
        const MeasurementId load = byName(p, "load"), main = byName(p, "main");
        QCOMPARE(p.intervalsOf(load).size(), std::size_t(2));
        QVERIFY(p.measurement(load).isAsync());
        QCOMPARE(p.measurement(load).creator, main);
        // exec = the sum of its active intervals
        QCOMPARE(m.exec(load), (20 - 10 + 80 - 50) * us);
        QCOMPARE(m.wall(load), (80 - 5) * us);
        QCOMPARE(m.exec(main), (10 + 80 - 30) * us);
        QCOMPARE(m.total(main), 100 * us);
        QCOMPARE(m.busy(0), 100 * us);
        QCOMPARE(p.diagnostics().warningCount(), std::uint64_t(0));
    }

    void asyncWithNestedCall()
    {
        const LoadResult r = loadText(JSON([
            {"L":{"l":"main"}},{"L":{"l":"load"}},{"L":{"l":"parse"}},
            {"C":{"p":-1,"t":0,"l":0}},{"S":{"i":0,"t":0}},
            {"C":{"t":5,"l":1}},
            {"P":{"i":0,"t":10}},{"S":{"i":1,"t":10}},{"P":{"i":1,"t":20}},{"S":{"i":0,"t":20}},
            {"S":{"i":1,"t":50}},
            {"C":{"t":55,"l":2}},{"S":{"i":2,"t":55}},{"E":{"i":2,"t":60}},
            {"E":{"i":1,"t":80}},
            {"E":{"i":0,"t":100}}]));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        const MeasurementMetrics m(p);
        const MeasurementId load = byName(p, "load"), parse = byName(p, "parse"), main = byName(p, "main");
        QCOMPARE(p.measurement(parse).creator, load);
        QCOMPARE(m.exec(load), 35 * us);
        QCOMPARE(m.total(load), 40 * us);
        QCOMPARE(m.exec(parse), 5 * us);
        QCOMPARE(m.exec(main), 60 * us);
        QCOMPARE(m.exec(main) + m.exec(load) + m.exec(parse), m.busy(0));
    }

    void processesAndOffsets()
    {
        const LoadResult r = loadText(JSON([{"X":{"t":0,"d":{"$Process":"Ide"}}},{"X":{"t":0,"d":{"$TimeOffset":1000}}},
              {"L":{"l":"a"}},{"C":{"t":0,"l":0}},{"S":{"i":0,"t":0}},{"E":{"i":0,"t":10}}]
            [{"L":{"l":"b"}},{"C":{"t":0,"l":0}},{"S":{"i":0,"t":0}},{"E":{"i":0,"t":10}},
              {"X":{"t":0,"d":{"$TimeOffset":1005}}},{"X":{"t":0,"d":{"$Process":"LanguageServer"}}}]
        ));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.trackCount(), std::size_t(2));
        QCOMPARE(p.string(p.track(0).name), std::string_view("Ide"));
        QCOMPARE(p.string(p.track(1).name), std::string_view("LanguageServer"));
        QCOMPARE(p.interval(p.track(0).begin).start, 1000 * us);
        QCOMPARE(p.interval(p.track(1).begin).start, 1005 * us);
        QCOMPARE(p.duration(), 15 * us);
    }

    // formats.md (n): each array of a multi-process file has its $Process
    // and $TimeOffset. A missing or bad header is a warning naming the
    // array; the array is still read, on the previous array's clock.
    void headers_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("tracks");
        QTest::addColumn<QList<qint64>>("starts"); // µs, each track's first interval
        QTest::addColumn<QStringList>("warnings");
        QTest::newRow("both arrays with headers")
            << JSON([{"X":{"t":0,"d":{"$Process":"Ide"}}},{"X":{"t":0,"d":{"$TimeOffset":1000}}},
                     {"L":{"l":"a"}},{"C":{"t":3,"l":0}},{"S":{"i":0,"t":3}},{"E":{"i":0,"t":10}}]
                    [{"X":{"t":0,"d":{"$Process":"LanguageServer"}}},{"X":{"t":0,"d":{"$TimeOffset":0}}},
                     {"L":{"l":"b"}},{"C":{"t":1004,"l":0}},{"S":{"i":0,"t":1004}},{"E":{"i":0,"t":1010}}])
            << QStringList{"Ide", "LanguageServer"} << QList<qint64>{1003, 1004} << QStringList{};
        QTest::newRow("second array without headers")
            << JSON([{"X":{"t":0,"d":{"$Process":"Ide"}}},{"X":{"t":0,"d":{"$TimeOffset":1000}}},
                     {"L":{"l":"a"}},{"C":{"t":0,"l":0}},{"S":{"i":0,"t":0}},{"E":{"i":0,"t":10}}]
                    [{"L":{"l":"b"}},{"C":{"t":2,"l":0}},{"S":{"i":0,"t":2}},{"E":{"i":0,"t":10}}])
            << QStringList{"Ide", "Process 2"} << QList<qint64>{1000, 1002}
            << QStringList{"event array 2 has no $Process header; its track is named 'Process 2'",
                           "event array 2 has no $TimeOffset header; its times are taken on the previous array's "
                           "clock ($TimeOffset 1000)"};
        QTest::newRow("first array without headers")
            << JSON([{"L":{"l":"a"}},{"C":{"t":0,"l":0}},{"S":{"i":0,"t":0}},{"E":{"i":0,"t":10}}]
                    [{"X":{"t":0,"d":{"$Process":"LanguageServer"}}},{"X":{"t":0,"d":{"$TimeOffset":2000}}},
                     {"L":{"l":"b"}},{"C":{"t":2,"l":0}},{"S":{"i":0,"t":2}},{"E":{"i":0,"t":10}}])
            << QStringList{"Process 1", "LanguageServer"} << QList<qint64>{0, 2002}
            << QStringList{"event array 1 has no $Process header; its track is named 'Process 1'",
                           "event array 1 has no $TimeOffset header; its times are taken as they are ($TimeOffset 0)"};
        QTest::newRow("one array without headers")
            << JSON([{"L":{"l":"a"}},{"C":{"t":0,"l":0}},{"S":{"i":0,"t":0}},{"E":{"i":0,"t":10}}])
            << QStringList{"Process 1"} << QList<qint64>{0} << QStringList{};
        QTest::newRow("offset not a number")
            << JSON([{"X":{"t":0,"d":{"$TimeOffset":"x"}}},{"X":{"t":0,"d":{"$Process":"Ide"}}},
                     {"L":{"l":"a"}},{"C":{"t":5,"l":0}},{"S":{"i":0,"t":5}},{"E":{"i":0,"t":10}}])
            << QStringList{"Ide"} << QList<qint64>{5}
            << QStringList{"event array 1 (Ide): $TimeOffset is \"x\", not a whole number of microseconds since the "
                           "epoch; its times are taken as they are ($TimeOffset 0)"};
        QTest::newRow("second offset an object")
            << JSON([{"X":{"t":0,"d":{"$Process":"Ide"}}},{"X":{"t":0,"d":{"$TimeOffset":1000}}},
                     {"L":{"l":"a"}},{"C":{"t":0,"l":0}},{"S":{"i":0,"t":0}},{"E":{"i":0,"t":10}}]
                    [{"X":{"t":0,"d":{"$Process":"LanguageServer"}}},{"X":{"t":0,"d":{"$TimeOffset":{"us":-1}}}},
                     {"L":{"l":"b"}},{"C":{"t":7,"l":0}},{"S":{"i":0,"t":7}},{"E":{"i":0,"t":10}}])
            << QStringList{"Ide", "LanguageServer"} << QList<qint64>{1000, 1007}
            << QStringList{"event array 2 (LanguageServer): $TimeOffset is {\"us\":-1}, not a whole number of "
                           "microseconds since the epoch; its times are taken on the previous array's clock "
                           "($TimeOffset 1000)"};
        QTest::newRow("process not a string")
            << JSON([{"X":{"t":0,"d":{"$Process":"Ide"}}},{"X":{"t":0,"d":{"$TimeOffset":1000}}}]
                    [{"X":{"t":0,"d":{"$Process":7}}},{"X":{"t":0,"d":{"$TimeOffset":3000}}},
                     {"L":{"l":"b"}},{"C":{"t":1,"l":0}},{"S":{"i":0,"t":1}},{"E":{"i":0,"t":10}}])
            << QStringList{"Ide", "Process 2"} << QList<qint64>{-1, 3001}
            << QStringList{"event array 2: $Process is 7, not a string; its track is named 'Process 2'"};
    }

    void headers()
    {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, tracks);
        QFETCH(QList<qint64>, starts);
        QFETCH(QStringList, warnings);
        const LoadResult r = loadText(json);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QStringList names;
        QList<qint64> firsts;
        for (TrackId t = 0; t < p.trackCount(); ++t) {
            names << qstr(p.string(p.track(t).name));
            firsts << (p.track(t).begin < p.track(t).end ? p.interval(p.track(t).begin).start / us : -1);
        }
        QCOMPARE(names, tracks);
        QCOMPARE(firsts, starts);
        QStringList said;
        for (const std::string& message : p.diagnostics().examples())
            said << QString::fromStdString(message);
        QCOMPARE(said, warnings);
        QCOMPARE(p.diagnostics().warningCount(), std::uint64_t(warnings.size()));
    }

    // Generated IDE + Language Server profiles (formats.md (n)) read back:
    // per process its track, measurements, intervals and metadata marks,
    // aligned on $TimeOffset, as the generator wrote them.
    void generatedProfiles_data()
    {
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<bool>("languageServer");
        for (const quint64 seed : {1, 2, 3})
            QTest::addRow("seed %llu", static_cast<unsigned long long>(seed)) << seed << true;
        QTest::newRow("IDE only") << quint64(4) << false;
    }

    void generatedProfiles()
    {
        QFETCH(quint64, seed);
        QFETCH(bool, languageServer);
        test::EnsoGenOptions options;
        options.seed = seed;
        options.tasks = 200;
        options.languageServer = languageServer;
        test::EnsoGenTruth truth;
        const LoadResult r = loadText(QByteArray::fromStdString(test::EnsoGenerator::profile(options, &truth)));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.diagnostics().warningCount(), std::uint64_t(0));
        QCOMPARE(p.trackCount(), truth.measurements.size());
        QCOMPARE(p.startTime(), Time(truth.spanStart) * us);
        QCOMPARE(p.endTime(), Time(truth.spanEnd) * us);
        std::map<std::string, std::map<std::string, std::uint64_t>> marks;
        std::vector<Time> backendTimes, frameTimes;
        for (const Mark& mark : p.marks()) {
            ++marks[std::string(p.string(p.track(mark.track).name))][std::string(p.string(mark.name))];
            if (p.string(mark.name) == "BackendMessage")
                backendTimes.push_back(mark.time);
            if (p.string(mark.name) == "RenderStats")
                frameTimes.push_back(mark.time);
        }
        QCOMPARE(marks, truth.marks);
        std::vector<Time> expectedBackend, expectedFrames;
        for (const test::EnsoGenMessage& m : truth.messages) {
            if (m.from == "Engine" || m.to == "Engine")
                expectedBackend.push_back(Time(m.at) * us);
        }
        for (const test::EnsoGenFrame& f : truth.frames)
            expectedFrames.push_back(Time(f.at) * us);
        QCOMPARE(backendTimes, expectedBackend);
        QCOMPARE(frameTimes, expectedFrames);
        // RenderStats' numbers as counter tracks of the IDE, the draw calls as written.
        QCOMPARE(p.counters().size(), std::size_t(14));
        const CounterSeries* draws = nullptr;
        for (const CounterSeries& c : p.counters()) {
            QCOMPARE(p.string(c.name), std::string_view("RenderStats"));
            QCOMPARE(c.times, expectedFrames);
            if (p.string(c.key) == "draw_call_count")
                draws = &c;
        }
        QVERIFY(draws);
        std::vector<double> expectedDraws;
        for (const test::EnsoGenFrame& f : truth.frames)
            expectedDraws.push_back(double(f.drawCalls));
        QCOMPARE(draws->values, expectedDraws);
        for (TrackId t = 0; t < p.trackCount(); ++t) {
            const std::string name(p.string(p.track(t).name));
            QVERIFY2(truth.measurements.count(name), name.c_str());
            std::uint64_t measurements = 0;
            for (const Measurement& m : p.measurements())
                measurements += m.track == t ? 1 : 0;
            QCOMPARE(measurements, truth.measurements.at(name));
            QCOMPARE(std::uint64_t(p.track(t).end - p.track(t).begin), truth.intervals.at(name));
        }
    }

    void parentsAndSameStart()
    {
        // p absent = the current profiler; p = n explicit; t null = parent's start.
        const LoadResult r = loadText(JSON([{"L":{"l":"root"}},{"L":{"l":"a"}},{"L":{"l":"b"}},{"L":{"l":"c"}},
            {"C":{"t":7,"l":0}},{"S":{"i":0,"t":7}},
            {"C":{"l":1,"t":null}},
            {"C":{"p":1,"l":2}},
            {"C":{"p":-1,"t":9,"l":3}},
            {"E":{"i":0,"t":20}}]));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        const MeasurementId root = byName(p, "root"), a = byName(p, "a"), b = byName(p, "b"), c = byName(p, "c");
        QCOMPARE(p.measurement(a).creator, root);
        QCOMPARE(p.measurement(a).created, 7 * us);
        QCOMPARE(p.measurement(b).creator, a);
        QCOMPARE(p.measurement(b).created, 7 * us);
        QCOMPARE(p.measurement(c).creator, kNone);
        QCOMPARE(p.measurement(c).finalState(), FinalState::Unfinished);
        // Never ran and never ended: waiting until the profile ends.
        QCOMPARE(p.measurement(b).finished, 20 * us);
    }

    void stillOpenAtTheEnd()
    {
        const LoadResult r = loadText(JSON([{"L":{"l":"a"}},{"L":{"l":"b"}},
            {"C":{"t":0,"l":0}},{"S":{"i":0,"t":0}},{"C":{"t":5,"l":1}},{"S":{"i":1,"t":5}},{"P":{"i":1,"t":8}}]));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        const MeasurementId a = byName(p, "a"), b = byName(p, "b");
        QCOMPARE(p.measurement(a).finalState(), FinalState::Unfinished);
        QCOMPARE(p.measurement(b).finalState(), FinalState::Unfinished);
        QCOMPARE(p.interval(p.intervalsOf(a)[0]).end, 8 * us);
        QCOMPARE(p.interval(p.intervalsOf(b)[0]).end, 8 * us);
    }

    void intervalsThatDoNotNest()
    {
        const LoadResult r = loadText(JSON([{"L":{"l":"a"}},{"L":{"l":"b"}},
            {"C":{"t":0,"l":0}},{"C":{"t":0,"l":1}},
            {"S":{"i":0,"t":0}},{"S":{"i":1,"t":10}},{"P":{"i":0,"t":20}},{"P":{"i":1,"t":30}}]));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const auto& kinds = r.profile->diagnostics().warningKinds();
        QCOMPARE(kinds.at("intervals do not nest"), std::uint64_t(1));
        QCOMPARE(kinds.at("overlapping intervals"), std::uint64_t(1));
        const MeasurementMetrics m(*r.profile);
        QCOMPARE(m.busy(0), 30 * us);
    }

    void metadataBecomesMarks()
    {
        const LoadResult r = loadText(JSON([{"X":{"t":5,"d":{"RpcEvent":"executeExpression"}}},
            {"X":{"t":6,"d":{"Custom":{"a":[1,2.5,{"b":null}],"c":"x\"y"}}}},
            {"Q":{"t":1}}]));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.marks().size(), std::size_t(2));
        QCOMPARE(p.string(p.marks()[0].name), std::string_view("RpcEvent"));
        QCOMPARE(p.string(p.marks()[0].detail), std::string_view("\"executeExpression\""));
        QCOMPARE(p.string(p.marks()[1].name), std::string_view("Custom"));
        QCOMPARE(p.string(p.marks()[1].detail), std::string_view(JSON({"a":[1,2.5,{"b":null}],"c":"x\"y"})));
        QCOMPARE(p.diagnostics().warningKinds().at("unknown metadata"), std::uint64_t(1));
        QCOMPARE(p.diagnostics().skippedEvents().at("Enso event kind 'Q'"), std::uint64_t(1));
    }

    // formats.md (n)'s metadata types: each a mark on its process's track
    // with its payload as JSON; only a type Enso does not write is warned of.
    void metadataTypes_data()
    {
        QTest::addColumn<QByteArray>("payload");
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("detail");
        QTest::addColumn<int>("warnings");
        QTest::newRow("RpcEvent") << JSON({"RpcEvent":"ExpressionUpdates"}) << "RpcEvent"
                                  << "\"ExpressionUpdates\"" << 0;
        QTest::newRow("RpcRequest") << JSON({"RpcRequest":"executionContext/push"}) << "RpcRequest"
                                    << "\"executionContext/push\"" << 0;
        QTest::newRow("BackendMessage")
            << JSON({"BackendMessage":{"direction":"Request","request_id":"17","endpoint":"text/openFile"}})
            << "BackendMessage" << QString::fromLatin1(JSON({"direction":"Request","request_id":"17","endpoint":"text/openFile"})) << 0;
        QTest::newRow("BackendMessage without id")
            << JSON({"BackendMessage":{"direction":"Response","request_id":null,"endpoint":"x"}})
            << "BackendMessage" << QString::fromLatin1(JSON({"direction":"Response","request_id":null,"endpoint":"x"})) << 0;
        QTest::newRow("RenderStats")
            << JSON({"RenderStats":{"frame_time":4.25,"fps":59.5,"wasm_memory_usage":1,"gpu_memory_usage":2,"draw_call_count":12,"buffer_count":4,"data_upload_count":5,"data_upload_size":6,"sprite_system_count":7,"sprite_count":8,"symbol_count":9,"mesh_count":10,"shader_count":3,"shader_compile_count":0}})
            << "RenderStats" << QString::fromLatin1(JSON({"frame_time":4.25,"fps":59.5,"wasm_memory_usage":1,"gpu_memory_usage":2,"draw_call_count":12,"buffer_count":4,"data_upload_count":5,"data_upload_size":6,"sprite_system_count":7,"sprite_count":8,"symbol_count":9,"mesh_count":10,"shader_count":3,"shader_compile_count":0})) << 0;
        // Fields missing: a warning (renderStatsFields checks its words).
        QTest::newRow("RenderStats without fields")
            << JSON({"RenderStats":{"frame_time":4.25,"fps":59.5,"draw_call_count":12,"shader_count":3}})
            << "RenderStats" << QString::fromLatin1(JSON({"frame_time":4.25,"fps":59.5,"draw_call_count":12,"shader_count":3})) << 1;
        QTest::newRow("GlyphCacheMiss")
            << JSON({"GlyphCacheMiss":{"face":"DejaVu Sans","variations":"wght=400","glyph_id":71}})
            << "GlyphCacheMiss" << QString::fromLatin1(JSON({"face":"DejaVu Sans","variations":"wght=400","glyph_id":71})) << 0;
        QTest::newRow("other type") << JSON({"Tick":[1,{"a":true}]}) << "Tick" << QString::fromLatin1(JSON([1,{"a":true}])) << 1;
    }

    void metadataTypes()
    {
        QFETCH(QByteArray, payload);
        QFETCH(QString, type);
        QFETCH(QString, detail);
        QFETCH(int, warnings);
        const QByteArray json = JSON([{"X":{"t":0,"d":{"$Process":"Ide"}}},{"X":{"t":0,"d":{"$TimeOffset":1000}}}])
            + JSON([{"X":{"t":0,"d":{"$Process":"LanguageServer"}}},{"X":{"t":0,"d":{"$TimeOffset":0}}},)
            + JSON({"X":{"t":1040,"d":) + payload + "}}]";
        const LoadResult r = loadText(json);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.marks().size(), std::size_t(1));
        const Mark& mark = p.marks()[0];
        QCOMPARE(qstr(p.string(mark.name)), type);
        QCOMPARE(qstr(p.string(mark.detail)), detail);
        QCOMPARE(mark.time, 1040 * us);
        QCOMPARE(qstr(p.string(p.track(mark.track).name)), QStringLiteral("LanguageServer"));
        QCOMPARE(p.diagnostics().warningCount(), std::uint64_t(warnings));
    }

    // A RenderStats without some numbers: a warning naming the event and
    // what it lacks; the mark and the other numbers are kept, each a
    // counter of the process (issue 43).
    void renderStatsFields()
    {
        const QByteArray json = R"([{"X":{"t":0,"d":{"$Process":"Ide"}}},{"X":{"t":0,"d":{"$TimeOffset":1000}}},
{"X":{"t":10,"d":{"RenderStats":{"frame_time":4.5,"fps":60,"wasm_memory_usage":1,"gpu_memory_usage":2,"draw_call_count":3,"buffer_count":4,"data_upload_count":5,"data_upload_size":6,"sprite_system_count":7,"sprite_count":8,"symbol_count":9,"mesh_count":10,"shader_count":11,"shader_compile_count":12}}}},
{"X":{"t":30,"d":{"RenderStats":{"frame_time":5.5,"fps":"fast","draw_call_count":33}}}},
{"X":{"t":50,"d":{"RenderStats":[1]}}}])";
        const LoadResult r = loadText(json);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.marks().size(), std::size_t(3));
        QCOMPARE(p.diagnostics().warningKinds().at("bad RenderStats"), std::uint64_t(2));
        QCOMPARE(p.diagnostics().examples(),
                 (std::vector<std::string>{
                     "RenderStats event #3 has no number for fps, wasm_memory_usage, gpu_memory_usage, "
                     "buffer_count, data_upload_count, data_upload_size, sprite_system_count, sprite_count, symbol_count, "
                     "mesh_count, shader_count, shader_compile_count; its other fields are kept",
                     "RenderStats event #4 is not an object of numbers; kept as a mark only"}));
        QCOMPARE(p.counters().size(), std::size_t(14));
        std::map<std::string, std::vector<std::pair<Time, double>>> series;
        for (const CounterSeries& c : p.counters()) {
            QCOMPARE(c.pid, std::int64_t(0));
            for (std::size_t k = 0; k < c.times.size(); ++k)
                series[std::string(p.string(c.key))].emplace_back(c.times[k], c.values[k]);
        }
        QCOMPARE(series["frame_time"], (std::vector<std::pair<Time, double>>{{1010 * us, 4.5}, {1030 * us, 5.5}}));
        QCOMPARE(series["draw_call_count"], (std::vector<std::pair<Time, double>>{{1010 * us, 3}, {1030 * us, 33}}));
        QCOMPARE(series["fps"], (std::vector<std::pair<Time, double>>{{1010 * us, 60}}));
        QCOMPARE(series["shader_compile_count"], (std::vector<std::pair<Time, double>>{{1010 * us, 12}}));
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<qint64>("event");
        QTest::addColumn<QString>("message");
        QTest::newRow("C without label") << JSON([{"C":{"t":0}}]) << qint64(0)
                                         << "'l' of a 'C' event must be a label id, found nothing";
        QTest::newRow("unknown measurement") << JSON([{"L":{"l":"a"}},{"S":{"i":5,"t":0}}]) << qint64(1)
                                             << "'S' names measurement 5 but only 0 were created so far";
        QTest::newRow("negative time") << JSON([{"C":{"l":0,"t":-1}}]) << qint64(0)
                                       << "'t' of a 'C' event must be an unsigned integer (microseconds), found -1";
        QTest::newRow("float time") << JSON([{"L":{"l":"a"}},{"C":{"l":0,"t":1}},{"S":{"i":0,"t":1.5}}])
                                    << qint64(2)
                                    << "'t' of a 'S' event must be an unsigned integer (microseconds), found 1.5";
        QTest::newRow("missing time") << JSON([{"L":{"l":"a"}},{"C":{"l":0,"t":1}},{"E":{"i":0}}])
                                      << qint64(2) << "missing 't' (time in microseconds) in a 'E' event";
        QTest::newRow("two kinds") << JSON([{"C":{},"S":{}}]) << qint64(0)
                                   << "an event object must have exactly one key (its kind), found 2";
        QTest::newRow("body not an object") << JSON([{"C":[1]}]) << qint64(0)
                                            << "the body of a 'C' event must be an object, found an array";
        QTest::newRow("d not an object") << JSON([{"X":{"t":0,"d":5}}]) << qint64(0)
                                         << "'d' of an 'X' event must be an object with one key, the metadata type";
        QTest::newRow("bad parent") << JSON([{"L":{"l":"a"}},{"C":{"p":-2,"t":0,"l":0}}]) << qint64(1)
                                    << "'p' must be -1 (the root) or a measurement id, found -2";
        QTest::newRow("label not text") << JSON([{"L":{"l":3}}]) << qint64(0)
                                        << "'l' of an 'L' event must be the label text, found 3";
        QTest::newRow("element not an object") << JSON([{"L":{"l":"a"}}, 5]) << qint64(1)
                                               << "expected an event object such as {\"C\": {...}}, found 5";
    }

    void errors()
    {
        QFETCH(QByteArray, json);
        QFETCH(qint64, event);
        QFETCH(QString, message);
        const LoadResult r = loadText(json);
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error.message), message);
        QCOMPARE(qint64(r.error.eventIndex), event);
        QVERIFY(r.error.byteOffset > 0);
    }

    void unterminatedLastProcess()
    {
        const LoadResult r = loadText(JSON([{"L":{"l":"a"}},{"C":{"t":0,"l":0}},{"S":{"i":0,"t":0}},{"E":{"i":0,"t":4}},));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(r.profile->intervalCount(), std::size_t(1));
        QCOMPARE(r.profile->diagnostics().warningKinds().at("unterminated event array"), std::uint64_t(1));
    }
};

QTEST_GUILESS_MAIN(TestEnsoLoader)
#include "tst_ensoloader.moc"
