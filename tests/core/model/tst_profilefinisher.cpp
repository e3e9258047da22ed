// ProfileFinisher's span and ends: the profile spans every time it
// mentions, what is still open ends there, and a call ends no later than
// the call around it (semantics.md §4). Found on every core, a slice of
// 65,536 measurements each.

#include "measurementmetrics.h"
#include "profilebuilder.h"

#include "testsupport.h"

#include <QtTest>

using namespace runlane;
using runlane::test::addThread;
using runlane::test::byName;
using runlane::test::namesAt;
using runlane::test::qstr;

class TestProfileFinisher : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // A call that starts inside another and ends after it is cut at the
    // other's end (semantics.md §4: a call's time with children is its
    // duration); what it nested beyond the cut is no longer inside it.
    void callEndingAfterItsCallerIsCut()
    {
        ProfileBuilder b("test");
        const TrackId t = addThread(b);
        b.addCall(t, b.label("alpha"), 0, 10, 0);
        b.addCall(t, b.label("beta"), 5, 15, 1);
        b.addCall(t, b.label("delta"), 7, 12, 2);
        b.addCall(t, b.label("gamma"), 12, 14, 3);
        const auto p = b.build();
        const auto& d = p->diagnostics();
        QCOMPARE(d.warningKinds().at("call ends after its caller"), std::uint64_t(2));
        QCOMPARE(d.warningCount(), std::uint64_t(2));
        QCOMPARE(qstr(d.examples()[0]),
                 QStringLiteral("call 'beta' starts inside 'alpha' but ends 5 ns after it; cut at its end"));
        QCOMPARE(qstr(d.examples()[1]),
                 QStringLiteral("call 'delta' starts inside 'beta' but ends 2 ns after it; cut at its end"));
        QCOMPARE(namesAt(*p, 0, 0), (QStringList{"alpha", "gamma"}));
        QCOMPARE(namesAt(*p, 0, 1), QStringList{"beta"});
        QCOMPARE(namesAt(*p, 0, 2), QStringList{"delta"});
        const MeasurementId alpha = byName(*p, "alpha"), beta = byName(*p, "beta"), delta = byName(*p, "delta"),
                            gamma = byName(*p, "gamma");
        QCOMPARE(p->measurement(beta).finished, Time(10));
        QCOMPARE(p->measurement(delta).finished, Time(10));
        QCOMPARE(p->measurement(gamma).creator, kNone);
        const MeasurementMetrics m(*p);
        QCOMPARE(m.exec(alpha), Time(5));
        QCOMPARE(m.exec(beta), Time(2));
        QCOMPARE(m.exec(delta), Time(3));
        QCOMPARE(m.exec(gamma), Time(2));
        QCOMPARE(m.total(alpha), Time(10));
        QCOMPARE(m.total(beta), Time(5));
        QCOMPARE(m.busy(0), Time(12));
    }

    // An unclosed call nested in one that ends is cut there too: it ended
    // with its caller, so it is no longer open at the profile's end.
    void openCallInsideAClosedOneEndsWithIt()
    {
        ProfileBuilder b("test");
        const TrackId t = addThread(b);
        b.addCall(t, b.label("x"), 0, 10, 0);
        b.addCall(t, b.label("b"), 5, ProfileBuilder::kOpen, 1);
        b.addCall(t, b.label("later"), 20, 30, 2);
        const auto p = b.build();
        const Measurement& open = p->measurement(byName(*p, "b"));
        QCOMPARE(open.finished, Time(10));
        QCOMPARE(open.finalState(), FinalState::Ended);
        QCOMPARE(p->diagnostics().warningKinds().at("call ends after its caller"), std::uint64_t(1));
    }

    void openEndsAtProfileEnd()
    {
        ProfileBuilder b("test");
        const TrackId t = addThread(b);
        b.addCall(t, b.label("open"), 10, ProfileBuilder::kOpen, 0);
        b.addCall(t, b.label("late"), 20, 90, 1);
        const auto p = b.build();
        const MeasurementId open = byName(*p, "open");
        QCOMPARE(p->measurement(open).finalState(), FinalState::Unfinished);
        QCOMPARE(p->measurement(open).finished, Time(90));
        QCOMPARE(p->interval(p->intervalsOf(open)[0]).end, Time(90));
        QCOMPARE(namesAt(*p, 0, 1), QStringList{"late"});
    }

    // The span and the open ends are found on every core, a slice of
    // 65,536 measurements each: the earliest and the latest time wherever
    // they fall, and every open call ends at the latest.
    void spanAcrossSlices_data()
    {
        QTest::addColumn<int>("earliestAt");
        QTest::addColumn<int>("latestAt");
        QTest::newRow("both in the first slice") << 5 << 7;
        QTest::newRow("earliest last, latest first") << 199'999 << 3;
        QTest::newRow("at a slice's edges") << 65'536 << 131'071;
        QTest::newRow("both in the last slice") << 199'998 << 199'990;
    }

    void spanAcrossSlices()
    {
        QFETCH(int, earliestAt);
        QFETCH(int, latestAt);
        constexpr int kCalls = 200'000;
        ProfileBuilder b("test");
        const TrackId t = addThread(b);
        // The two calls at the ends on a thread of their own, so that no
        // open call is inside one (it would end with it).
        const TrackId ends = addThread(b, 1, 2);
        const LabelId call = b.label("call");
        const LabelId open = b.label("open");
        for (int i = 0; i < kCalls; ++i) {
            // Side by side from 1,000,000 ns, 10 ns each; two of them
            // moved to the ends, and every 50,000th left open.
            const Time start = 1'000'000 + Time(i) * 10;
            if (i == earliestAt)
                b.addCall(ends, call, 17, 40, std::uint32_t(i));
            else if (i == latestAt)
                b.addCall(ends, call, 8'000'000, 9'000'000, std::uint32_t(i));
            else if (i % 50'000 == 1)
                b.addCall(t, open, start, ProfileBuilder::kOpen, std::uint32_t(i));
            else
                b.addCall(t, call, start, start + 5, std::uint32_t(i));
        }
        const auto p = b.build();
        QCOMPARE(p->startTime(), Time(17));
        QCOMPARE(p->endTime(), Time(9'000'000));
        int opens = 0;
        for (MeasurementId m = 0; m < p->measurementCount(); ++m) {
            if (p->measurement(m).label != p->measurement(byName(*p, "open")).label)
                continue;
            ++opens;
            QCOMPARE(p->measurement(m).finished, Time(9'000'000));
            QCOMPARE(p->interval(p->intervalsOf(m)[0]).end, Time(9'000'000));
        }
        QCOMPARE(opens, 4);
    }
};

QTEST_GUILESS_MAIN(TestProfileFinisher)
#include "tst_profilefinisher.moc"
