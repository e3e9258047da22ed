#include "execsegments.h"
#include "profiledocument.h"
#include "timeaxis.h"
#include "usagebands.h"
#include "usagechart.h"
#include "usagechartview.h"
#include "widgettestsupport.h"

#include <QGraphicsTextItem>
#include <QChart>
#include <QValueAxis>
#include <QtTest>

using namespace runlane;
using namespace runlane::test;

namespace {

constexpr qint64 ms = 1'000'000;
constexpr qint64 s = 1'000'000'000;

// Counts the paint events a widget receives.
class PaintCount : public QObject
{
public:
    explicit PaintCount(QWidget* watched) { watched->installEventFilter(this); }
    int count = 0;

protected:
    bool eventFilter(QObject*, QEvent* event) override
    {
        if (event->type() == QEvent::Paint)
            ++count;
        return false;
    }
};

struct Fixture {
    TimeAxis axis;
    ProfileDocument document{&axis};
    UsageChart chart{&document};

    Fixture(const QString& file, Time binWidth)
    {
        chart.resize(1000, 260);
        chart.show();
        document.setProfile(loadedFile(dataPath(file)));
        chart.setBinWidth(binWidth);
        chart.finishPendingWork();
    }
    const Profile& profile() const { return *document.profile(); }
    QStringList names() const
    {
        QStringList list;
        for (const LabelId l : chart.series()->labels())
            list << qstr(profile().labelName(l));
        return list;
    }
    std::size_t seriesOf(const char* name) const
    {
        const auto& labels = chart.series()->labels();
        for (std::size_t k = 0; k < labels.size(); ++k) {
            if (profile().labelName(labels[k]) == name)
                return k;
        }
        return labels.size(); // other
    }
    // A point of the view inside bin `bin` at `percent` height.
    QPoint at(std::size_t bin, double percent) const
    {
        const QRectF plot = chart.view()->chart()->plotArea();
        const UsageSeries& u = *chart.series();
        const Time middle = u.start() + Time(bin) * u.binWidth() + u.binWidth() / 2;
        const double x = plot.left() + axis.xFor(middle, plot.width());
        return QPointF(x, plot.bottom() - plot.height() * percent / chart.yMaximum()).toPoint();
    }
};

} // namespace

class TestUsageChart : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // semantics.md §6 with the overlap case: a child's synchronous first
    // segment inside its parent's is the child's.
    void overlapSharesPerBin_data()
    {
        QTest::addColumn<int>("bin");
        QTest::addColumn<double>("child");
        QTest::addColumn<double>("parent");
        QTest::newRow("[0, 10 ms)") << 0 << 0.0 << 1.0;
        QTest::newRow("[10, 20 ms)") << 1 << 1.0 << 0.0;
        QTest::newRow("[50, 60 ms)") << 5 << 1.0 << 0.0;
        QTest::newRow("[60, 70 ms)") << 6 << 0.0 << 0.5;
        QTest::newRow("[80, 90 ms)") << 8 << 0.0 << 0.0;
        // The profile ends at 103 ms: the last bin's share is of its 3 ms
        // inside (issue 39), all of them the child's.
        QTest::newRow("[100, 103 ms)") << 10 << 1.0 << 0.0;
    }
    void overlapSharesPerBin()
    {
        QFETCH(int, bin);
        QFETCH(double, child);
        QFETCH(double, parent);
        Fixture f(QStringLiteral("profiles/chronos-overlap.json"), 10 * ms);
        const UsageSeries& u = *f.chart.series();
        QCOMPARE(u.binWidth(), 10 * ms);
        QCOMPARE(u.binCount(), std::size_t(11));
        QCOMPARE(f.names(), (QStringList{"child", "parent"}));
        QCOMPARE(u.share(std::size_t(bin), f.seriesOf("child")), child);
        QCOMPARE(u.share(std::size_t(bin), f.seriesOf("parent")), parent);
        // The chart draws them stacked in %, bottom band first: child at
        // the bottom, parent on it, "other" on top.
        const auto& bands = f.chart.bands().bands();
        QCOMPARE(bands.size(), std::size_t(3));
        QCOMPARE(bands[0].name, QStringLiteral("child"));
        QCOMPARE(bands[1].name, QStringLiteral("parent"));
        QCOMPARE(bands[2].name, QStringLiteral("other"));
        QCOMPARE(bands[0].tops.size(), std::size_t(11));
        QCOMPARE(bands[0].tops[std::size_t(bin)], 100 * child);
        QCOMPARE(bands[1].tops[std::size_t(bin)], 100 * (child + parent));
        QCOMPARE(bands[2].tops[std::size_t(bin)], 100 * (child + parent)); // other: nothing
        // x is time from the start: bin edges exactly.
        QCOMPARE(f.chart.bands().left() + bin * f.chart.bands().binWidth(), double(bin * 10 * ms));
        QCOMPARE(f.chart.bands().binWidth(), double(10 * ms));
    }

    // What is painted is the stack: each bin's pixels take the colour of
    // the band that holds that height (the bands overlap from the floor,
    // and the lower ones must be on top).
    void bandsPaintAsAStack_data()
    {
        QTest::addColumn<int>("bin");
        QTest::addColumn<double>("percent");
        QTest::addColumn<QString>("label");
        QTest::newRow("bin 0, parent 100 %: at 50 %") << 0 << 50.0 << QStringLiteral("parent");
        QTest::newRow("bin 1, child 100 %: at 50 %") << 1 << 50.0 << QStringLiteral("child");
        QTest::newRow("bin 1, child 100 %: at 95 %") << 1 << 95.0 << QStringLiteral("child");
        QTest::newRow("bin 6, parent 50 %: at 25 %") << 6 << 25.0 << QStringLiteral("parent");
        QTest::newRow("bin 6, parent 50 %: at 75 %") << 6 << 75.0 << QString();
        QTest::newRow("bin 5, child 100 %: at 5 %") << 5 << 5.0 << QStringLiteral("child");
    }
    void bandsPaintAsAStack()
    {
        QFETCH(int, bin);
        QFETCH(double, percent);
        QFETCH(QString, label);
        Fixture f(QStringLiteral("profiles/chronos-overlap.json"), 10 * ms);
        const QImage image = f.chart.view()->viewport()->grab().toImage();
        const QPoint at = f.at(std::size_t(bin), percent);
        const QRgb empty = image.pixel(f.at(8, 50)); // bin 8: nothing ran
        QRgb expected = empty;
        if (!label.isEmpty()) {
            const std::size_t k = f.seriesOf(label.toUtf8().constData());
            expected = f.document.colorOf(f.chart.series()->labels()[k], 0);
        }
        QCOMPARE(QColor(image.pixel(at)).name(), QColor(expected).name());
    }

    // The foster child: an hour of the child's blocking is the child's, not
    // its creator's nor of whoever awaited it.
    void fosterChildSharesPerBin_data()
    {
        QTest::addColumn<int>("bin");
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("share");
        QTest::newRow("child in [0, 100 s)") << 0 << "child" << 0.999;
        QTest::newRow("parent1 in [0, 100 s)") << 0 << "parent1" << 0.001;
        QTest::newRow("child in [1800, 1900 s)") << 18 << "child" << 1.0;
        QTest::newRow("child in [3600, 3700 s)") << 36 << "child" << 0.001;
        QTest::newRow("parent1 in [3600, 3700 s)") << 36 << "parent1" << 0.002;
        // The profile ends at 3700.5 s: its last bin is those 0.5 s, all parent2's.
        QTest::newRow("parent2 in [3700, 3700.5 s)") << 37 << "parent2" << 1.0;
    }
    void fosterChildSharesPerBin()
    {
        QFETCH(int, bin);
        QFETCH(QString, name);
        QFETCH(double, share);
        Fixture f(QStringLiteral("profiles/chronos-foster-child.json"), 100 * s);
        const UsageSeries& u = *f.chart.series();
        QCOMPARE(u.binCount(), std::size_t(38));
        QCOMPARE(u.share(std::size_t(bin), f.seriesOf(name.toUtf8().constData())), share);
    }

    void legendGivesMeanShares()
    {
        Fixture f(QStringLiteral("profiles/chronos-overlap.json"), 10 * ms);
        const auto legend = f.chart.legend();
        QCOMPARE(legend.size(), std::size_t(3));
        // Exec in view / the 103 ms of the profile (not the mean of 11
        // bins of 10 ms, the last of them 3 ms inside).
        QCOMPARE(legend[0].name, QStringLiteral("child"));
        QVERIFY(legend[0].meanShare == 53.0 / 103);
        QCOMPARE(legend[1].name, QStringLiteral("parent"));
        QVERIFY(legend[1].meanShare == 15.0 / 103);
        QCOMPARE(legend[2].name, QStringLiteral("other"));
        QCOMPARE(legend[2].meanShare, 0.0);
    }

    // The chart follows the shared axis: bins for the visible range only,
    // on a grid from the profile's start.
    void followsTheVisibleRange()
    {
        Fixture f(QStringLiteral("profiles/chronos-overlap.json"), 10 * ms);
        f.axis.setVisibleRange(25 * ms, 65 * ms);
        f.chart.finishPendingWork();
        const UsageSeries& u = *f.chart.series();
        QCOMPARE(u.start(), 20 * ms);
        QCOMPARE(u.binCount(), std::size_t(5));
        // The edge bins' shares are of their parts in view: parent ran all
        // of [60, 65) ms, and nothing ran in [25, 30) ms but the child.
        QCOMPARE(u.binPart(4).from, 60 * ms);
        QCOMPARE(u.binPart(4).to, 65 * ms);
        QCOMPARE(u.share(4, f.seriesOf("parent")), 1.0);
        QCOMPARE(u.binPart(0).from, 25 * ms);
        QCOMPARE(u.share(0, f.seriesOf("child")), 1.0);
        // The legend: what ran in view / the 40 ms of the view.
        QVERIFY(f.chart.legend()[f.seriesOf("child")].meanShare == 35.0 / 40);
        QVERIFY(f.chart.legend()[f.seriesOf("parent")].meanShare == 5.0 / 40);
        // Automatic bins: a 1-2-5 width giving about 3 px per bin.
        f.chart.setBinWidth(0);
        f.chart.finishPendingWork();
        const Time width = f.chart.series()->binWidth();
        const double pixels = double(width) / double(f.axis.visibleSpan()) * f.chart.view()->plotWidth();
        QVERIFY2(pixels >= 3 && pixels < 7.5, qPrintable(QString::number(pixels)));
        // A fixed width finer than a pixel is merged to fit the width.
        f.chart.setBinWidth(10'000);
        f.chart.finishPendingWork();
        QVERIFY(f.chart.series()->binCount() <= std::size_t(f.chart.view()->plotWidth()));
        QCOMPARE(f.chart.series()->binWidth() % 10'000, 0);
    }

    // Issue 13, responsiveness: a zoom replaces the bands' numbers and
    // leaves the chart's items and axes in place (building series and axes
    // anew cost 12 to 26 ms per zoom at 1 M events); no Qt Charts series
    // (each one's outline was laid out and stroked at every change, 3.6 ms
    // a live scrape, issue 19); the x axis shows the visible range once the
    // new bins are in.
    void aZoomReusesTheBands()
    {
        Fixture f(QStringLiteral("profiles/chronos-overlap.json"), 10 * ms);
        const auto axesBefore = f.chart.view()->chart()->axes();
        const auto itemsBefore = f.chart.view()->scene()->items();
        QCOMPARE(f.chart.bands().bands().size(), std::size_t(3));
        f.axis.setVisibleRange(25 * ms, 65 * ms);
        f.chart.finishPendingWork();
        QVERIFY(f.chart.view()->chart()->series().isEmpty());
        QCOMPARE(f.chart.view()->chart()->axes(), axesBefore);
        QCOMPARE(f.chart.view()->scene()->items().size(), itemsBefore.size());
        const UsageBands* x = &f.chart.bands(); // the chart's x range: the bands'
        QCOMPARE(x->xMin(), double(25 * ms));
        QCOMPARE(x->xMax(), double(65 * ms));
        for (const auto& band : f.chart.bands().bands())
            QCOMPARE(band.tops.size(), std::size_t(5)); // five bins from 20 ms
        QCOMPARE(f.chart.bands().left(), double(20 * ms));
        // Late new bins: the old ones follow the axis after 30 ms.
        f.axis.setVisibleRange(30 * ms, 70 * ms);
        QTRY_COMPARE(x->xMin(), double(30 * ms));
    }

    // New bins that arrive before the window's next paint are painted once:
    // the repaint the bands ask for through their scene joins the one the
    // chart asks for. (Sending the scene's queued calls at once, to hurry
    // them, made it two.)
    void aZoomPaintsTheChartOnce_data()
    {
        QTest::addColumn<int>("from");
        QTest::addColumn<int>("to");
        QTest::newRow("zoom in") << 25 << 65;
        QTest::newRow("pan") << 30 << 70;
        QTest::newRow("whole profile") << 0 << 100;
    }
    void aZoomPaintsTheChartOnce()
    {
        QFETCH(int, from);
        QFETCH(int, to);
        Fixture f(QStringLiteral("profiles/chronos-overlap.json"), 10 * ms);
        f.axis.setVisibleRange(10 * ms, 50 * ms); // somewhere else first
        f.chart.finishPendingWork();
        QVERIFY(QTest::qWaitForWindowExposed(&f.chart));
        // Past what the new profile set off: the loop box fits its new
        // names 20 ms later (QComboBox::AdjustToContents), a repaint too.
        QTest::qWait(100);
        PaintCount paints(f.chart.view()->viewport());
        f.axis.setVisibleRange(from * ms, to * ms);
        f.chart.finishPendingWork(); // the new bins, before the window's next paint
        QTRY_VERIFY(paints.count > 0);
        QTest::qWait(100); // time for a second one
        QCOMPARE(paints.count, 1);
    }

    // Issue 19: a followed live recording's next version is shown, then
    // the range slides to it (a second of a 5-minute window). Stretching
    // the old bins to that range would move them by a pixel or two for a
    // whole re-layout of every band (2.4 ms of the GUI thread a scrape
    // when the new bins took over 30 ms): the new version's bins come
    // instead. A zoom or pan of the user is stretched as before.
    void aFollowedNewVersionWaitsForItsBins()
    {
        Fixture f(QStringLiteral("profiles/chronos-overlap.json"), 10 * ms);
        f.axis.setVisibleRange(25 * ms, 65 * ms);
        f.chart.finishPendingWork();
        const UsageBands* x = &f.chart.bands(); // the chart's x range: the bands'
        QCOMPARE(x->xMin(), double(25 * ms));
        f.document.continueProfile(loadedFile(dataPath(QStringLiteral("profiles/chronos-overlap.json"))));
        f.axis.setVisibleRange(26 * ms, 66 * ms);
        QCOMPARE(f.chart.isStretchPending(), false);
        QCOMPARE(x->xMin(), double(25 * ms)); // until the new bins are in
        f.chart.finishPendingWork();
        QCOMPARE(x->xMin(), double(26 * ms));
        QCOMPARE(x->xMax(), double(66 * ms));
        f.axis.setVisibleRange(27 * ms, 67 * ms);
        QCOMPARE(f.chart.isStretchPending(), true);
        f.chart.finishPendingWork();
        QCOMPARE(x->xMin(), double(27 * ms));
    }

    void clickingABandFocusesItsLabel()
    {
        Fixture f(QStringLiteral("profiles/chronos-overlap.json"), 10 * ms);
        const LabelId child = f.chart.series()->labels()[f.seriesOf("child")];
        const LabelId parent = f.chart.series()->labels()[f.seriesOf("parent")];
        QCOMPARE(f.chart.labelAt(f.at(3, 50)), child);
        QCOMPARE(f.chart.labelAt(f.at(0, 50)), parent);
        QCOMPARE(f.chart.labelAt(f.at(6, 25)), parent);
        QCOMPARE(f.chart.labelAt(f.at(6, 75)), kNone); // above the stack
        QTest::mouseClick(f.chart.view()->viewport(), Qt::LeftButton, Qt::NoModifier, f.at(3, 50));
        QCOMPARE(f.document.focusLabel(), child);
        QTest::mouseClick(f.chart.view()->viewport(), Qt::LeftButton, Qt::NoModifier, f.at(8, 50));
        QCOMPARE(f.document.focusLabel(), kNone);
        // The tooltip names the bin and its shares.
        QCOMPARE(f.chart.describeAt(f.at(6, 10)),
                 QStringLiteral("[60.000 ms, 70.000 ms): busy 50.0 %\n 50.0 %  parent"));
    }

    void hidingASeriesRestacks()
    {
        Fixture f(QStringLiteral("profiles/chronos-overlap.json"), 10 * ms);
        const LabelId child = f.chart.series()->labels()[f.seriesOf("child")];
        // Its legend entry (the first, at the top of the gutter) toggles it.
        const QPoint entry = f.chart.view()->legendRect(0).center();
        QTest::mouseClick(f.chart.view()->viewport(), Qt::LeftButton, Qt::NoModifier, entry);
        QVERIFY(f.chart.isHidden(child));
        QVERIFY(f.chart.legend()[0].hidden);
        const auto& bands = f.chart.bands().bands();
        QVERIFY(!bands[0].visible); // the child's band, at the bottom
        QVERIFY(bands[1].visible);
        // Parent now sits on the floor: in bin 0 its top is its own share
        // (100 %), and in bin 10, where only the child ran, it is 0.
        QCOMPARE(bands[1].tops[0], 100.0);
        QCOMPARE(bands[1].tops[10], 0.0);
        QCOMPARE(f.chart.labelAt(f.at(3, 50)), kNone);
        QTest::mouseClick(f.chart.view()->viewport(), Qt::LeftButton, Qt::NoModifier, entry);
        QVERIFY(!f.chart.isHidden(child));
        QCOMPARE(f.chart.labelAt(f.at(3, 50)), child);
    }

    // A load's next preview numbers tracks and labels anew: the loop the
    // user chose and the bands hidden are found again by name; another
    // profile starts over on the busiest loop with nothing hidden.
    void keepsTheChosenLoopThroughARefinement_data()
    {
        QTest::addColumn<bool>("refine");
        QTest::newRow("the same file's next version") << true;
        QTest::newRow("another profile") << false;
    }
    void keepsTheChosenLoopThroughARefinement()
    {
        QFETCH(bool, refine);
        const QByteArray threads = JSON({"ph" : "M", "pid" : 1, "tid" : 1, "name" : "thread_name", "args" : {"name" : "busy"}},
                                        {"ph" : "M", "pid" : 1, "tid" : 2, "name" : "thread_name", "args" : {"name" : "quiet"}},
                                        {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "a", "ts" : 0, "dur" : 800},
                                        {"ph" : "X", "pid" : 1, "tid" : 2, "name" : "b", "ts" : 0, "dur" : 200},
                                        {"ph" : "X", "pid" : 1, "tid" : 2, "name" : "c", "ts" : 400, "dur" : 100});
        // The next version: a thread and a label before them, so that
        // every id has moved.
        const QByteArray first = JSON({"ph" : "X", "pid" : 0, "tid" : 9, "name" : "z", "ts" : 0, "dur" : 10});
        TimeAxis axis;
        ProfileDocument document(&axis);
        UsageChart chart(&document);
        chart.resize(1000, 260);
        chart.show();
        document.setProfile(loadedText("[" + threads + "]"));
        chart.finishPendingWork();
        QCOMPARE(chart.trackName(), QStringLiteral("pid 1 / busy"));
        const Profile& before = *document.profile();
        const TrackId quiet = before.trackOf(intervalNamed(before, "b"));
        chart.setTrack(quiet);
        chart.finishPendingWork();
        const LabelId oldC = before.measurement(before.interval(intervalNamed(before, "c")).measurement).label;
        chart.setHidden(oldC, true);
        const LoadedProfile next = loadedText("[" + first + "," + threads + "]");
        if (refine)
            document.refineProfile(next);
        else
            document.setProfile(next);
        chart.finishPendingWork();
        const Profile& now = *document.profile();
        const LabelId c = now.measurement(now.interval(intervalNamed(now, "c")).measurement).label;
        QVERIFY(c != oldC);
        QVERIFY(now.trackOf(intervalNamed(now, "b")) != quiet);
        QCOMPARE(chart.trackName(), refine ? QStringLiteral("pid 1 / quiet") : QStringLiteral("pid 1 / busy"));
        QCOMPARE(chart.track(), now.trackOf(intervalNamed(now, refine ? "b" : "a")));
        QCOMPARE(chart.isHidden(c), refine);
    }

    void wheelAndShiftDragDriveTheSharedAxis()
    {
        Fixture f(QStringLiteral("profiles/chronos-overlap.json"), 10 * ms);
        const QRectF plot = f.chart.view()->chart()->plotArea();
        QWidget* viewport = f.chart.view()->viewport();
        const QPoint a(int(plot.left() + plot.width() * 0.25), int(plot.center().y()));
        const QPoint b(int(plot.left() + plot.width() * 0.5), int(plot.center().y()));
        QTest::mousePress(viewport, Qt::LeftButton, Qt::ShiftModifier, a);
        QMouseEvent move(QEvent::MouseMove, b, viewport->mapToGlobal(b), Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
        QApplication::sendEvent(viewport, &move);
        QTest::mouseRelease(viewport, Qt::LeftButton, Qt::ShiftModifier, b);
        QVERIFY(f.axis.selection());
        QCOMPARE(f.axis.selection()->first, f.axis.timeAt(a.x() - plot.left(), plot.width()));
        QCOMPARE(f.axis.selection()->second, f.axis.timeAt(b.x() - plot.left(), plot.width()));
        const Time before = f.axis.visibleSpan();
        QWheelEvent wheel(b, viewport->mapToGlobal(b), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(viewport, &wheel);
        QVERIFY(f.axis.visibleSpan() < before);
    }

    void saysWhyThereIsNoChart()
    {
        TimeAxis axis;
        ProfileDocument document(&axis);
        UsageChart chart(&document);
        document.setProfile(loadedFile(dataPath(QStringLiteral("samples/folded/simple.txt"))));
        document.finishPendingWork();
        chart.finishPendingWork();
        QVERIFY(document.isAggregated());
        QVERIFY(!chart.series());
        QVERIFY(chart.bands().bands().empty());
    }

    // Issue 13, item 6: "top 8" lists 8 labels plus "other", at the default
    // height too: what does not fit scrolls under the wheel.
    void everyLegendEntryCanBeRead()
    {
        TimeAxis axis;
        ProfileDocument document(&axis);
        UsageChart chart(&document);
        chart.resize(1200, 170);
        chart.show();
        document.setProfile(loadedFile(QStringLiteral(RUNLANE_DEMO_PROFILE)));
        chart.finishPendingWork();
        const auto legend = chart.legend();
        QCOMPARE(legend.size(), std::size_t(9));
        QCOMPARE(legend.back().name, QStringLiteral("other"));
        UsageChartView* view = chart.view();
        const int rows = view->legendRows();
        QVERIFY2(rows < 9, qPrintable(QString::number(rows))); // the case of the issue
        QStringList seen;
        for (int notch = 0; notch < 9; ++notch) {
            for (std::size_t i = 0; i < legend.size(); ++i) {
                if (!view->legendRect(int(i)).isEmpty() && !seen.contains(legend[i].name))
                    seen << legend[i].name;
            }
            // A wheel notch down over the legend.
            const QPointF at(20, view->legendRect(view->legendFirst()).center().y());
            QWheelEvent wheel(at, view->viewport()->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton,
                              Qt::NoModifier, Qt::NoScrollPhase, false);
            const Time span = axis.visibleSpan();
            QApplication::sendEvent(view->viewport(), &wheel);
            QCOMPARE(axis.visibleSpan(), span); // the legend scrolled, the axis did not zoom
        }
        QCOMPARE(seen.size(), 9);
        QCOMPARE(view->legendFirst(), 9 - rows);
    }

    // tokio's runtime is one loop of several workers (TrackInfo::workerPool):
    // offered, and its bins add the polls running at once, so they exceed
    // 100 %; checked against the polls' time in each bin.
    void workerPoolSharesAreWorkerEquivalents()
    {
        Fixture f(QStringLiteral("profiles/tokio-multi.jsonl"), 100'000);
        const Profile& p = f.profile();
        QCOMPARE(p.trackCount(), std::size_t(1));
        QVERIFY(p.track(0).workerPool);
        QCOMPARE(f.chart.track(), TrackId(0));
        const UsageSeries* u = f.chart.series();
        QVERIFY(u);
        double most = 0;
        for (std::size_t b = 0; b < u->binCount(); ++b) {
            const Time from = u->start() + Time(b) * u->binWidth();
            const Time to = std::min(from + u->binWidth(), p.endTime()); // the last bin: its part inside
            Time polled = 0;
            for (const Interval& iv : p.intervals())
                polled += std::max<Time>(0, std::min(iv.end, to) - std::max(iv.start, from));
            QCOMPARE(u->busy(b), double(polled) / double(to - from));
            most = std::max(most, u->busy(b));
        }
        QVERIFY2(most > 1.0, qPrintable(QString::number(most)));
        QVERIFY(f.chart.yMaximum() > 100);
        QVERIFY2(f.chart.binsNote().endsWith(QStringLiteral(" · shares in worker-equivalents (can exceed 100 %)")),
                 qPrintable(f.chart.binsNote()));
    }

    // Issue 39, item 3: the legend's mean share in view is the exec in
    // view / the view's time inside the profile, whatever the bins: the
    // demo's taskHandler is 18.8 % of the whole profile (5.63 s of
    // 30.0 s), not 18.7 % in auto bins and 18.2 % in 1 s bins.
    void legendMeanIsTheSameForEveryBinWidth_data()
    {
        QTest::addColumn<Time>("width");
        QTest::newRow("auto") << Time(0);
        QTest::newRow("1 s") << Time(1'000'000'000);
        QTest::newRow("100 ms") << Time(100'000'000);
        QTest::newRow("10 s") << Time(10'000'000'000);
    }
    void legendMeanIsTheSameForEveryBinWidth()
    {
        QFETCH(Time, width);
        TimeAxis axis;
        ProfileDocument document(&axis);
        UsageChart chart(&document);
        chart.resize(1400, 300);
        chart.show();
        document.setProfile(loadedFile(QStringLiteral(RUNLANE_DEMO_PROFILE)));
        chart.setBinWidth(width);
        chart.finishPendingWork();
        const Profile& p = *document.profile();
        const LabelId handler = labelNamed(p, "taskHandler");
        QCOMPARE(chart.track(), UsageSeries::busiestTrack(p, {handler}));
        Time exec = 0;
        ExecSegments::forEach(p, chart.track(), p.startTime(), p.endTime(), [&](MeasurementId m, IntervalId, Time s, Time e) {
            if (p.measurement(m).label == handler)
                exec += e - s;
        });
        const auto legend = chart.legend();
        const auto entry = std::find_if(legend.begin(), legend.end(), [&](const auto& e) { return e.label == handler; });
        QVERIFY(entry != legend.end());
        QVERIFY2(entry->meanShare == double(exec) / double(p.duration()),
                 qPrintable(QString::number(entry->meanShare, 'g', 17)));
        QCOMPARE(QString::number(100 * entry->meanShare, 'f', 1), QStringLiteral("18.8"));
    }

    // Issue 39, item 11: after the chart is laid out again (resized, or
    // hidden and shown at another size, as a tab switch does), each y
    // label sits on the row where the bands draw its share. Bins of
    // 10 µs busy 100, 50, 25 and 75 %: each share's band top, in pixels,
    // against the centre of its label.
    void yLabelsStayOnTheirShares_data()
    {
        QTest::addColumn<QSize>("first");
        QTest::addColumn<QSize>("second");
        QTest::addColumn<bool>("hideBetween");
        QTest::newRow("taller") << QSize(1000, 260) << QSize(1100, 330) << false;
        QTest::newRow("lower") << QSize(1000, 330) << QSize(1000, 240) << false;
        QTest::newRow("wider only") << QSize(1000, 300) << QSize(1200, 300) << false;
        QTest::newRow("hidden, shown taller (a tab switch)") << QSize(1000, 260) << QSize(1000, 320) << true;
    }
    void yLabelsStayOnTheirShares()
    {
        QFETCH(QSize, first);
        QFETCH(QSize, second);
        QFETCH(bool, hideBetween);
        TimeAxis axis;
        ProfileDocument document(&axis);
        UsageChart chart(&document);
        chart.resize(first);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        document.setProfile(loadedText(JSON([
            {"ph" : "X", "name" : "a", "ts" : 0, "dur" : 10},
            {"ph" : "X", "name" : "a", "ts" : 10, "dur" : 5},
            {"ph" : "X", "name" : "a", "ts" : 20, "dur" : 2.5},
            {"ph" : "X", "name" : "a", "ts" : 30, "dur" : 7.5},
            {"ph" : "i", "name" : "end", "ts" : 40}
        ])));
        chart.setBinWidth(10'000);
        chart.finishPendingWork();
        QApplication::processEvents();
        if (hideBetween)
            chart.hide();
        chart.resize(second);
        if (hideBetween)
            chart.show();
        QApplication::processEvents();
        QApplication::processEvents();
        chart.finishPendingWork();
        QApplication::processEvents();
        QCOMPARE(chart.series()->binCount(), std::size_t(4));
        QCOMPARE(chart.yMaximum(), 100.0);
        const QImage image = chart.view()->viewport()->grab().toImage();
        const QRectF plot = chart.view()->chart()->plotArea();
        const QRgb color = document.colorOf(chart.series()->labels()[0], 0);
        const struct {
            int bin;
            int percent;
        } rows[] = {{0, 100}, {1, 50}, {2, 25}, {3, 75}};
        for (const auto& row : rows) {
            // The band's top row, in the middle of its bin.
            const double x = plot.left() + axis.xFor(Time(row.bin) * 10'000 + 5'000, plot.width());
            int top = -1;
            for (int y = 0; y < image.height() && top < 0; ++y) {
                if (rgb(image.pixel(int(x), y)) == rgb(color))
                    top = y;
            }
            QVERIFY2(top >= 0, qPrintable(QStringLiteral("no band in bin %1").arg(row.bin)));
            // Its label's centre.
            const QString text = QStringLiteral("%1 %").arg(row.percent);
            double labelY = -1;
            for (QGraphicsItem* item : chart.view()->scene()->items()) {
                auto* label = dynamic_cast<QGraphicsTextItem*>(item);
                if (label && label->isVisible() && label->toPlainText() == text)
                    labelY = chart.view()->mapFromScene(label->sceneBoundingRect().center()).y();
            }
            QVERIFY2(labelY >= 0, qPrintable(QStringLiteral("no label %1").arg(text)));
            QVERIFY2(std::abs(labelY - top) <= 1.0,
                     qPrintable(QStringLiteral("%1 at y %2, its band's top at %3").arg(text).arg(labelY).arg(top)));
        }
    }

    // Issue 39, item 11: the y labels are round shares from 0, as many as
    // the height holds (a sampled profile's only label besides 0 % read
    // "62 %": a max of 125 % split in two).
    void yLabelsAreRoundShares_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("height");
        QTest::addColumn<QStringList>("labels"); // bottom up
        const QString sampled = QStringLiteral("samples/cpuprofile/node10-example.cpuprofile");
        QTest::newRow("sampled, 300 px") << sampled << 300 << QStringList{"0 %", "25 %", "50 %", "75 %", "100 %"};
        QTest::newRow("sampled, 170 px") << sampled << 170 << QStringList{"0 %", "25 %", "50 %", "75 %", "100 %"};
        QTest::newRow("sampled, 120 px") << sampled << 120 << QStringList{"0 %", "50 %", "100 %"};
        QTest::newRow("sampled, 100 px") << sampled << 100 << QStringList{"0 %", "100 %"};
        // A worker pool's bins add up to more than 100 % (375 % at most
        // here): 15 labels of 25 % would not fit, 50 % steps do.
        QTest::newRow("worker pool, 300 px") << QStringLiteral("profiles/tokio-multi.jsonl") << 300
                                             << QStringList{"0 %", "50 %", "100 %", "150 %", "200 %", "250 %", "300 %", "350 %"};
    }
    void yLabelsAreRoundShares()
    {
        QFETCH(QString, file);
        QFETCH(int, height);
        QFETCH(QStringList, labels);
        TimeAxis axis;
        ProfileDocument document(&axis);
        UsageChart chart(&document);
        chart.resize(1000, height);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        document.setProfile(loadedFile(dataPath(file)));
        chart.setBinWidth(file.contains(QLatin1String("tokio")) ? 100'000 : 0);
        chart.finishPendingWork();
        QApplication::processEvents();
        QVector<QPair<double, QString>> shown;
        for (QGraphicsItem* item : chart.view()->scene()->items()) {
            auto* label = dynamic_cast<QGraphicsTextItem*>(item);
            if (label && label->isVisible() && label->toPlainText().endsWith(QLatin1String(" %")))
                shown.append({-label->sceneBoundingRect().center().y(), label->toPlainText()});
        }
        std::sort(shown.begin(), shown.end());
        QStringList texts;
        for (const auto& [y, text] : shown)
            texts << text;
        QCOMPARE(texts, labels);
    }

    // Found by tst_monkey: a track the chart does not offer (past the
    // profile's tracks, or one without intervals) crashed the computation.
    void ignoresATrackItDoesNotOffer_data()
    {
        QTest::addColumn<TrackId>("track");
        QTest::newRow("past the tracks") << TrackId(7);
        QTest::newRow("kNone") << TrackId(kNone);
    }
    void ignoresATrackItDoesNotOffer()
    {
        QFETCH(TrackId, track);
        TimeAxis axis;
        ProfileDocument document(&axis);
        UsageChart chart(&document);
        document.setProfile(loadedFile(dataPath(QStringLiteral("profiles/fgh-chrome.json"))));
        chart.finishPendingWork();
        const TrackId shown = chart.track();
        chart.setTrack(track);
        chart.finishPendingWork();
        QCOMPARE(chart.track(), shown);
        QVERIFY(chart.series());
        QCOMPARE(chart.series()->labels().size(), std::size_t(3));
    }
};

QTEST_MAIN(TestUsageChart)
#include "tst_usagechart.moc"
