// A seeded random user: drives the real MainWindow (offscreen) through real
// input events (QTest mouse and key events, wheel events, drag-and-drop of
// file URLs, menu actions through their QActions) in a random but seeded
// order: open, drop, reload, close, open recent, cancel or open again in
// the middle of a load, zoom, pan, range-select, find, focus a rank row,
// aggregated view, collapse, export, resize. Files of every format from
// tests/data plus broken ones.
//
// After every action no view may show anything of another profile than
// the open one (mainwindowdriver.h: staleState). A crash prints the seed,
// the action and how to replay it (a signal handler, and under ASan its
// death callback); CI runs it under ASan + UBSan.
//
//   RUNLANE_MONKEY_SEEDS=1,2,3   seeds to run (default 1,2,3)
//   RUNLANE_MONKEY_ACTIONS=N     actions per seed (default 700)
//   RUNLANE_MONKEY_SECONDS=S     instead: seeds 1, 2, … until S seconds have passed
//   RUNLANE_MONKEY_LOG=1         print every action

#include "addprofilecontroller.h"
#include "comparecontroller.h"
#include "counterview.h"
#include "findbar.h"
#include "historycontroller.h"
#include "mainwindowdriver.h"
#include "usagechartview.h"
#include "widgettestsupport.h"

#include <QAction>
#include <QComboBox>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QTableView>
#include <QTimer>
#include <QtTest>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <random>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define RUNLANE_MONKEY_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RUNLANE_MONKEY_ASAN 1
#endif
#endif
#ifdef RUNLANE_MONKEY_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

using namespace runlane;
using namespace runlane::test;

namespace {

// What runs now, for the crash handlers: written before every action,
// read with nothing but write(2) from a signal handler.
char g_current[512] = "monkey: not started\n";

void dumpCurrent()
{
    const ssize_t written = ::write(STDERR_FILENO, g_current, std::strlen(g_current));
    (void)written;
}

extern "C" void onCrash(int signal)
{
    dumpCurrent();
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

// QtTest stops a test function after 5 minutes; a long run asks for more
// before QTEST_MAIN starts (QtTest reads the variable once, at its start).
const bool g_longRunTimeout = [] {
    const int seconds = qEnvironmentVariableIntValue("RUNLANE_MONKEY_SECONDS");
    if (seconds > 0 && !qEnvironmentVariableIsSet("QTEST_FUNCTION_TIMEOUT"))
        qputenv("QTEST_FUNCTION_TIMEOUT", QByteArray::number((qint64(seconds) + 600) * 1000));
    return true;
}();

QList<quint64> envSeeds()
{
    QList<quint64> seeds;
    for (const QString& s : qEnvironmentVariable("RUNLANE_MONKEY_SEEDS", QStringLiteral("1,2,3")).split(QLatin1Char(',')))
        seeds << s.trimmed().toULongLong();
    return seeds;
}

class Monkey
{
public:
    Monkey(MainWindow& window, quint64 seed, const QStringList& files, const QString& exportDir)
        : m_window(window), m_rng(seed), m_seed(seed), m_files(files), m_exportDir(exportDir)
    {
        m_window.setOpenFileChooser([this] { return m_nextFile; });
        // File ▸ Compare with…: one to three files (or the dialog cancelled).
        m_window.compareController()->setOpenFilesChooser([this] {
            QStringList files;
            const int count = int(pick(4));
            for (int i = 0; i < count; ++i)
                files << randomFile();
            return files;
        });
        // File ▸ Open History…: the dialog cancelled.
        m_window.findChild<HistoryController*>()->setLocationChooser([] { return QString(); });
        m_window.setSaveFileChooser([this](const QString& suggestion) { return m_exportDir + QLatin1Char('/') + suggestion; });
        // A CPU profile dropped on a trace: added, opened or neither; the
        // thread it goes to, if asked (or that question cancelled).
        m_window.addProfileController()->setDropChooser(
            [this](const QString&) { return AddProfileController::DropChoice(pick(3)); });
        m_window.addProfileController()->setThreadChooser(
            [this](const QStringList& threads, int) { return int(pick(quint64(threads.size()) + 1)) - 1; });
    }

    // One random action; returns what it did.
    QString step(int index)
    {
        m_index = index;
        const int kind = int(pick(100));
        QString what;
        if (kind < 8)
            what = openFromMenu();
        else if (kind < 14)
            what = drop();
        else if (kind < 16)
            what = simple("reload");
        else if (kind < 18)
            what = simple("close");
        else if (kind < 20)
            what = openRecent();
        else if (kind < 23)
            what = cancelMidLoad();
        else if (kind < 26)
            what = openWhileLoading();
        else if (kind < 38)
            what = wheel();
        else if (kind < 46)
            what = drag();
        else if (kind < 56)
            what = key();
        else if (kind < 62)
            what = find();
        else if (kind < 68)
            what = rankClick();
        else if (kind < 70)
            what = simple("aggregated");
        else if (kind < 78)
            what = click();
        else if (kind < 81)
            what = exportSomething();
        else if (kind < 84)
            what = resize();
        else if (kind < 89)
            what = usageControls();
        else if (kind < 94)
            what = menuAction();
        else if (kind < 97)
            what = compare();
        else
            what = wait();
        // Mostly the user waits for what they did to show; sometimes the
        // next action comes while work is still under way.
        if (pick(10) < 7)
            settle(m_window);
        else
            QCoreApplication::processEvents();
        return what;
    }

    void describe(const QString& what) const
    {
        const QByteArray text = QStringLiteral("monkey: seed %1, action %2: %3\n"
                                               "monkey: replay with RUNLANE_MONKEY_SEEDS=%1 RUNLANE_MONKEY_ACTIONS=%4 "
                                               "RUNLANE_MONKEY_LOG=1 tst_monkey\n")
                                    .arg(m_seed)
                                    .arg(m_index)
                                    .arg(what)
                                    .arg(m_index + 1)
                                    .toUtf8();
        std::snprintf(g_current, sizeof g_current, "%s", text.constData());
    }

    // The action about to run, decided before it runs so that a crash
    // inside it names it.
    QString m_pending;

private:
    quint64 pick(quint64 n) { return n == 0 ? 0 : m_rng() % n; }
    QString announce(const QString& what)
    {
        describe(what);
        if (qEnvironmentVariableIsSet("RUNLANE_MONKEY_LOG"))
            std::fprintf(stderr, "%s", g_current);
        return what;
    }
    QString randomFile() { return m_files.at(qsizetype(pick(quint64(m_files.size())))); }
    QWidget* randomView()
    {
        QWidget* views[] = {m_window.icicle(), m_window.lanes(), m_window.usage()->view()->viewport(),
                            m_window.findChild<QWidget*>(QStringLiteral("overview")),
                            m_window.findChild<QWidget*>(QStringLiteral("ruler")),
                            m_window.rank()->isComparing() ? m_window.rank()->compareView()->viewport()
                                                           : m_window.rank()->view()->viewport(),
                            // Shown only for profiles with counters.
                            m_window.counters()->isVisible() ? m_window.counters() : nullptr};
        QWidget* w = views[pick(std::size(views))];
        return w ? w : m_window.icicle();
    }
    QPoint randomPoint(QWidget* w) { return QPoint(int(pick(quint64(std::max(1, w->width())))), int(pick(quint64(std::max(1, w->height()))))); }
    Qt::KeyboardModifiers randomModifiers()
    {
        static const Qt::KeyboardModifiers mods[] = {Qt::NoModifier, Qt::NoModifier, Qt::NoModifier, Qt::ShiftModifier,
                                                     Qt::ControlModifier, Qt::AltModifier};
        return mods[pick(std::size(mods))];
    }

    QString openFromMenu()
    {
        m_nextFile = pick(8) == 0 ? QString() : randomFile(); // "" = the dialog cancelled
        announce(QStringLiteral("File > Open %1").arg(m_nextFile));
        m_window.action(QStringLiteral("open"))->trigger();
        return m_nextFile;
    }
    QString drop()
    {
        QList<QUrl> urls;
        const int count = 1 + int(pick(3));
        for (int i = 0; i < count; ++i)
            urls << (pick(10) == 0 ? QUrl(QStringLiteral("https://example.invalid/trace.json")) : QUrl::fromLocalFile(randomFile()));
        QStringList shown;
        for (const QUrl& u : urls)
            shown << u.toString();
        const QString what = announce(QStringLiteral("drop %1").arg(shown.join(QLatin1Char(' '))));
        auto* data = new QMimeData;
        data->setUrls(urls);
        const QPoint at = randomPoint(&m_window);
        QDragEnterEvent enter(at, Qt::CopyAction, data, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&m_window, &enter);
        QDragMoveEvent move(at, Qt::CopyAction, data, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&m_window, &move);
        if (pick(6) == 0) {
            QDragLeaveEvent leave;
            QApplication::sendEvent(&m_window, &leave);
        } else {
            QDropEvent dropped(at, Qt::CopyAction, data, Qt::LeftButton, Qt::NoModifier);
            QApplication::sendEvent(&m_window, &dropped);
        }
        delete data;
        return what;
    }
    QString simple(const char* name)
    {
        const QString what = announce(QString::fromLatin1(name));
        m_window.action(QString::fromLatin1(name))->trigger();
        return what;
    }
    QString openRecent()
    {
        QMenu* recent = nullptr;
        for (QMenu* menu : m_window.findChildren<QMenu*>()) {
            if (menu->title() == QStringLiteral("Open &Recent"))
                recent = menu;
        }
        QList<QAction*> actions;
        for (QAction* a : recent ? recent->actions() : QList<QAction*>()) {
            if (a->isEnabled() && !a->isSeparator())
                actions << a;
        }
        if (actions.isEmpty())
            return announce(QStringLiteral("open recent: none"));
        QAction* a = actions.at(qsizetype(pick(quint64(actions.size()))));
        const QString what = announce(QStringLiteral("open recent %1").arg(a->text()));
        a->trigger();
        return what;
    }
    QString cancelMidLoad()
    {
        const QString file = randomFile();
        const int after = int(pick(30));
        const QString what = announce(QStringLiteral("open %1, cancel after %2 ms").arg(file).arg(after));
        m_window.openFile(file);
        QTest::qWait(after);
        auto* cancel = m_window.findChild<QPushButton*>(QString(), Qt::FindDirectChildrenOnly);
        for (QPushButton* b : m_window.findChildren<QPushButton*>()) {
            if (b->text() == QStringLiteral("Cancel"))
                cancel = b;
        }
        if (cancel && cancel->isVisible())
            QTest::mouseClick(cancel, Qt::LeftButton);
        else
            m_window.loader()->cancel();
        return what;
    }
    QString openWhileLoading()
    {
        const QString a = randomFile();
        const QString b = randomFile();
        const int after = int(pick(20));
        const QString what = announce(QStringLiteral("open %1, then %2 after %3 ms").arg(a, b).arg(after));
        m_window.openFile(a);
        QTest::qWait(after);
        m_window.openFile(b);
        return what;
    }
    QString wheel()
    {
        QWidget* w = randomView();
        const QPoint at = randomPoint(w);
        const int notches = (pick(2) ? 1 : -1) * int(1 + pick(3));
        const Qt::KeyboardModifiers mods = randomModifiers();
        const bool horizontal = pick(8) == 0;
        const QString what = announce(QStringLiteral("wheel %1 notches on %2 at %3,%4 mods %5%6")
                                          .arg(notches)
                                          .arg(QString::fromLatin1(w->metaObject()->className()))
                                          .arg(at.x())
                                          .arg(at.y())
                                          .arg(int(mods))
                                          .arg(horizontal ? QStringLiteral(" horizontal") : QString()));
        const QPoint delta = horizontal ? QPoint(120 * notches, 0) : QPoint(0, 120 * notches);
        QWheelEvent event(QPointF(at), QPointF(w->mapToGlobal(at)), QPoint(), delta, Qt::NoButton, mods,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(w, &event);
        return what;
    }
    QString drag()
    {
        QWidget* w = randomView();
        const QPoint from = randomPoint(w);
        const QPoint to = randomPoint(w);
        const Qt::KeyboardModifiers mods = pick(3) == 0 ? Qt::ShiftModifier : Qt::NoModifier;
        const QString what = announce(QStringLiteral("drag on %1 from %2,%3 to %4,%5 mods %6")
                                          .arg(QString::fromLatin1(w->metaObject()->className()))
                                          .arg(from.x())
                                          .arg(from.y())
                                          .arg(to.x())
                                          .arg(to.y())
                                          .arg(int(mods)));
        QTest::mousePress(w, Qt::LeftButton, mods, from);
        QTest::mouseMove(w, (from + to) / 2);
        QTest::mouseMove(w, to);
        QTest::mouseRelease(w, Qt::LeftButton, mods, to);
        return what;
    }
    QString key()
    {
        static const std::pair<Qt::Key, Qt::KeyboardModifiers> keys[] = {
            {Qt::Key_W, {}},          {Qt::Key_S, {}},         {Qt::Key_A, {}},          {Qt::Key_D, {}},
            {Qt::Key_0, {}},          {Qt::Key_Home, {}},      {Qt::Key_C, {}},          {Qt::Key_E, {}},
            {Qt::Key_Return, {}},     {Qt::Key_Escape, {}},    {Qt::Key_Left, {}},       {Qt::Key_Right, {}},
            {Qt::Key_Plus, {}},       {Qt::Key_Minus, {}},     {Qt::Key_F3, {}},         {Qt::Key_F3, Qt::ShiftModifier},
            {Qt::Key_Left, Qt::AltModifier}, {Qt::Key_Right, Qt::AltModifier}, {Qt::Key_0, Qt::ControlModifier},
            {Qt::Key_Up, {}},         {Qt::Key_Down, {}},      {Qt::Key_PageDown, {}},   {Qt::Key_C, Qt::ControlModifier},
        };
        QWidget* w = randomView();
        const auto& [k, mods] = keys[pick(std::size(keys))];
        const QString what = announce(QStringLiteral("key %1 mods %2 on %3")
                                          .arg(QKeySequence(k).toString())
                                          .arg(int(mods))
                                          .arg(QString::fromLatin1(w->metaObject()->className())));
        w->setFocus();
        QTest::keyClick(w, k, mods);
        return what;
    }
    QString find()
    {
        QString text;
        const Profile* p = m_window.document()->profile();
        switch (pick(5)) {
        case 0:
            if (p && p->labelCount() > 0) {
                const auto name = p->labelName(LabelId(pick(p->labelCount())));
                text = QString::fromUtf8(name.data(), qsizetype(std::min<std::size_t>(name.size(), 1 + pick(12))));
            }
            break;
        case 1: text = QStringLiteral("/[a-h]+/"); break;
        case 2: text = QStringLiteral("/(/"); break;
        case 3: text = QString(QChar(u'a' + char16_t(pick(26)))); break;
        default: break; // empty
        }
        static const Qt::Key ends[] = {Qt::Key_Return, Qt::Key_Escape, Qt::Key_F3};
        const Qt::Key end = ends[pick(std::size(ends))];
        const Qt::KeyboardModifiers mods = pick(3) == 0 ? Qt::ShiftModifier : Qt::NoModifier;
        const QString what = announce(QStringLiteral("find \"%1\" then %2 mods %3").arg(text, QKeySequence(end).toString()).arg(int(mods)));
        m_window.action(QStringLiteral("find"))->trigger();
        QLineEdit* field = m_window.findBar()->field();
        field->clear();
        QTest::keyClicks(field, text);
        if (pick(2))
            QTest::qWait(int(pick(150))); // sometimes past the find bar's pause
        QTest::keyClick(field, end, mods);
        return what;
    }
    QString rankClick()
    {
        QTableView* view = m_window.rank()->view();
        const int rows = view->model()->rowCount();
        if (pick(5) == 0) {
            const int column = int(pick(quint64(std::max(1, view->model()->columnCount()))));
            const QString what = announce(QStringLiteral("sort the rank by column %1").arg(column));
            QTest::mouseClick(view->horizontalHeader()->viewport(), Qt::LeftButton, {},
                              QPoint(view->horizontalHeader()->sectionViewportPosition(column) + 5, 5));
            return what;
        }
        const int row = rows == 0 ? 0 : int(pick(quint64(rows)));
        const QString what = announce(QStringLiteral("click rank row %1 of %2").arg(row).arg(rows));
        if (rows == 0)
            return what;
        view->scrollTo(view->model()->index(row, 0));
        const QRect rect = view->visualRect(view->model()->index(row, 0));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, pick(4) == 0 ? Qt::ControlModifier : Qt::NoModifier, rect.center());
        return what;
    }
    QString click()
    {
        QWidget* w = pick(2) ? static_cast<QWidget*>(m_window.icicle()) : static_cast<QWidget*>(m_window.lanes());
        if (pick(4) == 0)
            w = m_window.usage()->view()->viewport();
        const QPoint at = randomPoint(w);
        const bool twice = pick(4) == 0;
        const QString what = announce(QStringLiteral("%1click on %2 at %3,%4")
                                          .arg(twice ? QStringLiteral("double-") : QString())
                                          .arg(QString::fromLatin1(w->metaObject()->className()))
                                          .arg(at.x())
                                          .arg(at.y()));
        if (twice)
            QTest::mouseDClick(w, Qt::LeftButton, {}, at);
        else
            QTest::mouseClick(w, Qt::LeftButton, {}, at);
        return what;
    }
    QString exportSomething()
    {
        static const char* const names[] = {"exportIcicle", "exportLanes", "exportUsage", "exportCounters", "exportWindow", "exportRank", "exportScale"};
        const char* name = names[pick(std::size(names))];
        const QString what = announce(QStringLiteral("export %1").arg(QString::fromLatin1(name)));
        m_window.action(QString::fromLatin1(name))->trigger();
        return what;
    }
    QString resize()
    {
        const QSize size(480 + int(pick(1500)), 360 + int(pick(900)));
        const QString what = announce(QStringLiteral("resize to %1x%2").arg(size.width()).arg(size.height()));
        m_window.resize(size);
        return what;
    }
    QString usageControls()
    {
        UsageChart& usage = *m_window.usage();
        switch (pick(4)) {
        case 0: {
            const int k = 1 + int(pick(20));
            const QString what = announce(QStringLiteral("usage top %1").arg(k));
            usage.setTopK(k);
            return what;
        }
        case 1: {
            static const Time widths[] = {0, 10'000, 1'000'000, 100'000'000, 10'000'000'000};
            const Time w = widths[pick(std::size(widths))];
            const QString what = announce(QStringLiteral("usage bins %1").arg(w));
            usage.setBinWidth(w);
            return what;
        }
        case 2: {
            const TrackId track = TrackId(pick(4));
            const QString what = announce(QStringLiteral("usage track %1").arg(track));
            usage.setTrack(track);
            return what;
        }
        default: {
            const QPoint at = randomPoint(usage.view()->viewport());
            const QString what = announce(QStringLiteral("usage legend or band at %1,%2").arg(at.x()).arg(at.y()));
            usage.setHidden(usage.labelAt(at), pick(2) == 0);
            return what;
        }
        }
    }
    QString menuAction()
    {
        // Any menu item a user can reach, except those that end the session.
        QList<QAction*> actions;
        for (QAction* a : m_window.findChildren<QAction*>()) {
            const QString name = a->objectName();
            if (a->isSeparator() || a->menu() || !a->isEnabled() || name == QStringLiteral("quit") || a->text().isEmpty()
                || a->text().contains(QStringLiteral("Shortcuts")) || a->text().contains(QStringLiteral("About")))
                continue;
            actions << a;
        }
        std::sort(actions.begin(), actions.end(), [](QAction* x, QAction* y) { return x->text() < y->text(); });
        if (actions.isEmpty())
            return announce(QStringLiteral("menu: none"));
        QAction* a = actions.at(qsizetype(pick(quint64(actions.size()))));
        const QString what = announce(QStringLiteral("menu %1").arg(a->text()));
        a->trigger();
        return what;
    }
    // Compare mode: base runs from the menu, stop, or the compare rank's
    // metric and verdict filter.
    QString compare()
    {
        switch (pick(4)) {
        case 0:
        case 1:
            return simple("compareWith");
        case 2:
            return simple("stopComparing");
        default: {
            RankPanel* rank = m_window.rank();
            const int metric = int(pick(quint64(rank->metricBox()->count())));
            const int verdict = int(pick(quint64(rank->verdictBox()->count())));
            const QString what = announce(QStringLiteral("compare rank: metric %1, verdicts %2").arg(metric).arg(verdict));
            rank->metricBox()->setCurrentIndex(metric);
            rank->verdictBox()->setCurrentIndex(verdict);
            return what;
        }
        }
    }

    QString wait()
    {
        const int ms = int(pick(80));
        const QString what = announce(QStringLiteral("wait %1 ms").arg(ms));
        QTest::qWait(ms);
        return what;
    }

    MainWindow& m_window;
    std::mt19937_64 m_rng;
    quint64 m_seed;
    QStringList m_files;
    QString m_exportDir;
    QString m_nextFile;
    int m_index = 0;
};

} // namespace

class TestMonkey : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_settings.isValid());
        QVERIFY(m_files.isValid());
        useTemporarySettings(m_settings.path(), QStringLiteral("tst_monkey"));
        std::signal(SIGSEGV, onCrash);
        std::signal(SIGABRT, onCrash);
        std::signal(SIGBUS, onCrash);
        std::signal(SIGFPE, onCrash);
#ifdef RUNLANE_MONKEY_ASAN
        __sanitizer_set_death_callback(dumpCurrent);
#endif
        // Every file of the test data, of every format, good and bad.
        QDirIterator it(QStringLiteral(RUNLANE_TEST_DATA), QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            if (!path.endsWith(QStringLiteral(".md")) && QFileInfo(path).size() < 2 * 1024 * 1024)
                m_paths << path;
        }
        std::sort(m_paths.begin(), m_paths.end());
        m_paths << MainWindow::demoPath();
        auto write = [this](const QString& name, const QByteArray& text) {
            QFile f(m_files.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
            m_paths << f.fileName();
        };
        write(QStringLiteral("broken.json"), "{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1, \"dur\": }]}");
        write(QStringLiteral("empty.json"), QByteArray());
        write(QStringLiteral("not-a-profile.txt"), "hello\nworld\n");
        QFile demo(MainWindow::demoPath());
        QVERIFY(demo.open(QIODevice::ReadOnly));
        write(QStringLiteral("demo-cut.json"), demo.read(demo.size() / 3)); // a truncated event log
        m_paths << m_files.filePath(QStringLiteral("does-not-exist.json")) << m_files.path();
        QVERIFY(m_paths.size() > 20);
    }

    void randomUser()
    {
        const qint64 budgetSeconds = qEnvironmentVariableIntValue("RUNLANE_MONKEY_SECONDS");
        const int actions = qEnvironmentVariableIsSet("RUNLANE_MONKEY_ACTIONS") ? qEnvironmentVariableIntValue("RUNLANE_MONKEY_ACTIONS") : 700;
        QList<quint64> seeds = envSeeds();
        QElapsedTimer timer;
        timer.start();
        QTemporaryDir exports;
        // Modal boxes (a failed load's message, a failed export) are closed
        // as a user would close them, so the run never waits on one.
        QTimer closer;
        closer.setInterval(20);
        connect(&closer, &QTimer::timeout, this, [] {
            if (QWidget* modal = QApplication::activeModalWidget())
                modal->close();
        });
        closer.start();
        qint64 total = 0;
        for (qsizetype s = 0; s < seeds.size() || (budgetSeconds > 0 && timer.elapsed() < budgetSeconds * 1000); ++s) {
            const quint64 seed = s < seeds.size() ? seeds.at(s) : quint64(s + 1);
            MainWindow window;
            window.resize(1280, 800);
            window.show();
            QApplication::setActiveWindow(&window);
            Monkey monkey(window, seed, m_paths, exports.path());
            for (int i = 0; i < actions; ++i) {
                const QString what = monkey.step(i);
                const QString stale = staleState(window);
                if (!stale.isEmpty()) {
                    monkey.describe(what);
                    QFAIL(qPrintable(QString::fromUtf8(g_current) + QStringLiteral("monkey: ") + stale));
                }
                closeMessageBoxes(window);
                ++total;
                if (budgetSeconds > 0 && timer.elapsed() > budgetSeconds * 1000)
                    break;
            }
            window.loader()->cancel();
            settle(window);
            qInfo("monkey: seed %llu done, %lld actions so far, %.1f s", seed, total, double(timer.elapsed()) / 1000);
        }
        std::snprintf(g_current, sizeof g_current, "monkey: finished\n");
        qInfo("monkey: %lld actions without a stale view or a crash", total);
    }

private:
    QTemporaryDir m_settings;
    QTemporaryDir m_files;
    QStringList m_paths;
};

QTEST_MAIN(TestMonkey)
#include "tst_monkey.moc"
