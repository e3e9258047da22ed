#include "backgroundloader.h"
#include "criticalpathpanel.h"
#include "criticalpathstate.h"
#include "elidedlabel.h"
#include "loadcontroller.h"
#include "mainwindow.h"
#include "mainwindowdriver.h"
#include "noticebar.h"
#include "profilebuilder.h"
#include "profiledocument.h"
#include "rankpanel.h"
#include "testsupport.h"
#include "timeaxis.h"

#include <QDockWidget>
#include <QPushButton>
#include <QSemaphore>
#include <QTabBar>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace runlane;
using namespace runlane::test;

namespace {

constexpr Time kMs = 1'000'000;

// `intervals` calls of 1 ms one after the other from 0.
std::shared_ptr<const Profile> calls(int intervals, std::optional<PartialLoad> partial = std::nullopt)
{
    return sequentialCalls(intervals, kMs, partial);
}

PartialLoad part(PartialLoad::Kind kind, std::int64_t bytes, std::int64_t total, Time completeUpTo, Time shortest = 0,
                 bool holdsTasks = false, std::uint64_t tasksLeftOut = 0)
{
    PartialLoad p;
    p.kind = kind;
    p.bytesRead = bytes;
    p.totalBytes = total;
    p.completeUpTo = completeUpTo;
    p.shortestKept = shortest;
    p.holdsTasks = holdsTasks;
    p.tasksLeftOut = tasksLeftOut;
    return p;
}

// A reader the test drives: "big.json" gives each of `previews` (waiting
// until it is shown), then waits for `finish` (or a cancel, then keeps what
// was read if asked: `cut`) and gives `whole`; other files are read for real.
struct ScriptedReader {
    std::vector<std::shared_ptr<const Profile>> previews;
    std::shared_ptr<const Profile> whole;
    std::shared_ptr<const Profile> cut;
    bool builds = false; // tells the build's first step once all previews are shown
    // Told once the previews are shown, all at once (a small file's read
    // moves a percent every few milliseconds).
    std::vector<std::int64_t> progressAfterPreviews;
    QSemaphore shown;
    QSemaphore finish;

    LoadResult read(const QString& path, const LoadControl& control)
    {
        if (!path.endsWith(QLatin1String("big.json")))
            return ProfileLoader::load(path, control);
        auto cancelled = [&] { return control.cancel->load(); };
        for (const auto& preview : previews) {
            control.preview(preview);
            while (!shown.tryAcquire(1, 5))
                if (cancelled())
                    return stopped(control);
        }
        for (const std::int64_t done : progressAfterPreviews)
            control.progress(done, 1000);
        if (builds)
            control.building(1, ProfileBuilder::kBuildSteps, "finishing the events read");
        while (!finish.tryAcquire(1, 5))
            if (cancelled())
                return stopped(control);
        return LoadResult{whole, {}};
    }
    LoadResult stopped(const LoadControl& control)
    {
        if (cut && control.keepPartial->load())
            return LoadResult{cut, {}};
        LoadResult result;
        result.error.file = "big.json";
        result.error.cancelled = true;
        result.error.message = "loading was cancelled";
        return result;
    }
    void attach(MainWindow& window, const std::shared_ptr<ScriptedReader>& self)
    {
        window.loader()->setLoadFunction([self](const QString& path, const LoadControl& control) { return self->read(path, control); });
        // Each preview shown lets the reader go on to the next.
        QObject::connect(window.loadController(), &LoadController::previewShown, &window, [self] { self->shown.release(); });
    }
};

// The reader of "big.json" attached to `window`: previews of 100 and 200
// intervals (25 % and 50 % of the file read), then 400. `stepByStep`: each
// next preview waits for the test's reader->shown.release().
std::shared_ptr<ScriptedReader> scripted(MainWindow& window, bool stepByStep)
{
    auto reader = std::make_shared<ScriptedReader>();
    reader->previews = {calls(100, part(PartialLoad::Kind::Preview, 250, 1000, 90 * kMs)),
                        calls(200, part(PartialLoad::Kind::Preview, 500, 1000, 190 * kMs))};
    reader->whole = calls(400);
    reader->attach(window, reader);
    if (stepByStep)
        QObject::disconnect(window.loadController(), &LoadController::previewShown, &window, nullptr);
    return reader;
}

QString rankBanner(const MainWindow& window)
{
    return window.rank()->findChild<ElidedLabel*>(QStringLiteral("rankBanner"))->fullText();
}

QPushButton* bannerButton(const MainWindow& window, const char* name)
{
    return window.loadController()->banner()->findChild<QPushButton*>(QLatin1String(name));
}

// The title of the dock in front of the tab group that holds `title`.
QString frontTab(const MainWindow& window, const QString& title)
{
    for (const QTabBar* bar : window.findChildren<QTabBar*>()) {
        for (int i = 0; i < bar->count(); ++i) {
            if (bar->tabText(i) == title)
                return bar->tabText(bar->currentIndex());
        }
    }
    return {};
}

} // namespace

class TestLoadController : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_settings.isValid());
        useTemporarySettings(m_settings.path(), QStringLiteral("tst_loadcontroller"));
    }

    // The banner says how far the load is and what the preview holds;
    // once all is read, the build's step and no more what is complete.
    void bannerText_data()
    {
        QTest::addColumn<qint64>("done");
        QTest::addColumn<qint64>("total");
        // 0: none; 1: in time order, 2 ms left out; 2: not in time order, none left out; 3, 4: as 1 and 2 with
        // tasks, 12,345 of them left out in 3
        QTest::addColumn<int>("preview");
        QTest::addColumn<int>("step"); // of the build, 0: none yet, < 0: stopped; "numbering in creation order", 3 s in
        QTest::addColumn<QString>("expected");
        QTest::newRow("no preview yet") << qint64(120'000'000) << qint64(2'400'000'000) << 0 << 0
                                        << QStringLiteral("Loading big.json — 5 % (120 MB of 2.40 GB)");
        QTest::newRow("in time order") << qint64(1'000'000'000) << qint64(2'400'000'000) << 1 << 0
                                       << QStringLiteral("Loading big.json — 41 % (1.00 GB of 2.40 GB) · preview of the calls: "
                                                         "those shorter than 2.00 ms hidden · complete up to 3.20 s");
        QTest::newRow("not in time order") << qint64(1'000'000'000) << qint64(2'400'000'000) << 2 << 0
                                           << QStringLiteral("Loading big.json — 41 % (1.00 GB of 2.40 GB) · preview of the calls "
                                                             "read so far · events not in time order: any part may still change");
        QTest::newRow("all read") << qint64(2'400'000'000) << qint64(2'400'000'000) << 1 << 0
                                  << QStringLiteral("Loading big.json — all 2.40 GB read, building the profile · preview of the calls: "
                                                    "those shorter than 2.00 ms hidden");
        QTest::newRow("all read, not in time order") << qint64(2'400'000'000) << qint64(2'400'000'000) << 2 << 0
                                                     << QStringLiteral("Loading big.json — all 2.40 GB read, building the profile · "
                                                                       "preview of the calls read so far");
        // Stopped at 41 %: the build is of what was read (step -2: stopped).
        QTest::newRow("stopped, building") << qint64(1'000'000'000) << qint64(2'400'000'000) << 1 << -2
                                           << QStringLiteral("Loading big.json — 41 % (1.00 GB of 2.40 GB) (step 2 of 14: numbering in "
                                                             "creation order, 3 s) · preview of the calls: those shorter than 2.00 ms "
                                                             "hidden · complete up to 3.20 s");
        QTest::newRow("calls and tasks") << qint64(1'000'000'000) << qint64(2'400'000'000) << 3 << 0
                                         << QStringLiteral("Loading big.json — 41 % (1.00 GB of 2.40 GB) · preview of the calls and "
                                                           "tasks: calls shorter than 2.00 ms hidden · the 12,345 shortest-lived tasks "
                                                           "left out · complete up to 3.20 s");
        QTest::newRow("calls and tasks, none left out")
            << qint64(1'000'000'000) << qint64(2'400'000'000) << 4 << 0
            << QStringLiteral("Loading big.json — 41 % (1.00 GB of 2.40 GB) · preview of the calls and tasks read so far · events "
                              "not in time order: any part may still change");
        QTest::newRow("size unknown") << qint64(1'000'000'000) << qint64(-1) << 0 << 0 << QStringLiteral("Loading big.json — 1.00 GB read");
        QTest::newRow("building") << qint64(2'400'000'000) << qint64(2'400'000'000) << 1 << 8
                                  << QStringLiteral("Loading big.json — all 2.40 GB read, building the profile (step 8 of 14: numbering in "
                                                    "creation order, 3 s) · preview of the calls: those shorter than 2.00 ms hidden");
        // The build's report may come before the last bytes' progress.
        QTest::newRow("building, progress behind") << qint64(2'300'000'000) << qint64(2'400'000'000) << 1 << 2
                                                   << QStringLiteral("Loading big.json — all 2.40 GB read, building the profile (step 2 of "
                                                                     "14: numbering in creation order, 3 s) · preview of the calls: those "
                                                                     "shorter than 2.00 ms hidden");
    }

    void bannerText()
    {
        QFETCH(qint64, done);
        QFETCH(qint64, total);
        QFETCH(int, preview);
        QFETCH(int, step);
        QFETCH(QString, expected);
        std::shared_ptr<const Profile> p;
        if (preview == 1)
            p = calls(5000, part(PartialLoad::Kind::Preview, done, total, 3200 * kMs, 2 * kMs));
        else if (preview == 2)
            p = calls(5000, part(PartialLoad::Kind::Preview, done, total, kTimeMin));
        else if (preview == 3)
            p = calls(5000, part(PartialLoad::Kind::Preview, done, total, 3200 * kMs, 2 * kMs, true, 12'345));
        else if (preview == 4)
            p = calls(5000, part(PartialLoad::Kind::Preview, done, total, kTimeMin, 0, true));
        LoadController::Building building;
        if (step != 0)
            building = {std::abs(step), 14, QStringLiteral("numbering in creation order"), 3, step < 0};
        QCOMPARE(LoadController::bannerText(QStringLiteral("big.json"), done, total, p.get(), building), expected);
    }

    // The rank says what part of the file its numbers are of: the share read
    // (a tenth of a percent below 10 %), and for a preview that left the
    // shorter boxes or tasks out, which ones it counts.
    void rankNote_data()
    {
        QTest::addColumn<int>("kind"); // PartialLoad::Kind
        QTest::addColumn<qint64>("done");
        QTest::addColumn<qint64>("shortest"); // ns
        QTest::addColumn<qint64>("tasksLeftOut");
        QTest::addColumn<QString>("expected");
        const int preview = int(PartialLoad::Kind::Preview);
        const int cut = int(PartialLoad::Kind::Cut);
        QTest::newRow("preview, all kept") << preview << qint64(250'000) << qint64(0) << qint64(0)
                                           << QStringLiteral("<b>Partial</b>: from 25 % of the file");
        QTest::newRow("preview, first 0.9 %") << preview << qint64(9'400) << qint64(0) << qint64(0)
                                              << QStringLiteral("<b>Partial</b>: from 0.9 % of the file");
        QTest::newRow("preview, short boxes left out")
            << preview << qint64(160'000) << qint64(524'288) << qint64(0)
            << QStringLiteral("<b>Partial</b>: boxes of 524 µs or more, from 16 % of the file");
        QTest::newRow("preview, tasks left out") << preview << qint64(250'000) << qint64(0) << qint64(77'382)
                                                 << QStringLiteral("<b>Partial</b>: from 25 % of the file, without the 77,382 "
                                                                   "shortest-lived tasks");
        QTest::newRow("preview, short boxes and tasks left out")
            << preview << qint64(160'000) << qint64(524'288) << qint64(12)
            << QStringLiteral("<b>Partial</b>: boxes of 524 µs or more, from 16 % of the file, without the 12 shortest-lived tasks");
        QTest::newRow("cut") << cut << qint64(431'000) << qint64(0) << qint64(0) << QStringLiteral("<b>Cut</b>: from 43 % of the file");
    }
    void rankNote()
    {
        QFETCH(int, kind);
        QFETCH(qint64, done);
        QFETCH(qint64, shortest);
        QFETCH(qint64, tasksLeftOut);
        QFETCH(QString, expected);
        MainWindow window;
        window.show();
        auto reader = std::make_shared<ScriptedReader>();
        const auto partial = part(PartialLoad::Kind(kind), done, 1'000'000, 90 * kMs, shortest, tasksLeftOut > 0,
                                  std::uint64_t(tasksLeftOut));
        if (partial.kind == PartialLoad::Kind::Preview)
            reader->previews = {calls(100, partial)};
        else {
            reader->whole = calls(100, partial);
            reader->finish.release(); // no preview to wait for: the kept profile at once
        }
        reader->attach(window, reader);
        window.openFile(QStringLiteral("/nonexistent/big.json"));
        QTRY_COMPARE(window.document()->profile() ? window.document()->profile()->intervalCount() : 0, std::size_t(100));
        QTRY_COMPARE(rankBanner(window), expected + QStringLiteral(" · Whole profile (Shift+drag on the timeline for a range)"));
        reader->finish.release();
        window.loader()->cancel();
    }

    // Previews are shown as they come, the profile after them; a range the
    // user zoomed to stays across previews and into the profile, an untouched
    // view follows the growing span.
    void previewsThenTheProfile_data()
    {
        QTest::addColumn<bool>("zoom");
        QTest::addColumn<qint64>("from"); // the range after the profile, ms
        QTest::addColumn<qint64>("to");
        QTest::newRow("untouched: follows the span") << false << qint64(0) << qint64(400);
        QTest::newRow("zoomed: kept") << true << qint64(20) << qint64(60);
    }
    void previewsThenTheProfile()
    {
        QFETCH(bool, zoom);
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        MainWindow window;
        window.show();
        auto reader = scripted(window, true); // each next preview waits for the test: it lets them go below
        QSignalSpy previews(window.loadController(), &LoadController::previewShown);
        QSignalSpy shown(&window, &MainWindow::profileShown);
        // The next previews and the profile refine the first preview (the
        // views keep what the user set, by name); the first replaces what
        // was open.
        std::vector<bool> refined;
        connect(window.document(), &ProfileDocument::profileChanged, this,
                [&] { refined.push_back(window.document()->isRefinement()); });
        window.openFile(QStringLiteral("/nonexistent/big.json"));
        QTRY_COMPARE(previews.count(), 1);
        QCOMPARE(window.document()->profile()->intervalCount(), std::size_t(100));
        QVERIFY(window.loadController()->isShowingPreview());
        QVERIFY(window.loadController()->banner()->isVisible());
        QCOMPARE(window.loadController()->banner()->notices(),
                 QStringList{QStringLiteral("Loading big.json — 25 % (250 B of 1.00 kB) · preview of the calls read so far · "
                                            "complete up to 90.0 ms")});
        QTRY_COMPARE(rankBanner(window), QStringLiteral("<b>Partial</b>: from 25 % of the file · Whole profile (Shift+drag on "
                                                    "the timeline for a range)"));
        QCOMPARE(shown.count(), 0);
        // The user zooms (a step in the history) and selects the call at
        // 30 ms: both outlive each rebuild (the call found again by what it
        // is, IntervalMatch).
        const IntervalId selected = 30;
        const std::string focus(window.document()->profile()->labelName(
            window.document()->profile()->measurement(window.document()->profile()->interval(selected).measurement).label));
        auto* pathDock = window.findChild<QDockWidget*>(QStringLiteral("criticalPathPanel"));
        QVERIFY(pathDock);
        if (zoom) {
            window.axis()->setVisibleRange(20 * kMs, 60 * kMs); // as the navigator does
            window.axis()->selectItem(selected, window.document()->profile()->interval(selected).measurement);
            window.document()->setFocusLabel(labelNamed(*window.document()->profile(), focus));
            // P on it: the path's panel in front of the rank.
            QVERIFY(window.document()->criticalPath()->show(window.document()->profile()->interval(selected).measurement));
            pathDock->show();
            pathDock->raise();
        }
        auto checkKept = [&] {
            QCOMPARE(window.document()->focusLabel(), zoom ? labelNamed(*window.document()->profile(), focus) : kNone);
            QCOMPARE(window.document()->criticalPath()->isActive(), zoom);
            // In front of the rank while shown; never shown, in no tab group.
            QCOMPARE(frontTab(window, pathDock->windowTitle()), zoom ? pathDock->windowTitle() : QString());
            QCOMPARE(window.axis()->canGoBack(), zoom);
            QCOMPARE(window.axis()->selectedInterval(), zoom ? selected : kNone);
            if (zoom) {
                QCOMPARE(window.document()->profile()->interval(selected).start, 30 * kMs);
                QCOMPARE(window.axis()->selectedMeasurement(), window.document()->profile()->interval(selected).measurement);
            }
        };
        reader->shown.release(); // the next preview
        QTRY_COMPARE(previews.count(), 2);
        QCOMPARE(window.document()->profile()->intervalCount(), std::size_t(200));
        QCOMPARE(window.axis()->visibleStart(), zoom ? 20 * kMs : 0);
        QCOMPARE(window.axis()->visibleEnd(), zoom ? 60 * kMs : 200 * kMs);
        checkKept();
        reader->shown.release();
        reader->finish.release();
        QTRY_COMPARE(shown.count(), 1);
        QCOMPARE(previews.count(), 2);
        QCOMPARE(window.document()->profile()->intervalCount(), std::size_t(400));
        QVERIFY(!window.document()->profile()->partial());
        QCOMPARE(window.axis()->visibleStart(), Time(from) * kMs);
        QCOMPARE(window.axis()->visibleEnd(), Time(to) * kMs);
        checkKept();
        if (zoom) { // the step back is to the whole first preview, as it was
            window.axis()->goBack();
            QCOMPARE(window.axis()->visibleStart(), Time(0));
            QCOMPARE(window.axis()->visibleEnd(), 100 * kMs);
        }
        QVERIFY(!window.loadController()->isShowingPreview());
        QVERIFY(window.loadController()->banner()->isHidden());
        QTRY_COMPARE(rankBanner(window), QStringLiteral("Whole profile (Shift+drag on the timeline for a range)"));
        QCOMPARE(window.windowTitle(), QStringLiteral("big.json — Runlane"));
        QCOMPARE(refined, (std::vector<bool>{false, true, true}));
    }

    // A new file's first preview opens on the rank (as a file loaded whole
    // does, MainWindow::showProfile). The critical path asked for during
    // the load is walked again in each version, and the panel stays as the
    // user left it: the tab in front
    // (the rank, if the user went back to it) and its scope (the task's
    // path, though its label is focused too, which alone would show the
    // label's paths).
    void thePathsPanelStaysAsTheUserLeftIt_data()
    {
        QTest::addColumn<bool>("rankInFront");
        QTest::newRow("the path's tab in front") << false;
        QTest::newRow("the rank in front") << true;
    }
    void thePathsPanelStaysAsTheUserLeftIt()
    {
        QFETCH(bool, rankInFront);
        MainWindow window;
        window.show();
        auto* pathDock = window.findChild<QDockWidget*>(QStringLiteral("criticalPathPanel"));
        auto* rankDock = window.findChild<QDockWidget*>(QStringLiteral("rank"));
        QVERIFY(pathDock && rankDock);
        // In front before the file: a new file's first preview opens on the rank.
        pathDock->show();
        pathDock->raise();
        QCOMPARE(frontTab(window, pathDock->windowTitle()), pathDock->windowTitle());
        auto reader = scripted(window, true);
        QSignalSpy previews(window.loadController(), &LoadController::previewShown);
        QSignalSpy shown(&window, &MainWindow::profileShown);
        window.openFile(QStringLiteral("/nonexistent/big.json"));
        QTRY_COMPARE(previews.count(), 1);
        QCOMPARE(frontTab(window, pathDock->windowTitle()), rankDock->windowTitle());
        auto* panel = qobject_cast<CriticalPathPanel*>(pathDock->widget());
        QVERIFY(panel);
        // The call at 30 ms: its label focused in the rank, then P on it.
        const IntervalId call = 30;
        const Profile& first = *window.document()->profile();
        window.document()->setFocusLabel(first.measurement(first.interval(call).measurement).label);
        QVERIFY(window.document()->criticalPath()->show(first.interval(call).measurement));
        QCOMPARE(frontTab(window, pathDock->windowTitle()), pathDock->windowTitle());
        QCOMPARE(panel->scope(), CriticalPathPanel::Scope::Task);
        if (rankInFront)
            rankDock->raise();
        const QString front = (rankInFront ? rankDock : pathDock)->windowTitle();
        QCOMPARE(frontTab(window, pathDock->windowTitle()), front);
        auto checkKept = [&] {
            const Profile& now = *window.document()->profile();
            QCOMPARE(window.document()->criticalPath()->measurement(), now.interval(call).measurement);
            QCOMPARE(frontTab(window, pathDock->windowTitle()), front);
            QCOMPARE(panel->scope(), CriticalPathPanel::Scope::Task);
            QCOMPARE(window.document()->focusLabel(), now.measurement(now.interval(call).measurement).label);
        };
        reader->shown.release(); // the next preview
        QTRY_COMPARE(previews.count(), 2);
        QCOMPARE(window.document()->profile()->intervalCount(), std::size_t(200));
        checkKept();
        reader->shown.release();
        reader->finish.release();
        QTRY_COMPARE(shown.count(), 1);
        QCOMPARE(window.document()->profile()->intervalCount(), std::size_t(400));
        checkKept();
    }

    // Cancel while previews show: back to the profile open before, whole,
    // in the range the user left it at; or to the empty window.
    void cancelGoesBack_data()
    {
        QTest::addColumn<QString>("before"); // "": the empty window
        QTest::addColumn<qint64>("intervals");
        QTest::newRow("a profile was open") << QStringLiteral("profiles/fgh-chrome.json") << qint64(3);
        QTest::newRow("the empty window") << QString() << qint64(0);
    }
    void cancelGoesBack()
    {
        QFETCH(QString, before);
        QFETCH(qint64, intervals);
        MainWindow window;
        window.show();
        auto reader = scripted(window, true); // the second preview waits
        std::shared_ptr<const Profile> open;
        Time from = 0, to = 0;
        if (!before.isEmpty()) {
            window.openFile(dataPath(before));
            QVERIFY(waitShown(window));
            open = window.document()->sharedProfile();
            from = window.axis()->boundsStart() + 1000;
            to = window.axis()->boundsEnd() - 1000;
            window.axis()->setVisibleRange(from, to);
        }
        const QString title = window.windowTitle();
        QSignalSpy previews(window.loadController(), &LoadController::previewShown);
        QSignalSpy failed(&window, &MainWindow::loadFailed);
        window.openFile(QStringLiteral("/nonexistent/big.json"));
        QTRY_COMPARE(previews.count(), 1);
        QCOMPARE(window.document()->profile()->intervalCount(), std::size_t(100));
        bannerButton(window, "cancelPreviewLoad")->click();
        QTRY_COMPARE(failed.count(), 1);
        QVERIFY(window.loadController()->banner()->isHidden());
        QCOMPARE(window.document()->sharedProfile(), open);
        QCOMPARE(window.document()->profile() ? qint64(window.document()->profile()->intervalCount()) : qint64(0), intervals);
        QCOMPARE(window.axis()->visibleStart(), from);
        QCOMPARE(window.axis()->visibleEnd(), open ? to : Time(1));
        QCOMPARE(window.axis()->canGoBack(), bool(open)); // its zoom history too
        QCOMPARE(window.windowTitle(), title);
    }

    // Stop keeps what was read: a cut profile, said in a notice and in the
    // title while it is open; a second file opened afterwards shows alone.
    void stopKeepsACutProfile()
    {
        MainWindow window;
        window.show();
        auto reader = scripted(window, true); // the second preview waits
        reader->cut = calls(150, part(PartialLoad::Kind::Cut, 431'000, 1'000'000, 140 * kMs));
        QSignalSpy previews(window.loadController(), &LoadController::previewShown);
        QSignalSpy shown(&window, &MainWindow::profileShown);
        window.openFile(QStringLiteral("/nonexistent/big.json"));
        QTRY_COMPARE(previews.count(), 1);
        bannerButton(window, "stopLoad")->click();
        QTRY_COMPARE(shown.count(), 1);
        QCOMPARE(window.document()->profile()->intervalCount(), std::size_t(150));
        QCOMPARE(window.notices()->notices(),
                 QStringList{QStringLiteral("<b>big.json is cut</b>: the load was stopped at byte 431,000 of 1,000,000 (43 %) "
                                            "and what was read is shown, complete up to 140 ms. Reload (F5) reads "
                                            "all of it.")});
        QCOMPARE(window.windowTitle(), QStringLiteral("big.json (cut at 43 %) — Runlane"));
        QTRY_COMPARE(rankBanner(window), QStringLiteral("<b>Cut</b>: from 43 % of the file · Whole profile (Shift+drag on the "
                                                    "timeline for a range)"));
        QVERIFY(window.loadController()->banner()->isHidden());
        // A second file: no notice of the cut, no stale preview.
        window.openFile(dataPath(QStringLiteral("profiles/fgh-chrome.json")));
        QVERIFY(waitShown(window));
        QCOMPARE(window.document()->profile()->intervalCount(), std::size_t(3));
        QCOMPARE(window.notices()->notices(), QStringList());
        QCOMPARE(window.windowTitle(), QStringLiteral("fgh-chrome.json — Runlane"));
        QTest::qWait(20);
        QCOMPARE(window.document()->profile()->intervalCount(), std::size_t(3));
    }

    // The banner's text (and the title with it) changes at most every
    // 100 ms however fast the percents come: each change laid out its rich
    // text on the GUI thread, beside both loading threads. It still ends
    // on the last percent told.
    void bannerKeepsPace()
    {
        MainWindow window;
        window.show();
        auto reader = scripted(window, true); // each next preview waits
        for (std::int64_t done = 510; done <= 740; done += 10)
            reader->progressAfterPreviews.push_back(done); // 51 % to 74 %: 24 percents
        QSignalSpy previews(window.loadController(), &LoadController::previewShown);
        QSignalSpy titles(&window, &QWidget::windowTitleChanged);
        window.openFile(QStringLiteral("/nonexistent/big.json"));
        QTRY_COMPARE(previews.count(), 1);
        reader->shown.release();
        QTRY_COMPARE(previews.count(), 2);
        QCOMPARE(window.windowTitle(), QStringLiteral("big.json (loading, 50 %) — Runlane"));
        titles.clear();
        QElapsedTimer burst;
        burst.start();
        reader->shown.release(); // the burst
        QTRY_COMPARE(window.windowTitle(), QStringLiteral("big.json (loading, 74 %) — Runlane"));
        // The first percent of the burst at once if the last text is 100 ms
        // old by then, then one every 100 ms at most, ending on the last:
        // never one per percent (24 before), however slow the machine.
        const qint64 allowed = 2 + burst.elapsed() / 100;
        QVERIFY2(titles.count() <= allowed,
                 qPrintable(QStringLiteral("%1 titles in %2 ms").arg(titles.count()).arg(burst.elapsed())));
        QVERIFY(window.loadController()->banner()->notices().join(QString()).contains(QStringLiteral("74 % (740 B of 1.00 kB)")));
        reader->finish.release();
        QTRY_VERIFY(window.loadController()->banner()->isHidden());
    }

    // Once all is read, and while the profile is built, there is nothing
    // partial to keep: only Cancel is offered; the next load offers both
    // again.
    void noStopWhileBuilding()
    {
        MainWindow window;
        window.show();
        auto reader = scripted(window, true); // each next preview waits
        reader->builds = true;
        reader->previews.push_back(calls(300, part(PartialLoad::Kind::Preview, 1000, 1000, 290 * kMs)));
        QSignalSpy previews(window.loadController(), &LoadController::previewShown);
        QSignalSpy shown(&window, &MainWindow::profileShown);
        auto building = [&] {
            return window.loadController()->banner()->notices().join(QLatin1Char(' ')).contains(
                QStringLiteral("building the profile (step 1 of"));
        };
        for (int load = 1; load <= 2; ++load) {
            window.openFile(QStringLiteral("/nonexistent/big.json"));
            QTRY_COMPARE(previews.count(), 3 * load - 2);
            QVERIFY(bannerButton(window, "stopLoad")->isVisible());
            reader->shown.release();
            QTRY_COMPARE(previews.count(), 3 * load - 1);
            QVERIFY(bannerButton(window, "stopLoad")->isVisible());
            reader->shown.release();
            // All read: nothing partial is left to keep, before the build says so.
            QTRY_COMPARE(previews.count(), 3 * load);
            QVERIFY(!bannerButton(window, "stopLoad")->isVisible());
            QVERIFY(!building());
            reader->shown.release();
            QTRY_VERIFY(building());
            QVERIFY(!bannerButton(window, "stopLoad")->isVisible());
            QVERIFY(bannerButton(window, "cancelPreviewLoad")->isVisible());
            reader->finish.release();
            QTRY_COMPARE(shown.count(), load);
            QCOMPARE(window.document()->profile()->intervalCount(), std::size_t(400));
        }
    }

    // Another file opened while previews show: its profile, and nothing of
    // the first file's load after it.
    void secondFileDuringPreviews()
    {
        MainWindow window;
        window.show();
        auto reader = scripted(window, true); // the second preview waits
        QSignalSpy previews(window.loadController(), &LoadController::previewShown);
        window.openFile(QStringLiteral("/nonexistent/big.json"));
        QTRY_COMPARE(previews.count(), 1);
        window.openFile(dataPath(QStringLiteral("profiles/fgh-chrome.json")));
        QVERIFY(waitShown(window));
        QTest::qWait(50);
        QCOMPARE(previews.count(), 1);
        QCOMPARE(window.document()->profile()->intervalCount(), std::size_t(3));
        QVERIFY(!window.loadController()->isShowingPreview());
        QVERIFY(window.loadController()->banner()->isHidden());
        QCOMPARE(window.windowTitle(), QStringLiteral("fgh-chrome.json — Runlane"));
    }

private:
    QTemporaryDir m_settings;
};

QTEST_MAIN(TestLoadController)
#include "tst_loadcontroller.moc"
