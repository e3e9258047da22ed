#include "timeaxis.h"
#include "timenavigator.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QWheelEvent>
#include <QtTest>

#include <cmath>

using namespace runlane;

namespace {

// A wheel event at x (widget coordinates) turning by `notches` (120 each).
QWheelEvent wheelAt(double x, int notches, Qt::KeyboardModifiers modifiers = Qt::NoModifier, bool horizontal = false)
{
    const QPoint delta = horizontal ? QPoint(120 * notches, 0) : QPoint(0, 120 * notches);
    return QWheelEvent(QPointF(x, 10), QPointF(x, 10), QPoint(), delta, Qt::NoButton, modifiers, Qt::NoScrollPhase, false);
}

} // namespace

class TestTimeAxis : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void clampsTheVisibleRange_data()
    {
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        QTest::addColumn<qint64>("expectedFrom");
        QTest::addColumn<qint64>("expectedTo");
        // Bounds are [1000, 11000).
        QTest::newRow("inside") << qint64(2000) << qint64(3000) << qint64(2000) << qint64(3000);
        QTest::newRow("left of the bounds") << qint64(0) << qint64(500) << qint64(1000) << qint64(1500);
        QTest::newRow("right of the bounds") << qint64(10800) << qint64(11800) << qint64(10000) << qint64(11000);
        QTest::newRow("wider than the bounds") << qint64(-5000) << qint64(50000) << qint64(1000) << qint64(11000);
        // Narrower than the minimum span (20): widened about its middle.
        QTest::newRow("too narrow") << qint64(5000) << qint64(5004) << qint64(4992) << qint64(5012);
        QTest::newRow("reversed") << qint64(5000) << qint64(4000) << qint64(4000) << qint64(5000);
    }
    void clampsTheVisibleRange()
    {
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        QFETCH(qint64, expectedFrom);
        QFETCH(qint64, expectedTo);
        TimeAxis axis;
        axis.setBounds(1000, 11000);
        axis.setVisibleRange(from, to);
        QCOMPARE(axis.visibleStart(), expectedFrom);
        QCOMPARE(axis.visibleEnd(), expectedTo);
    }

    void zoomKeepsTheAnchor_data()
    {
        QTest::addColumn<qint64>("anchor");
        QTest::addColumn<double>("factor");
        QTest::addColumn<qint64>("expectedFrom");
        QTest::addColumn<qint64>("expectedTo");
        // Visible [0, 10000) of bounds [0, 100000).
        QTest::newRow("in at the middle") << qint64(5000) << 0.5 << qint64(2500) << qint64(7500);
        QTest::newRow("in at the left edge") << qint64(0) << 0.5 << qint64(0) << qint64(5000);
        QTest::newRow("in at a quarter") << qint64(2500) << 0.2 << qint64(2000) << qint64(4000);
        QTest::newRow("out at the middle") << qint64(5000) << 2.0 << qint64(0) << qint64(20000);
        QTest::newRow("out past the bounds") << qint64(8000) << 100.0 << qint64(0) << qint64(100000);
    }
    void zoomKeepsTheAnchor()
    {
        QFETCH(qint64, anchor);
        QFETCH(double, factor);
        QFETCH(qint64, expectedFrom);
        QFETCH(qint64, expectedTo);
        TimeAxis axis;
        axis.setBounds(0, 100000);
        axis.setVisibleRange(0, 10000);
        axis.zoomAt(anchor, factor);
        QCOMPARE(axis.visibleStart(), expectedFrom);
        QCOMPARE(axis.visibleEnd(), expectedTo);
    }

    void zoomInStopsAtTheMinimumSpan()
    {
        TimeAxis axis;
        axis.setBounds(0, 1'000'000);
        for (int i = 0; i < 200; ++i)
            axis.zoomAt(500'000, 0.5, TimeAxis::History::Skip);
        QCOMPARE(axis.visibleSpan(), TimeAxis::kMinimumSpan);
        QVERIFY(axis.visibleStart() <= 500'000 && axis.visibleEnd() >= 500'000);
    }

    void historyGoesBackAndForward()
    {
        TimeAxis axis;
        axis.setBounds(0, 1000);
        QSignalSpy ranges(&axis, &TimeAxis::visibleRangeChanged);
        axis.setVisibleRange(100, 200);
        axis.setVisibleRange(150, 170);
        axis.panBy(10); // not recorded
        QCOMPARE(axis.visibleStart(), 160);
        QVERIFY(axis.canGoBack());
        axis.goBack();
        QCOMPARE(axis.visibleStart(), 100);
        QCOMPARE(axis.visibleEnd(), 200);
        axis.goBack();
        QCOMPARE(axis.visibleStart(), 0);
        QCOMPARE(axis.visibleEnd(), 1000);
        QVERIFY(!axis.canGoBack());
        axis.goForward();
        axis.goForward();
        QCOMPARE(axis.visibleStart(), 160);
        QCOMPARE(axis.visibleEnd(), 180);
        QVERIFY(!axis.canGoForward());
        QCOMPARE(ranges.count(), 7);
        // A new step after going back drops the steps ahead.
        axis.goBack();
        axis.setVisibleRange(400, 500);
        QVERIFY(!axis.canGoForward());
    }

    // Steps restored from other bounds (a loading file's previews), and a
    // view the bounds shrink past, are held inside the bounds, never empty.
    void rangesAreHeldInTheBounds_data()
    {
        QTest::addColumn<qint64>("from"); // the step back, or the view before the new bounds
        QTest::addColumn<qint64>("to");
        QTest::addColumn<qint64>("expectedFrom"); // with bounds [0, 1000]
        QTest::addColumn<qint64>("expectedTo");
        QTest::newRow("inside") << qint64(100) << qint64(200) << qint64(100) << qint64(200);
        QTest::newRow("past the end: clipped") << qint64(900) << qint64(5000) << qint64(900) << qint64(1000);
        QTest::newRow("wholly past the end: the last span") << qint64(3000) << qint64(5000)
                                                             << qint64(1000 - TimeAxis::kMinimumSpan) << qint64(1000);
        QTest::newRow("before the start: the first span") << qint64(-500) << qint64(-100) << qint64(0)
                                                           << qint64(TimeAxis::kMinimumSpan);
    }

    void rangesAreHeldInTheBounds()
    {
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        QFETCH(qint64, expectedFrom);
        QFETCH(qint64, expectedTo);
        TimeAxis axis;
        axis.setBounds(0, 1000);
        axis.restoreHistory({{{from, to}}, {}});
        QVERIFY(axis.canGoBack());
        axis.goBack();
        QCOMPARE(axis.visibleStart(), Time(expectedFrom));
        QCOMPARE(axis.visibleEnd(), Time(expectedTo));
        // The same view, then bounds that end or start where it lies.
        TimeAxis grown;
        grown.setBounds(std::min<Time>(from, 0), std::max<Time>(to, 1000));
        grown.setVisibleRange(from, to);
        grown.extendBounds(0, 1000);
        QCOMPARE(grown.visibleStart(), Time(expectedFrom));
        QCOMPARE(grown.visibleEnd(), Time(expectedTo));
    }

    void wheelZoomsCoalesceIntoOneHistoryStep()
    {
        TimeAxis axis;
        axis.setBounds(0, 1'000'000);
        for (int i = 0; i < 5; ++i)
            axis.zoomAt(300'000, 0.8);
        QVERIFY(axis.visibleSpan() < 400'000);
        axis.goBack();
        QCOMPARE(axis.visibleStart(), 0);
        QCOMPARE(axis.visibleEnd(), 1'000'000);
        QVERIFY(!axis.canGoBack());
    }

    void mapsTimesToPixelsAndBack_data()
    {
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        QTest::addColumn<qint64>("t");
        QTest::addColumn<double>("x");
        QTest::newRow("start") << qint64(1000) << qint64(2000) << qint64(1000) << 0.0;
        QTest::newRow("middle") << qint64(1000) << qint64(2000) << qint64(1500) << 500.0;
        QTest::newRow("end") << qint64(1000) << qint64(2000) << qint64(2000) << 1000.0;
        // Epoch nanoseconds do not fit a double exactly; offsets do.
        const qint64 epoch = 1'700'000'000'123'456'789;
        QTest::newRow("epoch ns") << epoch << epoch + 1000 << epoch + 1 << 1.0;
        // An axis up to the largest time (an aggregated profile of
        // centuries): a point past its end stops there instead of wrapping.
        const qint64 max = std::numeric_limits<qint64>::max();
        QTest::newRow("largest time") << qint64(0) << max << max << 1000.0;
        QTest::newRow("past the largest time") << qint64(0) << max << max << 1002.0;
    }
    void mapsTimesToPixelsAndBack()
    {
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        QFETCH(qint64, t);
        QFETCH(double, x);
        TimeAxis axis;
        axis.setBounds(from, to);
        QCOMPARE(axis.timeAt(x, 1000), t);
        if (x <= 1000)
            QCOMPARE(axis.xFor(t, 1000), x);
    }

    void selectionIsOrderedAndClamped()
    {
        TimeAxis axis;
        axis.setBounds(0, 1000);
        QSignalSpy spy(&axis, &TimeAxis::selectionChanged);
        axis.setSelection(800, 1500);
        QCOMPARE(axis.selection()->first, 800);
        QCOMPARE(axis.selection()->second, 1000);
        axis.setSelection(300, 100);
        QCOMPARE(axis.selection()->first, 100);
        QCOMPARE(axis.selection()->second, 300);
        axis.setSelection(2000, 3000); // nothing of it inside
        QVERIFY(!axis.selection());
        QCOMPARE(spy.count(), 3);
    }

    // The navigator maps input onto the axis: time area from x = 100, 800 px wide.
    void wheelZoomsAtTheCursor_data()
    {
        QTest::addColumn<double>("x");
        QTest::addColumn<int>("notches");
        QTest::addColumn<int>("modifiers");
        QTest::addColumn<qint64>("expectedFrom");
        QTest::addColumn<qint64>("expectedTo");
        // Visible [0, 8000): 10 ns per pixel. One notch zooms by 0.8.
        QTest::newRow("in at x=500") << 500.0 << 1 << int(Qt::NoModifier) << qint64(800) << qint64(7200);
        QTest::newRow("ctrl+wheel in at x=100") << 100.0 << 1 << int(Qt::ControlModifier) << qint64(0) << qint64(6400);
        QTest::newRow("two notches in at x=700") << 700.0 << 2 << int(Qt::NoModifier) << qint64(2160) << qint64(7280);
        QTest::newRow("out at x=500") << 500.0 << -1 << int(Qt::NoModifier) << qint64(0) << qint64(10000);
        // Shift or the gutter scroll rows instead: the range stays.
        QTest::newRow("shift scrolls") << 500.0 << 1 << int(Qt::ShiftModifier) << qint64(0) << qint64(8000);
        QTest::newRow("over the gutter") << 50.0 << 1 << int(Qt::NoModifier) << qint64(0) << qint64(8000);
    }
    void wheelZoomsAtTheCursor()
    {
        QFETCH(double, x);
        QFETCH(int, notches);
        QFETCH(int, modifiers);
        QFETCH(qint64, expectedFrom);
        QFETCH(qint64, expectedTo);
        TimeAxis axis;
        axis.setBounds(0, 80000);
        axis.setVisibleRange(0, 8000);
        TimeNavigator navigator(&axis);
        navigator.setArea(100, 800);
        int scrolled = 0;
        QWheelEvent event = wheelAt(x, notches, Qt::KeyboardModifiers(modifiers));
        QVERIFY(navigator.wheel(&event, [&scrolled](int pixels) { scrolled += pixels; }));
        QCOMPARE(axis.visibleStart(), expectedFrom);
        QCOMPARE(axis.visibleEnd(), expectedTo);
        const bool zoomed = expectedFrom != 0 || expectedTo != 8000;
        QCOMPARE(scrolled != 0, !zoomed);
    }

    void horizontalWheelPans()
    {
        TimeAxis axis;
        axis.setBounds(0, 80000);
        axis.setVisibleRange(10000, 20000);
        TimeNavigator navigator(&axis);
        navigator.setArea(100, 800);
        QWheelEvent event = wheelAt(500, -1, Qt::NoModifier, true);
        navigator.wheel(&event, {});
        // One notch pans by 15 % of the visible span.
        QCOMPARE(axis.visibleStart(), 11500);
        QCOMPARE(axis.visibleEnd(), 21500);
    }

    void dragPansAndIsOneHistoryStep()
    {
        TimeAxis axis;
        axis.setBounds(0, 80000);
        axis.setVisibleRange(10000, 18000); // 10 ns per pixel over 800 px
        TimeNavigator navigator(&axis);
        navigator.setArea(100, 800);
        auto mouse = [](QEvent::Type type, int x, Qt::MouseButtons buttons) {
            return QMouseEvent(type, QPointF(x, 20), QPointF(x, 20), type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton,
                               buttons, Qt::NoModifier);
        };
        QMouseEvent press = mouse(QEvent::MouseButtonPress, 500, Qt::LeftButton);
        navigator.press(&press);
        for (const int x : {480, 450, 400}) {
            QMouseEvent move = mouse(QEvent::MouseMove, x, Qt::LeftButton);
            navigator.move(&move);
        }
        QMouseEvent release = mouse(QEvent::MouseButtonRelease, 400, Qt::NoButton);
        QVERIFY(!navigator.release(&release)); // a drag, not a click
        // The time under the press point followed the cursor 100 px left.
        QCOMPARE(axis.visibleStart(), 11000);
        QCOMPARE(axis.visibleEnd(), 19000);
        axis.goBack();
        QCOMPARE(axis.visibleStart(), 10000);
        axis.goBack();
        QCOMPARE(axis.visibleStart(), 0);
    }

    void keysZoomAndPan_data()
    {
        QTest::addColumn<int>("key");
        QTest::addColumn<int>("modifiers");
        QTest::addColumn<qint64>("expectedFrom");
        QTest::addColumn<qint64>("expectedTo");
        // Visible [10000, 20000), the cursor outside: zoom about the middle
        // (15000) by 0.7, pan by 15 %.
        QTest::newRow("W") << int(Qt::Key_W) << 0 << qint64(11500) << qint64(18500);
        QTest::newRow("+") << int(Qt::Key_Plus) << 0 << qint64(11500) << qint64(18500);
        QTest::newRow("S") << int(Qt::Key_S) << 0 << qint64(7857) << qint64(22143);
        QTest::newRow("-") << int(Qt::Key_Minus) << 0 << qint64(7857) << qint64(22143);
        QTest::newRow("A") << int(Qt::Key_A) << 0 << qint64(8500) << qint64(18500);
        QTest::newRow("D") << int(Qt::Key_D) << 0 << qint64(11500) << qint64(21500);
        QTest::newRow("Left") << int(Qt::Key_Left) << 0 << qint64(8500) << qint64(18500);
        QTest::newRow("Right") << int(Qt::Key_Right) << 0 << qint64(11500) << qint64(21500);
        QTest::newRow("0") << int(Qt::Key_0) << 0 << qint64(0) << qint64(80000);
        QTest::newRow("Home") << int(Qt::Key_Home) << 0 << qint64(0) << qint64(80000);
        QTest::newRow("Alt+Left") << int(Qt::Key_Left) << int(Qt::AltModifier) << qint64(0) << qint64(80000);
    }
    void keysZoomAndPan()
    {
        QFETCH(int, key);
        QFETCH(int, modifiers);
        QFETCH(qint64, expectedFrom);
        QFETCH(qint64, expectedTo);
        TimeAxis axis;
        axis.setBounds(0, 80000);
        axis.setVisibleRange(10000, 20000);
        TimeNavigator navigator(&axis);
        navigator.setArea(100, 800);
        QKeyEvent event(QEvent::KeyPress, key, Qt::KeyboardModifiers(modifiers));
        QVERIFY(navigator.key(&event, QPoint(-1, -1)));
        QCOMPARE(axis.visibleStart(), expectedFrom);
        QCOMPARE(axis.visibleEnd(), expectedTo);
    }

    // Found by tst_monkey under UBSan: a drag on a profile of 158 years
    // computed `from - shift` past 2^63. Panning clamps without overflow.
    void panningNearTheEndOfTimeClampsWithoutOverflow_data()
    {
        QTest::addColumn<double>("shift");
        QTest::addColumn<qint64>("from");
        QTest::newRow("far past the end") << 6.15e18 << qint64(kTimeMax - 4'600'000'000'000'000'000LL);
        QTest::newRow("far before the start") << -9.0e18 << qint64(0);
        QTest::newRow("inside") << 1.0e18 << qint64(4'554'780'928'685'191'680LL - 1'000'000'000'000'000'000LL + 1'000'000'000'000'000'000LL);
    }
    void panningNearTheEndOfTimeClampsWithoutOverflow()
    {
        QFETCH(double, shift);
        QFETCH(qint64, from);
        TimeAxis axis;
        axis.setBounds(0, kTimeMax);
        const Time span = 4'600'000'000'000'000'000LL;
        axis.setVisibleRange(3'554'780'928'685'191'680LL, 3'554'780'928'685'191'680LL + span);
        axis.panTo(axis.visibleStart(), static_cast<long double>(shift), TimeAxis::History::Skip);
        QCOMPARE(axis.visibleSpan(), span);
        QCOMPARE(axis.visibleStart(), from);
    }

    // Found by tst_monkey under UBSan: zooming far out of a profile with
    // negative times asked for a width past 2^63. Any such request is the
    // whole profile.
    void zoomingFarOutOfAHugeProfileShowsItWhole_data()
    {
        QTest::addColumn<double>("factor");
        QTest::newRow("one notch out") << 1.5625;
        QTest::newRow("a hundred times out") << 100.0;
    }
    void zoomingFarOutOfAHugeProfileShowsItWhole()
    {
        QFETCH(double, factor);
        TimeAxis axis;
        axis.setBounds(-1'515'452'224'935'345'664LL, 8'095'330'183'348'043'264LL);
        axis.setVisibleRange(-1'000'000'000'000'000'000LL, 7'000'000'000'000'000'000LL);
        axis.zoomAt(0, factor);
        QCOMPARE(axis.visibleStart(), axis.boundsStart());
        QCOMPARE(axis.visibleEnd(), axis.boundsEnd());
        axis.setVisibleRange(0, 1000);
        axis.setVisibleRange(kTimeMin, kTimeMax);
        QCOMPARE(axis.visibleStart(), axis.boundsStart());
        QCOMPARE(axis.visibleEnd(), axis.boundsEnd());
    }

    void keyZoomAnchorsAtTheCursor()
    {
        TimeAxis axis;
        axis.setBounds(0, 80000);
        axis.setVisibleRange(0, 8000);
        TimeNavigator navigator(&axis);
        navigator.setArea(100, 800);
        QKeyEvent event(QEvent::KeyPress, Qt::Key_W, Qt::NoModifier);
        navigator.key(&event, QPoint(300, 5)); // t = 2000
        QCOMPARE(axis.visibleStart(), 600);
        QCOMPARE(axis.visibleEnd(), 6200);
    }
};

QTEST_MAIN(TestTimeAxis)
#include "tst_timeaxis.moc"
