// Opening one profile after another in the real window: every pair (A then
// B) of a representative set of files, each format and a broken file, with
// A's views in every state that refers to A's ids (a focused rank row, a
// search, a selected range and box, a zoom, the usage series shown). After
// B, every view must show B's data only, equal to what B alone gives.
//
// This is the test that would have caught the crash of issue 13 (usage
// chart rebuilt with A's series against B's labels): none of the unit
// tests drove the widgets through a change of profile.

#include "detailspane.h"
#include "findbar.h"
#include "mainwindowdriver.h"
#include "usagebands.h"
#include "usagechart.h"
#include "measurementmetrics.h"
#include "ranktable.h"
#include "warningspanel.h"
#include "widgettestsupport.h"
#include "workpool.h"

#include <QLineEdit>
#include <QSemaphore>
#include <QSettings>
#include <QThreadPool>
#include <QTableView>
#include <QSignalSpy>
#include <QtTest>

#include <algorithm>
#include <set>

using namespace runlane;
using namespace runlane::test;

namespace {

// One per format and shape: event logs with async tasks, sync call trees,
// a trace with counters, metrics without a timeline, sampled and folded profiles (aggregated),
// the bundled demo (many labels), and a file that fails to load.
const char* const kFiles[] = {
    "demo",
    "profiles/chronos-states.json",
    "profiles/enso-async.json",
    "profiles/fgh-chrome.json",
    "profiles/chrome-counters.json",
    "profiles/chroprof-snapshots.json",
    "profiles/chroprof-rows.json",
    "samples/enso/enso-format-stability-fixture.json",
    "samples/speedscope/0.6.0_two-sampled.speedscope.json",
    "samples/folded/simple.txt",
    "broken",
};

QString pathOf(const QString& name, const QTemporaryDir& dir)
{
    if (name == QLatin1String("demo"))
        return MainWindow::demoPath();
    if (name == QLatin1String("broken"))
        return dir.filePath(QStringLiteral("broken.json"));
    return dataPath(name);
}

std::multiset<std::string> names(const Profile& p, const std::vector<RankRow>& rows)
{
    std::multiset<std::string> out;
    for (const RankRow& r : rows)
        out.insert(std::string(p.labelName(r.label)));
    return out;
}

// Puts A's views into every state that holds A's ids.
void stirUp(MainWindow& window)
{
    ProfileDocument& doc = *window.document();
    const Profile* p = doc.profile();
    if (!p)
        return;
    // The busiest label focused through its rank row, as a click does.
    QAbstractItemModel* shown = window.rank()->view()->model();
    if (shown->rowCount() > 0)
        window.rank()->view()->setCurrentIndex(shown->index(0, 0));
    window.findBar()->activate();
    window.findBar()->field()->setText(QStringLiteral("a"));
    doc.setSearch(QStringLiteral("a"));
    TimeAxis& axis = *window.axis();
    const Time span = axis.visibleSpan();
    if (p->intervalCount() > 0)
        axis.selectItem(IntervalId(p->intervalCount() - 1), p->interval(IntervalId(p->intervalCount() - 1)).measurement);
    axis.setSelection(axis.visibleStart() + span / 4, axis.visibleStart() + span / 2);
    axis.setVisibleRange(axis.visibleStart() + span / 8, axis.visibleStart() + span / 2);
    settle(window);
}

} // namespace

class TestProfileSwitch : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_settings.isValid());
        useTemporarySettings(m_settings.path(), QStringLiteral("tst_profileswitch"));
        QVERIFY(m_files.isValid());
        QFile bad(m_files.filePath(QStringLiteral("broken.json")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1, \"dur\": }]}");
    }

    void everyPairShowsTheSecondOnly_data()
    {
        QTest::addColumn<QString>("first");
        QTest::addColumn<QString>("second");
        for (const char* a : kFiles) {
            for (const char* b : kFiles)
                QTest::addRow("%s then %s", a, b) << QString::fromLatin1(a) << QString::fromLatin1(b);
        }
    }

    void everyPairShowsTheSecondOnly()
    {
        QFETCH(QString, first);
        QFETCH(QString, second);
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        window.openFile(pathOf(first, m_files));
        QVERIFY(settle(window));
        closeMessageBoxes(window);
        stirUp(window);
        { const QString stale = staleState(window); QVERIFY2(stale.isEmpty(), qPrintable(stale)); }

        const QString secondPath = pathOf(second, m_files);
        const bool secondFails = second == QLatin1String("broken");
        const std::shared_ptr<const Profile> before = window.document()->sharedProfile();
        window.openFile(secondPath);
        QVERIFY(settle(window));
        closeMessageBoxes(window);
        { const QString stale = staleState(window); QVERIFY2(stale.isEmpty(), qPrintable(stale)); }

        if (secondFails) {
            // A failed load leaves A exactly as it was.
            QCOMPARE(window.document()->sharedProfile(), before);
            QVERIFY(!window.lastError().isEmpty());
            return;
        }
        // B alone, loaded here independently of the window.
        const LoadedProfile alone = loadedFile(secondPath);
        QVERIFY(!alone.isNull());
        const Profile& b = *window.document()->profile();
        QCOMPARE(window.currentPath(), secondPath);
        QCOMPARE(b.labelCount(), alone.profile->labelCount());
        QCOMPARE(b.intervalCount(), alone.profile->intervalCount());
        QCOMPARE(b.measurementCount(), alone.profile->measurementCount());

        // Nothing of A's state carries over.
        const TimeAxis& axis = *window.axis();
        QVERIFY(!axis.selection());
        QCOMPARE(axis.selectedInterval(), kNone);
        QCOMPARE(window.document()->focusLabel(), kNone);
        QCOMPARE(window.details()->html().contains(QStringLiteral("Select a box or a task")), true);

        // Rank: exactly B's whole-profile rank, read against B.
        const RankModel& model = *window.rank()->model();
        QVERIFY(model.table());
        QCOMPARE(model.profile(), &b);
        const RankTable expected = RankTable::compute(*alone.metrics, std::nullopt);
        QCOMPARE(model.rowCount(), int(expected.rows().size()));
        QCOMPARE(names(b, model.table()->rows()), names(*alone.profile, expected.rows()));
        for (int r = 0; r < model.rowCount(); ++r)
            QCOMPARE(model.index(r, RankModel::Name).data().toString(), qstr(b.labelName(model.table()->rows()[std::size_t(r)].label)));

        // Task lanes: B's async measurements.
        std::size_t async = 0;
        for (MeasurementId id = 0; id < b.measurementCount(); ++id)
            async += b.measurement(id).isAsync() ? 1 : 0;
        QCOMPARE(window.lanes()->totalTaskCount(), window.document()->isAggregated() ? async : async);

        // Icicle: B's tracks (or its merged call paths).
        if (!window.document()->isAggregated()) {
            QVERIFY(window.icicle()->source());
            QCOMPARE(window.icicle()->source()->trackCount(), b.trackCount());
        }

        // Counters: B's series in B's order, shown only if B has any and
        // the timeline is shown.
        const CounterView& counters = *window.counters();
        QCOMPARE(counters.trackCount(), b.counters().size());
        for (std::size_t k = 0; k < b.counters().size(); ++k)
            QCOMPARE(counters.trackName(k),
                     qstr(b.string(b.counters()[k].name)) + QLatin1Char(' ') + qstr(b.string(b.counters()[k].key)));
        QCOMPARE(counters.isVisible(), !b.counters().empty() && !window.document()->isAggregated());

        // Usage: B's series, every legend entry and chart band one of B's labels.
        if (const UsageSeries* s = window.usage()->series()) {
            const UsageSeries again = UsageSeries::compute(*alone.profile, window.usage()->track(), s->binWidth(),
                                                           std::size_t(window.usage()->topK()),
                                                           TimeRange{s->start(), s->start() + Time(s->binCount()) * s->binWidth()});
            QCOMPARE(s->labels().size(), again.labels().size());
            QStringList legend;
            for (const auto& entry : window.usage()->legend())
                legend << entry.name;
            QStringList bands; // bottom band first, as the legend
            for (const auto& band : window.usage()->bands().bands())
                bands << band.name;
            QCOMPARE(bands, legend);
            for (std::size_t k = 0; k < again.labels().size(); ++k)
                QCOMPARE(legend.at(qsizetype(k)), qstr(alone.profile->labelName(again.labels()[k])));
        }

        // The search typed in A is matched again in B.
        const FindBar& find = *window.findBar();
        const bool searched = first != QLatin1String("broken");
        std::size_t matches = 0;
        for (LabelId l = 0; l < b.labelCount(); ++l)
            matches += QString::fromUtf8(b.labelName(l).data(), qsizetype(b.labelName(l).size()))
                           .contains(QLatin1Char('a'), Qt::CaseInsensitive);
        QCOMPARE(window.document()->searchMatches().size(), searched ? matches : 0);
        QCOMPARE(find.isVisible(), searched);

        // Title, warnings and overview.
        QVERIFY(window.windowTitle().startsWith(second == QLatin1String("demo") ? QStringLiteral("demo profile")
                                                                                : QFileInfo(secondPath).fileName()));
        QCOMPARE(window.warnings()->topLevelItem(0)->text(1), QString::number(b.diagnostics().warningCount()));
        QCOMPARE(window.document()->loaded().overview.size(), b.trackCount());
    }

    // The crash of issue 13, deterministically: the usage chart showed a
    // series of A and was rebuilt (on the emphasis reset) against B, whose
    // labels are fewer, before it learned of B.
    void usageSeriesOfTheOldProfileIsNeverReadAgainstTheNew()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        window.showProfile(loadedFile(MainWindow::demoPath()));
        settle(window);
        QVERIFY(window.usage()->series());
        QVERIFY(window.usage()->series()->labels().size() >= 8);
        const LoadedProfile small = loadedFile(dataPath(QStringLiteral("profiles/fgh-chrome.json")));
        QCOMPARE(small.profile->labelCount(), std::size_t(3));
        // Every signal the switch sends, checked as it is sent.
        QStringList stale;
        for (auto signal : {&ProfileDocument::profileChanged, &ProfileDocument::emphasisChanged})
            connect(window.document(), signal, this, [&] {
                if (const QString s = staleState(window); !s.isEmpty())
                    stale << s;
            });
        connect(window.axis(), &TimeAxis::visibleRangeChanged, this, [&] {
            if (const QString s = staleState(window); !s.isEmpty())
                stale << s;
        });
        window.showProfile(small);
        QCOMPARE(stale, QStringList());
        QVERIFY(!window.usage()->series()); // A's is gone, B's not computed yet
        settle(window);
        QVERIFY(window.usage()->series());
        for (const LabelId l : window.usage()->series()->labels())
            QVERIFY(l < small.profile->labelCount());
    }

    // A result computed for A that arrives after B is shown is dropped.
    // The pool is held behind a gate, so A's rank, series and everything
    // else can only finish after B is shown, whatever the machine's speed.
    void aResultOfTheOldProfileArrivingLateIsDropped()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        const LoadedProfile demo = loadedFile(MainWindow::demoPath());
        const LoadedProfile small = loadedFile(dataPath(QStringLiteral("profiles/fgh-chrome.json")));
        QThreadPool* pool = workPool(); // where the views' jobs run
        const int threads = pool->maxThreadCount();
        pool->setMaxThreadCount(1);
        QSemaphore gate;
        pool->start([&gate] { gate.acquire(); });
        window.showProfile(demo);
        QVERIFY(window.rank()->isComputing()); // queued behind the gate
        QSignalSpy tables(window.rank(), &RankPanel::tableShown);
        QStringList delivered; // what each delivery of a series showed
        connect(window.usage(), &UsageChart::seriesShown, this, [&] {
            delivered << (window.document()->sharedProfile() == small.profile && window.usage()->series()
                                  && window.usage()->series()->labels().size() <= small.profile->labelCount()
                              ? QStringLiteral("B")
                              : QStringLiteral("not B"));
        });
        window.showProfile(small);
        gate.release();
        settle(window);
        pool->setMaxThreadCount(threads);
        QCOMPARE(window.rank()->model()->profile(), small.profile.get());
        QCOMPARE(window.rank()->model()->rowCount(), 3);
        QCOMPARE(tables.size(), 1); // B's table only
        QVERIFY(!delivered.isEmpty());
        QVERIFY2(!delivered.contains(QStringLiteral("not B")), qPrintable(delivered.join(QLatin1Char(' '))));
        const QString stale = staleState(window);
        QVERIFY2(stale.isEmpty(), qPrintable(stale));
    }

private:
    QTemporaryDir m_settings;
    QTemporaryDir m_files;
};

QTEST_MAIN(TestProfileSwitch)
#include "tst_profileswitch.moc"
