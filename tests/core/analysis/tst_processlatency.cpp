#include "criticalpathsummary.h"
#include "ensogenerator.h"
#include "processlatency.h"
#include "profilebuilder.h"
#include "testsupport.h"

#include <QtTest>

using namespace runlane;
using runlane::test::loadText;

namespace {

constexpr Time us = 1000;

std::vector<std::string> split(const QString& labels)
{
    std::vector<std::string> out;
    for (const QString& label : labels.split(QLatin1Char(','), Qt::SkipEmptyParts))
        out.push_back(label.toStdString());
    return out;
}

} // namespace

class TestProcessLatency : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Enso logs written by hand (µs ticks); the figures in µs.
    void compute_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("labels");
        QTest::addColumn<qint64>("regionStart");
        QTest::addColumn<qint64>("regionEnd");
        QTest::addColumn<qint64>("main");
        QTest::addColumn<QList<qint64>>("latencies");
        QTest::addColumn<QString>("error");
        // work (0-30) runs across the region's start (20): 10 of it counts;
        // compile (40-70) is foreign; work (80-120) counts whole although a
        // backend call (90-95) nests in it; backend outside the highlight
        // (130-200) counts for nothing; the highlight's own interval
        // (210-220) counts; work after the region (230-250) does not.
        const QByteArray enso = JSON([{"L":{"l":"@highlight"}},{"L":{"l":"work (w.rs:1)"}},
            {"L":{"l":"compile_new_shaders (s.rs:1)"}},{"L":{"l":"backend_execution"}},
            {"C":{"p":-1,"t":0,"l":1}},{"S":{"i":0,"t":0}},
            {"C":{"p":-1,"t":20,"l":0}},
            {"E":{"i":0,"t":30}},
            {"C":{"p":1,"t":40,"l":2}},{"S":{"i":2,"t":40}},{"E":{"i":2,"t":70}},
            {"C":{"p":1,"t":80,"l":1}},{"S":{"i":3,"t":80}},
            {"C":{"t":90,"l":3}},{"S":{"i":4,"t":90}},{"E":{"i":4,"t":95}},
            {"E":{"i":3,"t":120}},
            {"C":{"p":-1,"t":130,"l":3}},{"S":{"i":5,"t":130}},{"E":{"i":5,"t":200}},
            {"S":{"i":1,"t":210}},{"E":{"i":1,"t":220}},
            {"C":{"p":-1,"t":230,"l":1}},{"S":{"i":6,"t":230}},{"E":{"i":6,"t":250}}]);
        QTest::newRow("Enso's rules") << enso << "compile_new_shaders,backend_execution,absent" << qint64(20)
                                      << qint64(220) << qint64(10 + 40 + 10) << QList<qint64>{50, 75, 0} << "";
        QTest::newRow("no foreign labels: all top-level work") << enso << "" << qint64(20) << qint64(220)
                                                               << qint64(10 + 30 + 40 + 70 + 10) << QList<qint64>{} << "";
        QTest::newRow("work as a foreign process") << enso << "work" << qint64(20) << qint64(220) << qint64(30 + 70 + 10)
                                                   << QList<qint64>{120 - 20} << "";
        // An async foreign task: its last interval's end; a foreign task
        // still running at the end has no end and counts for nothing.
        QTest::newRow("async and open foreign tasks")
            << JSON([{"L":{"l":"@highlight"}},{"L":{"l":"backend_execution"}},{"L":{"l":"compile_new_shaders"}},
                     {"C":{"p":-1,"t":0,"l":0}},
                     {"C":{"p":0,"t":5,"l":1}},{"S":{"i":1,"t":5}},{"P":{"i":1,"t":15}},
                     {"S":{"i":1,"t":40}},{"E":{"i":1,"t":60}},
                     {"S":{"i":0,"t":70}},{"E":{"i":0,"t":80}},
                     {"C":{"p":0,"t":90,"l":2}},{"S":{"i":2,"t":90}}])
            << "backend_execution,compile_new_shaders" << qint64(0) << qint64(80) << qint64(10)
            << QList<qint64>{60, 0} << "";
        // Processes are aligned on $TimeOffset: the Language Server's work
        // (1050-1100 on the IDE's clock) is top-level work of its track.
        QTest::newRow("two processes")
            << JSON([{"X":{"t":0,"d":{"$Process":"Ide"}}},{"X":{"t":0,"d":{"$TimeOffset":1000}}},
                     {"L":{"l":"@highlight"}},{"C":{"p":-1,"t":0,"l":0}},{"S":{"i":0,"t":80}},{"E":{"i":0,"t":90}}]
                    [{"X":{"t":0,"d":{"$Process":"LanguageServer"}}},{"X":{"t":0,"d":{"$TimeOffset":1050}}},
                     {"L":{"l":"handle"}},{"C":{"p":-1,"t":0,"l":0}},{"S":{"i":0,"t":0}},{"E":{"i":0,"t":60}}])
            << "absent" << qint64(1000) << qint64(1090) << qint64(10 + 40) << QList<qint64>{0} << "";
        const QString exactlyOne = QStringLiteral("; processes needs exactly one (the region of interest)");
        QTest::newRow("no highlight") << JSON([{"L":{"l":"a"}},{"C":{"t":0,"l":0}},{"S":{"i":0,"t":0}},{"E":{"i":0,"t":5}}])
                                      << "a" << qint64(0) << qint64(0) << qint64(0) << QList<qint64>{0}
                                      << "no measurement is labelled @highlight" + exactlyOne;
        QTest::newRow("two highlights")
            << JSON([{"L":{"l":"@highlight"}},{"C":{"t":0,"l":0}},{"S":{"i":0,"t":0}},{"E":{"i":0,"t":5}},
                     {"C":{"t":6,"l":0}},{"S":{"i":1,"t":6}},{"E":{"i":1,"t":9}}])
            << "" << qint64(0) << qint64(0) << qint64(0) << QList<qint64>{} << "2 measurements are labelled @highlight" + exactlyOne;
        QTest::newRow("highlight never ran")
            << JSON([{"L":{"l":"@highlight"}},{"L":{"l":"a"}},{"C":{"t":0,"l":0}},{"C":{"t":1,"l":1}},{"S":{"i":1,"t":1}},
                     {"E":{"i":1,"t":5}}])
            << "" << qint64(0) << qint64(0) << qint64(0) << QList<qint64>{}
            << "the @highlight measurement never ran, so its region has no end";
        QTest::newRow("highlight still running")
            << JSON([{"L":{"l":"@highlight"}},{"L":{"l":"a"}},{"C":{"t":0,"l":0}},{"S":{"i":0,"t":0}},
                     {"C":{"t":1,"l":1}},{"S":{"i":1,"t":1}},{"E":{"i":1,"t":5}}])
            << "" << qint64(0) << qint64(0) << qint64(0) << QList<qint64>{}
            << "the @highlight measurement is still running at the end of the profile, so its region has no end";
    }

    void compute()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, labels);
        QFETCH(qint64, regionStart);
        QFETCH(qint64, regionEnd);
        QFETCH(qint64, main);
        QFETCH(QList<qint64>, latencies);
        QFETCH(QString, error);
        const LoadResult r = loadText(json);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const ProcessLatency::Result result = ProcessLatency::compute(*r.profile, split(labels));
        QCOMPARE(QString::fromStdString(result.error), error);
        if (!error.isEmpty())
            return;
        QCOMPARE(result.regionStart, regionStart * us);
        QCOMPARE(result.regionEnd, regionEnd * us);
        QCOMPARE(result.main, main * us);
        QList<qint64> got;
        for (const Time t : result.latencies)
            got << t / us;
        QCOMPARE(got, latencies);
    }

    // Generated IDE + Language Server profiles (formats.md (n)): the
    // figures the generator worked out as it wrote the file.
    void generated_data()
    {
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<int>("tasks");
        for (const quint64 seed : {1, 2, 3, 4, 5, 6, 7, 8})
            QTest::addRow("seed %llu", static_cast<unsigned long long>(seed)) << seed << int(10 + 20 * seed);
    }

    void generated()
    {
        QFETCH(quint64, seed);
        QFETCH(int, tasks);
        test::EnsoGenOptions options;
        options.seed = seed;
        options.tasks = tasks;
        test::EnsoGenTruth truth;
        const LoadResult r = loadText(QByteArray::fromStdString(test::EnsoGenerator::profile(options, &truth)));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const ProcessLatency::Result result = ProcessLatency::compute(*r.profile, test::EnsoGenerator::foreignLabels());
        QCOMPARE(QString::fromStdString(result.error), QString());
        QCOMPARE(result.regionStart, Time(truth.regionStart) * us);
        QCOMPARE(result.regionEnd, Time(truth.regionEnd) * us);
        QCOMPARE(result.main, Time(truth.main) * us);
        QCOMPARE(result.latencies.size(), truth.latencies.size());
        for (std::size_t k = 0; k < truth.latencies.size(); ++k)
            QCOMPARE(result.latencies[k], Time(truth.latencies[k]) * us);
        // Neither figure is trivially 0 in a generated profile.
        QVERIFY(truth.main > 0 && truth.latencies[0] > 0 && truth.latencies[1] > 0);
    }

    // Issue 43: where both answer "which process made the highlight slow",
    // Enso's figures and the critical path's breakdown by process agree. The
    // highlight (pid 1) starts the backend as it is created and waits for
    // it: the backend runs in pid 2 for `backend` and wakes it (Enso's
    // rule: the child that ended in the pause). The highlight then renders
    // (a call in its run, `ide`) and runs `own` more. The path is the
    // backend, the render, the highlight's own run: pid 2's time is the
    // backend's latency, pid 1's is main (the top-level work of no foreign
    // label in the region).
    void agreesWithTheCriticalPath_data()
    {
        QTest::addColumn<int>("backend");
        QTest::addColumn<int>("ide");
        QTest::addColumn<int>("own");
        QTest::newRow("50 40 10") << 50 << 40 << 10;
        QTest::newRow("the backend dominates") << 90 << 5 << 5;
        QTest::newRow("the ide dominates") << 3 << 80 << 17;
    }
    void agreesWithTheCriticalPath()
    {
        QFETCH(int, backend);
        QFETCH(int, ide);
        QFETCH(int, own);
        ProfileBuilder b("Enso profiler event log");
        b.setWakeSource(WakeSource::Children);
        TrackInfo ideTrack;
        ideTrack.pid = 1;
        ideTrack.processName = b.intern("Ide");
        TrackInfo lsTrack;
        lsTrack.pid = 2;
        lsTrack.processName = b.intern("LanguageServer");
        const TrackId a = b.addTrack(ideTrack);
        const TrackId l = b.addTrack(lsTrack);
        const Time t1 = backend * us;
        const Time t2 = t1 + ide * us;
        const Time t3 = t2 + own * us;
        const MeasurementId highlight = b.addMeasurement(a, b.label(ProcessLatency::kHighlight), 0, kNone, AsyncMeasurement);
        b.addInterval(highlight, 0, 0, 0);
        b.addInterval(highlight, t1, t3, 2);
        b.finish(highlight, t3, FinalState::Completed);
        const MeasurementId work = b.addMeasurement(l, b.label("backend_execution"), 0, highlight, AsyncMeasurement);
        b.addInterval(work, 0, t1, 1);
        b.finish(work, t1, FinalState::Completed);
        b.addCall(a, b.label("render"), t1, t2, 3);
        const auto p = b.build();

        const ProcessLatency::Result enso = ProcessLatency::compute(*p, {"backend_execution"});
        QCOMPARE(QString::fromStdString(enso.error), QString());
        QCOMPARE(enso.latencies, std::vector<Time>{t1});
        QCOMPARE(enso.main, t3 - t1);

        const CriticalPath path(*p, CriticalPath::sourceOf(*p));
        const auto summary = CriticalPathSummary::compute(path, {highlight}, false);
        QCOMPARE(summary.wall(), t3);
        std::map<std::int64_t, Time> byProcess;
        for (const auto& e : summary.byProcess())
            byProcess[e.pid] += e.ns;
        QCOMPARE(byProcess, (std::map<std::int64_t, Time>{{1, enso.main}, {2, enso.latencies[0]}}));
    }
};

QTEST_GUILESS_MAIN(TestProcessLatency)
#include "tst_processlatency.moc"
