#include "comparecontroller.h"
#include "comparesession.h"
#include "livecontroller.h"
#include "livetestexporter.h"
#include "mainwindow.h"
#include "mainwindowdriver.h"
#include "profiledocument.h"
#include "profileloader.h"
#include "rankmodel.h"
#include "rankpanel.h"
#include "snapshotreader.h"
#include "timeaxis.h"
#include "usagechart.h"
#include "valueformat.h"
#include "widgettestsupport.h"

#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QStatusBar>
#include <QMessageBox>
#include <QAbstractButton>
#include <QTimer>
#include <QtTest>

#include <functional>
#include <memory>

using namespace runlane;
using namespace runlane::test;

namespace {

constexpr Time kSecond = 1'000'000'000;

// A source the test drives: what it "receives" is pushed by hand.
class FakeSource : public LiveSource
{
public:
    using LiveSource::LiveSource;
    void start() override
    {
        Status s = status();
        s.state = State::Following;
        setStatus(s);
    }
    void stop() override
    {
        Status s = status();
        s.state = State::Stopped;
        setStatus(s);
    }
    QString description() const override { return QStringLiteral("http://fake:1/metrics"); }
    void push(std::vector<ScrapedSnapshot> snapshots)
    {
        Q_EMIT received(std::make_shared<const std::vector<ScrapedSnapshot>>(std::move(snapshots)));
    }
    // `message` as PolledSource gives it: the error and when it retries.
    void failing(const QString& message, std::chrono::milliseconds retryIn)
    {
        Status s = status();
        s.state = State::Retrying;
        s.message = message;
        s.failures += 1;
        s.retryIn = retryIn;
        setStatus(s);
    }
};

// `procs` procs p000, p001, …; proc i has exec (i + 1) × step × 1000 ns at step `step`.
ScrapedSnapshot snapshotAt(int step, int procs)
{
    ScrapedSnapshot s;
    s.time = Time(step) * kSecond;
    for (int i = 0; i < procs; ++i) {
        NamedAggregateRow r;
        r.procedure = QStringLiteral("p%1").arg(i, 3, 10, QLatin1Char('0')).toStdString();
        r.file = "node.nim";
        r.line = i + 1;
        r.values.exec = Time(i + 1) * step * 1000;
        r.values.calls = std::uint64_t(step);
        r.values.wall = r.values.exec * 3;
        s.rows.push_back(r);
    }
    return s;
}

LabelId currentLabel(RankPanel* rank)
{
    const QModelIndex current = rank->view()->selectionModel()->currentIndex();
    return current.isValid() ? LabelId(current.data(RankModel::LabelRole).toULongLong()) : kNone;
}

} // namespace

class TestLiveController : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        // A data folder of this process's own: the suite runs twice at once
        // (the _reference run), and recovery files are per user.
        QVERIFY(m_data.isValid());
        qputenv("XDG_DATA_HOME", QFile::encodeName(m_data.path()));
        QVERIFY(LiveController::recoveryFolder().startsWith(m_data.path()));
    }

    void init()
    {
        m_window = std::make_unique<MainWindow>();
        m_window->resize(1400, 900);
        m_window->show();
        m_live = m_window->liveController();
        m_source = nullptr;
        m_live->setSourceFactory([this](const QUrl&, const LiveOptions&, QString*) {
            auto source = std::make_unique<FakeSource>();
            m_source = source.get();
            return source;
        });
        QVERIFY(m_live->attach(QUrl(QStringLiteral("http://fake:1/metrics")), LiveOptions()));
        QVERIFY(m_source);
    }

    void cleanup()
    {
        m_window.reset();
        QDir(LiveController::recoveryFolder()).removeRecursively();
    }

    void growsAndFollows()
    {
        m_source->push({snapshotAt(1, 4), snapshotAt(2, 4)});
        m_live->finishPendingWork();
        ProfileDocument* doc = m_window->document();
        TimeAxis* axis = m_window->axis();
        QCOMPARE(doc->profile()->snapshots().size(), std::size_t(2));
        QCOMPARE(axis->boundsStart(), 1 * kSecond);
        QCOMPARE(axis->boundsEnd(), 2 * kSecond);
        m_window->rank()->finishPendingWork();
        QCOMPARE(m_window->rank()->model()->rowCount(), 4);
        QVERIFY(m_live->isFollowing());

        // All of it is shown while following from the start.
        m_source->push({snapshotAt(3, 4)});
        m_live->finishPendingWork();
        QCOMPARE(axis->boundsEnd(), 3 * kSecond);
        QCOMPARE(axis->visibleStart(), 1 * kSecond);
        QCOMPARE(axis->visibleEnd(), 3 * kSecond);

        // A zoom stops following: new data leaves the view where it is.
        axis->setVisibleRange(2 * kSecond, 2 * kSecond + kSecond / 2);
        QVERIFY(!m_live->isFollowing());
        QVERIFY(!m_window->findChild<QAction*>(QStringLiteral("follow"))->isChecked());
        m_source->push({snapshotAt(4, 4)});
        m_live->finishPendingWork();
        QCOMPARE(axis->boundsEnd(), 4 * kSecond);
        QCOMPARE(axis->visibleStart(), 2 * kSecond);
        QCOMPARE(axis->visibleEnd(), 2 * kSecond + kSecond / 2);

        // Follow again: the span shown slides to the newest data.
        m_window->findChild<QAction*>(QStringLiteral("follow"))->trigger();
        QVERIFY(m_live->isFollowing());
        QCOMPARE(axis->visibleStart(), 4 * kSecond - kSecond / 2);
        QCOMPARE(axis->visibleEnd(), 4 * kSecond);
        m_source->push({snapshotAt(5, 4)});
        m_live->finishPendingWork();
        QCOMPARE(axis->visibleStart(), 5 * kSecond - kSecond / 2);
        QCOMPARE(axis->visibleEnd(), 5 * kSecond);

        // The usage chart shows the newest step: p003 grew 4,000 ns per second.
        m_window->usage()->finishPendingWork();
        const UsageSeries* series = m_window->usage()->series();
        QVERIFY(series);
        QCOMPARE(doc->profile()->labelName(series->labels().front()), std::string_view("p003"));
        QCOMPARE(series->share(0, 0), 4000.0 / double(kSecond));
    }

    void rankKeepsSortSelectionAndScroll()
    {
        m_source->push({snapshotAt(1, 300), snapshotAt(2, 300)});
        m_live->finishPendingWork();
        RankPanel* rank = m_window->rank();
        rank->finishPendingWork();
        QTableView* view = rank->view();
        QCOMPARE(rank->model()->rowCount(), 300);
        view->sortByColumn(RankModel::Name, Qt::AscendingOrder);
        const QModelIndex row = rank->proxy()->index(120, RankModel::Name);
        view->selectionModel()->setCurrentIndex(row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        const LabelId selected = currentLabel(rank);
        QCOMPARE(m_window->document()->profile()->labelName(selected), std::string_view("p120"));
        view->verticalScrollBar()->setValue(100);
        const int scroll = view->verticalScrollBar()->value();
        QVERIFY(scroll > 0);

        // More data and a new proc: rows update in place.
        ScrapedSnapshot next = snapshotAt(3, 301);
        m_source->push({next});
        m_live->finishPendingWork();
        rank->finishPendingWork();
        QCOMPARE(rank->model()->rowCount(), 301);
        QCOMPARE(currentLabel(rank), selected);
        QCOMPARE(m_window->document()->focusLabel(), selected);
        QCOMPARE(view->horizontalHeader()->sortIndicatorSection(), int(RankModel::Name));
        QCOMPARE(view->horizontalHeader()->sortIndicatorOrder(), Qt::AscendingOrder);
        QCOMPARE(view->verticalScrollBar()->value(), scroll);
        // The values are the new ones: p120's exec at step 3.
        const QModelIndex current = view->selectionModel()->currentIndex();
        QCOMPARE(rank->proxy()->index(current.row(), RankModel::Exec).data(RankModel::SortRole).toLongLong(),
                 qint64(121 * 3 * 1000));
    }

    // Issue 19, GUI time per scrape: the rank's banner says what the
    // table shown is while the next version's table computes (it said
    // "computing…" and back once a second, and laid out its rich-text
    // label twice a scrape: 0.9 ms of the GUI thread), and the usage
    // chart waits for the new version's bins.
    void nextVersionKeepsBannerAndBins()
    {
        m_source->push({snapshotAt(1, 3), snapshotAt(2, 3)});
        m_live->finishPendingWork();
        RankPanel* rank = m_window->rank();
        rank->finishPendingWork();
        auto labels = [rank] { return test::labelTexts(*rank); };
        const QString shown = labels();
        QVERIFY2(shown.contains(QStringLiteral("Whole profile")), qPrintable(shown));
        // Read as the next version is shown, its rank computing. The
        // usage chart does not stretch its old bins to the slide of the
        // range either (UsageChart::isStretchPending): its new bins come.
        QVERIFY(m_live->isFollowing());
        QStringList during;
        std::vector<bool> stretching;
        const auto connection = connect(m_live, &LiveController::versionShown, this, [&] {
            during << labels();
            stretching.push_back(m_window->usage()->isStretchPending());
        });
        m_source->push({snapshotAt(3, 3)});
        m_live->finishPendingWork();
        disconnect(connection);
        QCOMPARE(during.size(), 1);
        QCOMPARE(during.front(), shown);
        QCOMPARE(stretching, std::vector<bool>{false});
        rank->finishPendingWork();
        QCOMPARE(labels(), shown);
    }

    // The proxy's cached sort keys are the new values': a proc that grows
    // past the others moves up (RankSortProxy reads each revision once).
    void rankResortsOnTheNewValues()
    {
        m_source->push({snapshotAt(1, 4), snapshotAt(2, 4)});
        m_live->finishPendingWork();
        RankPanel* rank = m_window->rank();
        rank->finishPendingWork();
        rank->view()->sortByColumn(RankModel::Exec, Qt::DescendingOrder);
        auto nameAt = [rank](int row) { return rank->proxy()->index(row, RankModel::Name).data().toString(); };
        QCOMPARE(nameAt(0), QStringLiteral("p003"));
        QCOMPARE(nameAt(3), QStringLiteral("p000"));
        ScrapedSnapshot next = snapshotAt(3, 4);
        next.rows[0].values.exec = kSecond; // p000 ran for a second
        m_source->push({next});
        m_live->finishPendingWork();
        rank->finishPendingWork();
        QCOMPARE(nameAt(0), QStringLiteral("p000"));
        QCOMPARE(nameAt(1), QStringLiteral("p003"));
        QCOMPARE(nameAt(3), QStringLiteral("p001"));
    }

    // Following, a snapshot bins the followed span once: the slide of the
    // visible range recomputes, the new version alone does not (it did
    // both: two scans of 5 minutes of 5,000 procs per snapshot).
    void oneUsageComputationPerSnapshot()
    {
        m_source->push({snapshotAt(1, 3), snapshotAt(2, 3)});
        m_live->finishPendingWork();
        m_window->usage()->finishPendingWork();
        QVERIFY(m_live->isFollowing());
        UsageChart* usage = m_window->usage();
        const std::size_t before = usage->computations();
        for (int step = 3; step <= 5; ++step) {
            m_source->push({snapshotAt(step, 3)});
            m_live->finishPendingWork();
            // The result shown covers the new snapshot, and nothing else was asked for.
            QTRY_VERIFY(usage->series() && usage->series()->start() + Time(usage->series()->binCount()) * usage->series()->binWidth()
                                               >= Time(step) * kSecond);
            QTest::qWait(30);
            QCOMPARE(usage->computations(), before + std::size_t(step - 2));
        }
        // Not following: the new version alone asks for one.
        m_live->setFollowing(false);
        const std::size_t still = usage->computations();
        m_source->push({snapshotAt(6, 3)});
        m_live->finishPendingWork();
        QTest::qWait(30);
        QCOMPARE(usage->computations(), still + 1);
    }

    // F5 on a live recording: its path is the source's URL, not a file to
    // read (it once tried to open "http://…" as a file and said it failed).
    void reloadKeepsTheRecording()
    {
        m_source->push({snapshotAt(1, 3), snapshotAt(2, 3)});
        m_live->finishPendingWork();
        const auto before = m_window->document()->sharedProfile();
        QAction* reload = m_window->findChild<QAction*>(QStringLiteral("reload"));
        QVERIFY(reload);
        reload->trigger();
        QTest::qWait(50);
        QCOMPARE(m_window->document()->sharedProfile(), before);
        QVERIFY2(m_window->statusBar()->currentMessage().contains(QStringLiteral("nothing to reload")),
                 qPrintable(m_window->statusBar()->currentMessage()));
        QVERIFY(m_live->isAttached());
        m_live->detach();
        reload->trigger();
        QTest::qWait(50);
        QCOMPARE(m_window->document()->sharedProfile(), before);
        QVERIFY2(m_window->statusBar()->currentMessage().contains(QStringLiteral("Attach to Live Metrics")),
                 qPrintable(m_window->statusBar()->currentMessage()));
    }

    void statusSaysWhatHappens()
    {
        QLabel* status = m_window->findChild<QLabel*>(QStringLiteral("liveStatus"));
        QVERIFY(status);
        QVERIFY2(status->text().contains(QStringLiteral("following")), qPrintable(status->text()));
        m_source->push({snapshotAt(1, 2)});
        m_live->finishPendingWork();
        QVERIFY2(status->text().contains(QStringLiteral("1 snapshot, 2 procs")), qPrintable(status->text()));
        m_source->failing(QStringLiteral("connection refused — retrying in 4 s"), std::chrono::milliseconds(4000));
        QVERIFY2(status->text().contains(QStringLiteral("connection refused — retrying in 4 s")), qPrintable(status->text()));
        // Nothing received is lost by a failure.
        QCOMPARE(m_live->recording()->snapshotCount(), std::size_t(1));
    }

    // Issue 39 item 13: the source's message says when it retries, and
    // the status said it again ("connection refused — retrying in 4 s —
    // retrying in 4 s"). A real EndpointSource, its exporter gone.
    void retryIsSaidOnce_data()
    {
        QTest::addColumn<int>("baseMs");
        QTest::addColumn<int>("maxMs");
        QTest::addColumn<int>("failures"); // at least
        QTest::addColumn<QString>("retry");
        QTest::newRow("first failure") << 2000 << 8000 << 1 << QStringLiteral("retrying in 2 s");
        QTest::newRow("doubled up to the cap") << 250 << 1000 << 4 << QStringLiteral("retrying in 1 s");
        QTest::newRow("under a second") << 50 << 150 << 5 << QStringLiteral("retrying in 150 ms");
    }
    void retryIsSaidOnce()
    {
        QFETCH(int, baseMs);
        QFETCH(int, maxMs);
        QFETCH(int, failures);
        QFETCH(QString, retry);
        QUrl url;
        {
            LiveTestExporter gone; // a port nobody listens on: refused
            url = gone.url();
        }
        m_live->setSourceFactory({});
        LiveOptions options;
        options.interval = std::chrono::milliseconds(50);
        options.retryBase = std::chrono::milliseconds(baseMs);
        options.retryMax = std::chrono::milliseconds(maxMs);
        QVERIFY(m_live->attach(url, options));
        QTRY_VERIFY_WITH_TIMEOUT(m_live->source()->status().failures >= failures, 10000);
        QCOMPARE(m_live->statusText(),
                 QStringLiteral("● %1: connection refused — %2 — no data yet").arg(url.toString(), retry));
    }

    // The same after data was received: the user's case (the exporter died).
    void retryAfterDataIsSaidOnce()
    {
        LiveTestExporter exporter;
        exporter.setGenerations(2); // two snapshots, then the same values
        m_live->setSourceFactory({});
        LiveOptions options;
        options.interval = std::chrono::milliseconds(50);
        options.retryBase = std::chrono::milliseconds(250);
        options.retryMax = std::chrono::milliseconds(1000);
        QVERIFY(m_live->attach(exporter.url(), options));
        QTRY_COMPARE_WITH_TIMEOUT(m_live->recording()->snapshotCount(), std::size_t(2), 10000);
        exporter.close();
        QTRY_VERIFY_WITH_TIMEOUT(m_live->source()->status().failures >= 4, 10000);
        const QString data = QDateTime::fromMSecsSinceEpoch(m_live->recording()->lastTime() / 1'000'000).toString(QStringLiteral("HH:mm:ss"));
        const QString fetched = m_live->source()->status().lastFetch.toString(QStringLiteral("HH:mm:ss"));
        QCOMPARE(m_live->statusText(),
                 QStringLiteral("● %1: connection refused — retrying in 1 s — 2 snapshots, 2 procs, data of %2, fetched %3")
                     .arg(exporter.url().toString(), data, fetched));
    }

    // Issue 39 item 4: the view's "of" is the recording's span as the
    // saved file gives it (first to last snapshot, `runlane-cli summary`'s
    // time span). It stayed at the span when following stopped: "Showing
    // 20.5 s of 40.1 s" over 53 snapshots whose file spans 52.1 s.
    void spanIsTheSavedFiles_data()
    {
        QTest::addColumn<bool>("follow");
        QTest::addColumn<QString>("at41");
        QTest::addColumn<QString>("at53");
        QTest::newRow("zoomed in") << false << QStringLiteral("Showing 20.5 s of 40.1 s")
                                   << QStringLiteral("Showing 20.5 s of 52.1 s");
        QTest::newRow("following") << true << QStringLiteral("Showing 20.5 s of 40.1 s")
                                   << QStringLiteral("Showing 20.5 s of 52.1 s");
    }
    void spanIsTheSavedFiles()
    {
        QFETCH(bool, follow);
        QFETCH(QString, at41);
        QFETCH(QString, at53);
        // One a second from 1 s; from the 41st on, 0.1 s later.
        const auto at = [](int i) { return i <= 40 ? Time(i) * kSecond : Time(i) * kSecond + kSecond / 10; };
        std::vector<ScrapedSnapshot> first;
        for (int i = 1; i <= 41; ++i) {
            first.push_back(snapshotAt(i, 3));
            first.back().time = at(i);
        }
        m_source->push(first);
        m_live->finishPendingWork();
        TimeAxis* axis = m_window->axis();
        axis->setVisibleRange(10 * kSecond, 30 * kSecond + kSecond / 2);
        QVERIFY(!m_live->isFollowing());
        if (follow) // the 20.5 s zoomed to, at the newest data
            m_live->setFollowing(true);
        QCOMPARE(m_window->statusText(), at41);
        for (int i = 42; i <= 53; ++i) {
            ScrapedSnapshot s = snapshotAt(i, 3);
            s.time = at(i);
            m_source->push({s});
            m_live->finishPendingWork();
        }
        QCOMPARE(m_window->statusText(), at53);
        QCOMPARE(axis->visibleEnd(), follow ? at(53) : 30 * kSecond + kSecond / 2);

        QTemporaryDir dir;
        const QString saved = dir.filePath(QStringLiteral("rec.json"));
        QVERIFY(m_live->saveRecording(saved));
        const auto loaded = ProfileLoader::load(saved);
        QVERIFY(loaded.profile);
        QCOMPARE(loaded.profile->snapshots().size(), std::size_t(53));
        QCOMPARE(loaded.profile->duration(), 52 * kSecond + kSecond / 10);
        QCOMPARE(ValueFormat::text(loaded.profile->duration(), loaded.profile->unit()), std::string("52.1 s"));
    }

    // Issue 39 item 6: a live recording replaces the open profile; the base
    // it was compared with is no reference for it (the title read
    // "…/metrics (live) (new) vs demo-s6.json (base)", 3 added / 284 removed).
    void attachLeavesCompareMode()
    {
        m_live->detach();
        m_window->openFile(QStringLiteral(RUNLANE_DEMO_PROFILE));
        QVERIFY(waitShown(*m_window));
        m_window->compareController()->compareWith({QStringLiteral(RUNLANE_DEMO_PROFILE)});
        settle(*m_window);
        CompareSession* compare = m_window->document()->compare();
        QVERIFY(compare->isActive());
        QCOMPARE(m_window->windowTitle(), QStringLiteral("chronos-demo.json (new) vs chronos-demo.json (base) — Runlane"));

        m_live->setAttachChooser([] {
            LiveController::AttachChoice choice;
            choice.url = QUrl(QStringLiteral("http://fake:1/metrics"));
            return std::optional(choice);
        });
        m_window->action(QStringLiteral("attach"))->trigger();
        QVERIFY(m_live->isAttached());
        QVERIFY(!compare->isActive());
        QCOMPARE(m_window->windowTitle(), QStringLiteral("chronos-demo.json — Runlane"));
        QCOMPARE(m_window->statusText(), QStringLiteral("Stopped comparing with chronos-demo.json: attached to http://fake:1/metrics"));
        m_source->push({snapshotAt(1, 3), snapshotAt(2, 3)});
        m_live->finishPendingWork();
        settle(*m_window);
        QVERIFY(!compare->isActive());
        QVERIFY(!m_window->rank()->isComparing());
        QCOMPARE(m_window->windowTitle(), QStringLiteral("http://fake:1/metrics (live) — Runlane"));
        QCOMPARE(m_window->rank()->model()->rowCount(), 3);
        QCOMPARE(staleState(*m_window), QString());
    }

    // Issue 39 item 12: "Detached from http://… — 53 snapshots" stayed in
    // the status bar over the files opened after it.
    void theNextFileClearsTheStatus()
    {
        m_source->push({snapshotAt(1, 2), snapshotAt(2, 2)});
        m_live->finishPendingWork();
        QLabel* status = m_window->findChild<QLabel*>(QStringLiteral("liveStatus"));
        m_live->detach();
        const QString data = QDateTime::fromMSecsSinceEpoch(2000).toString(QStringLiteral("HH:mm:ss"));
        QCOMPARE(status->text(), QStringLiteral("Detached from http://fake:1/metrics — 2 snapshots, 2 procs, data of %1").arg(data));
        QVERIFY(status->isVisible());
        for (int i = 0; i < 3; ++i) {
            m_window->openFile(QStringLiteral(RUNLANE_DEMO_PROFILE));
            QVERIFY(waitShown(*m_window));
            QVERIFY(!status->isVisible());
            QCOMPARE(m_window->statusText(), QStringLiteral("chronos-demo.json: Chronos future event log, 27508 intervals, 14791 tasks"));
        }
        // Follow (End) over that file says nothing of the recording either.
        m_window->findChild<QAction*>(QStringLiteral("follow"))->trigger();
        QVERIFY(!status->isVisible());
    }

    void recoveryFolderIsTheReadmes()
    {
        // As main() names the application: docs/live.md's path.
        const QString organization = QCoreApplication::organizationName();
        const QString application = QCoreApplication::applicationName();
        QCoreApplication::setOrganizationName(QStringLiteral("Runlane"));
        QCoreApplication::setApplicationName(QStringLiteral("Runlane"));
        const QString folder = LiveController::recoveryFolder();
        QCoreApplication::setOrganizationName(organization);
        QCoreApplication::setApplicationName(application);
        QCOMPARE(folder, m_data.path() + QStringLiteral("/Runlane/Runlane/recovery"));
    }

    void savesAndRecovers()
    {
        m_source->push({snapshotAt(1, 3), snapshotAt(2, 3), snapshotAt(3, 3)});
        m_live->finishPendingWork();
        const QString recovery = m_live->recoveryPath();
        QVERIFY(QFile::exists(recovery));
        // The recovery file is written as data arrives: it loads now.
        auto loaded = ProfileLoader::load(recovery);
        QVERIFY(loaded.profile);
        QCOMPARE(loaded.profile->snapshots().size(), std::size_t(3));

        QTemporaryDir dir;
        const QString saved = dir.filePath(QStringLiteral("rec.json"));
        QString error;
        QVERIFY2(m_live->saveRecording(saved, &error), qPrintable(error));
        auto back = ProfileLoader::load(saved);
        QCOMPARE(back.profile->snapshots().size(), std::size_t(3));
        SnapshotReader reader(back.profile->snapshots());
        QCOMPARE(reader.rows(2)[2].exec, Time(3 * 3 * 1000));
        QCOMPARE(back.profile->labelName(reader.rows(2)[2].label), std::string_view("p002"));
        // Saved, then detached: nothing is left to recover.
        m_live->detach();
        QVERIFY(!QFile::exists(recovery));
    }

    void unsavedRecordingIsKept()
    {
        m_source->push({snapshotAt(1, 2), snapshotAt(2, 2)});
        m_live->finishPendingWork();
        const QString recovery = m_live->recoveryPath();
        // Another Runlane does not offer a recording in progress.
        {
            MainWindow other;
            QVERIFY(other.liveController()->recoverableFiles().isEmpty());
        }
        m_window.reset(); // the program closes without saving
        QVERIFY(QFile::exists(recovery));
        auto loaded = ProfileLoader::load(recovery);
        QCOMPARE(loaded.profile->snapshots().size(), std::size_t(2));
        // The next start offers it.
        MainWindow next;
        QCOMPARE(next.liveController()->recoverableFiles(), QStringList{QFileInfo(recovery).absoluteFilePath()});
    }

    // The recovery question's three answers, clicked as a user clicks them.
    void recoveryAnswers_data()
    {
        QTest::addColumn<QString>("answer");
        QTest::addColumn<bool>("kept");   // the recovery file is still there
        QTest::addColumn<bool>("opened"); // the saved copy is opened
        QTest::newRow("Later") << QStringLiteral("Later") << true << false;
        QTest::newRow("Discard") << QStringLiteral("Discard") << false << false;
        QTest::newRow("Save As…") << QStringLiteral("Save As…") << false << true;
    }
    void recoveryAnswers()
    {
        QFETCH(QString, answer);
        QFETCH(bool, kept);
        QFETCH(bool, opened);
        m_source->push({snapshotAt(1, 2), snapshotAt(2, 2), snapshotAt(3, 2)});
        m_live->finishPendingWork();
        const QString recovery = QFileInfo(m_live->recoveryPath()).absoluteFilePath();
        m_window.reset(); // closed without saving
        const qint64 size = QFileInfo(recovery).size();
        const QDateTime written = QFileInfo(recovery).lastModified();
        QTemporaryDir dir;
        const QString saved = dir.filePath(QStringLiteral("recovered.json"));
        MainWindow next;
        next.show();
        QSignalSpy shown(&next, &MainWindow::profileShown);
        bool answered = false;
        bool asked = false;
        next.liveController()->setSavePathChooser([&](const QString& suggestion) {
            asked = true;
            [&] { QCOMPARE(suggestion, QFileInfo(recovery).fileName()); }();
            return saved;
        });
        // The message box is modal: it is answered from the event loop it
        // runs, polled until it is there.
        auto done = std::make_shared<bool>(false);
        QString question;
        QString where;
        std::function<void()> answerOpen = [&, done] {
            if (*done)
                return;
            for (QWidget* w : QApplication::topLevelWidgets()) {
                auto* box = qobject_cast<QMessageBox*>(w);
                if (!box || !box->isVisible())
                    continue;
                question = box->text();
                where = box->informativeText();
                for (QAbstractButton* b : box->buttons()) {
                    if (b->text() == answer) {
                        answered = *done = true;
                        b->click();
                        return;
                    }
                }
            }
            QTimer::singleShot(20, answerOpen);
        };
        QTimer::singleShot(20, answerOpen);
        next.liveController()->offerRecovery();
        *done = true; // no poll outlives this test's locals
        QVERIFY(answered);
        // The URL it was recorded from, not the recovery file's name.
        QCOMPARE(question, QStringLiteral("A live recording of http://fake:1/metrics (%1 KiB, last written %2) was not saved.")
                               .arg(size / 1024)
                               .arg(written.toString(QStringLiteral("yyyy-MM-dd HH:mm"))));
        QCOMPARE(where, QStringLiteral("It is kept in %1.").arg(QDir::toNativeSeparators(recovery)));
        QCOMPARE(QFile::exists(recovery + QStringLiteral(".url")), kept);
        QCOMPARE(asked, opened);
        QCOMPARE(QFile::exists(recovery), kept);
        QCOMPARE(QFile::exists(saved), opened);
        if (opened) {
            QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 20000);
            QCOMPARE(next.document()->profile()->snapshots().size(), std::size_t(3));
        }
        QCOMPARE(next.liveController()->recoverableFiles().isEmpty(), !kept);
    }

    void anotherFileEndsFollowing()
    {
        m_source->push({snapshotAt(1, 2), snapshotAt(2, 2)});
        m_live->finishPendingWork();
        QVERIFY(m_live->isAttached());
        QSignalSpy shown(m_window.get(), &MainWindow::profileShown);
        m_window->openFile(QStringLiteral(RUNLANE_DEMO_PROFILE));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 20000);
        QVERIFY(!m_live->isAttached());
        QVERIFY(!m_window->findChild<QLabel*>(QStringLiteral("liveStatus"))->isVisible());
        // Data that was on its way is not shown over the new file.
        QCOMPARE(m_window->document()->profile()->snapshots().size(), std::size_t(0));
    }

private:
    QTemporaryDir m_data;
    std::unique_ptr<MainWindow> m_window;
    LiveController* m_live = nullptr;
    FakeSource* m_source = nullptr;
};

QTEST_MAIN(TestLiveController)
#include "tst_livecontroller.moc"
