#include "intervalmatch.h"
#include "profilebuilder.h"

#include "testsupport.h"

#include <QtTest>

#include <map>
#include <string>

using namespace runlane;
using runlane::test::addThread;

namespace {

// A call on the thread `tid` (of process 1 but for tid 7, process 0).
struct Call {
    std::int64_t tid;
    const char* name;
    Time start;
    Time end;
};

std::shared_ptr<const Profile> build(std::initializer_list<Call> calls)
{
    ProfileBuilder b("test");
    std::map<std::int64_t, TrackId> tracks;
    std::uint32_t order = 0;
    for (const Call& c : calls) {
        if (!tracks.count(c.tid))
            tracks[c.tid] = addThread(b, c.tid == 7 ? 0 : 1, c.tid);
        b.addCall(tracks[c.tid], b.label(c.name), c.start, c.end, order++);
    }
    return b.build();
}

// A loading file's preview: two threads of calls read so far.
std::shared_ptr<const Profile> preview()
{
    return build({{1, "f", 100, 200}, {1, "g", 110, 150}, {1, "zero", 160, 160}, {1, "other zero", 160, 160},
                  {2, "f", 100, 200}, {1, "cut later", 300, 310}});
}

// The next preview: more read, before and among those calls (another
// thread that sorts first, earlier calls), so every id has moved; one call
// has another end (a file can say so), so it is another call.
std::shared_ptr<const Profile> next()
{
    return build({{7, "f", 100, 200}, {1, "early", 10, 20}, {1, "f", 100, 200}, {1, "g", 110, 150},
                  {1, "zero", 160, 160}, {1, "other zero", 160, 160}, {1, "g", 170, 180}, {2, "early", 10, 20},
                  {2, "f", 100, 200}, {1, "cut later", 300, 320}});
}

// The interval of `p` on the thread `tid` named `name` starting at `start`.
IntervalId named(const Profile& p, std::int64_t tid, const std::string& name, Time start)
{
    for (IntervalId i = 0; i < p.intervalCount(); ++i) {
        const Interval& iv = p.interval(i);
        if (p.track(p.trackOf(i)).tid == tid && p.labelName(p.labelOf(iv.measurement)) == name && iv.start == start)
            return i;
    }
    return kNone;
}

} // namespace

class TestIntervalMatch : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void findsTheSameCall_data()
    {
        QTest::addColumn<qint64>("tid");
        QTest::addColumn<QString>("name");
        QTest::addColumn<qint64>("start");
        QTest::addColumn<bool>("found");
        QTest::newRow("outer call") << qint64(1) << "f" << qint64(100) << true;
        QTest::newRow("nested call") << qint64(1) << "g" << qint64(110) << true;
        QTest::newRow("zero-length, first of two at one time") << qint64(1) << "zero" << qint64(160) << true;
        QTest::newRow("zero-length, second") << qint64(1) << "other zero" << qint64(160) << true;
        QTest::newRow("same call on another thread") << qint64(2) << "f" << qint64(100) << true;
        QTest::newRow("another end: another call") << qint64(1) << "cut later" << qint64(300) << false;
    }

    void findsTheSameCall()
    {
        QFETCH(qint64, tid);
        QFETCH(QString, name);
        QFETCH(qint64, start);
        QFETCH(bool, found);
        const auto a = preview();
        const auto b = next();
        const IntervalId id = named(*a, tid, name.toStdString(), start);
        QVERIFY(id != kNone);
        const IntervalId same = IntervalMatch::find(*a, id, *b);
        if (!found) {
            QCOMPARE(same, kNone);
            return;
        }
        const IntervalId expected = named(*b, tid, name.toStdString(), start);
        QVERIFY(expected != kNone);
        QVERIFY(expected != id); // the rows test a renumbering
        QCOMPARE(same, expected);
        // And back: the match is the same both ways.
        QCOMPARE(IntervalMatch::find(*b, same, *a), id);
    }

    // An id the first profile does not have, or a call the second has not
    // read yet, matches nothing.
    void nothingToMatch()
    {
        const auto a = preview();
        const auto b = next();
        QCOMPARE(IntervalMatch::find(*a, IntervalId(a->intervalCount()), *b), kNone);
        QCOMPARE(IntervalMatch::find(*a, kNone, *b), kNone);
        QCOMPARE(IntervalMatch::find(*b, named(*b, 1, "early", 10), *a), kNone);
        QCOMPARE(IntervalMatch::find(*b, named(*b, 7, "f", 100), *a), kNone); // a thread not read yet
    }
};

QTEST_MAIN(TestIntervalMatch)
#include "tst_intervalmatch.moc"
