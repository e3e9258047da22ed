#include "labelindex.h"
#include "testsupport.h"

#include <QtTest>

using namespace runlane;
using runlane::test::dataPath;
using runlane::test::labelNamed;
using runlane::test::loadText;
using runlane::test::qstr;

namespace {

// Two threads, µs; "f" six times at several depths and on both threads.
//   t1: main [0, 100) > f [10, 20) > f [12, 15)
//                     > g [30, 40) > f [30, 31)
//                     > f [50, 60)
//   t2: f [5, 25) > f [5, 6)
QByteArray profileText()
{
    return JSON([{"ph" : "X", "pid" : 1, "tid" : 1, "name" : "main", "ts" : 0, "dur" : 100},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "f", "ts" : 10, "dur" : 10},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "f", "ts" : 12, "dur" : 3},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "g", "ts" : 30, "dur" : 10},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "f", "ts" : 30, "dur" : 1},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "f", "ts" : 50, "dur" : 10},
                 {"ph" : "X", "pid" : 1, "tid" : 2, "name" : "f", "ts" : 5, "dur" : 20},
                 {"ph" : "X", "pid" : 1, "tid" : 2, "name" : "f", "ts" : 5, "dur" : 1}]);
}

// "start@track/depth" of an interval, in µs.
QString where(const Profile& p, IntervalId id)
{
    if (id == kNone)
        return QStringLiteral("none");
    return QStringLiteral("%1@%2/%3").arg(p.interval(id).start / 1000).arg(p.trackOf(id)).arg(p.depthOf(id));
}

} // namespace

class TestLabelIndex : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void listsEveryIntervalOfALabelInIdOrder()
    {
        const LoadResult r = loadText(profileText());
        QVERIFY(r.ok());
        const Profile& p = *r.profile;
        const LabelIndex index(p);
        const auto f = index.intervalsOf(labelNamed(p, "f"));
        QCOMPARE(f.size(), std::size_t(6));
        QVERIFY(std::is_sorted(f.begin(), f.end()));
        for (const IntervalId id : f)
            QCOMPARE(p.labelName(p.measurement(p.interval(id).measurement).label), "f");
        QCOMPARE(index.intervalsOf(labelNamed(p, "main")).size(), std::size_t(1));
        // Every interval is under exactly one label.
        std::size_t all = 0;
        for (LabelId l = 0; l < p.labelCount(); ++l)
            all += index.intervalsOf(l).size();
        QCOMPARE(all, p.intervalCount());
        // One row: thread 1, depth 1 holds f at 10 and 50 (and g).
        const Track& t1 = p.track(0);
        const auto row = index.inRow(labelNamed(p, "f"), t1.depthOffsets[1], t1.depthOffsets[2]);
        QCOMPARE(row.size(), std::size_t(2));
        QCOMPARE(where(p, row[0]), QStringLiteral("10@0/1"));
        QCOMPARE(where(p, row[1]), QStringLiteral("50@0/1"));
    }

    // Stepping goes through occurrences in time order across rows and
    // tracks; equal starts are ordered by id.
    void stepsThroughOccurrencesInTime()
    {
        const LoadResult r = loadText(profileText());
        QVERIFY(r.ok());
        const Profile& p = *r.profile;
        const LabelIndex index(p);
        const std::vector<LabelId> f{labelNamed(p, "f")};
        QStringList forward;
        IntervalId at = index.step(p, f, p.startTime(), kNone, true);
        while (at != kNone) {
            forward << where(p, at);
            at = index.step(p, f, p.interval(at).start, at, true);
        }
        QCOMPARE(forward, (QStringList{"5@1/0", "5@1/1", "10@0/1", "12@0/2", "30@0/2", "50@0/1"}));
        QStringList backward;
        at = index.step(p, f, p.endTime(), kNone, false);
        while (at != kNone) {
            backward << where(p, at);
            at = index.step(p, f, p.interval(at).start, at, false);
        }
        std::reverse(backward.begin(), backward.end());
        QCOMPARE(backward, forward);
        // Several labels at once: g and main join the walk.
        const std::vector<LabelId> fg{labelNamed(p, "f"), labelNamed(p, "g")};
        const IntervalId afterTwelve = index.step(p, fg, 12'000, kNone, true);
        QCOMPARE(where(p, afterTwelve), QStringLiteral("12@0/2"));
        const IntervalId next = index.step(p, fg, 12'000, afterTwelve, true);
        QCOMPARE(qstr(p.labelName(p.measurement(p.interval(next).measurement).label)), QStringLiteral("g"));
        QCOMPARE(index.step(p, f, 60'000, kNone, true), kNone);
    }

    void indexesTheDemo()
    {
        const LoadResult r = ProfileLoader::load(QStringLiteral(RUNLANE_DEMO_PROFILE));
        QVERIFY(r.ok());
        const LabelIndex index(*r.profile);
        std::size_t all = 0;
        for (LabelId l = 0; l < r.profile->labelCount(); ++l)
            all += index.intervalsOf(l).size();
        QCOMPARE(all, std::size_t(27508));
    }
};

QTEST_GUILESS_MAIN(TestLabelIndex)
#include "tst_labelindex.moc"
