#include "counterview.h"
#include "detailspane.h"
#include "icicleview.h"
#include "mainwindow.h"
#include "mainwindowdriver.h"
#include "profiledocument.h"
#include "rankpanel.h"
#include "tasklaneview.h"
#include "testsupport.h"
#include "timeaxis.h"
#include "tracegenerator.h"
#include "usagechart.h"
#include "usagechartview.h"
#include "viewsizing.h"

#include <QDockWidget>
#include <QSplitter>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <array>
#include <cstdio>

using namespace runlane;
using namespace runlane::test;

Q_DECLARE_METATYPE(ViewSizing::Facts)
Q_DECLARE_METATYPE(ViewSizing::Sizes)

namespace {

// The trace, smaller: nested calls 30 deep, async tasks packed in rows, three counter series.
ViewSizing::Facts tasksAndCounters(int total)
{
    ViewSizing::Facts f;
    f.total = total;
    f.handle = 6;
    f.icicleContent = 600; // 30 rows
    f.icicleMinimum = 80;
    f.counters = true;
    f.countersContent = 192; // three expanded tracks
    f.countersCompact = 60;
    f.countersMinimum = 22;
    f.laneContent = 332 * 18; // a header and 331 rows
    f.laneRowHeight = 18;
    f.lanesLegend = 24;
    f.lanesMinimum = 64;
    f.usageMinimum = 98;
    return f;
}

} // namespace

// ProfileView's sizing policy (issue 46, issue 39 item 15): the pure
// arithmetic, then the real window's laid-out views at three window sizes.
class TestViewSizing : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_settings.isValid());
        useTemporarySettings(m_settings.path(), QStringLiteral("tst_viewsizing"));
        QVERIFY(m_files.isValid());
        // A generated Chrome trace with counters and async tasks, twice (two seeds: another file of the same kind).
        for (const std::uint32_t seed : {1u, 2u}) {
            bench::TraceGenerator::Options options;
            options.events = 20000;
            options.seed = seed;
            const QByteArray path = m_files.filePath(QStringLiteral("tasks-%1.json").arg(seed)).toLocal8Bit();
            std::FILE* out = std::fopen(path.constData(), "wb");
            QVERIFY(out);
            bench::TraceGenerator(options).write(out);
            QCOMPARE(std::fclose(out), 0);
        }
    }

    void init() { QSettings().clear(); }

    void fit_data()
    {
        QTest::addColumn<ViewSizing::Facts>("facts");
        QTest::addColumn<ViewSizing::Sizes>("expected");
        // {timeline (icicle + handle + counters), lanes, usage, counters}
        // 1920×1080: usage a quarter up to 170; the lanes' floor 24 + 7 × 18 + 4 = 154; counters 60 + 6;
        // the icicle to 40 % of the rest (634 × 2 / 5 = 253), the counters to their 192 (≤ 804 / 4),
        // the lanes all the rest (they could use 6,008).
        QTest::newRow("tasks+counters 804") << tasksAndCounters(804) << ViewSizing::Sizes{253 + 6 + 192, 804 - 170 - 451, 170, 192};
        // 1280×720 (~420 px): usage keeps 150 for its labels; floors 80 + 66 + 154 = 300 of 270: the counters
        // give 30 of their compact 60 (they scroll) and the lanes keep their six rows. Nothing left for the
        // icicle above its minimum.
        QTest::newRow("tasks+counters 420") << tasksAndCounters(420) << ViewSizing::Sizes{80 + 6 + 30, 154, 150, 30};
        // A dock open below (~360 px): 90 short; the counters give 38 down to their minimum 22, the chart
        // 52 down to its minimum 98, the lanes keep six rows.
        QTest::newRow("tasks+counters 360") << tasksAndCounters(360) << ViewSizing::Sizes{80 + 6 + 22, 154, 98, 22};
        // 300: 150 short; 38 and 52 as above, and the lanes give the last 60 (94 px, their minimum is 64).
        QTest::newRow("tasks+counters 300") << tasksAndCounters(300) << ViewSizing::Sizes{80 + 6 + 22, 94, 98, 22};
        // 500: floors 300 of 350, 50 more for the icicle (needs 608, may have 140).
        QTest::newRow("tasks+counters 500") << tasksAndCounters(500) << ViewSizing::Sizes{130 + 6 + 60, 154, 150, 60};
        // Few tasks (3 rows): the lanes keep what they need, the icicle takes the rest.
        ViewSizing::Facts few = tasksAndCounters(804);
        few.laneContent = 4 * 18;
        QTest::newRow("few tasks") << few << ViewSizing::Sizes{804 - 170 - 100, 24 + 72 + 4, 170, 192};
        // No tasks: the lanes keep 90, the counters every track (a third of the room holds them).
        ViewSizing::Facts none = tasksAndCounters(804);
        none.laneContent = 0;
        QTest::newRow("no tasks") << none << ViewSizing::Sizes{804 - 170 - 90, 90, 170, 192};
        // No tasks and no counters: the icicle the whole panel.
        none.counters = false;
        QTest::newRow("no tasks, no counters") << none << ViewSizing::Sizes{804 - 170 - 90, 90, 170, 0};
        // Metrics over time: the chart gets the room.
        ViewSizing::Facts chart = none;
        chart.chartOnly = true;
        QTest::newRow("chart only") << chart << ViewSizing::Sizes{100, 90, 804 - 190, 0};
    }

    void fit()
    {
        QFETCH(ViewSizing::Facts, facts);
        QFETCH(ViewSizing::Sizes, expected);
        const ViewSizing::Sizes sizes = ViewSizing::fit(facts);
        QCOMPARE(sizes.timeline, expected.timeline);
        QCOMPARE(sizes.lanes, expected.lanes);
        QCOMPARE(sizes.usage, expected.usage);
        QCOMPARE(sizes.counters, expected.counters);
        QCOMPARE(sizes.timeline + sizes.lanes + sizes.usage, facts.total);
    }

    void detailsWidth_data()
    {
        QTest::addColumn<bool>("empty");
        QTest::addColumn<int>("window");
        QTest::addColumn<int>("expected");
        QTest::newRow("empty, wide") << true << 1920 << 90;
        QTest::newRow("empty, narrow") << true << 671 << 90;
        QTest::newRow("details, wide") << false << 1920 << 300;
        QTest::newRow("details, 1280") << false << 1280 << 300;
        QTest::newRow("details, 1000") << false << 1000 << 250;
        QTest::newRow("details, 671") << false << 671 << 167;
        QTest::newRow("details, 300") << false << 300 << 90;
    }

    void detailsWidth()
    {
        QFETCH(bool, empty);
        QFETCH(int, window);
        QFETCH(int, expected);
        QCOMPARE(ViewSizing::detailsWidth(empty, window, DetailsPane::kStripWidth, DetailsPane::kWidth), expected);
    }

    // The splitter's height under which a dock below takes from what fit() gives first.
    void wantedTotal_data()
    {
        QTest::addColumn<ViewSizing::Facts>("facts");
        QTest::addColumn<int>("expected");
        // usage 150, compact counters 60 + 6, the lanes' floor 154: 220 others; the icicle's 608
        // rows are capped at 2/5 of 220 × 5/3 = 367, 147 px, what the others leave it.
        QTest::newRow("tasks+counters") << tasksAndCounters(804) << 150 + (220 * 5 + 2) / 3;
        // A shallow icicle (4 rows, 80 + 8 px) gets them all: 150 + 220 + 88.
        ViewSizing::Facts shallow = tasksAndCounters(804);
        shallow.icicleContent = 72;
        shallow.icicleMinimum = 60;
        QTest::newRow("shallow icicle") << shallow << 150 + 220 + 80;
        // No tasks: the lanes' 90 instead of their rows.
        ViewSizing::Facts none = shallow;
        none.laneContent = 0;
        QTest::newRow("no tasks") << none << 150 + 90 + 66 + 80;
        ViewSizing::Facts chart = none;
        chart.chartOnly = true;
        QTest::newRow("chart only") << chart << 90 + 170 + 100;
    }

    void wantedTotal()
    {
        QFETCH(ViewSizing::Facts, facts);
        QFETCH(int, expected);
        QCOMPARE(ViewSizing::wantedTotal(facts), expected);
    }

    // The Rank dock: 8 rows of 20 px under an 80 px chrome when the views spare them (no more than
    // the profile's labels), never over a third of the window; 3 rows when the views are short.
    void rankHeight_data()
    {
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("window");
        QTest::addColumn<int>("spare");
        QTest::addColumn<int>("rows"); // the profile's labels
        QTest::addColumn<int>("expected");
        QTest::newRow("spare enough") << 120 << 1080 << 400 << 287 << 80 + 8 * 20;
        QTest::newRow("a third of 600") << 120 << 600 << 400 << 287 << 200;
        QTest::newRow("spare 40") << 120 << 900 << 40 << 287 << 160;
        QTest::newRow("none spare") << 120 << 900 << 0 << 287 << 120;
        QTest::newRow("short 30") << 160 << 720 << -30 << 287 << 140;
        QTest::newRow("short, 3 rows kept") << 160 << 720 << -100 << 287 << 80 + 3 * 20;
        QTest::newRow("taller than wanted") << 400 << 1400 << 0 << 287 << 240;
        QTest::newRow("five labels") << 120 << 1080 << 400 << 5 << 80 + 5 * 20;
        QTest::newRow("two labels") << 120 << 1080 << 400 << 2 << 80 + 2 * 20;
        QTest::newRow("two labels, taller") << 400 << 1080 << 0 << 2 << 80 + 2 * 20;
    }

    void rankHeight()
    {
        QFETCH(int, height);
        QFETCH(int, window);
        QFETCH(int, spare);
        QFETCH(int, rows);
        QFETCH(int, expected);
        QCOMPARE(ViewSizing::rankHeight({height, 80, 20, rows, window, spare}), expected);
    }

    // Measured from the laid-out widgets: the lanes show min(6, lanes) rows under their first header,
    // the usage chart's plot holds two y labels, counters keep at least their compact strip, the
    // icicle its minimum, and the Details pane is a strip until something is selected.
    void laidOut_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("tasks");
        QTest::addColumn<bool>("counters");
        const std::tuple<const char*, QString, bool, bool> files[] = {
            {"demo", MainWindow::demoPath(), true, false},
            {"counters+tasks", m_files.filePath(QStringLiteral("tasks-1.json")), true, true},
            {"no tasks", dataPath(QStringLiteral("profiles/chrome-counters.json")), false, true},
            {"sampled", dataPath(QStringLiteral("samples/cpuprofile/node10-example.cpuprofile")), false, false},
        };
        for (const auto& [name, path, tasks, counters] : files) {
            for (const QSize size : {QSize(1920, 1080), QSize(1400, 900), QSize(1280, 720)})
                QTest::addRow("%s %dx%d", name, size.width(), size.height()) << path << size << tasks << counters;
        }
    }

    void laidOut()
    {
        QFETCH(QString, file);
        QFETCH(QSize, size);
        QFETCH(bool, tasks);
        QFETCH(bool, counters);
        MainWindow window;
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openFile(file);
        QVERIFY(waitShown(window));
        settle(window);
        QCOMPARE(window.lanes()->totalTaskCount() > 0, tasks);
        QCOMPARE(window.counters()->isVisible(), counters);
        TaskLaneView* lanes = window.lanes();
        const int rowHeight = lanes->rowHeight();
        if (tasks) {
            // The first group's header, then at least six rows (or every row).
            const int rows = (lanes->height() - TaskLaneView::kLegendHeight) / rowHeight;
            QVERIFY2(rows >= std::min(7, lanes->contentHeight() / rowHeight),
                     qPrintable(QStringLiteral("%1 rows in %2 px").arg(rows).arg(lanes->height())));
        } else if (lanes->isVisible()) {
            QCOMPARE(lanes->height(), ViewSizing::kShrunkLanesHeight);
        }
        if (window.usage()->isVisible()) {
            // Two y labels at least (0 and the top), a label's gap apart.
            const QRectF plot = window.usage()->view()->chart()->plotArea();
            QVERIFY2(plot.height() >= 2 * UsageChart::kYLabelGap, qPrintable(QString::number(plot.height())));
            QVERIFY(window.usage()->height() >= ViewSizing::kUsageLabelsHeight);
        }
        if (counters) {
            CounterView* view = window.counters();
            const int compact = int(view->trackCount()) * CounterView::kHeaderHeight;
            QVERIFY(view->height() >= std::min(view->contentHeight(), compact));
        }
        QVERIFY(window.icicle()->height() >= window.icicle()->minimumHeight());
        qInfo("lanes %d px (%d rows of %d), usage %d px, counters %d of %d px, icicle %d of %d px", lanes->height(),
              (lanes->height() - TaskLaneView::kLegendHeight) / rowHeight, lanes->contentHeight() / rowHeight,
              window.usage()->height(), window.counters()->height(), window.counters()->contentHeight(),
              window.icicle()->height(), window.icicle()->contentHeight());
        // Nothing selected: the Details pane is a strip.
        auto* details = window.findChild<QDockWidget*>(QStringLiteral("details"));
        QVERIFY(window.details()->isEmpty());
        QCOMPARE(details->width(), DetailsPane::kStripWidth);
    }

    // Issue 39 item 15: at the minimum width the details give way first; a selection widens them
    // to a quarter of the window at most, and an empty selection makes them a strip again.
    void detailsGiveWayFirst()
    {
        MainWindow window;
        window.resize(1920, 1080);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openDemo();
        QVERIFY(waitShown(window));
        settle(window);
        auto* details = window.findChild<QDockWidget*>(QStringLiteral("details"));
        QTRY_COMPARE(details->width(), DetailsPane::kStripWidth);
        const Profile* p = window.document()->profile();
        window.document()->axis()->selectItem(0, p->interval(0).measurement);
        QVERIFY(!window.details()->isEmpty());
        QTRY_COMPARE(details->width(), DetailsPane::kWidth);
        window.resize(671, 720); // issue 39's minimum width: the details had ~250 px, the timeline ~190
        QTRY_VERIFY(details->width() <= std::max(DetailsPane::kStripWidth, window.width() / 4));
        QVERIFY(window.icicle()->width() > details->width());
        window.document()->axis()->selectItem(kNone, kNone);
        QTRY_COMPARE(details->width(), DetailsPane::kStripWidth);
    }

    // The user's splitter move survives opening another file of the same kind, and comes back
    // after a file of another kind (which gets the sizes its content asks for).
    void userSplitterKeptPerKind()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* splitter = window.findChild<QSplitter*>();
        // Tasks without counters: the demo's sizes, before any move.
        window.openDemo();
        QVERIFY(waitShown(window));
        settle(window);
        const QList<int> demo = splitter->sizes();
        window.openFile(m_files.filePath(QStringLiteral("tasks-1.json")));
        QVERIFY(waitShown(window));
        settle(window);
        const QList<int> fitted = splitter->sizes();
        QList<int> moved = fitted;
        moved[0] += 60;
        moved[1] -= 60;
        splitter->setSizes(moved);
        // As a drag of the handle would.
        QMetaObject::invokeMethod(splitter, "splitterMoved", Q_ARG(int, moved[0]), Q_ARG(int, 1));
        moved = splitter->sizes();
        window.openFile(m_files.filePath(QStringLiteral("tasks-2.json")));
        QVERIFY(waitShown(window));
        settle(window);
        QCOMPARE(splitter->sizes(), moved);
        // Another kind (tasks, no counters): its own sizes, not the move.
        window.openDemo();
        QVERIFY(waitShown(window));
        settle(window);
        QCOMPARE(splitter->sizes(), demo);
        window.openFile(dataPath(QStringLiteral("profiles/chrome-counters.json")));
        QVERIFY(waitShown(window));
        settle(window);
        QCOMPARE(splitter->sizes().value(1), ViewSizing::kShrunkLanesHeight);
        window.openFile(m_files.filePath(QStringLiteral("tasks-1.json")));
        QVERIFY(waitShown(window));
        settle(window);
        QCOMPARE(splitter->sizes(), moved);
    }

    // Issue 46: the views' room changes under them when the Critical path dock opens below
    // (P, or View ▸ Show critical path): sized again for the room left, the lanes keep six
    // rows (they had five at 1400 x 900 and four at 1280 x 720 when sized only as the profile
    // arrived); closed again, the room and the rows come back. Lane rows wholly in view, of
    // the kind of trace (counters and tasks, here a row each), as the window lays them out.
    void dockOpeningKeepsTheLanesRows_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<int>("rows"); // the dock closed
        QTest::addColumn<int>("docked"); // the Critical path dock open
        // At 1920 x 1080 the Rank dock's eight rows leave the lanes 7 (10 when it had two), and the
        // Critical path dock opens in the rank's room, not the views' (7 rows with it, as before).
        QTest::newRow("1920x1080") << QSize(1920, 1080) << 7 << 7;
        QTest::newRow("1400x900") << QSize(1400, 900) << 6 << 6;
        QTest::newRow("1280x720") << QSize(1280, 720) << 6 << 6;
    }

    void dockOpeningKeepsTheLanesRows()
    {
        QFETCH(QSize, size);
        QFETCH(int, rows);
        QFETCH(int, docked);
        MainWindow window;
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openFile(m_files.filePath(QStringLiteral("tasks-1.json")));
        QVERIFY(waitShown(window));
        settle(window);
        TaskLaneView* lanes = window.lanes();
        QCOMPARE(lanes->effectiveLayout(), TaskLaneView::Layout::PerTask);
        QCOMPARE(lanes->rowsInView(), rows);
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("criticalPathPanel"));
        dock->show();
        dock->raise();
        settle(window);
        QCOMPARE(lanes->rowsInView(), docked);
        // The chart keeps its minimum; where the room is short (1280 x 720) it gives before the lanes.
        QVERIFY(window.usage()->height() >= window.usage()->minimumHeight());
        qInfo("lanes %d px, usage %d px, counters %d px, icicle %d px with the dock", lanes->height(), window.usage()->height(),
              window.counters()->height(), window.icicle()->height());
    }

    // A move of the splitter still wins when the room changes: the dock opening scales the
    // user's sizes to the room left (the policy's are not put back), and so does closing it.
    void userSplitterKeptWhenTheDockOpens()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openFile(m_files.filePath(QStringLiteral("tasks-1.json")));
        QVERIFY(waitShown(window));
        settle(window);
        // The rank dragged down to its table's least (it has more rows by default): the dock
        // opening then takes room from the views.
        QVERIFY(dragRankSeparator(window, 150));
        settle(window);
        auto* splitter = window.findChild<QSplitter*>();
        QList<int> moved = splitter->sizes();
        moved[0] -= 100; // the lanes 100 px taller than the policy made them
        moved[1] += 100;
        splitter->setSizes(moved);
        QMetaObject::invokeMethod(splitter, "splitterMoved", Q_ARG(int, moved[0]), Q_ARG(int, 1));
        moved = splitter->sizes();
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("criticalPathPanel"));
        dock->show();
        dock->raise();
        settle(window);
        // In the user's proportions, to a pixel of rounding; the policy would have given the lanes
        // their six rows and the rest to the icicle.
        const auto scaledFromMove = [&moved](const QList<int>& sizes) {
            const int before = moved[0] + moved[1] + moved[2];
            const int after = sizes[0] + sizes[1] + sizes[2];
            for (int i = 0; i < 3; ++i) {
                if (std::abs(sizes[i] - moved[i] * after / before) > 1)
                    return false;
            }
            return true;
        };
        const auto text = [](const QList<int>& sizes) {
            return QStringLiteral("%1, %2, %3").arg(sizes[0]).arg(sizes[1]).arg(sizes[2]);
        };
        const QList<int> docked = splitter->sizes();
        QVERIFY2(docked[0] + docked[1] + docked[2] < moved[0] + moved[1] + moved[2] - 80, qPrintable(text(docked)));
        QVERIFY2(scaledFromMove(docked), qPrintable(text(docked)));
        // Closed again: the Rank dock keeps the bottom area's height, the sizes stay the user's.
        dock->hide();
        settle(window);
        QVERIFY2(scaledFromMove(splitter->sizes()), qPrintable(text(splitter->sizes())));
    }

    // Issue 46: with clean settings the bottom dock area was as tall as the rank table asks,
    // two rows (the Critical path dock beside it is hidden until P), the lanes ~18 rows at
    // 1400 x 900. The rank gets up to ten rows the views can spare, never over a third of the
    // window, the lanes keeping their six rows: rank rows and lane rows wholly in view.
    void rankGetsRows_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<int>("rankRows");
        QTest::addColumn<int>("laneRows");
        const std::tuple<const char*, QString, std::array<int, 6>> files[] = {
            {"demo", MainWindow::demoPath(), {8, 21, 8, 12, 4, 6}},
            {"counters+tasks", m_files.filePath(QStringLiteral("tasks-1.json")), {8, 7, 8, 6, 2, 6}},
            {"no tasks", dataPath(QStringLiteral("profiles/chrome-counters.json")), {2, 0, 2, 0, 2, 0}},
            {"sampled", dataPath(QStringLiteral("samples/cpuprofile/node10-example.cpuprofile")), {5, 0, 5, 0, 5, 0}},
        };
        for (const auto& [name, path, rows] : files) {
            int i = 0;
            for (const QSize size : {QSize(1920, 1080), QSize(1400, 900), QSize(1280, 720)}) {
                QTest::addRow("%s %dx%d", name, size.width(), size.height()) << path << size << rows[i] << rows[i + 1];
                i += 2;
            }
        }
    }

    void rankGetsRows()
    {
        QFETCH(QString, file);
        QFETCH(QSize, size);
        QFETCH(int, rankRows);
        QFETCH(int, laneRows);
        MainWindow window;
        QVERIFY(showWith(window, size, file));
        qInfo("rank %d rows (%d px), lanes %d rows (%d px), icicle %d of %d px, usage %d px", rankRowsInView(window),
              rankDock(window)->height(), window.lanes()->rowsInView(), window.lanes()->height(), window.icicle()->height(),
              window.icicle()->contentHeight(), window.usage()->height());
        QCOMPARE(rankRowsInView(window), rankRows);
        QCOMPARE(window.lanes()->rowsInView(), laneRows);
        QVERIFY(window.usage()->height() >= ViewSizing::kUsageLabelsHeight);
        QVERIFY(rankDock(window)->height() <= window.height() / ViewSizing::kRankWindowShare);
    }

    // The window made smaller after the profile is shown: the rank gives its rows back to the
    // views as the room goes, down to three, as if it had opened at that size.
    void rankShrinksWithTheWindow()
    {
        MainWindow window;
        QVERIFY(showWith(window, QSize(1400, 900), MainWindow::demoPath()));
        window.resize(1280, 720);
        settle(window);
        QTRY_COMPARE(window.height(), 720);
        qInfo("rank %d rows, lanes %d rows", rankRowsInView(window), window.lanes()->rowsInView());
        QCOMPARE(rankRowsInView(window), 4);
        QCOMPARE(window.lanes()->rowsInView(), 6);
    }

    // A dock state saved by an earlier session is the user's: restored, it is kept.
    void restoredDocksKept()
    {
        int height = 0;
        {
            MainWindow window;
            window.resize(1400, 900);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.resizeDocks({rankDock(window)}, {150}, Qt::Vertical);
            settle(window);
            height = rankDock(window)->height();
            window.close(); // saves the geometry and the docks' state
        }
        QCOMPARE(height, 150);
        MainWindow window; // at the size the settings give it
        QVERIFY(showWith(window, QSize(), MainWindow::demoPath()));
        QCOMPARE(rankDock(window)->height(), height);
        window.resize(1300, 800);
        settle(window);
        QCOMPARE(rankDock(window)->height(), height);
    }

    // A drag of the separator above the rank makes its height the user's: not fitted again when
    // the next file opens or the window is resized.
    void draggedDockKept()
    {
        MainWindow window;
        QVERIFY(showWith(window, QSize(1400, 900), MainWindow::demoPath()));
        QDockWidget* dock = rankDock(window);
        const int fitted = dock->height();
        QVERIFY(dragRankSeparator(window, 60));
        settle(window);
        const int dragged = dock->height();
        QVERIFY2(dragged < fitted - 40, qPrintable(QStringLiteral("%1 → %2").arg(fitted).arg(dragged)));
        window.openFile(m_files.filePath(QStringLiteral("tasks-1.json")));
        QVERIFY(waitShown(window));
        settle(window);
        QCOMPARE(dock->height(), dragged);
        window.resize(1500, 950);
        settle(window);
        QCOMPARE(dock->height(), dragged);
    }

private:
    // Shows the window at `size` (invalid: the size it starts at), opens `file` and waits for
    // every view's work.
    static bool showWith(MainWindow& window, const QSize& size, const QString& file)
    {
        if (size.isValid())
            window.resize(size);
        window.show();
        if (!QTest::qWaitForWindowExposed(&window))
            return false;
        window.openFile(file);
        const bool shown = waitShown(window);
        settle(window);
        return shown;
    }

    static QDockWidget* rankDock(const MainWindow& window) { return window.findChild<QDockWidget*>(QStringLiteral("rank")); }

    // Drags the separator above the Rank dock `dy` px down through the window system, as a user
    // would: the press on the separator (on no child of the window), then the moves.
    static bool dragRankSeparator(MainWindow& window, int dy)
    {
        const QPoint separator(window.width() / 2, (window.centralWidget()->geometry().bottom() + rankDock(window)->geometry().top()) / 2);
        if (window.childAt(separator))
            return false;
        QWindow* handle = window.windowHandle();
        QTest::mouseMove(handle, separator);
        QTest::mousePress(handle, Qt::LeftButton, {}, separator);
        for (int moved = 10; moved <= dy; moved += 10)
            QTest::mouseMove(handle, separator + QPoint(0, moved));
        QTest::mouseRelease(handle, Qt::LeftButton, {}, separator + QPoint(0, dy));
        return true;
    }

    // The rank's rows wholly in the table's view.
    static int rankRowsInView(const MainWindow& window)
    {
        const QTableView* table = window.rank()->view();
        int rows = 0;
        for (int row = std::max(0, table->rowAt(0)); row < table->model()->rowCount(); ++row) {
            const int top = table->rowViewportPosition(row);
            if (top + table->rowHeight(row) > table->viewport()->height())
                break;
            rows += top >= 0 ? 1 : 0;
        }
        return rows;
    }

    QTemporaryDir m_settings;
    QTemporaryDir m_files;
};

QTEST_MAIN(TestViewSizing)
#include "tst_viewsizing.moc"
