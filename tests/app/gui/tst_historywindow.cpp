#include "historycontroller.h"
#include "historytrendchart.h"
#include "historytestsupport.h"
#include "historywindow.h"
#include "comparesession.h"
#include "mainwindow.h"
#include "profiledocument.h"
#include "testsupport.h"

#include <QAction>
#include <QCategoryAxis>
#include <QChart>
#include <QComboBox>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QMenu>
#include <QPointer>
#include <QPushButton>
#include <QScreen>
#include <QScatterSeries>
#include <QTableWidget>
#include <QtTest>

using namespace runlane;

namespace {

void record(HistoryStore& store, const std::string& workload, const std::string& path,
            const std::vector<std::pair<std::string, double>>& execs)
{
    HistoryRun run;
    run.workload = workload;
    run.sourcePath = path;
    QVERIFY2(store.record(run, test::rowsOf(execs, 1)), store.error().c_str());
}

HistoryWindow::Hooks hooks(HistoryWindow::Open open = [](const QString&) {},
                           std::function<QString()> focused = {})
{
    HistoryWindow::Hooks h;
    h.open = std::move(open);
    h.compare = [](const QString&, const QString&) {};
    h.focusedLabel = std::move(focused);
    return h;
}

QStringList shownLabels(const QListWidget* list)
{
    QStringList names;
    for (int row = 0; row < list->count(); ++row) {
        if (!list->item(row)->isHidden())
            names << list->item(row)->text();
    }
    return names;
}

// The main window's run `row` (a click, then the double-click an item
// view takes after it).
void doubleClickRun(HistoryWindow* history, int row)
{
    QTableWidget* runs = history->runs();
    const QPoint cell = runs->visualItemRect(runs->item(row, 0)).center();
    QTest::mouseClick(runs->viewport(), Qt::LeftButton, {}, cell);
    QTest::mouseDClick(runs->viewport(), Qt::LeftButton, {}, cell);
}

} // namespace

class TestHistoryWindow : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_data; // XDG_DATA_HOME: the default history's folder

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_data.isValid());
        qputenv("XDG_DATA_HOME", m_data.path().toLocal8Bit());
    }

    void window()
    {
        QTemporaryDir dir;
        const std::string location = dir.filePath(QStringLiteral("h.sqlite")).toStdString();
        const QString profile = test::writeTemp(dir, JSON([]), QStringLiteral("run.json"));
        {
            HistoryDatabase db;
            QVERIFY(db.open(location));
            HistoryStore store(db);
            record(store, "client", "", {{"a", 5}});
            record(store, "server", profile.toStdString(), {{"accept", 100}, {"parse", 50}});
            record(store, "server", "/gone/run2.json", {{"accept", 101}, {"parse", 50}});
            record(store, "server", "", {{"accept", 130}, {"parse", 50}});
        }
        QStringList opened;
        HistoryWindow window(location, hooks([&opened](const QString& path) { opened << path; }));
        QVERIFY(window.isOpen());
        QCOMPARE(window.workloads()->count(), 2);
        window.workloads()->setCurrentText(QStringLiteral("server"));
        QCOMPARE(window.labels()->count(), 2);
        QCOMPARE(window.labels()->currentItem()->text(), QStringLiteral("accept"));
        QCOMPARE(window.chart()->values()->count(), 3);
        QCOMPARE(window.chart()->lines().size(), std::size_t(1));
        QCOMPARE(window.runs()->rowCount(), 3);
        QCOMPARE(window.runs()->item(0, 0)->text(), QStringLiteral("2"));
        // Run 4 (130 after 100 and 101): one change of 1 % before it, so
        // Q1 = Q3 = 1 % and the threshold is 1 %; +29 % from their median.
        QCOMPARE(window.runs()->item(2, 5)->text(), QStringLiteral("regressed (±1.00 %)"));
        QCOMPARE(window.chart()->regressions()->count(), 2); // runs 2 (+1 % > 0.2 %) and 3
        // Double-click: the profile while it is there.
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        doubleClickRun(&window, 0);
        QCOMPARE(opened, QStringList{profile});
        // CSV: the series as `history show --format csv` writes it.
        const QString csv = dir.filePath(QStringLiteral("series.csv"));
        QVERIFY(window.saveCsv(csv));
        const QStringList lines = QString::fromUtf8(test::readAll(csv)).trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 4);
        QVERIFY(lines[3].startsWith(QLatin1String("4,4,")));
        QVERIFY(lines[3].contains(QLatin1String(",accept,app.rs,1,exec,130.0,ns")));

        // Both labels chosen: parse as a second line, accept keeps the band,
        // the marks and the table.
        window.labels()->item(1)->setSelected(true);
        QCOMPARE(window.chart()->lines().size(), std::size_t(2));
        QCOMPARE(window.chart()->lines()[1]->name(), QStringLiteral("parse (app.rs:2)"));
        QCOMPARE(window.chart()->lines()[1]->count(), 3);
        QCOMPARE(window.chart()->lines()[1]->at(2), QPointF(3, 50));
        QCOMPARE(window.chart()->chart()->title(), QStringLiteral("accept (app.rs:1), parse (app.rs:2) — exec"));
        QCOMPARE(window.chart()->regressions()->count(), 2);
        QCOMPARE(window.runs()->rowCount(), 3);
        window.labels()->item(1)->setSelected(false);
        QCOMPARE(window.chart()->lines().size(), std::size_t(1));

        HistoryWindow broken("/nonexistent/dir/h.sqlite", hooks());
        QVERIFY(!broken.isOpen());
    }

    // The labels heaviest first (exec in the latest run; "old" is not in
    // it), starting at the label focused in the viewer or else at the top
    // one, and a filter by text or /regex/.
    void labelList_data()
    {
        QTest::addColumn<QString>("focused");
        QTest::addColumn<QString>("current");
        QTest::newRow("no focus") << QString() << QStringLiteral("read");
        QTest::newRow("focused") << QStringLiteral("parse") << QStringLiteral("parse");
        QTest::newRow("focused, not in the workload") << QStringLiteral("main") << QStringLiteral("read");
    }
    void labelList()
    {
        QFETCH(QString, focused);
        QFETCH(QString, current);
        QTemporaryDir dir;
        const std::string location = dir.filePath(QStringLiteral("h.sqlite")).toStdString();
        {
            HistoryDatabase db;
            QVERIFY(db.open(location));
            HistoryStore store(db);
            record(store, "w", "", {{"parse", 10}, {"old", 900}}); // parse at line 1 in both
            record(store, "w", "", {{"parse", 50}, {"accept", 130}, {"poll", 7}, {"read", 300}, {"write", 20}});
        }
        HistoryWindow window(location, hooks([](const QString&) {}, [focused] { return focused; }));
        QCOMPARE(shownLabels(window.labels()),
                 (QStringList{"read", "accept", "parse", "write", "poll", "old"}));
        QCOMPARE(window.labels()->currentItem()->text(), current);
        QCOMPARE(window.chart()->values()->count(), current == QLatin1String("parse") ? 2 : 1);

        window.labelFilter()->setText(QStringLiteral("A"));
        QCOMPARE(shownLabels(window.labels()), (QStringList{"read", "accept", "parse"}));
        window.labelFilter()->setText(QStringLiteral("/^p|e$/"));
        QCOMPARE(shownLabels(window.labels()), (QStringList{"parse", "write", "poll"}));
        // The current label filtered out: the first one shown instead.
        QCOMPARE(window.labels()->currentItem()->text(), QStringLiteral("parse"));
        QCOMPARE(window.chart()->values()->count(), 2);
        // A regex being typed: the list as it was, the text in red.
        window.labelFilter()->setText(QStringLiteral("/(p/"));
        QCOMPARE(shownLabels(window.labels()), (QStringList{"parse", "write", "poll"}));
        QVERIFY(window.labelFilter()->styleSheet().contains(QLatin1String("color")));
        window.labelFilter()->setText(QStringLiteral("nothing"));
        QCOMPARE(shownLabels(window.labels()), QStringList());
        QCOMPARE(window.labels()->currentItem()->text(), QStringLiteral("parse"));
        window.labelFilter()->clear();
        QCOMPARE(window.labels()->count(), 6);
        QCOMPARE(shownLabels(window.labels()).size(), 6);
        QCOMPARE(window.labelFilter()->styleSheet(), QString());
    }

    // The y axis reads as the table does: seconds, not 2355328405 (ns).
    void yAxisInTime()
    {
        QTemporaryDir dir;
        const std::string location = dir.filePath(QStringLiteral("h.sqlite")).toStdString();
        {
            HistoryDatabase db;
            QVERIFY(db.open(location));
            HistoryStore store(db);
            for (double exec : {2355328405.0, 2331000000.0, 2412500000.0})
                record(store, "w", "", {{"step", exec}});
        }
        HistoryWindow window(location, hooks());
        QCOMPARE(window.runs()->item(0, 4)->text(), QStringLiteral("2.36 s"));
        QCOMPARE(window.runs()->item(1, 4)->text(), QStringLiteral("2.33 s"));
        const QList<QAbstractAxis*> axes = window.chart()->chart()->axes(Qt::Vertical);
        QCOMPARE(axes.size(), 1);
        auto* y = qobject_cast<QCategoryAxis*>(axes.front());
        QVERIFY(y);
        // 2.314 s to 2.417 s (the values and 5 % beside them): a tick every 20 ms.
        QCOMPARE(y->categoriesLabels(), (QStringList{"2.32 s", "2.34 s", "2.36 s", "2.38 s", "2.40 s"}));
        QCOMPARE(y->endValue(QStringLiteral("2.32 s")), 2320000000.0);
        QCOMPARE(y->endValue(QStringLiteral("2.40 s")), 2400000000.0);
        QCOMPARE(y->titleText(), QString());
    }

    // Within the screen's available area, room left for the frame (8 px
    // borders, a 32 px title bar), centred over the main window where that
    // fits: 1100 × 750 on 1920 × 1080 and on 1280 × 720, over a main window
    // in a corner, on a second screen to the right.
    void placement_data()
    {
        QTest::addColumn<QRect>("available");
        QTest::addColumn<QRect>("over");
        QTest::addColumn<QRect>("placed");
        QTest::newRow("1080, centred") << QRect(0, 0, 1920, 1080) << QRect(0, 0, 1920, 1080)
                                       << QRect(410, 165, 1100, 750);
        QTest::newRow("1080, over the bottom right") << QRect(0, 0, 1920, 1080) << QRect(1200, 700, 700, 350)
                                                     << QRect(812, 322, 1100, 750);
        QTest::newRow("720") << QRect(0, 0, 1280, 720) << QRect(0, 0, 1280, 720) << QRect(90, 32, 1100, 680);
        QTest::newRow("second screen") << QRect(1920, 0, 1280, 1024) << QRect(2020, 50, 800, 600)
                                       << QRect(1928, 32, 1100, 750);
        QTest::newRow("nothing to centre over") << QRect(0, 0, 1280, 720) << QRect() << QRect(90, 32, 1100, 680);
    }
    void placement()
    {
        QFETCH(QRect, available);
        QFETCH(QRect, over);
        QFETCH(QRect, placed);
        QCOMPARE(HistoryWindow::placement(QSize(1100, 750), available, over), placed);
    }

    // Esc closes the window, from the runs and from the label filter.
    void escapeCloses_data()
    {
        QTest::addColumn<bool>("fromFilter");
        QTest::newRow("runs") << false;
        QTest::newRow("filter") << true;
    }
    void escapeCloses()
    {
        QFETCH(bool, fromFilter);
        QTemporaryDir dir;
        QPointer<HistoryWindow> window = new HistoryWindow(dir.filePath(QStringLiteral("h.sqlite")).toStdString(), hooks());
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window));
        window->labelFilter()->setText(QStringLiteral("x"));
        QTest::keyClick(fromFilter ? static_cast<QWidget*>(window->labelFilter()) : window->runs(), Qt::Key_Escape);
        QTRY_VERIFY(window.isNull());
    }

    // From the viewer's File menu: the history's window over the main
    // window, on the screen; a run compared with the one before it opens the
    // run and compares (compare mode); while comparing, a double-click on a
    // run compares it with its own predecessor, never with the base another
    // run left (a later run); the first run opens alone.
    void fromTheMenu()
    {
        QTemporaryDir dir;
        QStringList paths;
        const QString location = dir.filePath(QStringLiteral("h.sqlite"));
        {
            HistoryDatabase db;
            QVERIFY(db.open(location.toStdString()));
            HistoryStore store(db);
            for (int r = 1; r <= 4; ++r) {
                paths << dir.filePath(QStringLiteral("run%1.json").arg(r));
                QVERIFY(QFile::copy(test::dataPath(QStringLiteral("profiles/fgh-chrome.json")), paths.back()));
                record(store, "w", paths.back().toStdString(), {{"f", 70000.0 + r}, {"g", 90000}, {"h", 5}});
            }
        }
        MainWindow window;
        window.setGeometry(900, 500, 900, 500);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QAction* action = window.findChild<QAction*>(QStringLiteral("openHistory"));
        QVERIFY(action);
        QCOMPARE(action->text(), QStringLiteral("Open &History…"));
        auto* controller = window.findChild<HistoryController*>();
        controller->setLocationChooser([&location] { return location; });
        controller->setCreateAsker([](const QString&) {
            qWarning("asked to make a history that is there");
            return false;
        });
        action->trigger();
        QPointer<HistoryWindow> history = window.findChild<HistoryWindow*>();
        QVERIFY(history);
        QVERIFY(history->isVisible());
        // Centred over the main window as far as the screen allows.
        QCOMPARE(history->geometry(), HistoryWindow::placement(QSize(1100, 750), window.screen()->availableGeometry(),
                                                                window.frameGeometry()));
        QVERIFY(window.screen()->availableGeometry().contains(history->frameGeometry()));
        QCOMPARE(history->labels()->currentItem()->text(), QStringLiteral("g")); // the heaviest
        QCOMPARE(history->runs()->rowCount(), 4);
        QVERIFY(!history->compareButton()->isEnabled());
        history->runs()->setCurrentCell(3, 0);
        QVERIFY(history->compareButton()->isEnabled());
        history->compareButton()->click();
        const auto comparing = [&window](const QString& path, const QString& base) {
            return window.currentPath() == path && window.document()->compare()->isActive()
                && window.document()->compare()->basePaths() == QStringList{base};
        };
        QTRY_VERIFY_WITH_TIMEOUT(comparing(paths[3], paths[2]), 20000);
        // Run 2 against run 1, not against run 3.
        doubleClickRun(history, 1);
        QTRY_VERIFY_WITH_TIMEOUT(comparing(paths[1], paths[0]), 20000);
        // Run 1 has no run before it: alone.
        doubleClickRun(history, 0);
        QTRY_VERIFY_WITH_TIMEOUT(window.currentPath() == paths[0], 20000);
        QVERIFY(!window.document()->compare()->isActive());
        // Not comparing: a double-click opens the run alone.
        doubleClickRun(history, 2);
        QTRY_VERIFY_WITH_TIMEOUT(window.currentPath() == paths[2], 20000);
        QVERIFY(!window.document()->compare()->isActive());
        // Run 1 double-clicked while run 4's compare still loads: run 1
        // alone (run 4's base, run 3, left waiting for a profile, would
        // land on run 1, a later run as its base).
        history->runs()->setCurrentCell(3, 0);
        history->compareButton()->click();
        doubleClickRun(history, 0);
        QTRY_VERIFY_WITH_TIMEOUT(window.currentPath() == paths[0], 20000);
        QTest::qWait(300);
        QCOMPARE(window.currentPath(), paths[0]);
        QCOMPARE(window.document()->compare()->basePaths(), QStringList());
        // And compared while that loads: the last request wins.
        history->runs()->setCurrentCell(3, 0);
        history->compareButton()->click();
        doubleClickRun(history, 2);
        QTRY_VERIFY_WITH_TIMEOUT(comparing(paths[2], paths[1]), 20000);
        QTest::qWait(300);
        QVERIFY(comparing(paths[2], paths[1]));

        // The label focused in the viewer is where the next window starts.
        const Profile* profile = window.document()->profile();
        LabelId h = kNone;
        for (LabelId id = 0; id < profile->labelCount(); ++id) {
            if (profile->labelName(id) == "h")
                h = id;
        }
        QVERIFY(h != kNone);
        window.document()->setFocusLabel(h);
        history->close();
        QTRY_VERIFY(history.isNull());
        action->trigger();
        history = window.findChild<HistoryWindow*>();
        QVERIFY(history);
        QCOMPARE(history->labels()->currentItem()->text(), QStringLiteral("h"));
        QCOMPARE(history->labels()->currentRow(), 2);
    }

    // File ▸ Open History… offers the data folder's history and makes no
    // file without asking (a mistyped name made one, with -wal and -shm,
    // in the folder the viewer was started in).
    void createOnlyWhenAsked()
    {
        QTemporaryDir dir;
        MainWindow window;
        auto* controller = window.findChild<HistoryController*>();
        const QString fallback = m_data.filePath(QStringLiteral("Runlane/runlane-history.sqlite"));
        QCOMPARE(controller->lastLocation(), fallback);
        QStringList asked;
        bool answer = false;
        controller->setCreateAsker([&asked, &answer](const QString& path) {
            asked << path;
            return answer;
        });
        const QString typo = dir.filePath(QStringLiteral("h.sqlit"));
        QVERIFY(!controller->openHistory(typo));
        QCOMPARE(asked, QStringList{typo});
        const QStringList none;
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), none);
        // A relative name: in the current folder, said in full.
        asked.clear();
        QVERIFY(!controller->openHistory(QStringLiteral("relative.sqlite")));
        QCOMPARE(asked, QStringList{QDir::current().absoluteFilePath(QStringLiteral("relative.sqlite"))});
        QVERIFY(!QFileInfo::exists(QStringLiteral("relative.sqlite")));
        // Yes: the default history and its folder.
        asked.clear();
        answer = true;
        QPointer<HistoryWindow> history = controller->openHistory(QString());
        QVERIFY(history);
        QCOMPARE(asked, QStringList{fallback});
        QVERIFY(QFileInfo(fallback).isFile());
        QCOMPARE(history->windowTitle(), QStringLiteral("History — ") + fallback);
        history->close();
        // There now: no question.
        asked.clear();
        history = controller->openHistory(fallback);
        QVERIFY(history);
        QCOMPARE(asked, QStringList());
        history->close();
        QVERIFY(QFile::remove(fallback));
    }
};

QTEST_MAIN(TestHistoryWindow)
#include "tst_historywindow.moc"
