#include "icicleview.h"
#include "profiledocument.h"
#include "timeaxis.h"
#include "timeaxisinput.h"
#include "timelinetestprofiles.h"
#include "usagechart.h"
#include "usagechartview.h"
#include "widgettestsupport.h"

#include <QAbstractScrollArea>
#include <QApplication>
#include <QHelpEvent>
#include <QNativeGestureEvent>
#include <QPointingDevice>
#include <QToolTip>
#include <QWheelEvent>
#include <QtTest>

#include <memory>
#include <vector>

using namespace runlane;
using namespace runlane::test;

// TimeAxisInput: the navigator's input on a widget that receives the
// mouse itself (TimelineView) and on a scroll area's viewport
// (UsageChartView, a QChartView), the same to the nanosecond. Rows: the
// class on a bare widget and a bare scroll area, and the two kinds of view
// that use it. The profile is twoThreads(), 0 to 1,000,000 ns, over a time
// area of 800 px: 1,250 ns a pixel.

namespace {

constexpr int kTimeWidth = 800;
constexpr int kHeight = 200;

enum class Kind { Widget, Viewport, Icicle, UsageChart };

// The events that reach a widget past the filters installed after this
// one, which see them first.
class EventLog : public QObject
{
public:
    std::vector<QEvent::Type> seen;

protected:
    bool eventFilter(QObject*, QEvent* event) override
    {
        seen.push_back(event->type());
        return false;
    }
};

struct Fixture {
    TimeAxis axis;
    ProfileDocument document{&axis};
    std::unique_ptr<QWidget> top; // what is shown
    QWidget* target = nullptr; // what receives the mouse
    EventLog log; // what reached the target past the input, on the bare rows
    std::unique_ptr<TimeAxisInput> input; // on the bare rows; the views hold their own
    std::vector<QPoint> clicks;
    int scrolled = 0;
    bool wheelFirst = false;

    // On the test's row.
    Fixture()
    {
        QFETCH_GLOBAL(int, kind);
        switch (Kind(kind)) {
        case Kind::Widget:
            top = std::make_unique<QWidget>();
            target = top.get();
            break;
        case Kind::Viewport: {
            auto* area = new QAbstractScrollArea;
            area->setFrameShape(QFrame::NoFrame);
            top.reset(area);
            target = area->viewport();
            break;
        }
        case Kind::Icicle:
            top.reset(target = new IcicleView(&document));
            break;
        case Kind::UsageChart: {
            auto* chart = new UsageChart(&document);
            top.reset(chart);
            target = chart->view()->viewport();
            break;
        }
        }
        if (Kind(kind) == Kind::Widget || Kind(kind) == Kind::Viewport) {
            target->installEventFilter(&log);
            input = std::make_unique<TimeAxisInput>(&axis, top.get(), target);
            input->onClick([this](QPoint pos) { clicks.push_back(pos); });
            input->onScrollRows([this](int pixels) { scrolled += pixels; });
            input->onToolTip([](QPoint pos) { return pos.x() < TimeAxis::kGutter ? QString() : QStringLiteral("at %1").arg(pos.x()); });
            input->onWheel([this](QWheelEvent*) { return wheelFirst; });
        }
        top->resize(TimeAxis::kGutter + kTimeWidth + TimeAxisInput::rightMargin(*top), kHeight);
        document.setProfile(loadedText(twoThreads()));
        top->show();
        if (input) // a view lays its time area out itself
            input->navigator().setArea(TimeAxis::kGutter, TimeAxisInput::timeWidth(*top, target->width()));
    }
    void wheel(QPointF pos, QPoint angle, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
    {
        QWheelEvent event(pos, target->mapToGlobal(pos), QPoint(), angle, Qt::NoButton, modifiers, Qt::NoScrollPhase, false);
        QApplication::sendEvent(target, &event);
    }
    void move(QPoint pos, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
    {
        QMouseEvent event(QEvent::MouseMove, pos, target->mapToGlobal(pos), Qt::NoButton, Qt::LeftButton, modifiers);
        QApplication::sendEvent(target, &event);
    }
    void drag(int fromX, int toX, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
    {
        QTest::mousePress(target, Qt::LeftButton, modifiers, QPoint(fromX, kHeight / 2));
        move(QPoint(toX, kHeight / 2), modifiers);
        QTest::mouseRelease(target, Qt::LeftButton, modifiers, QPoint(toX, kHeight / 2));
    }
    std::pair<Time, Time> range() const { return {axis.visibleStart(), axis.visibleEnd()}; }
};

using Range = std::pair<Time, Time>;

} // namespace

class TestTimeAxisInput : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Every test runs on each row.
    void initTestCase_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("bare widget") << int(Kind::Widget);
        QTest::newRow("bare scroll area's viewport") << int(Kind::Viewport);
        QTest::newRow("icicle (a TimelineView)") << int(Kind::Icicle);
        QTest::newRow("usage chart (a QChartView)") << int(Kind::UsageChart);
    }

    // Every row lays the time area out alike: 800 px after the gutter.
    void timeAreaAfterTheGutter()
    {
        Fixture f;
        QCOMPARE(f.target->width(), TimeAxis::kGutter + kTimeWidth + TimeAxisInput::rightMargin(*f.top));
        QCOMPARE(TimeAxisInput::timeWidth(*f.top, f.target->width()), kTimeWidth);
        QCOMPARE(f.range(), Range(0, 1'000'000));
    }

    // A notch in at a quarter of the time area: 80 % of the range, the
    // time under the cursor (250,000 ns) staying there; a notch out from
    // there at three quarters; a horizontal notch pans by 15 %.
    void wheelZoomsAndPans()
    {
        Fixture f;
        f.wheel(QPointF(TimeAxis::kGutter + 200, 100), QPoint(0, 120));
        QCOMPARE(f.range(), Range(50'000, 850'000));
        // 1,000 ns a pixel: the cursor is over 650,000 ns.
        f.wheel(QPointF(TimeAxis::kGutter + 600, 100), QPoint(0, -120));
        QCOMPARE(f.range(), Range(0, 1'000'000));
        f.wheel(QPointF(TimeAxis::kGutter + 400, 100), QPoint(0, 240)); // 64 %, around 500,000 ns
        QCOMPARE(f.range(), Range(180'000, 820'000));
        f.wheel(QPointF(TimeAxis::kGutter + 400, 100), QPoint(-120, 0)); // 15 % of 640,000 ns later
        QCOMPARE(f.range(), Range(276'000, 916'000));
    }

    // A pinch zooms at the fingers.
    void pinchZooms()
    {
        Fixture f;
        const QPointF pos(TimeAxis::kGutter + 200, 100);
        QNativeGestureEvent pinch(Qt::ZoomNativeGesture, QPointingDevice::primaryPointingDevice(), 2, pos, pos,
                                  f.target->mapToGlobal(pos), 0.5, QPointF());
        QApplication::sendEvent(f.target, &pinch);
        QCOMPARE(f.range(), Range(125'000, 625'000));
    }

    // A drag pans the time under the press along with the cursor; with
    // Shift it selects the range between press and release.
    void dragPansShiftDragSelects()
    {
        Fixture f;
        f.wheel(QPointF(TimeAxis::kGutter + 400, 100), QPoint(0, 120)); // 100,000 to 900,000: 1,000 ns a pixel
        QCOMPARE(f.range(), Range(100'000, 900'000));
        f.drag(TimeAxis::kGutter + 400, TimeAxis::kGutter + 300);
        QCOMPARE(f.range(), Range(200'000, 1'000'000));
        QVERIFY(!f.axis.selection());
        f.drag(TimeAxis::kGutter + 200, TimeAxis::kGutter + 600, Qt::ShiftModifier);
        QCOMPARE(f.range(), Range(200'000, 1'000'000));
        QVERIFY(f.axis.selection());
        QCOMPARE(*f.axis.selection(), Range(400'000, 800'000));
        QCOMPARE(f.clicks.size(), std::size_t(0)); // drags, not clicks
    }

    // What the class leaves to the view: a click at its point, the rows
    // scrolled by the wheel over the gutter or with Shift, a wheel the
    // view takes first, the tooltip's text. The widget's own handlers see
    // none of the navigator's events, and all the others.
    void theViewsPart()
    {
        Fixture f;
        if (!f.input)
            QSKIP("the views' own parts: tst_timelineview, tst_usagechart");
        QTest::mouseClick(f.target, Qt::LeftButton, Qt::NoModifier, QPoint(TimeAxis::kGutter + 10, 20));
        QCOMPARE(f.clicks, std::vector<QPoint>{QPoint(TimeAxis::kGutter + 10, 20)});
        f.wheel(QPointF(10, 100), QPoint(0, -40)); // the gutter
        QCOMPARE(f.scrolled, 40);
        f.wheel(QPointF(TimeAxis::kGutter + 400, 100), QPoint(0, 120), Qt::ShiftModifier);
        QCOMPARE(f.scrolled, -80);
        QCOMPARE(f.range(), Range(0, 1'000'000));
        f.wheelFirst = true;
        f.wheel(QPointF(TimeAxis::kGutter + 400, 100), QPoint(0, 120));
        QCOMPARE(f.range(), Range(0, 1'000'000));
        QCOMPARE(f.scrolled, -80);
        const QPoint there(TimeAxis::kGutter + 30, 50);
        QHelpEvent show(QEvent::ToolTip, there, f.target->mapToGlobal(there));
        QApplication::sendEvent(f.target, &show);
        QTRY_VERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(), QStringLiteral("at %1").arg(TimeAxis::kGutter + 30));
        QHelpEvent hide(QEvent::ToolTip, QPoint(10, 50), f.target->mapToGlobal(QPoint(10, 50)));
        QApplication::sendEvent(f.target, &hide);
        QTRY_VERIFY(!QToolTip::isVisible());
        for (const QEvent::Type taken : {QEvent::MouseButtonPress, QEvent::MouseButtonRelease, QEvent::MouseMove,
                                         QEvent::Wheel, QEvent::ToolTip})
            QVERIFY2(std::find(f.log.seen.begin(), f.log.seen.end(), taken) == f.log.seen.end(),
                     qPrintable(QStringLiteral("event %1 reached the widget").arg(int(taken))));
        // A double click is the view's (the icicle zooms to a span).
        f.log.seen.clear();
        const QPoint at(TimeAxis::kGutter + 10, 20);
        QMouseEvent twice(QEvent::MouseButtonDblClick, at, f.target->mapToGlobal(at), Qt::LeftButton, Qt::LeftButton,
                          Qt::NoModifier);
        QApplication::sendEvent(f.target, &twice);
        QVERIFY(std::find(f.log.seen.begin(), f.log.seen.end(), QEvent::MouseButtonDblClick) != f.log.seen.end());
    }

    // Disabled, the widget takes no mouse or wheel, as a QWidget does not.
    void disabledTakesNoInput()
    {
        Fixture f;
        f.top->setEnabled(false);
        f.wheel(QPointF(TimeAxis::kGutter + 200, 100), QPoint(0, 120));
        f.drag(TimeAxis::kGutter + 200, TimeAxis::kGutter + 600, Qt::ShiftModifier);
        QCOMPARE(f.range(), Range(0, 1'000'000));
        QVERIFY(!f.axis.selection());
        QCOMPARE(f.clicks.size(), std::size_t(0));
    }
};

QTEST_MAIN(TestTimeAxisInput)
#include "tst_timeaxisinput.moc"
