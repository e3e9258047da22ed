#include "measurementmetrics.h"
#include "ranktable.h"
#include "schedulingdelays.h"
#include "testsupport.h"
#include "usageseries.h"

#include <QtTest>

using namespace runlane;
using runlane::test::byName;
using runlane::test::dataPath;
using runlane::test::loadText;

namespace {

constexpr Time ms = 1'000'000;
constexpr Time s = 1'000'000'000;

const RankRow& rowOf(const Profile& p, const RankTable& t, std::string_view name)
{
    for (const RankRow& r : t.rows()) {
        if (p.labelName(r.label) == name)
            return r;
    }
    static const RankRow none;
    return none;
}

} // namespace

class TestChronosLoader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // (a) `child`, created by parent1, blocks the loop for 3600 s in its
    // first (synchronous) segment; parent1 awaits it, and parent2 awaits it
    // later, when it has completed. Only its creator is billed for the hour.
    void fosterChild()
    {
        const LoadResult r = ProfileLoader::load(dataPath("profiles/chronos-foster-child.json"));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.formatName(), std::string_view("Chronos future event log"));
        QCOMPARE(p.string(p.track(0).name), std::string_view("main"));
        const MeasurementMetrics m(p);
        const MeasurementId parent1 = byName(p, "parent1"), parent2 = byName(p, "parent2"), child = byName(p, "child");
        QCOMPARE(p.measurement(child).creator, parent1);
        QCOMPARE(m.exec(child), 3600 * s);
        QVERIFY(m.total(parent1) >= 3600 * s);
        QCOMPARE(m.total(parent1), 3600 * s + 300 * ms);
        QVERIFY(m.total(parent2) < 1 * s);
        QCOMPARE(m.total(parent2), 500 * ms);
        QCOMPARE(m.exec(parent1), 300 * ms);
        QCOMPARE(m.wall(child), 3650 * s - 100 * ms);
        for (const Measurement& future : p.measurements())
            QVERIFY(future.isAsync());
    }

    // (b) parent runs 10 ms, creates child, which runs 50 ms synchronously
    // and pauses; parent runs 5 ms more and pauses.
    void overlap()
    {
        const LoadResult r = ProfileLoader::load(dataPath("profiles/chronos-overlap.json"));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        const MeasurementMetrics m(p);
        const MeasurementId parent = byName(p, "parent"), child = byName(p, "child");
        QCOMPARE(m.exec(parent), 15 * ms);
        QVERIFY(m.exec(child) >= 50 * ms);
        QCOMPARE(m.exec(child), 53 * ms);
        QCOMPARE(m.busy(0), m.exec(parent) + m.exec(child));
        QCOMPARE(m.busy(0), 68 * ms);
        QCOMPARE(m.total(parent), 68 * ms);
        // Running segments: parent [0, 65) and [103, 103), child [10, 60) and [100, 103).
        QCOMPARE(p.intervalsOf(parent).size(), std::size_t(2));
        QCOMPARE(p.interval(p.intervalsOf(child)[0]).parent, p.intervalsOf(parent)[0]);
    }

    // Usage per 20 ms bin of the overlap case: exec shares, adding up to the
    // loop's busy fraction.
    void overlapUsage()
    {
        const LoadResult r = ProfileLoader::load(dataPath("profiles/chronos-overlap.json"));
        QVERIFY(r.ok());
        const Profile& p = *r.profile;
        const UsageSeries u = UsageSeries::compute(p, 0, 20 * ms, 10);
        QCOMPARE(u.binCount(), std::size_t(6));
        QCOMPARE(p.labelName(u.labels()[0]), std::string_view("child"));
        QCOMPARE(p.labelName(u.labels()[1]), std::string_view("parent"));
        // The last bin is [100, 103) ms, where the profile ends: the
        // child's 3 ms are all of it (semantics.md §6, issue 39).
        const double child[] = {0.5, 1.0, 1.0, 0.0, 0.0, 1.0};
        const double parent[] = {0.5, 0.0, 0.0, 0.25, 0.0, 0.0};
        for (std::size_t b = 0; b < 6; ++b) {
            QCOMPARE(u.share(b, 0), child[b]);
            QCOMPARE(u.share(b, 1), parent[b]);
            QCOMPARE(u.busy(b), child[b] + parent[b]);
            QVERIFY(u.busy(b) <= 1.0);
        }
    }

    // (c) Stillborn (first event a finish), primitive (pending, then
    // finished without running), failed and cancelled futures.
    void finalStates()
    {
        const LoadResult r = ProfileLoader::load(dataPath("profiles/chronos-states.json"));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.diagnostics().warningCount(), std::uint64_t(0));
        const RankTable t = RankTable::compute(MeasurementMetrics(p));
        const RankRow& cached = rowOf(p, t, "cached");
        QCOMPARE(cached.calls, std::uint64_t(1));
        QCOMPARE(cached.stillborn, std::uint64_t(1));
        QCOMPARE(cached.primitive, std::uint64_t(0));
        QCOMPARE(cached.wall, Time(0));
        const RankRow& sleep = rowOf(p, t, "sleepAsync");
        QCOMPARE(sleep.primitive, std::uint64_t(1));
        QCOMPARE(sleep.stillborn, std::uint64_t(0));
        QCOMPARE(sleep.exec, Time(0));
        QCOMPARE(sleep.wall, Time(48000));
        QCOMPARE(sleep.wallP50, Time(48000));
        const RankRow& fetch = rowOf(p, t, "fetch");
        QCOMPARE(fetch.failed, std::uint64_t(1));
        QCOMPARE(fetch.exec, Time(5000));
        const RankRow& timeout = rowOf(p, t, "timeout");
        QCOMPARE(timeout.cancelled, std::uint64_t(1));
        QCOMPARE(timeout.exec, Time(500));
        QCOMPARE(timeout.wall, Time(11000));
        const RankRow& validate = rowOf(p, t, "validate");
        QCOMPARE(validate.stillborn, std::uint64_t(1));
        QCOMPARE(validate.failed, std::uint64_t(1));
        const RankRow& main = rowOf(p, t, "main");
        QCOMPARE(main.exec, Time(54500));
        QCOMPARE(main.total, Time(60000));
        // The stillborn future was born while main ran: main created it.
        QCOMPARE(p.measurement(byName(p, "cached")).creator, byName(p, "main"));
        QVERIFY(p.measurement(byName(p, "cached")).isBornFinished());
    }

    // (d) A future id is used again after its future finished.
    void reusedIds()
    {
        const LoadResult r = ProfileLoader::load(dataPath("profiles/chronos-reused-ids.json"));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        const RankTable t = RankTable::compute(MeasurementMetrics(p));
        const RankRow& job = rowOf(p, t, "job");
        QCOMPARE(job.calls, std::uint64_t(2));
        QCOMPARE(job.exec, Time(25));
        QCOMPARE(job.max, Time(15));
        QCOMPARE(rowOf(p, t, "other").exec, Time(5));
        // `late` is still running when the log ends.
        const RankRow& late = rowOf(p, t, "late");
        QCOMPARE(late.unfinished, std::uint64_t(1));
        QCOMPARE(late.exec, Time(2));
        // Transitions the state machine does not allow are warnings naming the event.
        const auto& d = p.diagnostics();
        QCOMPARE(d.warningKinds().at("invalid transition"), std::uint64_t(3));
        QCOMPARE(d.warningKinds().at("unknown state"), std::uint64_t(1));
        QCOMPARE(QString::fromStdString(d.examples()[0]),
                 QStringLiteral("event #9: Running for future 5, which is already finished or unknown; ignored"));
        QCOMPARE(QString::fromStdString(d.examples()[1]), QStringLiteral("event #11: Paused for future 6, which is pending; ignored"));
        QCOMPARE(QString::fromStdString(d.examples()[2]), QStringLiteral("event #13: Running for future 6, which is running; ignored"));
    }

    void equalTimesKeepLogOrder()
    {
        // All at t = 5: b is created while a runs, runs inside it and ends first.
        const LoadResult r = loadText(JSON({"chronosFutureEvents" : 1, "events" : [
            {"t" : 5, "id" : 1, "state" : "Pending", "proc" : "a", "file" : "x.nim", "line" : 1},
            {"t" : 5, "id" : 1, "state" : "Running"},
            {"t" : 5, "id" : 2, "state" : "Pending", "proc" : "b", "file" : "x.nim", "line" : 2},
            {"t" : 5, "id" : 2, "state" : "Running"},
            {"t" : 9, "id" : 2, "state" : "Completed"},
            {"t" : 9, "id" : 1, "state" : "Completed"}
        ]}));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.measurement(byName(p, "b")).creator, byName(p, "a"));
        QCOMPARE(p.depthOf(p.intervalsOf(byName(p, "b"))[0]), 1);
    }

    // Wakes inferred from the ends of the futures a paused future created
    // (ChronosLogBuilder): the last such end before it runs again, and the
    // wait from there to its Running is its scheduling delay.
    void inferredWakes_data()
    {
        QTest::addColumn<QByteArray>("events"); // after P (id 1) is created and running at 0
        QTest::addColumn<QStringList>("wakes"); // "task@time"
        QTest::addColumn<QList<qint64>>("delays"); // P's
        auto ev = [](int t, int id, const char* state, const char* proc = nullptr) {
            QByteArray e = "{\"t\":" + QByteArray::number(t) + ",\"id\":" + QByteArray::number(id) + ",\"state\":\"" + state + "\"";
            if (proc)
                e += QByteArray(",\"proc\":\"") + proc + "\",\"file\":\"x.nim\",\"line\":1";
            return e + "}";
        };
        const QByteArray child = ev(10, 2, "Pending", "c") + "," + ev(10, 2, "Running") + "," + ev(12, 2, "Paused");
        QTest::newRow("awaited child ends, P resumes 20 ns later")
            << child + "," + ev(15, 1, "Paused") + "," + ev(50, 2, "Running") + "," + ev(55, 2, "Completed") + ","
                   + ev(75, 1, "Running") + "," + ev(80, 1, "Completed")
            << QStringList{"p@55"} << QList<qint64>{20};
        QTest::newRow("allFutures: the later of two children")
            << child + "," + ev(13, 3, "Pending", "d") + "," + ev(13, 3, "Running") + "," + ev(14, 3, "Paused") + ","
                   + ev(15, 1, "Paused") + "," + ev(30, 3, "Running") + "," + ev(32, 3, "Completed") + ","
                   + ev(50, 2, "Running") + "," + ev(55, 2, "Failed") + "," + ev(60, 1, "Running") + ","
                   + ev(61, 1, "Completed")
            << QStringList{"p@55"} << QList<qint64>{5};
        QTest::newRow("a child ending while P runs is no wake")
            << ev(10, 2, "Pending", "c") + "," + ev(10, 2, "Running") + "," + ev(12, 2, "Completed") + ","
                   + ev(15, 1, "Paused") + "," + ev(40, 1, "Running") + "," + ev(41, 1, "Completed")
            << QStringList() << QList<qint64>();
        QTest::newRow("a pause no child ends in has no wake")
            << ev(15, 1, "Paused") + "," + ev(40, 1, "Running") + "," + ev(41, 1, "Completed")
            << QStringList() << QList<qint64>();
        QTest::newRow("woken but cancelled before it runs")
            << child + "," + ev(15, 1, "Paused") + "," + ev(50, 2, "Running") + "," + ev(55, 2, "Cancelled") + ","
                   + ev(60, 1, "Cancelled")
            << QStringList() << QList<qint64>();
        QTest::newRow("two pauses, each woken")
            << child + "," + ev(15, 1, "Paused") + "," + ev(50, 2, "Running") + "," + ev(51, 2, "Completed") + ","
                   + ev(54, 1, "Running") + "," + ev(56, 3, "Pending", "d") + "," + ev(56, 3, "Running") + ","
                   + ev(57, 3, "Paused") + "," + ev(58, 1, "Paused") + "," + ev(70, 3, "Running") + ","
                   + ev(71, 3, "Completed") + "," + ev(90, 1, "Running") + "," + ev(91, 1, "Completed")
            << QStringList{"p@51", "p@71"} << QList<qint64>{3, 19};
    }
    void inferredWakes()
    {
        QFETCH(QByteArray, events);
        QFETCH(QStringList, wakes);
        QFETCH(QList<qint64>, delays);
        const LoadResult r = loadText("{\"chronosFutureEvents\":1,\"events\":["
                                      "{\"t\":0,\"id\":1,\"state\":\"Pending\",\"proc\":\"p\",\"file\":\"x.nim\",\"line\":1},"
                                      "{\"t\":0,\"id\":1,\"state\":\"Running\"},"
                                      + events + "]}");
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QStringList got;
        for (const Wake& w : p.wakes()) {
            QVERIFY(w.isInferred());
            QVERIFY(!w.isSelfWake());
            got << QStringLiteral("%1@%2").arg(QString::fromUtf8(p.labelName(p.measurement(w.task).label))).arg(w.time);
        }
        QCOMPARE(got, wakes);
        QList<qint64> gotDelays;
        for (const Time d : SchedulingDelays::delaysOf(p, byName(p, "p")))
            gotDelays << d;
        QCOMPARE(gotDelays, delays);
        QCOMPARE(p.diagnostics().warningCount(), 0u);
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<qint64>("event");
        QTest::addColumn<QString>("message");
        QTest::newRow("no marker") << JSON({"events" : []}) << qint64(-1)
                                   << "missing \"chronosFutureEvents\": 1, the marker of a Chronos future event log";
        QTest::newRow("future version") << JSON({"chronosFutureEvents" : 2, "events" : []}) << qint64(-1)
                                        << "unsupported Chronos future event log version 2 (this Runlane reads version 1)";
        QTest::newRow("no events") << JSON({"chronosFutureEvents" : 1, "loop" : "x"}) << qint64(-1)
                                   << "missing 'events', the array of future events";
        QTest::newRow("float t") << JSON({"chronosFutureEvents" : 1, "events" : [{"t" : 1.5, "id" : 1, "state" : "Pending"}]})
                                 << qint64(0) << "'t' must be integer nanoseconds, found 1.5";
        QTest::newRow("no state") << JSON({"chronosFutureEvents" : 1, "events" : [{"t" : 1, "id" : 1}]}) << qint64(0)
                                  << "missing 'state' (Pending, Running, Paused, Completed, Failed or Cancelled)";
        QTest::newRow("no proc") << JSON({"chronosFutureEvents" : 1, "events" : [{"t" : 1, "id" : 1, "state" : "Pending"}]})
                                 << qint64(0)
                                 << "missing 'proc': the first event of future 1 must say its proc, file and line";
        QTest::newRow("line as text")
            << JSON({"chronosFutureEvents" : 1,
                     "events" : [{"t" : 1, "id" : 1, "state" : "Pending", "proc" : "p", "file" : "f", "line" : "7"}]})
            << qint64(0) << "'line' must be an integer, found \"7\"";
        QTest::newRow("event not an object") << JSON({"chronosFutureEvents" : 1, "events" : [17]}) << qint64(0)
                                             << "expected an event object, found 17";
        QTest::newRow("id an object") << JSON({"chronosFutureEvents" : 1, "events" : [{"t" : 1, "id" : {}, "state" : "Pending"}]})
                                      << qint64(0) << "'id' must be an integer, found an object";
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
    }

    // The bundled demo: taskHandler's share of the loop grows from almost
    // nothing to about half, plain to see in the usage chart.
    void demoShowsTheDegradation()
    {
        const LoadResult r = ProfileLoader::load(QStringLiteral(RUNLANE_DEMO_PROFILE));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QVERIFY(p.measurementCount() > 5000);
        QVERIFY(p.labelCount() > 200);
        const UsageSeries u = UsageSeries::compute(p, 0, UsageSeries::defaultBinWidth(p.duration()), 5);
        QCOMPARE(p.labelName(u.labels()[0]), std::string_view("taskHandler"));
        double first = 0;
        double last = 0;
        const std::size_t tenth = u.binCount() / 10;
        for (std::size_t b = 0; b < tenth; ++b) {
            first += u.share(b, 0) / double(tenth);
            last += u.share(u.binCount() - 2 - b, 0) / double(tenth);
        }
        QVERIFY2(first < 0.02, qPrintable(QString::number(first)));
        QVERIFY2(last > 0.40, qPrintable(QString::number(last)));
        for (std::size_t b = 0; b < u.binCount(); ++b)
            QVERIFY(u.busy(b) <= 1.0 + 1e-9);
        QCOMPARE(p.diagnostics().warningCount(), std::uint64_t(0));
    }

    void truncatedLogStillLoads()
    {
        const QByteArray json = "{\"chronosFutureEvents\": 1, \"events\": ["
                                "{\"t\": 0, \"id\": 1, \"state\": \"Pending\", \"proc\": \"p\", \"file\": \"f\", \"line\": 1},"
                                "{\"t\": 0, \"id\": 1, \"state\": \"Running\"},"
                                "{\"t\": 40, \"id\": 1, \"sta";
        const LoadResult r = loadText(json);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(r.profile->measurement(0).finalState(), FinalState::Unfinished);
        QCOMPARE(r.profile->diagnostics().warningKinds().at("truncated file"), std::uint64_t(1));
    }
};

QTEST_GUILESS_MAIN(TestChronosLoader)
#include "tst_chronosloader.moc"
