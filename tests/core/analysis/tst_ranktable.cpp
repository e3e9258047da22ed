#include "measurementmetrics.h"
#include "profilebuilder.h"
#include "rankbruteforce.h"
#include "ranktable.h"
#include "schedulingdelays.h"
#include "testsupport.h"
#include "tracegenerator.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace runlane;
using runlane::test::bruteForceRank;
using runlane::test::dataPath;
using runlane::test::loadText;
using runlane::test::rankDifference;

namespace {

constexpr Time us = 1000;

const RankRow* rowOf(const Profile& p, const RankTable& t, std::string_view name)
{
    for (const RankRow& r : t.rows()) {
        if (p.labelName(r.label) == name)
            return &r;
    }
    return nullptr;
}

// Every figure of a row that a per-call distribution or a sum gives.
QString figures(const RankRow& r)
{
    return QStringLiteral("calls %1, exec %2, total %3, wall %4, max %5, mean %6, p50 %7, p90 %8, p99 %9, ")
               .arg(r.calls).arg(r.exec).arg(r.total).arg(r.wall).arg(r.max).arg(r.mean).arg(r.p50).arg(r.p90).arg(r.p99)
        + QStringLiteral("wallMax %1, wallP50 %2, wallP90 %3, wallP99 %4").arg(r.wallMax).arg(r.wallP50).arg(r.wallP90).arg(r.wallP99);
}

QStringList order(const Profile& p, const RankTable& t)
{
    QStringList names;
    for (const RankRow& r : t.rows())
        names << QString::fromUtf8(p.labelName(r.label).data(), qsizetype(p.labelName(r.label).size()));
    return names;
}

} // namespace

class TestRankTable : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // semantics.md §3 as Chrome X events and as an Enso log: the same rank.
    void nestedCalls_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("chrome") << "profiles/fgh-chrome.json";
        QTest::newRow("enso") << "profiles/fgh-enso.json";
    }

    void nestedCalls()
    {
        QFETCH(QString, file);
        const LoadResult r = ProfileLoader::load(dataPath(file));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        const RankTable t = RankTable::compute(MeasurementMetrics(p));
        QCOMPARE(order(p, t), (QStringList{"f", "g", "h"}));
        const Time exec[] = {70 * us, 60 * us, 30 * us};
        const Time total[] = {160 * us, 90 * us, 30 * us};
        for (int i = 0; i < 3; ++i) {
            const RankRow& row = t.rows()[std::size_t(i)];
            QCOMPARE(row.exec, exec[i]);
            QCOMPARE(row.total, total[i]);
            QCOMPARE(row.wall, total[i]);
            QCOMPARE(row.calls, std::uint64_t(1));
            QCOMPARE(row.max, exec[i]);
            QCOMPARE(row.p50, exec[i]);
            QCOMPARE(p.label(row.label).line, i + 1);
            QCOMPARE(p.string(p.label(row.label).file), std::string_view("app.rs"));
        }
        QCOMPARE(t.busyTime(), 160 * us);
        QCOMPARE(t.rows()[0].busyShare, 70.0 / 160.0);
    }

    // A recursive call is not counted twice in its label's time with children.
    void recursion()
    {
        const LoadResult r = loadText(JSON([
            {"ph" : "X", "name" : "f", "ts" : 0, "dur" : 100},
            {"ph" : "X", "name" : "f", "ts" : 10, "dur" : 40},
            {"ph" : "X", "name" : "g", "ts" : 20, "dur" : 10}
        ]));
        QVERIFY(r.ok());
        const Profile& p = *r.profile;
        const RankTable t = RankTable::compute(MeasurementMetrics(p));
        const RankRow* f = rowOf(p, t, "f");
        QCOMPARE(f->calls, std::uint64_t(2));
        QCOMPARE(f->exec, 90 * us);
        QCOMPARE(f->total, 100 * us);
        QCOMPARE(f->wall, 140 * us);
        QCOMPARE(rowOf(p, t, "g")->total, 10 * us);
    }

    void percentiles()
    {
        // Ten calls of 1..10 µs (written out of order), and one of 100 µs later.
        QByteArray json = "[";
        const int lengths[] = {7, 3, 10, 1, 5, 9, 2, 8, 4, 6};
        Time start = 0;
        for (const int l : lengths) {
            json += "{\"ph\":\"X\",\"name\":\"step\",\"ts\":" + QByteArray::number(qlonglong(start)) + ",\"dur\":"
                + QByteArray::number(l) + "},";
            start += 20;
        }
        json += "{\"ph\":\"X\",\"name\":\"other\",\"ts\":500,\"dur\":100}]";
        const LoadResult r = loadText(json);
        QVERIFY(r.ok());
        const RankTable t = RankTable::compute(MeasurementMetrics(*r.profile));
        const RankRow* step = rowOf(*r.profile, t, "step");
        QCOMPARE(step->calls, std::uint64_t(10));
        QCOMPARE(step->exec, 55 * us);
        QCOMPARE(step->max, 10 * us);
        QCOMPARE(step->mean, 5500);
        QCOMPARE(step->p50, 5 * us);
        QCOMPARE(step->p90, 9 * us);
        QCOMPARE(step->p99, 10 * us);
        QCOMPARE(step->wallP90, 9 * us);
        QCOMPARE(order(*r.profile, t), (QStringList{"other", "step"}));
    }

    // Every quantity clipped to [20, 80) µs of the f/g/h example.
    void range()
    {
        const LoadResult r = ProfileLoader::load(dataPath("profiles/fgh-chrome.json"));
        QVERIFY(r.ok());
        const Profile& p = *r.profile;
        const RankTable t = RankTable::compute(MeasurementMetrics(p), TimeRange{20 * us, 80 * us});
        QVERIFY(t.range().has_value());
        const RankRow* f = rowOf(p, t, "f");
        const RankRow* g = rowOf(p, t, "g");
        const RankRow* h = rowOf(p, t, "h");
        QCOMPARE(f->exec, Time(0));
        QCOMPARE(g->exec, 30 * us); // [20,30) + [60,80)
        QCOMPARE(h->exec, 30 * us);
        QCOMPARE(f->total, 60 * us);
        QCOMPARE(g->total, 60 * us);
        QCOMPARE(h->total, 30 * us);
        QCOMPARE(f->wall, 60 * us);
        QCOMPARE(h->wall, 30 * us);
        QCOMPARE(t.busyTime(), 60 * us);
        // Outside the profile nothing is left.
        QCOMPARE(RankTable::compute(MeasurementMetrics(p), TimeRange{200 * us, 300 * us}).rows().size(), std::size_t(0));
        // A range around h only: f and g take part (they were running) with no exec.
        const RankTable inner = RankTable::compute(MeasurementMetrics(p), TimeRange{40 * us, 50 * us});
        QCOMPARE(order(p, inner), (QStringList{"h", "f", "g"}));
        QCOMPARE(rowOf(p, inner, "g")->total, 10 * us);
    }


    // Ranges from a few microseconds to more than the whole profile of a
    // generated trace (nested calls on 8 threads, async tasks that pause):
    // short ranges take the sparse path, long ones the dense one, the whole
    // profile the unclipped figures. All must equal the obvious computation.
    void rangeAgreesWithBruteForce_data()
    {
        QTest::addColumn<double>("start"); // fraction of the span
        QTest::addColumn<double>("length");
        QTest::newRow("a few µs") << 0.37 << 1e-6;
        QTest::newRow("0.1 %") << 0.61 << 0.001;
        QTest::newRow("1 %") << 0.2 << 0.01;
        QTest::newRow("10 %") << 0.45 << 0.1;
        QTest::newRow("half") << 0.25 << 0.5;
        QTest::newRow("all but the ends") << 0.01 << 0.98;
        QTest::newRow("whole") << 0.0 << 1.0;
        QTest::newRow("more than whole") << -0.5 << 2.0;
        QTest::newRow("after the end") << 1.5 << 0.1;
    }

    void rangeAgreesWithBruteForce()
    {
        QFETCH(double, start);
        QFETCH(double, length);
        static QTemporaryDir dir;
        static std::shared_ptr<const Profile> profile;
        if (!profile) {
            const QString path = dir.filePath(QStringLiteral("generated.json"));
            QVERIFY(bench::TraceGenerator::writeFile(path.toLocal8Bit().constData(), 40000));
            LoadResult r = ProfileLoader::load(path);
            QVERIFY2(r.ok(), r.error.toString().c_str());
            profile = std::move(r.profile);
        }
        const Profile& p = *profile;
        const MeasurementMetrics metrics(p);
        const Time span = p.endTime() - p.startTime();
        const Time from = p.startTime() + Time(std::llround(double(span) * start));
        const Time to = start + length >= 1.0 && start <= 0.0 ? p.endTime() + 1 : from + Time(std::llround(double(span) * length));
        const RankTable table = RankTable::compute(metrics, TimeRange{from, to});
        const std::string difference = rankDifference(p, table, bruteForceRank(p, from, to));
        QVERIFY2(difference.empty(), difference.c_str());
    }

    // Found by fuzzing: two Enso processes, one 195 years after the other,
    // leave two tasks open across the gap. Each wall fits in a Time, their
    // sum does not: it is held at the largest Time instead of wrapping
    // round to a negative duration.
    void sumsAreClampedInsteadOfOverflowing()
    {
        const LoadResult r = ProfileLoader::load(dataPath("malformed/enso-two-processes-rank-sum-overflow.json"));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const RankTable t = RankTable::compute(MeasurementMetrics(*r.profile));
        const RankRow* load = rowOf(*r.profile, t, "load");
        QVERIFY(load);
        QCOMPARE(load->unfinished, std::uint64_t(2));
        QCOMPARE(load->wallMax, Time(6150900741301365000));
        QCOMPARE(load->wall, kTimeMax);
        for (const RankRow& row : t.rows())
            QVERIFY(row.exec >= 0 && row.total >= 0 && row.wall >= 0);
        QCOMPARE(addClamped(kTimeMax - 1, 5), kTimeMax);
        QCOMPARE(addClamped(kTimeMin + 1, -5), kTimeMin);
        QCOMPARE(addClamped(-7, 5), Time(-2));
    }

    void asyncColumns()
    {
        const LoadResult r = ProfileLoader::load(dataPath("profiles/enso-async.json"));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        const RankTable t = RankTable::compute(MeasurementMetrics(p));
        QCOMPARE(order(p, t), (QStringList{"main", "handle", "load", "parse", "never_awaited"}));
        const RankRow* load = rowOf(p, t, "load");
        QCOMPARE(load->calls, std::uint64_t(1));
        QCOMPARE(load->unfinished, std::uint64_t(1));
        QCOMPARE(load->exec, 55 * us);
        QCOMPARE(load->total, 60 * us);
        QCOMPARE(load->wall, 105 * us);
        QCOMPARE(load->max, 35 * us);
        QCOMPARE(load->mean, 27500);
        QCOMPARE(load->p50, 20 * us);
        const RankRow* never = rowOf(p, t, "never_awaited");
        // Created, then dropped without running: a primitive future, not a
        // stillborn one (that would be finished as it was created).
        QCOMPARE(never->calls, std::uint64_t(1));
        QCOMPARE(never->primitive, std::uint64_t(1));
        QCOMPARE(never->stillborn, std::uint64_t(0));
        QCOMPARE(never->exec, Time(0));
        QCOMPARE(never->wall, 84 * us);
        QCOMPARE(never->max, Time(0));
        QCOMPARE(never->wallMax, 84 * us);
        QCOMPARE(rowOf(p, t, "main")->total, 100 * us);
        QCOMPARE(t.busyTime(), 180 * us);
    }

    // Enough measurements and the rank counts them in two parts, one per
    // thread (2 x 65,536 at least), each label's calls spread over both:
    // the same figures as counted in one part, by hand. Call k of "a" runs
    // 2, 3, 4 us in turn and, when k is even, calls "b" for 1 us inside it.
    // With ExecOnly the wall distribution is left at 0, the rest the same.
    void partsAddUp_data()
    {
        QTest::addColumn<int>("calls");
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::newRow("one part") << 1200
                                  << "calls 1200, exec 3000000, total 3600000, wall 3600000, max 4000, mean 2500, "
                                     "p50 2000, p90 4000, p99 4000, wallMax 4000, wallP50 3000, wallP90 4000, wallP99 4000"
                                  << "calls 600, exec 600000, total 600000, wall 600000, max 1000, mean 1000, "
                                     "p50 1000, p90 1000, p99 1000, wallMax 1000, wallP50 1000, wallP90 1000, wallP99 1000";
        QTest::newRow("two parts") << 90000
                                   << "calls 90000, exec 225000000, total 270000000, wall 270000000, max 4000, mean 2500, "
                                      "p50 2000, p90 4000, p99 4000, wallMax 4000, wallP50 3000, wallP90 4000, wallP99 4000"
                                   << "calls 45000, exec 45000000, total 45000000, wall 45000000, max 1000, mean 1000, "
                                      "p50 1000, p90 1000, p99 1000, wallMax 1000, wallP50 1000, wallP90 1000, wallP99 1000";
    }

    void partsAddUp()
    {
        QFETCH(int, calls);
        QFETCH(QString, a);
        QFETCH(QString, b);
        QByteArray text = "{\"traceEvents\": [\n";
        for (int k = 0; k < calls; ++k) {
            const QByteArray ts = QByteArray::number(10 * qint64(k));
            text += (k ? ",\n" : "") + QByteArray("{\"name\": \"a\", \"ph\": \"X\", \"pid\": 1, \"tid\": 1, \"ts\": ") + ts
                + ", \"dur\": " + QByteArray::number(2 + k % 3) + "}";
            if (k % 2 == 0)
                text += ",\n{\"name\": \"b\", \"ph\": \"X\", \"pid\": 1, \"tid\": 1, \"ts\": "
                    + QByteArray::number(10 * qint64(k) + 1) + ", \"dur\": 1}";
        }
        text += "\n]}\n";
        const LoadResult r = loadText(text);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.measurementCount(), std::size_t(calls + (calls + 1) / 2));
        const MeasurementMetrics metrics(p);
        const RankTable t = RankTable::compute(metrics);
        QVERIFY(rowOf(p, t, "a") && rowOf(p, t, "b"));
        QCOMPARE(figures(*rowOf(p, t, "a")), a);
        QCOMPARE(figures(*rowOf(p, t, "b")), b);
        const RankTable execOnly = RankTable::compute(metrics, std::nullopt, nullptr, RankTable::Distributions::ExecOnly);
        const QString noWall = QStringLiteral("wallMax 0, wallP50 0, wallP90 0, wallP99 0");
        QCOMPARE(figures(*rowOf(p, execOnly, "a")), a.left(a.indexOf(QStringLiteral("wallMax"))) + noWall);
        QCOMPARE(figures(*rowOf(p, execOnly, "b")), b.left(b.indexOf(QStringLiteral("wallMax"))) + noWall);
    }

    void sorting_data()
    {
        QTest::addColumn<int>("key");
        QTest::addColumn<bool>("descending");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("exec") << int(RankSortKey::Exec) << true
                              << QStringList{"main", "handle", "load", "parse", "never_awaited"};
        // Ties keep the label order (main, load, parse, never_awaited, handle).
        QTest::newRow("total") << int(RankSortKey::Total) << true
                               << QStringList{"main", "load", "handle", "parse", "never_awaited"};
        QTest::newRow("wall") << int(RankSortKey::Wall) << true
                              << QStringList{"load", "main", "never_awaited", "handle", "parse"};
        QTest::newRow("calls") << int(RankSortKey::Calls) << true
                               << QStringList{"handle", "main", "load", "parse", "never_awaited"};
        QTest::newRow("max") << int(RankSortKey::Max) << true
                             << QStringList{"main", "handle", "load", "parse", "never_awaited"};
        QTest::newRow("name") << int(RankSortKey::Name) << false
                              << QStringList{"handle", "load", "main", "never_awaited", "parse"};
        QTest::newRow("exec ascending") << int(RankSortKey::Exec) << false
                                        << QStringList{"never_awaited", "parse", "load", "main", "handle"};
        // Issue 39, item 17: every column sorts. p50: load and handle
        // tie at 20 µs; never_awaited ran no call (0, with a distribution).
        QTest::newRow("p50") << int(RankSortKey::P50) << true
                             << QStringList{"main", "load", "handle", "parse", "never_awaited"};
        QTest::newRow("p90") << int(RankSortKey::P90) << true
                             << QStringList{"main", "handle", "load", "parse", "never_awaited"};
        QTest::newRow("p99 ascending") << int(RankSortKey::P99) << false
                                       << QStringList{"never_awaited", "parse", "load", "handle", "main"};
        QTest::newRow("wall_p90") << int(RankSortKey::WallP90) << true
                                  << QStringList{"main", "never_awaited", "load", "handle", "parse"};
        QTest::newRow("unfinished") << int(RankSortKey::Unfinished) << true
                                    << QStringList{"load", "main", "parse", "never_awaited", "handle"};
        QTest::newRow("primitive") << int(RankSortKey::Primitive) << true
                                   << QStringList{"never_awaited", "main", "load", "parse", "handle"};
        // app.rs:1, ls.rs:5, net.rs:10, net.rs:20, net.rs:30.
        QTest::newRow("file") << int(RankSortKey::File) << false
                              << QStringList{"main", "handle", "load", "parse", "never_awaited"};
    }

    void sorting()
    {
        QFETCH(int, key);
        QFETCH(bool, descending);
        QFETCH(QStringList, expected);
        const LoadResult r = ProfileLoader::load(dataPath("profiles/enso-async.json"));
        QVERIFY(r.ok());
        RankTable t = RankTable::compute(MeasurementMetrics(*r.profile));
        t.sort(*r.profile, RankSortKey(key), descending);
        QCOMPARE(order(*r.profile, t), expected);
    }

    void parseSortKey()
    {
        RankSortKey key = RankSortKey::Exec;
        QVERIFY(RankTable::parseSortKey("wall", key));
        QCOMPARE(key, RankSortKey::Wall);
        QVERIFY(!RankTable::parseSortKey("speed", key));
        QCOMPARE(key, RankSortKey::Wall);
        QVERIFY(RankTable::parseSortKey("delay_p90", key));
        QCOMPARE(key, RankSortKey::DelayP90);
        QCOMPARE(QString::fromStdString(RankTable::sortKeys()),
                 QStringLiteral("exec, busy, total, wall, calls, unfinished, stillborn, primitive, failed, cancelled, zombie, "
                                "max, mean, p50, p90, p99, wall_max, wall_p50, wall_p90, wall_p99, delays, delay_sum, "
                                "delay_max, delay_p90, name, file"));
    }

    // tokio-hand.jsonl: main loop's delays 500 and 400 ns, conn's 1000;
    // without the delays every row ties: the labels' order (main loop's
    // id is the first).
    void sortingByDelays_data()
    {
        QTest::addColumn<int>("key");
        QTest::addColumn<bool>("withDelays");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("sum") << int(RankSortKey::DelaySum) << true << QStringList{"src/conn.rs:20", "main loop"};
        QTest::newRow("max") << int(RankSortKey::DelayMax) << true << QStringList{"src/conn.rs:20", "main loop"};
        QTest::newRow("p90") << int(RankSortKey::DelayP90) << true << QStringList{"src/conn.rs:20", "main loop"};
        QTest::newRow("count") << int(RankSortKey::Delays) << true << QStringList{"main loop", "src/conn.rs:20"};
        QTest::newRow("sum, no delays") << int(RankSortKey::DelaySum) << false << QStringList{"main loop", "src/conn.rs:20"};
    }
    void sortingByDelays()
    {
        QFETCH(int, key);
        QFETCH(bool, withDelays);
        QFETCH(QStringList, expected);
        const LoadResult r = ProfileLoader::load(dataPath("profiles/tokio-hand.jsonl"));
        QVERIFY(r.ok());
        RankTable t = RankTable::compute(MeasurementMetrics(*r.profile));
        const SchedulingDelays delays(*r.profile);
        t.sort(*r.profile, RankSortKey::Exec, false); // conn first: the delays must move it
        t.sort(*r.profile, RankSortKey(key), true, withDelays ? &delays : nullptr);
        QCOMPARE(order(*r.profile, t), expected);
    }
};

QTEST_GUILESS_MAIN(TestRankTable)
#include "tst_ranktable.moc"
