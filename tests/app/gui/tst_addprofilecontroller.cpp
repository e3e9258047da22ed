// File ▸ Add to this profile… on the real window: the CPU profile is read
// into the open trace in the background, under the thread picked, with the
// status bar's progress and Cancel, and a file that cannot be added leaves
// the open profile as it was. A CPU profile dropped on a trace asks whether
// to add it or open it.
#include "addprofilecontroller.h"
#include "backgroundloader.h"
#include "ensogenerator.h"
#include "mainwindow.h"
#include "mainwindowdriver.h"
#include "gzipsupport.h"
#include "processmessages.h"
#include "profiledocument.h"
#include "testsupport.h"

#include <QAction>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <map>

using namespace runlane;
using namespace runlane::test;

namespace {

const QString kNodeTrace = QStringLiteral("samples/node/http-async-hooks.trace.json");
const QString kNodeProfile = QStringLiteral("samples/node/http-async-hooks.cpuprofile");

// The Samples tracks of (pid, tid), and whether each follows a Thread track
// of that thread.
std::vector<TrackId> samplesOf(const Profile& p, std::int64_t pid, std::int64_t tid)
{
    std::vector<TrackId> found;
    for (TrackId t = 1; t < p.trackCount(); ++t) {
        const Track& track = p.track(t);
        if (track.kind == TrackKind::Samples && track.pid == pid && track.tid == tid && p.track(t - 1).pid == pid
            && p.track(t - 1).tid == tid)
            found.push_back(t);
    }
    return found;
}

} // namespace

class TestAddProfileController : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_settings.isValid());
        useTemporarySettings(m_settings.path(), QStringLiteral("tst_addprofilecontroller"));
    }

    void disabledWithoutAProfile()
    {
        MainWindow window;
        QAction* add = window.action(QStringLiteral("addProfile"));
        QVERIFY(add);
        QVERIFY(!add->isEnabled());
        window.openFile(dataPath(kNodeTrace));
        QVERIFY(waitShown(window));
        QVERIFY(add->isEnabled());
        window.action(QStringLiteral("close"))->trigger();
        QVERIFY(!add->isEnabled());
    }

    // The node trace has one traced thread: no question, the samples go
    // under it; the title names both files; Reload keeps the addition.
    void addsToTheOpenTrace()
    {
        MainWindow window;
        window.show();
        const QString trace = dataPath(kNodeTrace);
        window.openFile(trace);
        QVERIFY(waitShown(window));
        const std::size_t tracks = window.document()->profile()->trackCount();
        const std::size_t intervals = window.document()->profile()->intervalCount();

        const QString profile = dataPath(kNodeProfile);
        window.addProfileController()->setOpenFileChooser([profile] { return profile; });
        int asked = 0;
        window.addProfileController()->setThreadChooser([&asked](const QStringList&, int) {
            ++asked;
            return 0;
        });
        QSignalSpy changed(window.document(), &ProfileDocument::profileChanged);
        window.action(QStringLiteral("addProfile"))->trigger();
        QVERIFY(window.loader()->isLoading());
        QVERIFY(waitShown(window));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(asked, 0);
        const Profile& p = *window.document()->profile();
        QCOMPARE(p.trackCount(), tracks + 1);
        QCOMPARE(p.intervalCount(), intervals + 2469);
        QCOMPARE(samplesOf(p, 19372, 19372).size(), std::size_t(1));
        QCOMPARE(p.addedFiles().size(), std::size_t(1));
        QCOMPARE(window.currentPath(), trace);
        QCOMPARE(window.windowTitle(), QStringLiteral("http-async-hooks.trace.json + http-async-hooks.cpuprofile — Runlane"));

        window.action(QStringLiteral("reload"))->trigger();
        QVERIFY(waitShown(window));
        QCOMPARE(window.document()->profile()->trackCount(), tracks + 1);
        QCOMPARE(window.document()->profile()->addedFiles().size(), std::size_t(1));
        QVERIFY(staleState(window).isEmpty());
    }

    // With several threads the user picks one; the main thread comes
    // preselected, and a cancelled pick loads nothing.
    void picksTheThread()
    {
        QTemporaryDir dir;
        const QString trace = writeTemp(dir, JSON([{"ph": "M", "name": "thread_name", "pid": 7, "tid": 9, "args": {"name": "CrRendererMain"}},
                                                   {"ph": "X", "name": "a", "pid": 7, "tid": 8, "ts": 1000, "dur": 5},
                                                   {"ph": "X", "name": "b", "pid": 7, "tid": 9, "ts": 1000, "dur": 5}]),
                                        QStringLiteral("trace.json"));
        const QString profile = writeTemp(dir, readAll(dataPath(QStringLiteral("samples/cpuprofile/node10-example.cpuprofile"))),
                                          QStringLiteral("node10.cpuprofile"));
        MainWindow window;
        window.show();
        window.openFile(trace);
        QVERIFY(waitShown(window));
        const Profile* before = window.document()->profile();
        QStringList shown;
        int preselected = -1;
        window.addProfileController()->setThreadChooser([&](const QStringList& threads, int row) {
            shown = threads;
            preselected = row;
            return -1;
        });
        QVERIFY(!window.addProfileController()->add(profile));
        QVERIFY(!window.loader()->isLoading());
        QCOMPARE(window.document()->profile(), before);
        QCOMPARE(shown, (QStringList{QStringLiteral("pid 7 / tid 8 (pid 7, tid 8; 1 interval)"),
                                     QStringLiteral("pid 7 / CrRendererMain (pid 7, tid 9; 1 interval) — main thread")}));
        QCOMPARE(preselected, 1);

        window.addProfileController()->setThreadChooser([](const QStringList&, int) { return 0; });
        QVERIFY(window.addProfileController()->add(profile));
        QVERIFY(waitShown(window));
        const Profile& p = *window.document()->profile();
        QCOMPARE(samplesOf(p, 7, 8).size(), std::size_t(1));
        QCOMPARE(samplesOf(p, 7, 9).size(), std::size_t(0));
        QCOMPARE(p.addedFiles()[0].tid, 8);
    }

    // A file that cannot be added: the error names it and what is wrong;
    // the trace stays open as it was.
    void failedAdditionKeepsTheProfile()
    {
        QTemporaryDir dir;
        const QString cut
            = writeTemp(dir, readAll(dataPath(kNodeProfile)).left(100), QStringLiteral("cut.cpuprofile"));
        MainWindow window;
        window.show();
        window.openFile(dataPath(kNodeTrace));
        QVERIFY(waitShown(window));
        window.axis()->setVisibleRange(window.axis()->boundsStart() + 1'000'000, window.axis()->boundsStart() + 9'000'000);
        const Profile* before = window.document()->profile();
        const QString title = window.windowTitle();

        window.addProfileController()->setOpenFileChooser([cut] { return cut; });
        QSignalSpy failed(&window, &MainWindow::loadFailed);
        window.action(QStringLiteral("addProfile"))->trigger();
        QVERIFY(failed.wait(20000));
        const QString message = failed.first().first().toString();
        QCOMPARE(message, cut + QStringLiteral(": line 1, column 101 (byte 100): invalid JSON: syntax error while parsing "
                                               "object key - invalid string: missing closing quote; last read: '\"colu'; "
                                               "expected string literal"));
        const auto boxes = window.findChildren<QMessageBox*>();
        QCOMPARE(boxes.size(), 1);
        QCOMPARE(boxes.first()->informativeText(), QStringLiteral("http-async-hooks.trace.json is still open."));
        closeMessageBoxes(window);
        QCOMPARE(window.document()->profile(), before);
        QCOMPARE(window.windowTitle(), title);
        QCOMPARE(window.axis()->visibleSpan(), 8'000'000);
        QVERIFY(window.document()->profile()->addedFiles().empty());
    }

    // A file dropped on a window: a V8 CPU profile (by its content, gzip
    // or not, whatever its name) dropped on a trace asks; anything else,
    // or onto an empty window or a profile that takes no additions, opens.
    void dropAsksToAddACpuProfile_data()
    {
        QTest::addColumn<QString>("open"); // "" for none
        QTest::addColumn<QString>("dropped");
        QTest::addColumn<QString>("choice"); // what the question is answered
        QTest::addColumn<bool>("asked");
        QTest::addColumn<QString>("shown"); // the path shown after; "" for the open one, unchanged
        QTest::addColumn<int>("intervals");
        QTest::addColumn<int>("added"); // files added to what is shown
        const QString trace = QStringLiteral("trace");
        QTest::newRow("CPU profile on a trace: add (the default)")
            << trace << "node.cpuprofile" << "add" << true << "trace" << 7266 << 1;
        QTest::newRow("CPU profile on a trace: open instead")
            << trace << "node.cpuprofile" << "open" << true << "node.cpuprofile" << 2469 << 0;
        QTest::newRow("CPU profile on a trace: cancel") << trace << "node.cpuprofile" << "cancel" << true << "" << 4797 << 0;
        QTest::newRow("CPU profile named .json") << trace << "node.json" << "add" << true << "trace" << 7266 << 1;
        QTest::newRow("gzipped CPU profile") << trace << "node.cpuprofile.gz" << "add" << true << "trace" << 7266 << 1;
        QTest::newRow("trace named .cpuprofile") << trace << "chrome.cpuprofile" << "add" << false << "chrome.cpuprofile" << 3 << 0;
        QTest::newRow("onto an empty window") << "" << "node.cpuprofile" << "add" << false << "node.cpuprofile" << 2469 << 0;
        QTest::newRow("onto a CPU profile: it takes no additions")
            << "node.cpuprofile" << "node.json" << "add" << false << "node.json" << 2469 << 0;
    }
    void dropAsksToAddACpuProfile()
    {
        QFETCH(QString, open);
        QFETCH(QString, dropped);
        QFETCH(QString, choice);
        QFETCH(bool, asked);
        QFETCH(QString, shown);
        QFETCH(int, intervals);
        QFETCH(int, added);
        QTemporaryDir dir;
        const QByteArray profileText = readAll(dataPath(kNodeProfile));
        writeTemp(dir, profileText, QStringLiteral("node.cpuprofile"));
        writeTemp(dir, profileText, QStringLiteral("node.json"));
        writeTemp(dir, gzip(profileText), QStringLiteral("node.cpuprofile.gz"));
        writeTemp(dir, readAll(dataPath(QStringLiteral("profiles/fgh-chrome.json"))), QStringLiteral("chrome.cpuprofile"));
        auto pathOf = [&dir](const QString& name) {
            return name == QLatin1String("trace") ? dataPath(kNodeTrace) : dir.filePath(name);
        };
        MainWindow window;
        window.show();
        if (!open.isEmpty()) {
            window.openFile(pathOf(open));
            QVERIFY(waitShown(window));
        }
        const Profile* before = window.document()->profile();
        QStringList questions;
        window.addProfileController()->setDropChooser([&](const QString& path) {
            questions << path;
            return choice == QLatin1String("add")    ? AddProfileController::DropChoice::Add
                : choice == QLatin1String("open") ? AddProfileController::DropChoice::Open
                                                   : AddProfileController::DropChoice::Cancel;
        });
        dragAndDrop(window, urlsData({QUrl::fromLocalFile(pathOf(dropped))}));
        // Asked once the drop is over, not within it.
        QCOMPARE(questions.size(), 0);
        if (shown.isEmpty()) {
            QTRY_COMPARE(questions.size(), 1);
            QVERIFY(!window.loader()->isLoading());
            QCOMPARE(window.document()->profile(), before);
        } else {
            QVERIFY2(waitShown(window), qPrintable(window.statusText() + QLatin1Char('|') + window.lastError()));
        }
        QCOMPARE(questions, asked ? QStringList{pathOf(dropped)} : QStringList());
        QCOMPARE(window.currentPath(), shown.isEmpty() ? pathOf(open) : pathOf(shown));
        QCOMPARE(int(window.document()->profile()->intervalCount()), intervals);
        QCOMPARE(int(window.document()->profile()->addedFiles().size()), added);
    }

    // An Enso IDE profile takes the Language Server's CSV message log, by
    // File ▸ Add or dropped (then asked): no thread is asked for, a
    // LanguageServer process goes beside the IDE's on the same clock, and
    // the messages between each pair of processes are those the generator
    // wrote (IDE -> LS, LS -> Engine, Engine -> LS, LS -> IDE). Reload
    // keeps it.
    void addsTheLanguageServerLog_data()
    {
        QTest::addColumn<bool>("dropped");
        QTest::newRow("File ▸ Add") << false;
        QTest::newRow("dropped") << true;
    }
    void addsTheLanguageServerLog()
    {
        QFETCH(bool, dropped);
        test::EnsoGenOptions options;
        options.seed = 7;
        options.tasks = 120;
        test::EnsoGenTruth truth;
        test::EnsoGenerator::profile(options, &truth);
        options.languageServer = false;
        QTemporaryDir dir;
        const QString ide = writeTemp(dir, QByteArray::fromStdString(test::EnsoGenerator::profile(options)),
                                      QStringLiteral("ide.json"));
        const QString log = writeTemp(dir, QByteArray::fromStdString(truth.messageLog), QStringLiteral("ls.csv"));
        std::map<std::pair<std::string, std::string>, int> expected;
        for (const test::EnsoGenMessage& m : truth.messages)
            ++expected[{m.from, m.to}];
        QCOMPARE(expected.size(), std::size_t(4));

        MainWindow window;
        window.show();
        window.openFile(ide);
        QVERIFY(waitShown(window));
        QCOMPARE(window.document()->profile()->trackCount(), std::size_t(1));
        AddProfileController* controller = window.addProfileController();
        QVERIFY(controller->canAdd(log));
        int threadsAsked = 0;
        QStringList dropsAsked;
        controller->setThreadChooser([&threadsAsked](const QStringList&, int) {
            ++threadsAsked;
            return 0;
        });
        controller->setDropChooser([&dropsAsked](const QString& path) {
            dropsAsked << path;
            return AddProfileController::DropChoice::Add;
        });
        controller->setOpenFileChooser([log] { return log; });
        if (dropped)
            dragAndDrop(window, urlsData({QUrl::fromLocalFile(log)}));
        else
            window.action(QStringLiteral("addProfile"))->trigger();
        QVERIFY2(waitShown(window), qPrintable(window.statusText() + QLatin1Char('|') + window.lastError()));
        QCOMPARE(threadsAsked, 0);
        QCOMPARE(dropsAsked, dropped ? QStringList{log} : QStringList());
        QCOMPARE(window.currentPath(), ide);
        QCOMPARE(window.windowTitle(), QStringLiteral("ide.json + ls.csv — Runlane"));
        for (int pass = 0; pass < 2; ++pass) {
            const Profile& p = *window.document()->profile();
            QCOMPARE(p.trackCount(), std::size_t(2));
            QCOMPARE(p.string(p.track(1).name), std::string_view("LanguageServer"));
            QCOMPARE(p.addedFiles().size(), std::size_t(1));
            QCOMPARE(p.diagnostics().warningCount(), std::uint64_t(0));
            const ProcessMessages messages = ProcessMessages::of(p);
            std::map<std::pair<std::string, std::string>, int> counts;
            for (const ProcessMessages::Message& m : messages.messages())
                ++counts[{messages.processes()[m.from], messages.processes()[m.to]}];
            QCOMPARE(counts, expected);
            if (pass == 0) {
                window.action(QStringLiteral("reload"))->trigger();
                QVERIFY(waitShown(window));
            }
        }
    }

    // An addition loads as any file: the status bar's progress bar and
    // Cancel are shown, and a cancel keeps the trace as it was.
    void addShowsProgressAndCancels()
    {
        MainWindow window;
        window.show();
        window.openFile(dataPath(kNodeTrace));
        QVERIFY(waitShown(window));
        const Profile* before = window.document()->profile();
        const QString title = window.windowTitle();
        auto* bar = window.findChild<QProgressBar*>(QStringLiteral("loadProgress"));
        auto* cancel = window.findChild<QPushButton*>(QStringLiteral("cancelLoad"));
        QVERIFY(bar && cancel);
        QVERIFY(!bar->isVisible());
        QVERIFY(!cancel->isVisible());

        QSignalSpy failed(&window, &MainWindow::loadFailed);
        QSignalSpy changed(window.document(), &ProfileDocument::profileChanged);
        QVERIFY(window.addProfileController()->add(dataPath(kNodeProfile)));
        QVERIFY(window.loader()->isLoading());
        QVERIFY(bar->isVisible());
        QVERIFY(cancel->isVisible());
        QCOMPARE(window.statusText(), QStringLiteral("Adding http-async-hooks.cpuprofile to http-async-hooks.trace.json…"));
        cancel->click();
        QVERIFY(failed.wait(20000));
        QCOMPARE(failed.first().first().toString(), QStringLiteral("loading was cancelled"));
        QVERIFY(!bar->isVisible());
        QVERIFY(!cancel->isVisible());
        QCOMPARE(changed.count(), 0);
        QCOMPARE(window.document()->profile(), before);
        QCOMPARE(window.document()->profile()->intervalCount(), std::size_t(4797));
        QVERIFY(window.document()->profile()->addedFiles().empty());
        QCOMPARE(window.windowTitle(), title);
        QVERIFY(window.findChildren<QMessageBox*>().isEmpty());
    }

    // The bar counts the added file's bytes after the trace's, out of both
    // files' sizes: it goes on through the addition, never back. The CPU
    // profile is made 2.5 MiB longer (blank before its last brace) so that
    // it is read in chunks past the first bytes detection read
    // (FormatPrefix::kSize), each reported.
    void progressCoversTheAddedFile()
    {
        QTemporaryDir dir;
        QByteArray text = readAll(dataPath(kNodeProfile)).trimmed();
        QVERIFY(text.endsWith('}'));
        text.insert(text.size() - 1, QByteArray(5 << 19, ' '));
        const QString added = writeTemp(dir, text, QStringLiteral("padded.cpuprofile"));
        MainWindow window;
        window.show();
        window.openFile(dataPath(kNodeTrace));
        QVERIFY(waitShown(window));
        QSignalSpy progress(window.loader(), &BackgroundLoader::progress);
        QVERIFY(window.addProfileController()->add(added));
        QVERIFY(waitShown(window));
        QCOMPARE(window.document()->profile()->intervalCount(), std::size_t(7266));
        const qint64 trace = 3485477; // http-async-hooks.trace.json
        const qint64 profile = 140141 + (5 << 19); // http-async-hooks.cpuprofile, padded
        QCOMPARE(QFileInfo(dataPath(kNodeTrace)).size(), trace);
        QCOMPARE(QFileInfo(added).size(), profile);
        QList<qint64> done;
        for (const QList<QVariant>& report : progress) {
            QCOMPARE(report.at(1).toLongLong(), trace + profile);
            done << report.at(0).toLongLong();
        }
        // The trace in chunks up to its size (where its chunks end depends
        // on the JSON path: the reference path's first one follows
        // detection's 256 KiB); then the added file after its first 256 KiB
        // (detection's) and a chunk, after another, at its end; the end.
        const qsizetype traceReports = std::count_if(done.begin(), done.end(), [&](qint64 d) { return d <= trace; });
        QVERIFY(traceReports >= 3);
        QVERIFY(std::is_sorted(done.begin(), done.begin() + traceReports));
        QCOMPARE(done[traceReports - 1], trace);
        QCOMPARE(done.mid(traceReports), (QList<qint64>{trace + (5 << 18), trace + (9 << 18), trace + profile, trace + profile}));
        if (qgetenv("RUNLANE_JSON") != "reference")
            QCOMPARE(done.first(traceReports), (QList<qint64>{1 << 20, 2 << 20, 3 << 20, trace}));
    }

private:
    QTemporaryDir m_settings;
};

QTEST_MAIN(TestAddProfileController)
#include "tst_addprofilecontroller.moc"
