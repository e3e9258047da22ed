#include "historycontroller.h"
#include "historytrendchart.h"
#include "historytestsupport.h"
#include "historywindow.h"
#include "comparesession.h"
#include "mainwindow.h"
#include "profiledocument.h"
#include "testsupport.h"

#include <QAction>
#include <QChart>
#include <QComboBox>
#include <QLineSeries>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
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

} // namespace

class TestHistoryWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
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
        HistoryWindow window(
            location, [&opened](const QString& path) { opened << path; }, [](const QString&, const QString&) {});
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
        const QPoint cell = window.runs()->visualItemRect(window.runs()->item(0, 0)).center();
        // An item view takes a double-click after the press it follows.
        QTest::mouseClick(window.runs()->viewport(), Qt::LeftButton, {}, cell);
        QTest::mouseDClick(window.runs()->viewport(), Qt::LeftButton, {}, cell);
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

        HistoryWindow broken(
            "/nonexistent/dir/h.sqlite", [](const QString&) {}, [](const QString&, const QString&) {});
        QVERIFY(!broken.isOpen());
    }

    // From the viewer's File menu: the history's window; a run compared
    // with the one before it opens the run and compares (compare mode).
    void fromTheMenu()
    {
        QTemporaryDir dir;
        const QString before = dir.filePath(QStringLiteral("before.json"));
        const QString after = dir.filePath(QStringLiteral("after.json"));
        QVERIFY(QFile::copy(test::dataPath(QStringLiteral("profiles/fgh-chrome.json")), before));
        QVERIFY(QFile::copy(test::dataPath(QStringLiteral("profiles/fgh-chrome.json")), after));
        const QString location = dir.filePath(QStringLiteral("h.sqlite"));
        {
            HistoryDatabase db;
            QVERIFY(db.open(location.toStdString()));
            HistoryStore store(db);
            record(store, "w", before.toStdString(), {{"f", 70000}});
            record(store, "w", after.toStdString(), {{"f", 71000}});
        }
        MainWindow window;
        QAction* action = window.findChild<QAction*>(QStringLiteral("openHistory"));
        QVERIFY(action);
        QCOMPARE(action->text(), QStringLiteral("Open &History…"));
        auto* controller = window.findChild<HistoryController*>();
        controller->setLocationChooser([&location] { return location; });
        action->trigger();
        auto* history = window.findChild<HistoryWindow*>();
        QVERIFY(history);
        QVERIFY(history->isVisible());
        QCOMPARE(history->runs()->rowCount(), 2);
        QVERIFY(!history->compareButton()->isEnabled());
        history->runs()->setCurrentCell(1, 0);
        QVERIFY(history->compareButton()->isEnabled());
        history->compareButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(window.document()->compare()->isActive(), 20000);
        QCOMPARE(window.currentPath(), after);
        QCOMPARE(window.document()->compare()->basePaths(), QStringList{before});
    }
};

QTEST_MAIN(TestHistoryWindow)
#include "tst_historywindow.moc"
