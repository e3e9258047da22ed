// File ▸ Add to this profile… on the real window: the CPU profile is read
// into the open trace in the background, under the thread picked, and a
// file that cannot be added leaves the open profile as it was.
#include "addprofilecontroller.h"
#include "backgroundloader.h"
#include "mainwindow.h"
#include "mainwindowdriver.h"
#include "profiledocument.h"
#include "testsupport.h"

#include <QAction>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

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

private:
    QTemporaryDir m_settings;
};

QTEST_MAIN(TestAddProfileController)
#include "tst_addprofilecontroller.moc"
