#include "measurementmetrics.h"
#include "tasklanerows.h"
#include "testsupport.h"

#include <QtTest>

using namespace runlane;
using namespace runlane::test;

namespace {

constexpr int kHeader = 20;
constexpr int kRow = 18;

// Chronos futures on one loop (t in ns), each pending from its creation
// and running just before it ends:
//   tick  0-10 (runs 8-10), 20-30 (runs 28-30), 25-40 (runs 35-40)
//   tock  5-50 (runs 42-50)
// Packed, the ticks take two rows (the last overlaps the second), tock one.
QByteArray ticks()
{
    return JSON({"chronosFutureEvents" : 1, "loop" : "main", "events" : [
        {"t" : 0, "id" : 1, "state" : "Pending", "proc" : "tick", "file" : "rows.nim", "line" : 1},
        {"t" : 5, "id" : 2, "state" : "Pending", "proc" : "tock", "file" : "rows.nim", "line" : 2},
        {"t" : 8, "id" : 1, "state" : "Running"},
        {"t" : 10, "id" : 1, "state" : "Completed"},
        {"t" : 20, "id" : 3, "state" : "Pending", "proc" : "tick", "file" : "rows.nim", "line" : 1},
        {"t" : 25, "id" : 4, "state" : "Pending", "proc" : "tick", "file" : "rows.nim", "line" : 1},
        {"t" : 28, "id" : 3, "state" : "Running"},
        {"t" : 30, "id" : 3, "state" : "Completed"},
        {"t" : 35, "id" : 4, "state" : "Running"},
        {"t" : 40, "id" : 4, "state" : "Completed"},
        {"t" : 42, "id" : 2, "state" : "Running"},
        {"t" : 50, "id" : 2, "state" : "Completed"}
    ]});
}

// Chronos futures on one loop: tick 0-10 runs 8-10; tock 5-50 and tack
// 20-30 are completed without ever running (no active interval).
QByteArray neverRan()
{
    return JSON({"chronosFutureEvents" : 1, "loop" : "main", "events" : [
        {"t" : 0, "id" : 1, "state" : "Pending", "proc" : "tick", "file" : "ran.nim", "line" : 1},
        {"t" : 5, "id" : 2, "state" : "Pending", "proc" : "tock", "file" : "ran.nim", "line" : 2},
        {"t" : 8, "id" : 1, "state" : "Running"},
        {"t" : 10, "id" : 1, "state" : "Completed"},
        {"t" : 20, "id" : 3, "state" : "Pending", "proc" : "tack", "file" : "ran.nim", "line" : 3},
        {"t" : 30, "id" : 3, "state" : "Completed"},
        {"t" : 50, "id" : 2, "state" : "Completed"}
    ]});
}

// The rows as text: a header "#<tasks>@y", a task "<label>@y", a packed
// row "<label>x<tasks>@y".
QStringList describe(const Profile& p, const TaskLaneRows& lanes)
{
    QStringList out;
    for (const TaskLaneRows::Row& r : lanes.rows()) {
        switch (r.kind) {
        case TaskLaneRows::Kind::Header:
            out << QStringLiteral("#%1@%2").arg(r.count).arg(r.y);
            break;
        case TaskLaneRows::Kind::Task:
            out << QStringLiteral("%1@%2").arg(qstr(p.labelName(p.measurement(r.task).label))).arg(r.y);
            break;
        case TaskLaneRows::Kind::Packed:
            out << QStringLiteral("%1x%2@%3").arg(qstr(p.labelName(lanes.packing().rows()[r.packed].label))).arg(r.count).arg(r.y);
            break;
        }
    }
    return out;
}

// The task created at `t` ns into the profile.
MeasurementId createdAt(const Profile& p, Time t)
{
    for (MeasurementId id = 0; id < p.measurementCount(); ++id) {
        if (p.measurement(id).isAsync() && p.measurement(id).created == p.startTime() + t)
            return id;
    }
    return kNone;
}

} // namespace

class TestTaskLaneRows : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        LoadResult r = loadText(ticks());
        QVERIFY2(r.ok(), r.error.toString().c_str());
        m_profile = std::move(r.profile);
        m_metrics = std::make_unique<MeasurementMetrics>(*m_profile);
        m_tasks = TaskPacking(*m_profile);
        QCOMPARE(m_tasks.taskCount(), std::size_t(4));
        QCOMPARE(m_profile->trackCount(), std::size_t(1));
    }

    void listsRows_data()
    {
        QTest::addColumn<int>("layout");
        QTest::addColumn<int>("order");
        QTest::addColumn<int>("from"); // -1: every task
        QTest::addColumn<int>("to");
        QTest::addColumn<int>("screen");
        QTest::addColumn<bool>("packed");
        QTest::addColumn<QStringList>("rows");
        const int perTask = int(TaskLaneRows::Layout::PerTask);
        const int packed = int(TaskLaneRows::Layout::Packed);
        const int automatic = int(TaskLaneRows::Layout::Auto);
        const int creation = int(TaskLaneRows::Order::Creation);
        QTest::newRow("per task, by creation") << perTask << creation << -1 << 0 << 0 << false
                                               << QStringList{"#4@0", "tick@20", "tock@38", "tick@56", "tick@74"};
        // exec: tock 8 ns, the tick 25-40 5, the first two ticks 2 each (in order of creation).
        QTest::newRow("per task, by exec") << perTask << int(TaskLaneRows::Order::Exec) << -1 << 0 << 0 << false
                                           << QStringList{"#4@0", "tock@20", "tick@38", "tick@56", "tick@74"};
        QTest::newRow("per task, by name") << perTask << int(TaskLaneRows::Order::Name) << -1 << 0 << 0 << false
                                           << QStringList{"#4@0", "tick@20", "tick@38", "tick@56", "tock@74"};
        QTest::newRow("packed") << packed << creation << -1 << 0 << 0 << true
                                << QStringList{"#4@0", "tickx2@20", "tickx1@38", "tockx1@56"};
        // In 22-28: the tick 20-30, the tick 25-40 and tock; the first tick ended at 10.
        QTest::newRow("per task in 22-28") << perTask << creation << 22 << 28 << 0 << false
                                           << QStringList{"#3@0", "tock@20", "tick@38", "tick@56"};
        QTest::newRow("packed in 22-28") << packed << creation << 22 << 28 << 0 << true
                                         << QStringList{"#3@0", "tickx1@20", "tickx1@38", "tockx1@56"};
        QTest::newRow("packed in 41-50") << packed << creation << 41 << 50 << 0 << true
                                         << QStringList{"#1@0", "tockx1@20"};
        // A screen of 40 px shows two rows: two tasks a row each, three packed.
        QTest::newRow("auto, small screen") << automatic << creation << -1 << 0 << 40 << true
                                            << QStringList{"#4@0", "tickx2@20", "tickx1@38", "tockx1@56"};
        // Every row fits: four tasks either way, and a tie keeps a row each.
        QTest::newRow("auto, tall screen") << automatic << creation << -1 << 0 << 1000 << false
                                           << QStringList{"#4@0", "tick@20", "tock@38", "tick@56", "tick@74"};
        QTest::newRow("nothing in range") << automatic << creation << 60 << 70 << 1000 << false << QStringList{};
    }
    void listsRows()
    {
        QFETCH(int, layout);
        QFETCH(int, order);
        QFETCH(int, from);
        QFETCH(int, to);
        QFETCH(int, screen);
        QFETCH(bool, packed);
        QFETCH(QStringList, rows);
        const Profile& p = *m_profile;
        TaskLaneRows lanes;
        lanes.setTasks(m_tasks, p.trackCount());
        TaskLaneRows::Options o;
        o.layout = TaskLaneRows::Layout(layout);
        o.order = TaskLaneRows::Order(order);
        o.onlyInRange = from >= 0;
        o.from = p.startTime() + from;
        o.to = p.startTime() + to;
        o.headerHeight = kHeader;
        o.rowHeight = kRow;
        o.screen = screen;
        lanes.build(p, m_metrics.get(), o);
        QCOMPARE(describe(p, lanes), rows);
        QCOMPARE(lanes.packedShown(), packed);
        const std::size_t listed = rows.isEmpty() ? 0 : rows.first().mid(1, rows.first().indexOf('@') - 1).toUInt();
        QCOMPARE(lanes.taskCount(), listed);
        QCOMPARE(lanes.contentHeight(), rows.isEmpty() ? 0 : kHeader + (int(rows.size()) - 1) * kRow);
    }

    // Which row is at a content y, and which row shows a task.
    void findsRows()
    {
        const Profile& p = *m_profile;
        TaskLaneRows lanes;
        lanes.setTasks(m_tasks, p.trackCount());
        TaskLaneRows::Options o;
        o.layout = TaskLaneRows::Layout::PerTask;
        o.onlyInRange = true;
        o.from = p.startTime() + 22;
        o.to = p.startTime() + 28;
        o.headerHeight = kHeader;
        o.rowHeight = kRow;
        lanes.build(p, m_metrics.get(), o);
        const auto& rows = lanes.rows();
        QCOMPARE(rows.size(), std::size_t(4));
        QCOMPARE(lanes.rowAt(0), &rows[0]);
        QCOMPARE(lanes.rowAt(19), &rows[0]);
        QCOMPARE(lanes.rowAt(20), &rows[1]);
        QCOMPARE(lanes.rowAt(73), &rows[3]);
        QCOMPARE(lanes.rowAt(74), nullptr);
        QCOMPARE(lanes.rowAt(-1), nullptr);
        // Painting from a scroll of 30 starts at the row it cuts (20-38).
        QCOMPARE(lanes.firstFrom(30) - rows.begin(), 1);
        QCOMPARE(lanes.firstFrom(38) - rows.begin(), 2);
        QCOMPARE(lanes.firstFrom(1000) - rows.begin(), 4);
        const MeasurementId tick0 = createdAt(p, 0);
        const MeasurementId tock = createdAt(p, 5);
        const MeasurementId tick20 = createdAt(p, 20);
        const MeasurementId tick25 = createdAt(p, 25);
        QCOMPARE(lanes.rowOfTask(tick0), nullptr); // ended before the range
        QCOMPARE(lanes.rowOfTask(tock), &rows[1]);
        QCOMPARE(lanes.rowOfTask(tick20), &rows[2]);
        QCOMPARE(lanes.rowOfTask(tick25), &rows[3]);
        QCOMPARE(lanes.rowOfTask(MeasurementId(p.measurementCount())), nullptr);
        // Packed: a task is found in its packed row.
        o.layout = TaskLaneRows::Layout::Packed;
        o.onlyInRange = false;
        lanes.build(p, m_metrics.get(), o);
        QCOMPARE(lanes.rowOfTask(tick0), &lanes.rows()[1]);
        QCOMPARE(lanes.rowOfTask(tick20), &lanes.rows()[1]);
        QCOMPARE(lanes.rowOfTask(tick25), &lanes.rows()[2]);
        QCOMPARE(lanes.rowOfTask(tock), &lanes.rows()[3]);
        // New tasks clear the rows.
        lanes.setTasks({}, 0);
        QVERIFY(lanes.rows().empty());
        QCOMPARE(lanes.rowOfTask(tick0), nullptr);
        QCOMPARE(lanes.contentHeight(), 0);
    }

    // Auto shows what the layout it chooses would show, and chooses the
    // one that shows more tasks on the first screen (a tie: a row per
    // task), as if both had been built: only the chosen one is. Tasks on
    // two tracks, so that the second track's header takes its place too.
    void autoChoosesAsBothWouldShow()
    {
        // Chrome async tasks: 30 in process 1, 12 in process 2, of
        // lengths and overlaps that vary (a linear congruential sequence).
        QByteArray text = "[";
        std::uint32_t seed = 7;
        auto next = [&seed](std::uint32_t below) {
            seed = seed * 1103515245u + 12345u;
            return (seed >> 16) % below;
        };
        for (int i = 0; i < 42; ++i) {
            const int pid = i < 30 ? 1 : 2;
            const std::uint32_t start = std::uint32_t(i) * 10 + next(10);
            const std::uint32_t end = start + 1 + next(120);
            text += QStringLiteral(R"({"ph":"b","cat":"c","name":"t%1","id":"%2","pid":%3,"tid":1,"ts":%4},)"
                                   R"({"ph":"e","cat":"c","name":"t%1","id":"%2","pid":%3,"tid":1,"ts":%5},)")
                        .arg(i % 5)
                        .arg(i)
                        .arg(pid)
                        .arg(start)
                        .arg(end)
                        .toUtf8();
        }
        text.chop(1);
        text += "]";
        LoadResult r = loadText(text);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        const TaskPacking packing(p);
        QCOMPARE(packing.taskCount(), std::size_t(42));
        const Time us = 1000;
        // The tasks a layout's rows show within a screen, as Auto counts them.
        auto within = [](const TaskLaneRows& lanes, int screen) {
            std::size_t shown = 0;
            for (const TaskLaneRows::Row& row : lanes.rows()) {
                if (row.y >= screen)
                    break;
                shown += row.kind == TaskLaneRows::Kind::Task ? 1 : row.kind == TaskLaneRows::Kind::Packed ? row.count : 0;
            }
            return shown;
        };
        int packedChosen = 0;
        int perTaskChosen = 0;
        for (const auto& [from, to] : std::vector<std::pair<Time, Time>>{{-1, 0}, {0, 50}, {100, 180}, {300, 310}, {5000, 6000}}) {
            for (const int screen : {0, 19, 20, 38, 39, 56, 100, 200, 400, 1000, 5000}) {
                TaskLaneRows::Options o;
                o.onlyInRange = from >= 0;
                o.from = p.startTime() + from * us;
                o.to = p.startTime() + to * us;
                o.headerHeight = kHeader;
                o.rowHeight = kRow;
                o.screen = screen;
                TaskLaneRows perTask;
                TaskLaneRows packed;
                TaskLaneRows automatic;
                perTask.setTasks(packing, p.trackCount());
                packed.setTasks(packing, p.trackCount());
                automatic.setTasks(packing, p.trackCount());
                o.layout = TaskLaneRows::Layout::PerTask;
                perTask.build(p, nullptr, o);
                o.layout = TaskLaneRows::Layout::Packed;
                packed.build(p, nullptr, o);
                o.layout = TaskLaneRows::Layout::Auto;
                automatic.build(p, nullptr, o);
                const bool packedWins = within(packed, screen) > within(perTask, screen);
                const QByteArray where = QStringLiteral("range %1-%2, screen %3").arg(from).arg(to).arg(screen).toUtf8();
                QVERIFY2(automatic.packedShown() == packedWins, where.constData());
                const TaskLaneRows& chosen = packedWins ? packed : perTask;
                QVERIFY2(describe(p, automatic) == describe(p, chosen), where.constData());
                QVERIFY2(automatic.taskCount() == chosen.taskCount(), where.constData());
                (packedWins ? packedChosen : perTaskChosen)++;
            }
        }
        // Both layouts are chosen somewhere on this grid: the test sees both ways.
        QCOMPARE(packedChosen, 10);
        QCOMPARE(perTaskChosen, 45);
    }

    // Which tasks are listed: every one, or those that ran, from packings
    // made ahead (the loading thread's) or packed by TaskLaneRows itself.
    void listsTheTasksThatRan_data()
    {
        QTest::addColumn<bool>("onlyThatRan");
        QTest::addColumn<bool>("packedAhead");
        QTest::addColumn<QStringList>("rows");
        QTest::addColumn<int>("hidden");
        const QStringList all{"#3@0", "tick@20", "tock@38", "tack@56"};
        const QStringList ran{"#1@0", "tick@20"};
        QTest::newRow("all, packed ahead") << false << true << all << 0;
        QTest::newRow("all, packed here") << false << false << all << 0;
        QTest::newRow("those that ran, packed ahead") << true << true << ran << 2;
        QTest::newRow("those that ran, packed here") << true << false << ran << 2;
    }
    void listsTheTasksThatRan()
    {
        QFETCH(bool, onlyThatRan);
        QFETCH(bool, packedAhead);
        QFETCH(QStringList, rows);
        QFETCH(int, hidden);
        LoadResult r = loadText(neverRan());
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(TaskPacking::neverRanCount(p), std::size_t(2));
        const TaskPacking all(p, true);
        const TaskPacking ran(p, false);
        TaskLaneRows lanes;
        lanes.setTasks(p, onlyThatRan, packedAhead ? &all : nullptr, packedAhead ? &ran : nullptr);
        QCOMPARE(lanes.hiddenTaskCount(), std::size_t(hidden));
        QCOMPARE(lanes.packing().taskCount(), std::size_t(3 - hidden));
        TaskLaneRows::Options o;
        o.layout = TaskLaneRows::Layout::PerTask;
        o.onlyInRange = false;
        o.headerHeight = kHeader;
        o.rowHeight = kRow;
        lanes.build(p, nullptr, o);
        QCOMPARE(describe(p, lanes), rows);
        // Packed ahead, a profile whose tasks all ran has no `ran` packing.
        if (packedAhead) {
            lanes.setTasks(p, onlyThatRan, &all, nullptr);
            QCOMPARE(lanes.hiddenTaskCount(), std::size_t(0));
            QCOMPARE(lanes.packing().taskCount(), std::size_t(3));
        }
        // New tasks given as a packing hide none.
        lanes.setTasks({}, 0);
        QCOMPARE(lanes.hiddenTaskCount(), std::size_t(0));
    }

private:
    std::shared_ptr<const Profile> m_profile;
    std::unique_ptr<MeasurementMetrics> m_metrics;
    TaskPacking m_tasks;
};

QTEST_MAIN(TestTaskLaneRows)
#include "tst_tasklanerows.moc"
