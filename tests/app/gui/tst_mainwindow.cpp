#include "backgroundloader.h"
#include "colorscheme.h"
#include "counterview.h"
#include "criticalpathstate.h"
#include "findbar.h"
#include "icicleview.h"
#include "imageexporter.h"
#include "mainwindow.h"
#include "mainwindowdriver.h"
#include "noticebar.h"
#include "profiledocument.h"
#include "tasklaneview.h"
#include "timeaxis.h"
#include "timeruler.h"
#include "usagechart.h"
#include "usagechartview.h"
#include "widgettestsupport.h"

#include <QAction>
#include <QDockWidget>
#include <QHeaderView>
#include <QProcess>
#include <QScreen>
#include <QTabBar>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QtTest>

#include <functional>
#include <set>
#include <memory>

using namespace runlane;
using namespace runlane::test;

class TestMainWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        // Settings (recent files, geometry) go to a directory of our own.
        QVERIFY(m_settings.isValid());
        // A child of fitsA1280x720Screen reads the settings its parent wrote.
        useTemporarySettings(qEnvironmentVariableIsSet("RUNLANE_TEST_SETTINGS") ? qEnvironmentVariable("RUNLANE_TEST_SETTINGS")
                                                                                : m_settings.path(),
                             QStringLiteral("tst_mainwindow"));
        QVERIFY(m_files.isValid());
        QFile bad(m_files.filePath(QStringLiteral("broken.json")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("[{\"ph\": \"X\", \"ts\": 1, \"dur\": }]");
    }

    void init()
    {
        if (!qEnvironmentVariableIsSet("RUNLANE_FIT_CHILD")) // the child reads what its parent saved
            QSettings().clear();
    }

    void opensTheDemoWithoutAnArgument()
    {
        MainWindow window;
        window.show();
        window.openDemo();
        QVERIFY(waitShown(window));
        QCOMPARE(window.currentPath(), MainWindow::demoPath());
        QCOMPARE(window.document()->profile()->intervalCount(), std::size_t(27508));
        QCOMPARE(window.lanes()->totalTaskCount(), std::size_t(14791));
        // The demo is not a recent file: it is always in Help.
        QVERIFY(window.recentFiles().isEmpty());
    }

    void opensFromTheFileAction()
    {
        MainWindow window;
        window.show();
        const QString path = dataPath(QStringLiteral("profiles/fgh-chrome.json"));
        window.setOpenFileChooser([path] { return path; });
        QSignalSpy shown(&window, &MainWindow::profileShown);
        window.action(QStringLiteral("open"))->trigger();
        QVERIFY(shown.wait(20000));
        QCOMPARE(window.currentPath(), path);
        QCOMPARE(window.document()->profile()->intervalCount(), std::size_t(3));
        QCOMPARE(window.axis()->visibleSpan(), 160'000);
        QCOMPARE(window.recentFiles(), QStringList{QFileInfo(path).absoluteFilePath()});
        QVERIFY(window.windowTitle().contains(QStringLiteral("fgh-chrome.json")));
        // A chooser cancelled: nothing happens.
        window.setOpenFileChooser([] { return QString(); });
        window.action(QStringLiteral("open"))->trigger();
        QVERIFY(!window.loader()->isLoading());
        QCOMPARE(window.currentPath(), path);
    }

    void dropsOpenFiles_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<QString>("opened");
        QTest::addColumn<QString>("overlay");
        QTest::addColumn<QString>("status");
        QTest::addColumn<QStringList>("notices");
        const QString chrome = dataPath(QStringLiteral("profiles/fgh-chrome.json"));
        const QString enso = dataPath(QStringLiteral("profiles/fgh-enso.json"));
        QTest::newRow("one file") << QStringList{enso} << enso << "Drop to open fgh-enso.json" << "fgh-enso.json: Enso"
                                  << QStringList();
        QTest::newRow("two files: the first") << QStringList{chrome, enso} << chrome
                                              << "Drop to open fgh-chrome.json\n(the first of 2 files)"
                                              << "opened fgh-chrome.json, the first of the 2 files dropped"
                                              << QStringList{"opened fgh-chrome.json, the first of the 2 files dropped: "
                                                             "Runlane shows one profile at a time"};
    }
    void dropsOpenFiles()
    {
        QFETCH(QStringList, files);
        QFETCH(QString, opened);
        QFETCH(QString, overlay);
        QFETCH(QString, status);
        MainWindow window;
        window.show();
        QList<QUrl> urls;
        for (const QString& f : files)
            urls << QUrl::fromLocalFile(f);
        QSignalSpy shown(&window, &MainWindow::profileShown);
        bool overlayShown = false;
        QString overlayText;
        dragAndDrop(window, urlsData(urls), &overlayShown, &overlayText);
        QVERIFY(overlayShown);
        QCOMPARE(overlayText, overlay);
        QVERIFY(!window.findChild<QLabel*>(QStringLiteral("dropOverlay"))->isVisible());
        QVERIFY(shown.wait(20000));
        QCOMPARE(window.currentPath(), opened);
        QCOMPARE(window.document()->profile()->intervalCount(), std::size_t(3));
        QVERIFY2(window.statusText().contains(status), qPrintable(window.statusText()));
        QFETCH(QStringList, notices);
        QCOMPARE(window.notices()->notices(), notices);
        QCOMPARE(window.notices()->isVisible(), !notices.isEmpty());
    }

    // Issue 13, item 9: a cut file says so where it cannot be missed; the
    // Warnings button shows its tab in front; the next file opens on the rank.
    void aTruncatedFileSaysSoAndWarningsShowInFront()
    {
        QFile demo(MainWindow::demoPath());
        QVERIFY(demo.open(QIODevice::ReadOnly));
        const QByteArray text = demo.readAll();
        const QString cut = m_files.filePath(QStringLiteral("cut.json"));
        QFile out(cut);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text.left(text.size() / 2));
        out.close();
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openFile(cut);
        QVERIFY(waitShown(window));
        const QStringList notices = window.notices()->notices();
        QCOMPARE(notices.size(), 2);
        QVERIFY2(notices.at(0).startsWith(QStringLiteral("<b>cut.json is cut short</b>: the file ends inside the event array after event #")),
                 qPrintable(notices.at(0)));
        QVERIFY2(notices.at(1).startsWith(QStringLiteral("1 warning while reading cut.json")), qPrintable(notices.at(1)));
        // The tab in front (with the warnings hidden, the rank has no tab).
        auto currentTab = [&window] {
            for (QTabBar* bar : window.findChildren<QTabBar*>()) {
                if (bar->isVisible() && bar->count() == 2)
                    return bar->tabText(bar->currentIndex());
            }
            return window.findChild<QDockWidget*>(QStringLiteral("rank"))->isVisible() ? QStringLiteral("Rank") : QString();
        };
        QCOMPARE(currentTab(), QStringLiteral("Rank"));
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("warnings"));
        QVERIFY(!dock->isVisible());
        // The link in the notice, as the Warnings button does.
        Q_EMIT window.notices()->linkActivated(QStringLiteral("warnings"));
        QVERIFY(dock->isVisible());
        QCOMPARE(currentTab(), QStringLiteral("Warnings"));
        window.openFile(dataPath(QStringLiteral("profiles/fgh-chrome.json")));
        QVERIFY(waitShown(window));
        QCOMPARE(currentTab(), QStringLiteral("Rank"));
        QCOMPARE(window.notices()->notices(), QStringList());
        QVERIFY(!window.notices()->isVisible());
    }

    void refusesWhatIsNotALocalFile_data()
    {
        QTest::addColumn<QString>("url");
        QTest::newRow("http") << "https://example.org/trace.json";
        QTest::newRow("text only") << "";
    }
    void refusesWhatIsNotALocalFile()
    {
        QFETCH(QString, url);
        MainWindow window;
        window.show();
        window.openFile(dataPath(QStringLiteral("profiles/fgh-enso.json")));
        QVERIFY(waitShown(window));
        const Profile* before = window.document()->profile();
        QMimeData* data = new QMimeData;
        if (url.isEmpty())
            data->setText(QStringLiteral("some text"));
        else
            data->setUrls({QUrl(url)});
        bool overlayShown = false;
        QString overlayText;
        dragAndDrop(window, data, &overlayShown, &overlayText);
        QVERIFY(overlayShown);
        QCOMPARE(overlayText, QStringLiteral("Only profile files on this computer can be opened"));
        QVERIFY(!window.loader()->isLoading());
        QVERIFY(window.lastError().startsWith(QStringLiteral("Only files on this computer can be opened")));
        QVERIFY(window.statusText().startsWith(QStringLiteral("Only files on this computer")));
        if (!url.isEmpty())
            QVERIFY(window.lastError().contains(url));
        QCOMPARE(window.document()->profile(), before);
    }

    void failedLoadKeepsTheOldProfile()
    {
        MainWindow window;
        window.show();
        const QString good = dataPath(QStringLiteral("profiles/fgh-chrome.json"));
        window.openFile(good);
        QVERIFY(waitShown(window));
        window.axis()->setVisibleRange(10'000, 100'000);
        const Profile* before = window.document()->profile();

        QSignalSpy failed(&window, &MainWindow::loadFailed);
        const QString bad = m_files.filePath(QStringLiteral("broken.json"));
        window.openFile(bad);
        QVERIFY(failed.wait(20000));
        // The loader's message: the file, where, and what was expected.
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains(QStringLiteral("broken.json")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("byte 29")), qPrintable(message));
        QCOMPARE(window.lastError(), message);
        auto boxes = window.findChildren<QMessageBox*>();
        QCOMPARE(boxes.size(), 1);
        QCOMPARE(boxes.first()->text(), message);
        QCOMPARE(boxes.first()->informativeText(), QStringLiteral("fgh-chrome.json is still open."));
        closeMessageBoxes(window);
        // Nothing changed: profile, path, zoom, recent files.
        QCOMPARE(window.document()->profile(), before);
        QCOMPARE(window.currentPath(), good);
        QCOMPARE(window.axis()->visibleStart(), 10'000);
        QCOMPARE(window.axis()->visibleEnd(), 100'000);
        QCOMPARE(window.recentFiles(), QStringList{QFileInfo(good).absoluteFilePath()});
    }

    void cancelledLoadKeepsTheOldProfile()
    {
        MainWindow window;
        window.show();
        window.openFile(dataPath(QStringLiteral("profiles/fgh-enso.json")));
        QVERIFY(waitShown(window));
        const Profile* before = window.document()->profile();
        // View state that must survive: zoom and the selected box.
        window.axis()->setVisibleRange(20'000, 70'000);
        window.axis()->selectItem(IntervalId(1), window.document()->profile()->interval(1).measurement);
        const MeasurementId selected = window.axis()->selectedMeasurement();
        QSignalSpy failed(&window, &MainWindow::loadFailed);
        QSignalSpy shown(&window, &MainWindow::profileShown);
        window.openFile(QStringLiteral(RUNLANE_DEMO_PROFILE));
        window.loader()->cancel();
        QVERIFY(failed.wait(20000));
        QCOMPARE(shown.count(), 0);
        QVERIFY(window.findChildren<QMessageBox*>().isEmpty()); // a cancel is not an error
        QCOMPARE(window.document()->profile(), before);
        QCOMPARE(window.axis()->visibleStart(), 20'000);
        QCOMPARE(window.axis()->visibleEnd(), 70'000);
        QCOMPARE(window.axis()->selectedInterval(), IntervalId(1));
        QCOMPARE(window.axis()->selectedMeasurement(), selected);
        QCOMPARE(window.statusText(), QStringLiteral("Loading chronos-demo.json cancelled; fgh-enso.json is still open"));
    }

    void recentFilesAreKeptNewestFirst()
    {
        QStringList opened;
        {
            MainWindow window;
            for (const char* name : {"profiles/fgh-chrome.json", "profiles/fgh-enso.json", "profiles/fgh-chrome.json"}) {
                window.openFile(dataPath(QString::fromLatin1(name)));
                QVERIFY(waitShown(window));
            }
        }
        MainWindow again;
        QCOMPARE(again.recentFiles(), (QStringList{QFileInfo(dataPath(QStringLiteral("profiles/fgh-chrome.json"))).absoluteFilePath(),
                                                   QFileInfo(dataPath(QStringLiteral("profiles/fgh-enso.json"))).absoluteFilePath()}));
        // At most ten.
        QStringList many;
        for (int i = 0; i < 14; ++i)
            many << QStringLiteral("/tmp/profile-%1.json").arg(i);
        QSettings().setValue(QStringLiteral("recentFiles"), many);
        MainWindow window;
        window.openFile(dataPath(QStringLiteral("profiles/fgh-enso.json")));
        QVERIFY(waitShown(window));
        QCOMPARE(window.recentFiles().size(), 10);
        QCOMPARE(window.recentFiles().first(), QFileInfo(dataPath(QStringLiteral("profiles/fgh-enso.json"))).absoluteFilePath());
        QCOMPARE(window.recentFiles().last(), QStringLiteral("/tmp/profile-8.json"));
    }

    // Issue 13, item 1: the first start and a restored geometry from a
    // bigger screen or scale fit a 1280 × 720 screen, with every panel
    // usable. Run in a child on such a screen (the platform's screen is
    // set when the process starts).
    void fitsA1280x720Screen_data()
    {
        QTest::addColumn<QByteArray>("scale");
        QTest::addColumn<QSize>("saved");
        QTest::addColumn<QString>("screen");
        QTest::newRow("first start, 1280 x 720") << QByteArray("1") << QSize() << "1280x720";
        // A 1080p screen at 150 %: 1280 x 720 logical pixels.
        QTest::newRow("2880 px restored at 150 %") << QByteArray("1.5") << QSize(2880, 1600) << "1920x1080";
    }
    void fitsA1280x720Screen()
    {
        QFETCH(QByteArray, scale);
        QFETCH(QSize, saved);
        QFETCH(QString, screen);
        if (qEnvironmentVariableIsSet("RUNLANE_FIT_CHILD")) {
            MainWindow window;
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.openDemo();
            QVERIFY(waitShown(window));
            const QRect available = window.screen()->availableGeometry();
            QVERIFY2(available.contains(window.geometry()),
                     qPrintable(QStringLiteral("%1,%2 %3x%4 on %5x%6").arg(window.x()).arg(window.y()).arg(window.width())
                                    .arg(window.height()).arg(available.width()).arg(available.height())));
            // The icicle shows a track header and at least four rows.
            QVERIFY2(window.icicle()->height() >= IcicleView::kHeaderHeight + 4 * window.icicle()->fontMetrics().height(),
                     qPrintable(QString::number(window.icicle()->height())));
            QVERIFY(window.rank()->view()->height() >= 3 * window.rank()->view()->verticalHeader()->defaultSectionSize());
            return;
        }
        QTemporaryDir settings;
        if (saved.isValid()) {
            MainWindow big;
            big.setGeometry(QRect(QPoint(40, 40), saved));
            QSettings(settings.filePath(QStringLiteral("RunlaneTest/tst_mainwindow.ini")), QSettings::IniFormat)
                .setValue(QStringLiteral("geometry"), big.saveGeometry());
        }
        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("RUNLANE_FIT_CHILD"), QStringLiteral("1"));
        env.insert(QStringLiteral("RUNLANE_TEST_SETTINGS"), settings.path());
        env.insert(QStringLiteral("QT_SCALE_FACTOR"), QString::fromLatin1(scale));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"),
                   QStringLiteral("offscreen:configfile=" RUNLANE_TEST_DATA "/screens/%1.json").arg(screen));
        child.setProcessEnvironment(env);
        child.setProcessChannelMode(QProcess::ForwardedChannels);
        child.start(QCoreApplication::applicationFilePath(),
                    {QStringLiteral("fitsA1280x720Screen:%1").arg(QString::fromLatin1(QTest::currentDataTag()))});
        QVERIFY(child.waitForFinished(120000));
        QCOMPARE(child.exitCode(), 0);
    }

    void geometryAndSplitterPersist()
    {
        // The window fits the screen it opens on (fitToScreen), so the saved 1100 × 760 comes back whole only on a
        // screen with room for it: ctest gives this test 1920 × 1080; Qt's bare offscreen screen (800 × 800) has none.
        const QSize room = QGuiApplication::primaryScreen()->availableGeometry().size() - QSize(16, 48);
        QVERIFY2(room.width() >= 1100 && room.height() >= 760,
                 "the screen is too small for a 1100 x 760 window: run through ctest, or with "
                 "QT_QPA_PLATFORM=offscreen:configfile=tests/data/screens/1920x1080.json");
        QList<int> sizes;
        {
            MainWindow window;
            window.resize(1100, 760);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            auto* splitter = window.findChild<QSplitter*>();
            const int total = splitter->sizes().value(0) + splitter->sizes().value(1);
            // As a drag of the handle would.
            QMetaObject::invokeMethod(splitter, "splitterMoved", Q_ARG(int, 200), Q_ARG(int, 1));
            splitter->setSizes({200, total - 200});
            sizes = splitter->sizes();
            window.close();
        }
        MainWindow window;
        QCOMPARE(window.size(), QSize(1100, 760));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.findChild<QSplitter*>()->sizes(), sizes);
    }

    void reloadReadsTheFileAgain()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("live.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(JSON([{"ph" : "X", "pid" : 1, "tid" : 1, "name" : "a", "ts" : 0, "dur" : 10}]));
        file.close();
        MainWindow window;
        window.openFile(path);
        QVERIFY(waitShown(window));
        QCOMPARE(window.document()->profile()->intervalCount(), std::size_t(1));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(JSON([{"ph" : "X", "pid" : 1, "tid" : 1, "name" : "a", "ts" : 0, "dur" : 10},
                         {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "b", "ts" : 2, "dur" : 5}]));
        file.close();
        window.action(QStringLiteral("reload"))->trigger();
        QVERIFY(waitShown(window));
        QCOMPARE(window.document()->profile()->intervalCount(), std::size_t(2));
    }

    void exportsEachViewAsPng_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<bool>("twice");
        QTest::newRow("icicle") << "exportIcicle" << false;
        QTest::newRow("lanes") << "exportLanes" << false;
        QTest::newRow("usage") << "exportUsage" << false;
        QTest::newRow("window") << "exportWindow" << false;
        QTest::newRow("window 2x") << "exportWindow" << true;
    }
    void exportsEachViewAsPng()
    {
        QFETCH(QString, action);
        QFETCH(bool, twice);
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        window.openDemo();
        QVERIFY(waitShown(window));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("out.png"));
        QString suggested;
        window.setSaveFileChooser([&](const QString& suggestion) {
            suggested = suggestion;
            return path;
        });
        window.action(QStringLiteral("exportScale"))->setChecked(twice);
        window.action(action)->trigger();
        const QImage image(path);
        QVERIFY(!image.isNull());
        const QWidget* shown = action == QStringLiteral("exportIcicle") ? static_cast<QWidget*>(window.icicle())
            : action == QStringLiteral("exportLanes")                    ? static_cast<QWidget*>(window.lanes())
            : action == QStringLiteral("exportUsage")                    ? static_cast<QWidget*>(window.usage()->view())
                                                                         : static_cast<QWidget*>(&window);
        const qreal scale = window.devicePixelRatioF() * (twice ? 2 : 1);
        // Issue 13, item 4: a chart comes with its ruler on top, exactly the
        // window's, and the usage chart with every legend entry below it;
        // issue 39, item 14: the usage chart's plot only, not the controls
        // above it (track, bins, top k).
        const bool chart = shown != &window;
        const int ruler = chart ? window.ruler()->height() : 0;
        const int legend = action == QStringLiteral("exportUsage") ? ImageExporter::usageLegendHeight(*window.usage(), shown->width()) : 0;
        QCOMPARE(image.size(), (shown->size() + QSize(0, ruler + legend)) * scale);
        if (chart && !twice) {
            const QImage onScreen = window.ruler()->grab(QRect(0, 0, shown->width(), ruler)).toImage().convertToFormat(image.format());
            QCOMPARE(image.copy(0, 0, shown->width(), ruler), onScreen);
        }
        // The export waits for the chart's bins: right after the load it
        // had none (and no legend, so that what follows was never run).
        QCOMPARE(legend > 0, action == QStringLiteral("exportUsage"));
        if (legend > 0) {
            // Top 8 and "other": nine entries, of which the chart's gutter
            // shows fewer; each has its swatch in the image.
            const auto entries = window.usage()->legend();
            QCOMPARE(entries.size(), std::size_t(9));
            QVERIFY(window.usage()->view()->legendRows() < 9);
            const QImage block = image.copy(0, ruler + shown->height(), image.width(), legend);
            for (const auto& entry : entries) {
                int found = 0;
                for (int y = 0; y < block.height(); ++y) {
                    for (int x = 0; x < block.width(); ++x)
                        found += block.pixel(x, y) == entry.color.rgb();
                }
                QVERIFY2(found >= 100, qPrintable(entry.name)); // a 10 × 10 swatch at least
            }
            // Below the ruler the plot, pixel for pixel the window's right
            // of the gutter's list ("1–5 of 9 ▾" there); in that column
            // no entry's swatch (the full list is below), but what the
            // controls said: the chart, its track, its bins.
            UsageChartView* view = window.usage()->view();
            const int column = view->legendRect(view->legendFirst()).right() + 1;
            if (!twice) {
                const QImage plot = view->grab().toImage().convertToFormat(image.format());
                QCOMPARE(image.copy(column, ruler, image.width() - column, shown->height()),
                         plot.copy(column, 0, plot.width() - column, plot.height()));
            }
            const QImage gutter = image.copy(0, int(ruler * scale), int(column * scale), int(shown->height() * scale));
            std::set<QRgb> swatches;
            for (const auto& entry : entries) {
                if (entry.label != kNone) // "other" is a grey, as text edges can be
                    swatches.insert(entry.color.rgb());
            }
            QCOMPARE(swatches.size(), std::size_t(8));
            int swatchPixels = 0;
            int gutterPixels = 0;
            for (int y = 0; y < gutter.height(); ++y) {
                for (int x = 0; x < gutter.width(); ++x) {
                    swatchPixels += int(swatches.count(gutter.pixel(x, y)));
                    gutterPixels += QColor(gutter.pixel(x, y)) == ColorScheme::gutter();
                }
            }
            QCOMPARE(swatchPixels, 0);
            QVERIFY2(gutterPixels < gutter.width() * gutter.height(), "the caption is drawn");
            QCOMPARE(window.usage()->trackName(), QStringLiteral("codex-node main loop"));
            QCOMPARE(window.usage()->binsNote(), QStringLiteral("bins of 200 ms"));
        }
        QVERIFY(suggested.startsWith(QStringLiteral("demo profile-")) || suggested.startsWith(QStringLiteral("chronos-demo-")));
        QVERIFY2(window.statusText().startsWith(QStringLiteral("Saved out.png")), qPrintable(window.statusText()));
    }

    void exportsTheRankAsCsv()
    {
        MainWindow window;
        window.show();
        window.openFile(dataPath(QStringLiteral("profiles/fgh-chrome.json")));
        QVERIFY(waitShown(window));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("rank.csv"));
        window.setSaveFileChooser([&](const QString& suggestion) {
            return suggestion == QStringLiteral("fgh-chrome-rank.csv") ? path : QString();
        });
        window.action(QStringLiteral("exportRank"))->trigger();
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4); // header, f, g, h
        QVERIFY(lines[0].startsWith(QStringLiteral("name,file,line,calls")));
        // By exec, largest first: f 70 µs, g 60 µs, h 30 µs.
        QVERIFY(lines[1].startsWith(QStringLiteral("f,")));
        QVERIFY(lines[1].contains(QStringLiteral(",70000,160000,")));
        QVERIFY(lines[3].startsWith(QStringLiteral("h,")));
        QCOMPARE(window.statusText(), QStringLiteral("Saved rank.csv (3 rows)"));
    }

    // Ctrl+F, type, Enter: matches highlighted, the first occurrence zoomed to.
    void findsLabels()
    {
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openFile(dataPath(QStringLiteral("profiles/fgh-chrome.json")));
        QVERIFY(waitShown(window));
        window.action(QStringLiteral("find"))->trigger();
        FindBar* bar = window.findBar();
        QVERIFY(bar->isVisible());
        QVERIFY(bar->field()->hasFocus());
        QTest::keyClicks(bar->field(), QStringLiteral("/^[gh]$/"));
        QTest::keyClick(bar->field(), Qt::Key_Return);
        QCOMPARE(window.document()->searchMatches().size(), std::size_t(2));
        QCOMPARE(bar->matchSummary(), QStringLiteral("1 of 2 · 2 labels"));
        // g [10, 100) µs is the first: selected, zoomed to with context.
        const Profile& p = *window.document()->profile();
        QCOMPARE(p.interval(window.axis()->selectedInterval()).start, 10'000);
        // 90 µs with a quarter on either side, [-12.5, 122.5) µs, moved
        // inside the profile.
        QCOMPARE(window.axis()->visibleStart(), 0);
        QCOMPARE(window.axis()->visibleEnd(), 135'000);
        // F3 goes on to h.
        window.action(QStringLiteral("findNext"))->trigger();
        QCOMPARE(p.interval(window.axis()->selectedInterval()).start, 30'000);
        QCOMPARE(bar->matchSummary(), QStringLiteral("2 of 2 · 2 labels"));
        // Escape closes the bar and ends the search.
        QTest::keyClick(bar->field(), Qt::Key_Escape);
        QVERIFY(!bar->isVisible());
        QVERIFY(!window.document()->isEmphasisActive());
    }

    // Issue 13, items 2 and 3: Enter in the find bar goes to the searched
    // label even while a rank row is focused, says "k of N", and after
    // Escape the views' single keys work without a click.
    void findStepsThroughTheSearchNotTheFocusAndGivesTheKeyboardBack()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openDemo();
        QVERIFY(waitShown(window));
        settle(window);
        const Profile& p = *window.document()->profile();
        // Focus handleBlock through its rank row, as a click does.
        const int row = window.rank()->model()->rowOf(labelNamed(p, "handleBlock"));
        QVERIFY(row >= 0);
        window.rank()->view()->setCurrentIndex(window.rank()->proxy()->mapFromSource(window.rank()->model()->index(row, 0)));
        QCOMPARE(window.document()->focusLabel(), labelNamed(p, "handleBlock"));
        window.icicle()->setFocus();
        window.action(QStringLiteral("find"))->trigger();
        FindBar* bar = window.findBar();
        QTest::keyClicks(bar->field(), QStringLiteral("taskHandler"));
        QTest::keyClick(bar->field(), Qt::Key_Return);
        const IntervalId first = window.axis()->selectedInterval();
        QVERIFY(first != kNone);
        QCOMPARE(qstr(p.labelName(p.measurement(p.interval(first).measurement).label)), QStringLiteral("taskHandler"));
        const std::size_t all = window.document()->loaded().labels->intervalsOf(labelNamed(p, "taskHandler")).size();
        QCOMPARE(bar->matchSummary(), QStringLiteral("1 of %1 · 1 label").arg(all));
        QTest::keyClick(bar->field(), Qt::Key_Return);
        QCOMPARE(bar->matchSummary(), QStringLiteral("2 of %1 · 1 label").arg(all));
        // F3 while the bar is open: the search too.
        window.action(QStringLiteral("findNext"))->trigger();
        QCOMPARE(bar->matchSummary(), QStringLiteral("3 of %1 · 1 label").arg(all));
        QTest::keyClick(bar->field(), Qt::Key_Escape);
        QVERIFY(!bar->isVisible());
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(window.icicle()));
        // W zooms in at once, no click needed.
        const Time before = window.axis()->visibleSpan();
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_W);
        QVERIFY(window.axis()->visibleSpan() < before);
    }

    // Issue 41: a task selected on its lane, P shows its critical path
    // (semantics.md §9's example: handler's, 9 segments); Esc clears the
    // path first and then does what it did (the icicle: the selection). P
    // with nothing selected says so in the status bar; a box selected on
    // the icicle gives its measurement's path.
    void pShowsTheCriticalPathAndEscClearsIt()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openFile(dataPath(QStringLiteral("profiles/chronos-critical-path.json")));
        QVERIFY(waitShown(window));
        settle(window);
        const Profile& p = *window.document()->profile();
        const CriticalPathState& path = *window.document()->criticalPath();
        QVERIFY(window.action(QStringLiteral("criticalPath")));
        QVERIFY(!window.action(QStringLiteral("clearCriticalPath"))->isEnabled());
        window.lanes()->setFocus();
        QTest::keyClick(window.lanes(), Qt::Key_P);
        QVERIFY(!path.isActive());
        QCOMPARE(window.statusBar()->currentMessage(),
                 QStringLiteral("Select a task (a lane) or a box first: the critical path shown is the selected one's"));

        const MeasurementId handler = byName(p, "handler");
        const QRect row = window.lanes()->rowRect(handler);
        QVERIFY(!row.isEmpty());
        QTest::mouseClick(window.lanes(), Qt::LeftButton, {}, QPoint(TimeAxis::kGutter + 40, row.center().y()));
        QCOMPARE(window.axis()->selectedMeasurement(), handler);
        QTest::keyClick(window.lanes(), Qt::Key_P);
        QCOMPARE(path.measurement(), handler);
        QCOMPARE(path.segments().size(), std::size_t(9));
        QCOMPARE(window.statusBar()->currentMessage(), QStringLiteral("Critical path of handler: 9 segments; Esc clears it"));
        QVERIFY(window.action(QStringLiteral("clearCriticalPath"))->isEnabled());
        QTest::keyClick(window.lanes(), Qt::Key_Escape);
        QVERIFY(!path.isActive());
        QCOMPARE(path.segments().size(), std::size_t(0));
        QCOMPARE(window.statusBar()->currentMessage(), QString());
        QCOMPARE(window.axis()->selectedMeasurement(), handler); // the path went first

        // A box: query's second run (40-46) on the icicle.
        const MeasurementId query = byName(p, "query");
        const IntervalId box = p.intervalsOf(query).back();
        window.icicle()->selectSpan(box);
        window.icicle()->setFocus();
        QTest::keyClick(window.icicle(), Qt::Key_P);
        QCOMPARE(path.measurement(), query);
        QCOMPARE(path.segments().size(), std::size_t(5)); // running 5-8, waiting 8-11, idle 11-12, queued 12-40, running 40-46
        QTest::keyClick(window.icicle(), Qt::Key_Escape);
        QVERIFY(!path.isActive());
        QCOMPARE(window.icicle()->selectedSpan(), box);
        QTest::keyClick(window.icicle(), Qt::Key_Escape); // with no path, Esc clears the selection as before
        QCOMPARE(window.icicle()->selectedSpan(), kNone);
    }

    void foldedStacksOpenAggregatedWithShrunkLanes()
    {
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openFile(dataPath(QStringLiteral("samples/folded/simple.txt")));
        QVERIFY(waitShown(window));
        window.document()->finishPendingWork();
        QVERIFY(window.document()->isAggregated());
        QVERIFY(window.action(QStringLiteral("aggregated"))->isChecked());
        // Issue 13, item 10: the lanes and the usage chart have nothing to
        // show in the aggregated view; the flame graph gets their room.
        auto* splitter = window.findChild<QSplitter*>();
        QTRY_VERIFY(window.lanes()->isHidden() && window.usage()->QWidget::isHidden());
        QCOMPARE(splitter->sizes().value(1), 0);
        QCOMPARE(splitter->sizes().value(2), 0);
        QTRY_COMPARE(splitter->sizes().value(0), splitter->height());
        window.action(QStringLiteral("aggregated"))->trigger();
        QVERIFY(!window.document()->isAggregated());
        QTRY_VERIFY(window.lanes()->isVisible() && window.usage()->isVisible());
        QTRY_COMPARE(splitter->sizes().value(1), 90); // no tasks: the lanes keep only their note
        QVERIFY(splitter->sizes().value(2) >= window.usage()->minimumHeight());
    }

    // Counters sit under the icicle, above the lanes, on the same time area;
    // a profile without any gives the icicle its whole panel, as before.
    void countersShowUnderTheIcicleOnlyWhenThereAreAny()
    {
        MainWindow window;
        window.resize(1400, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* timeline = window.findChild<QSplitter*>(QStringLiteral("timelineSplitter"));
        QVERIFY(timeline);
        window.openFile(dataPath(QStringLiteral("profiles/fgh-chrome.json")));
        QVERIFY(waitShown(window));
        CounterView* counters = window.counters();
        QVERIFY(counters->isHidden());
        QCOMPARE(window.icicle()->height(), timeline->height());
        const int before = window.findChild<QSplitter*>()->sizes().value(0);

        window.openFile(dataPath(QStringLiteral("profiles/chrome-counters.json")));
        QVERIFY(waitShown(window));
        QVERIFY(counters->isVisible());
        QCOMPARE(counters->trackCount(), std::size_t(3));
        // All three tracks, the icicle's rows above them.
        QCOMPARE(counters->height(), counters->contentHeight());
        const int icicleBottom = window.icicle()->mapTo(&window, QPoint(0, window.icicle()->height())).y();
        const int countersTop = counters->mapTo(&window, QPoint(0, 0)).y();
        const int lanesTop = window.lanes()->mapTo(&window, QPoint(0, 0)).y();
        QVERIFY(icicleBottom <= countersTop);
        QVERIFY(countersTop + counters->height() <= lanesTop);
        QVERIFY(window.icicle()->height() >= window.icicle()->contentHeight());
        QCOMPARE(counters->mapTo(&window, QPoint(0, 0)).x(), window.icicle()->mapTo(&window, QPoint(0, 0)).x());
        QCOMPARE(counters->width(), window.icicle()->width());
        // File ▸ Export ▸ Counters: the tracks under the ruler.
        QVERIFY(window.action(QStringLiteral("exportCounters"))->isEnabled());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("counters.png"));
        window.setSaveFileChooser([&](const QString&) { return path; });
        window.action(QStringLiteral("exportCounters"))->trigger();
        const QImage image(path);
        QCOMPARE(image.size(), (counters->size() + QSize(0, window.ruler()->height())) * window.devicePixelRatioF());
        // Collapsing every track hands the room back to the icicle.
        for (std::size_t t = 0; t < counters->trackCount(); ++t)
            counters->setTrackCollapsed(t, true);
        QCOMPARE(counters->height(), 3 * CounterView::kHeaderHeight);

        window.openFile(dataPath(QStringLiteral("profiles/fgh-chrome.json")));
        QVERIFY(waitShown(window));
        QVERIFY(counters->isHidden());
        QVERIFY(!window.action(QStringLiteral("exportCounters"))->isEnabled());
        QCOMPARE(counters->trackCount(), std::size_t(0));
        QCOMPARE(window.icicle()->height(), timeline->height());
        QCOMPARE(window.findChild<QSplitter*>()->sizes().value(0), before);
    }

    // Help ▸ About names the formats the registry holds (it named 7 of
    // the 12 in a sentence of its own).
    void aboutListsEveryFormat()
    {
        MainWindow window;
        window.show();
        QAction* about = window.action(QStringLiteral("about"));
        QVERIFY(about);
        QString text;
        bool closed = false;
        // The box is modal: read and closed from the event loop it runs.
        auto done = std::make_shared<bool>(false);
        std::function<void()> readBox = [&, done] {
            if (*done)
                return;
            for (QWidget* w : QApplication::topLevelWidgets()) {
                auto* box = qobject_cast<QMessageBox*>(w);
                if (box && box->isVisible()) {
                    text = box->text();
                    closed = true;
                    box->accept();
                    return;
                }
            }
            QTimer::singleShot(20, readBox);
        };
        QTimer::singleShot(20, readBox);
        about->trigger();
        *done = true; // no poll outlives this test's locals
        QVERIFY(closed);
        const QString formats = QStringLiteral(
            "<li>Chrome Trace Event Format</li><li>Enso profiler event log</li><li>Enso Language Server message log</li>"
            "<li>Chronos future event log</li>"
            "<li>Chroprof metrics</li><li>speedscope</li><li>V8 CPU profile</li><li>Firefox Profiler</li><li>pprof</li>"
            "<li>Perfetto trace</li><li>folded stacks</li><li>perf script</li><li>tokio-console recording</li>"
            "<li>Prometheus query_range (Chroprof)</li>");
        QCOMPARE(text, QStringLiteral("<h3>Runlane %1</h3><p>Which async work occupied the event loop, when, and because of "
                                      "whom.</p><p>Reads these 14 formats (recognised by their content, also "
                                      "gzip-compressed):</p><ul>%2</ul><p>and follows a running program's Chroprof "
                                      "metrics live (File ▸ Attach to Live Metrics…).</p>")
                           .arg(QApplication::applicationVersion(), formats));
    }

private:
    QTemporaryDir m_settings;
    QTemporaryDir m_files;
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
