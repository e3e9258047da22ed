#include "overviewstrip.h"
#include "profiledocument.h"
#include "timeaxis.h"
#include "widgettestsupport.h"

#include <QtTest>

using namespace runlane;
using namespace runlane::test;

// The overview strip: dragging its window pans the shared axis.
class TestOverviewStrip : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Found by tst_monkey under UBSan: dragging the window on a profile of
    // 158 years computed `from + span` past 2^63. It stops at the end.
    void draggingTheWindowPastTheEndStopsThere_data()
    {
        QTest::addColumn<int>("toX");
        QTest::addColumn<bool>("atEnd");
        QTest::newRow("far right") << 5000 << true;
        QTest::newRow("far left") << -5000 << false;
    }
    void draggingTheWindowPastTheEndStopsThere()
    {
        QFETCH(int, toX);
        QFETCH(bool, atEnd);
        TimeAxis axis;
        ProfileDocument document(&axis);
        OverviewStrip strip(&document);
        strip.resize(TimeAxis::kGutter + 800, 40);
        document.setProfile(loadedFile(dataPath(QStringLiteral("profiles/chrome-158-years.json"))));
        strip.show();
        const Time bounds = axis.boundsEnd() - axis.boundsStart();
        QVERIFY(bounds > 4'000'000'000'000'000'000LL);
        // The window: the middle 60 % of the profile.
        const Time span = bounds / 10 * 6;
        axis.setVisibleRange(axis.boundsStart() + bounds / 5, axis.boundsStart() + bounds / 5 + span);
        const QPoint grab = strip.windowRect().center().toPoint();
        QTest::mousePress(&strip, Qt::LeftButton, {}, grab);
        QTest::mouseMove(&strip, QPoint(grab.x() + toX / 2, grab.y()));
        QTest::mouseMove(&strip, QPoint(grab.x() + toX, grab.y()));
        QTest::mouseRelease(&strip, Qt::LeftButton, {}, QPoint(grab.x() + toX, grab.y()));
        QCOMPARE(axis.visibleSpan(), span);
        QCOMPARE(atEnd ? axis.visibleEnd() : axis.visibleStart(), atEnd ? axis.boundsEnd() : axis.boundsStart());
    }
};

QTEST_MAIN(TestOverviewStrip)
#include "tst_overviewstrip.moc"
