#include "taskpacking.h"
#include "testsupport.h"

#include <QtTest>

using namespace runlane;
using namespace runlane::test;

namespace {

// Chronos futures on one loop (t in ns), each pending then completed:
//   a1 0-100, a2 50-150, a3 100-200, a4 150-250 (a: overlapping pairs)
//   b1 20-30
//   z1 and z2 both at 300, zero length; z3 300-310
//   u1 400 to the end, unfinished (the profile ends at 500)
QByteArray futures()
{
    return JSON({"chronosFutureEvents" : 1, "loop" : "main", "events" : [
        {"t" : 0, "id" : 1, "state" : "Pending", "proc" : "a", "file" : "p.nim", "line" : 1},
        {"t" : 20, "id" : 5, "state" : "Pending", "proc" : "b", "file" : "p.nim", "line" : 2},
        {"t" : 30, "id" : 5, "state" : "Completed"},
        {"t" : 50, "id" : 2, "state" : "Pending", "proc" : "a", "file" : "p.nim", "line" : 1},
        {"t" : 100, "id" : 1, "state" : "Completed"},
        {"t" : 100, "id" : 3, "state" : "Pending", "proc" : "a", "file" : "p.nim", "line" : 1},
        {"t" : 150, "id" : 2, "state" : "Completed"},
        {"t" : 150, "id" : 4, "state" : "Pending", "proc" : "a", "file" : "p.nim", "line" : 1},
        {"t" : 200, "id" : 3, "state" : "Completed"},
        {"t" : 250, "id" : 4, "state" : "Completed"},
        {"t" : 300, "id" : 6, "state" : "Pending", "proc" : "z", "file" : "p.nim", "line" : 3},
        {"t" : 300, "id" : 6, "state" : "Completed"},
        {"t" : 300, "id" : 7, "state" : "Pending", "proc" : "z", "file" : "p.nim", "line" : 3},
        {"t" : 300, "id" : 7, "state" : "Completed"},
        {"t" : 300, "id" : 8, "state" : "Pending", "proc" : "z", "file" : "p.nim", "line" : 3},
        {"t" : 310, "id" : 8, "state" : "Completed"},
        {"t" : 400, "id" : 9, "state" : "Pending", "proc" : "u", "file" : "p.nim", "line" : 4},
        {"t" : 500, "id" : 10, "state" : "Pending", "proc" : "b", "file" : "p.nim", "line" : 2},
        {"t" : 500, "id" : 10, "state" : "Completed"}
    ]});
}

} // namespace

class TestTaskPacking : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        LoadResult r = loadText(futures());
        QVERIFY2(r.ok(), r.error.toString().c_str());
        m_profile = std::move(r.profile);
        QCOMPARE(m_profile->endTime() - m_profile->startTime(), 500);
    }

    // Rows by label, most tasks first; within a label, first fit by
    // creation: a task ending at 100 leaves its row to one created at 100.
    void packsEachLabelIntoTheFewestRows()
    {
        const Profile& p = *m_profile;
        const TaskPacking packing(p);
        QStringList rows;
        for (const TaskPacking::Row& row : packing.rows()) {
            QStringList tasks;
            for (std::uint32_t i = row.begin; i < row.end; ++i) {
                const Measurement& m = p.measurement(packing.tasks()[i]);
                tasks << QStringLiteral("%1-%2").arg(m.created - p.startTime()).arg(TaskPacking::endOf(p, m) - p.startTime());
            }
            rows << QStringLiteral("%1#%2: %3").arg(qstr(p.labelName(row.label))).arg(row.indexInGroup).arg(tasks.join(u' '));
        }
        const QStringList expected{
            QStringLiteral("a#0: 0-100 100-200"),
            QStringLiteral("a#1: 50-150 150-250"),
            // Zero-length tasks take their instant: nothing else starting
            // then shares their row.
            QStringLiteral("z#0: 300-300"),
            QStringLiteral("z#1: 300-300"),
            QStringLiteral("z#2: 300-310"),
            QStringLiteral("b#0: 20-30 500-500"),
            QStringLiteral("u#0: 400-500"),
        };
        QVERIFY2(rows == expected, qPrintable(rows.join(QStringLiteral(" | "))));
        QCOMPARE(packing.taskCount(), std::size_t(10));
        for (std::size_t r = 0; r < packing.rows().size(); ++r) {
            const TaskPacking::Row& row = packing.rows()[r];
            for (std::uint32_t i = row.begin; i < row.end; ++i)
                QCOMPARE(packing.rowOf(packing.tasks()[i]), r);
        }
    }

    void findsTheTasksAliveInARange_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("count");
        QTest::newRow("a#0 whole") << 0 << qint64(0) << qint64(500) << 0 << 2;
        QTest::newRow("a#0 at 100: both touch it") << 0 << qint64(100) << qint64(100) << 0 << 2;
        QTest::newRow("a#0 after") << 0 << qint64(201) << qint64(500) << 2 << 0;
        QTest::newRow("a#1 120-140") << 1 << qint64(120) << qint64(140) << 2 << 1;
        QTest::newRow("b#0 31-499: none") << 5 << qint64(31) << qint64(499) << 8 << 0;
        QTest::newRow("u#0 at the end") << 6 << qint64(500) << qint64(500) << 9 << 1;
    }

    void findsTheTasksAliveInARange()
    {
        QFETCH(int, row);
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        QFETCH(int, first);
        QFETCH(int, count);
        const TaskPacking packing(*m_profile);
        const Time t0 = m_profile->startTime();
        const auto [a, b] = packing.alive(packing.rows()[std::size_t(row)], t0 + from, t0 + to);
        QCOMPARE(int(a), first);
        QCOMPARE(int(b - a), count);
    }

    void ignoresSynchronousCalls()
    {
        LoadResult r = loadText(JSON([{"ph" : "X", "pid" : 1, "tid" : 1, "name" : "sync", "ts" : 0, "dur" : 10}]));
        QVERIFY(r.ok());
        const TaskPacking packing(*r.profile);
        QCOMPARE(packing.rows().size(), std::size_t(0));
        QCOMPARE(packing.rowOf(0), std::size_t(0));
    }

private:
    std::shared_ptr<const Profile> m_profile;
};

QTEST_MAIN(TestTaskPacking)
#include "tst_taskpacking.moc"
