#include "criticalpathstate.h"
#include "profiledocument.h"
#include "timeaxis.h"
#include "widgettestsupport.h"

#include <QSignalSpy>
#include <QtTest>

using namespace runlane;
using namespace runlane::test;

namespace {

using Role = CriticalPathState::Role;

} // namespace

class TestCriticalPathState : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_axis = std::make_unique<TimeAxis>();
        m_document = std::make_unique<ProfileDocument>(m_axis.get());
        m_document->setProfile(criticalPathExample());
        QVERIFY(m_document->hasProfile());
    }
    void cleanup()
    {
        m_document.reset();
        m_axis.reset();
    }

    // The path of handler: its segments as the core walks them, and the two
    // wakes along it, each landing where the woken task ran again.
    void showsThePathAndItsWakes()
    {
        CriticalPathState* state = m_document->criticalPath();
        const Profile& p = *m_document->profile();
        QSignalSpy changed(state, &CriticalPathState::changed);
        QVERIFY(!state->isActive());
        QVERIFY(state->show(byName(p, "handler")));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(state->measurement(), byName(p, "handler"));
        QCOMPARE(state->segments().size(), std::size_t(9));
        QCOMPARE(state->segments().front().start, Time(0));
        QCOMPARE(state->segments().back().end, Time(52));

        QStringList wakes;
        for (const CriticalPathState::WakeEdge& w : state->wakes())
            wakes << QStringLiteral("%1>%2 %3-%4").arg(qstr(p.labelName(p.measurement(w.waker).label)), qstr(p.labelName(p.measurement(w.woken).label))).arg(w.at).arg(w.resume);
        QCOMPARE(wakes, (QStringList{QStringLiteral("sleepAsync>query 11-40"), QStringLiteral("query>handler 46-50")}));
    }

    void rolesOnThePath_data()
    {
        QTest::addColumn<QString>("label");
        QTest::addColumn<int>("role");
        QTest::newRow("handler: asked for, runs") << "handler" << (Role::Explained | Role::RunsOnPath);
        QTest::newRow("query: a waker that runs") << "query" << (Role::Explained | Role::RunsOnPath);
        QTest::newRow("sleepAsync: waited for") << "sleepAsync" << int(Role::Explained);
        QTest::newRow("other: the blocker") << "other" << int(Role::Blocks);
        QTest::newRow("flush: the blocker") << "flush" << int(Role::Blocks);
    }
    void rolesOnThePath()
    {
        QFETCH(QString, label);
        QFETCH(int, role);
        CriticalPathState* state = m_document->criticalPath();
        const Profile& p = *m_document->profile();
        QCOMPARE(state->roleOf(byName(p, label.toStdString())), std::uint8_t(0));
        state->show(byName(p, "handler"));
        QCOMPARE(int(state->roleOf(byName(p, label.toStdString()))), role);
    }

    // What a paint asks for: the segments overlapping its time range.
    void segmentsInARange_data()
    {
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        QTest::addColumn<qint64>("firstStart");
        QTest::addColumn<int>("count");
        QTest::newRow("all") << qint64(0) << qint64(52) << qint64(0) << 9;
        QTest::newRow("inside one") << qint64(20) << qint64(30) << qint64(12) << 1;
        QTest::newRow("across a boundary") << qint64(39) << qint64(41) << qint64(12) << 2;
        QTest::newRow("ends where one starts") << qint64(0) << qint64(5) << qint64(0) << 1;
        QTest::newRow("starts where one ends") << qint64(50) << qint64(60) << qint64(50) << 1;
        QTest::newRow("after the life") << qint64(52) << qint64(60) << qint64(0) << 0;
        QTest::newRow("empty") << qint64(20) << qint64(20) << qint64(0) << 0;
    }
    void segmentsInARange()
    {
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        QFETCH(qint64, firstStart);
        QFETCH(int, count);
        CriticalPathState* state = m_document->criticalPath();
        state->show(byName(*m_document->profile(), "handler"));
        const auto slice = state->segmentsIn(from, to);
        QCOMPARE(int(slice.size()), count);
        if (count > 0)
            QCOMPARE(slice.front().start, Time(firstStart));
    }

    void unknownIdShowsNothing()
    {
        CriticalPathState* state = m_document->criticalPath();
        QSignalSpy changed(state, &CriticalPathState::changed);
        QVERIFY(!state->show(MeasurementId(m_document->profile()->measurements().size())));
        QVERIFY(!state->isActive());
        QCOMPARE(changed.count(), 0);
    }

    // Esc (clear) and a new profile both drop the path, once; the paths'
    // index stays usable by a worker holding it after the switch.
    void droppedOnClearAndOnAProfileChange()
    {
        CriticalPathState* state = m_document->criticalPath();
        QSignalSpy changed(state, &CriticalPathState::changed);
        state->show(byName(*m_document->profile(), "handler"));
        state->clear();
        QCOMPARE(changed.count(), 2);
        QVERIFY(!state->isActive());
        state->clear();
        QCOMPARE(changed.count(), 2);

        state->show(byName(*m_document->profile(), "query"));
        const std::shared_ptr<const CriticalPath> held = state->paths();
        const MeasurementId query = state->measurement();
        m_document->setProfile(criticalPathExample());
        QCOMPARE(changed.count(), 4);
        QVERIFY(!state->isActive());
        QVERIFY(state->segments().empty() && state->wakes().empty());
        QCOMPARE(state->roleOf(query), std::uint8_t(0));
        QVERIFY(state->paths() != held);
        // query 5–46: running, waiting for sleepAsync, idle, queued behind other, running.
        QCOMPARE(held->of(query).size(), std::size_t(5));
    }

    void wakeSourceOfTheFormat()
    {
        QCOMPARE(m_document->criticalPath()->wakeSource(), CriticalPath::WakeSource::Children);
        m_document->clear();
        QCOMPARE(m_document->criticalPath()->wakeSource(), CriticalPath::WakeSource::None);
        QVERIFY(!m_document->criticalPath()->paths());
    }

private:
    std::unique_ptr<TimeAxis> m_axis;
    std::unique_ptr<ProfileDocument> m_document;
};

QTEST_MAIN(TestCriticalPathState)
#include "tst_criticalpathstate.moc"
