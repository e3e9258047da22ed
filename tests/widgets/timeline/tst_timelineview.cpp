#include "counterview.h"
#include "icicleview.h"
#include "profiledocument.h"
#include "tasklaneview.h"
#include "timeaxis.h"
#include "timelinetestprofiles.h"
#include "widgettestsupport.h"

#include <QApplication>
#include <QHelpEvent>
#include <QNativeGestureEvent>
#include <QPointingDevice>
#include <QScrollBar>
#include <QStyle>
#include <QToolTip>
#include <QWheelEvent>
#include <QtTest>

#include <memory>

using namespace runlane;
using namespace runlane::test;

// What every view on the time axis does the same way (TimelineView): its
// scroll bar beside the rows, the wheel scrolling rows over the gutter or
// with Shift and zooming at the cursor over the time area, a horizontal
// wheel and a drag panning, a pinch zooming, tooltips. Each row of a test
// is one of the views; what a view shows is tested in its own tst_*.

namespace {

constexpr int kTimeWidth = 800;
constexpr int kHeight = 80; // less than each view's content: its rows scroll

enum class Kind { Icicle, Lanes, Counters };

// One view on its profile, kHeight px high, its time area kTimeWidth px
// wide; the whole profile in view.
struct Fixture {
    TimeAxis axis;
    ProfileDocument document{&axis};
    std::unique_ptr<TimelineView> view;
    IcicleView* icicle = nullptr;
    TaskLaneView* lanes = nullptr;
    CounterView* counters = nullptr;

    explicit Fixture(Kind kind)
    {
        LoadedProfile loaded;
        switch (kind) {
        case Kind::Icicle:
            view.reset(icicle = new IcicleView(&document));
            loaded = loadedText(twoThreads());
            break;
        case Kind::Lanes:
            view.reset(lanes = new TaskLaneView(&document));
            loaded = loadedText(futures());
            break;
        case Kind::Counters:
            view.reset(counters = new CounterView(&document));
            loaded = loadedFile(dataPath(QStringLiteral("profiles/chrome-counters.json")));
            break;
        }
        view->resize(TimeAxis::kGutter + kTimeWidth + view->style()->pixelMetric(QStyle::PM_ScrollBarExtent), kHeight);
        document.setProfile(loaded);
        view->show();
    }
    QScrollBar* scrollBar() const { return view->findChild<QScrollBar*>(); }
    Time span() const { return document.profile()->endTime() - document.profile()->startTime(); }
    // The time `fraction` of the way along the profile.
    Time at(double fraction) const { return document.profile()->startTime() + Time(fraction * double(span())); }
    void wheel(QPointF pos, QPoint angle, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
    {
        QWheelEvent event(pos, view->mapToGlobal(pos), QPoint(), angle, Qt::NoButton, modifiers, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view.get(), &event);
    }
};

void addKinds()
{
    QTest::addColumn<int>("kind");
    QTest::newRow("icicle") << int(Kind::Icicle);
    QTest::newRow("lanes") << int(Kind::Lanes);
    QTest::newRow("counters") << int(Kind::Counters);
}

} // namespace

class TestTimelineView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Each view's rows: their height, and the scroll bar beside them
    // (below the lanes' legend), a row a step, a screen a page.
    void scrollBarBesideTheRows_data()
    {
        addKinds();
    }
    void scrollBarBesideTheRows()
    {
        QFETCH(int, kind);
        Fixture f{Kind(kind)};
        const int extent = f.view->style()->pixelMetric(QStyle::PM_ScrollBarExtent);
        int top = 0;
        int content = 0;
        int step = 0;
        switch (Kind(kind)) {
        case Kind::Icicle: // two track headers, four depths (three on the main thread)
            content = 2 * IcicleView::kHeaderHeight + 4 * f.icicle->rowHeight();
            step = f.icicle->rowHeight();
            break;
        case Kind::Lanes: // the loop's header, a row per task
            top = TaskLaneView::kLegendHeight;
            content = TaskLaneView::kHeaderHeight + 5 * f.lanes->rowHeight();
            step = f.lanes->rowHeight();
            break;
        case Kind::Counters: // three tracks, none compact
            content = 3 * CounterView::kTrackHeight;
            step = CounterView::kHeaderHeight;
            break;
        }
        QCOMPARE(f.view->contentHeight(), content);
        const QScrollBar* bar = f.scrollBar();
        QCOMPARE(bar->geometry(), QRect(TimeAxis::kGutter + kTimeWidth, top, extent, kHeight - top));
        QCOMPARE(bar->maximum(), content - (kHeight - top));
        QCOMPARE(bar->pageStep(), kHeight - top);
        QCOMPARE(bar->singleStep(), step);
        // Taller than its content: nothing to scroll.
        f.view->resize(f.view->width(), top + content + 10);
        QCOMPARE(bar->geometry(), QRect(TimeAxis::kGutter + kTimeWidth, top, extent, content + 10));
        QCOMPARE(bar->maximum(), 0);
        QCOMPARE(bar->pageStep(), content + 10);
    }

    // Over the gutter, or with Shift anywhere, the wheel scrolls the rows
    // by its pixels, within the scroll bar's range; the time range stays.
    void wheelScrollsTheRows_data()
    {
        addKinds();
    }
    void wheelScrollsTheRows()
    {
        QFETCH(int, kind);
        Fixture f{Kind(kind)};
        const int maximum = f.scrollBar()->maximum();
        QVERIFY(maximum > 40);
        f.wheel(QPointF(10, 50), QPoint(0, -40));
        QCOMPARE(f.view->scrollY(), 40);
        f.wheel(QPointF(TimeAxis::kGutter + 400, 50), QPoint(0, -120), Qt::ShiftModifier);
        QCOMPARE(f.view->scrollY(), std::min(160, maximum));
        f.wheel(QPointF(10, 50), QPoint(0, 360));
        QCOMPARE(f.view->scrollY(), 0);
        QCOMPARE(f.axis.visibleStart(), f.at(0));
        QCOMPARE(f.axis.visibleEnd(), f.at(1));
    }

    // Over the time area the wheel zooms at the cursor, a horizontal wheel
    // pans by 15 % of the range a notch, a pinch zooms at the fingers; the
    // rows stay.
    void wheelAndPinchZoomTheTimeArea_data()
    {
        addKinds();
    }
    void wheelAndPinchZoomTheTimeArea()
    {
        QFETCH(int, kind);
        Fixture f{Kind(kind)};
        f.wheel(QPointF(TimeAxis::kGutter + 400, 50), QPoint(0, 120));
        QCOMPARE(f.axis.visibleStart(), f.at(0.1));
        QCOMPARE(f.axis.visibleEnd(), f.at(0.9));
        QCOMPARE(f.view->scrollY(), 0);
        // 15 % of 80 % later: stopped at the profile's end.
        f.wheel(QPointF(TimeAxis::kGutter + 400, 50), QPoint(-120, 0));
        QCOMPARE(f.axis.visibleStart(), f.at(0.2));
        QCOMPARE(f.axis.visibleEnd(), f.at(1));
        f.wheel(QPointF(TimeAxis::kGutter + 400, 50), QPoint(120, 0));
        QCOMPARE(f.axis.visibleStart(), f.at(0.08));
        QCOMPARE(f.axis.visibleEnd(), f.at(0.88));
        f.axis.zoomToAll();
        // Half the range at the cursor, a quarter of the way along.
        const QPointF pos(TimeAxis::kGutter + 200, 50);
        QNativeGestureEvent pinch(Qt::ZoomNativeGesture, QPointingDevice::primaryPointingDevice(), 2, pos, pos,
                                  f.view->mapToGlobal(pos), 0.5, QPointF());
        QApplication::sendEvent(f.view.get(), &pinch);
        QCOMPARE(f.axis.visibleStart(), f.at(0.125));
        QCOMPARE(f.axis.visibleEnd(), f.at(0.625));
    }

    // A drag pans: the time under the press follows the cursor; a release
    // after a drag is no click (the selection stays as it was).
    void dragPans_data()
    {
        addKinds();
    }
    void dragPans()
    {
        QFETCH(int, kind);
        Fixture f{Kind(kind)};
        f.wheel(QPointF(TimeAxis::kGutter + 400, 50), QPoint(0, 120)); // 10 % to 90 %: 1 px is 0.1 %
        const int y = kHeight - 10;
        QTest::mousePress(f.view.get(), Qt::LeftButton, Qt::NoModifier, QPoint(TimeAxis::kGutter + 400, y));
        QMouseEvent move(QEvent::MouseMove, QPointF(TimeAxis::kGutter + 300, y),
                         f.view->mapToGlobal(QPointF(TimeAxis::kGutter + 300, y)), Qt::NoButton, Qt::LeftButton,
                         Qt::NoModifier);
        QApplication::sendEvent(f.view.get(), &move);
        QTest::mouseRelease(f.view.get(), Qt::LeftButton, Qt::NoModifier, QPoint(TimeAxis::kGutter + 300, y));
        QCOMPARE(f.axis.visibleStart(), f.at(0.2));
        QCOMPARE(f.axis.visibleEnd(), f.at(1.0));
        QCOMPARE(f.axis.selectedMeasurement(), kNone);
        QCOMPARE(f.axis.selectedInterval(), kNone);
    }

    // Keys the view leaves alone go to the navigator: W zooms in at the
    // range's middle (the cursor is not over the view).
    void keysReachTheNavigator_data()
    {
        addKinds();
    }
    void keysReachTheNavigator()
    {
        QFETCH(int, kind);
        Fixture f{Kind(kind)};
        QCursor::setPos(f.view->mapToGlobal(QPoint(-100, -100)));
        QTest::keyClick(f.view.get(), Qt::Key_W);
        QCOMPARE(f.axis.visibleStart(), f.at(0.15));
        QCOMPARE(f.axis.visibleEnd(), f.at(0.85));
        QTest::keyClick(f.view.get(), Qt::Key_0);
        QCOMPARE(f.axis.visibleStart(), f.at(0));
        QCOMPARE(f.axis.visibleEnd(), f.at(1));
    }

    // A tooltip says what the view describes at the point, and is hidden
    // where there is nothing.
    void tooltipSaysWhatIsThere_data()
    {
        addKinds();
    }
    void tooltipSaysWhatIsThere()
    {
        QFETCH(int, kind);
        Fixture f{Kind(kind)};
        QPoint there;
        QPoint nothing;
        QString text;
        const Profile& p = *f.document.profile();
        switch (Kind(kind)) {
        case Kind::Icicle: {
            const IntervalId parse = intervalNamed(p, "parse");
            there = f.icicle->spanRect(parse).center().toPoint();
            text = QString::fromStdString(f.icicle->source()->describe(parse));
            nothing = QPoint(10, there.y()); // a row's gutter
            break;
        }
        case Kind::Lanes:
            there = QPoint(TimeAxis::kGutter + 120, f.lanes->rowRect(byName(p, "outer")).center().y()); // at 150 ns
            text = QStringLiteral("outer (lanes.nim:10)\ncreated at 0 ns, wall 600 ns\nexec 200 ns in 2 active intervals\ncompleted");
            nothing = QPoint(TimeAxis::kGutter + 120, 10); // the legend
            break;
        case Kind::Counters:
            there = QPoint(TimeAxis::kGutter + 240, CounterView::kTrackHeight / 2); // heap limit at 30 µs
            text = QStringLiteral("heap limit = 40\nat 30.000 µs");
            nothing = QPoint(TimeAxis::kGutter + kTimeWidth + 2, 10); // the scroll bar's margin
            break;
        }
        QVERIFY(!text.isEmpty());
        QHelpEvent show(QEvent::ToolTip, there, f.view->mapToGlobal(there));
        QApplication::sendEvent(f.view.get(), &show);
        QTRY_VERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(), text);
        QHelpEvent hide(QEvent::ToolTip, nothing, f.view->mapToGlobal(nothing));
        QApplication::sendEvent(f.view.get(), &hide);
        QTRY_VERIFY(!QToolTip::isVisible());
    }
};

QTEST_MAIN(TestTimelineView)
#include "tst_timelineview.moc"
