#include "core/compare/criticalpathworkload.h"
#include "baselinereport.h"
#include "comparesession.h"
#include "criticalpathbar.h"
#include "criticalpathcomparemodel.h"
#include "criticalpathcomparetab.h"
#include "criticalpathbreakdownmodel.h"
#include "criticalpathpanel.h"
#include "criticalpathsegmentmodel.h"
#include "criticalpathstate.h"
#include "profiledocument.h"
#include "runset.h"
#include "timeaxis.h"
#include "widgettestsupport.h"

#include <QAbstractItemModelTester>
#include <QListWidget>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlane;
using namespace runlane::test;

namespace {

using Kind = CriticalPath::Kind;
using Scope = CriticalPathPanel::Scope;

// "kind label time share" per row of a table, times as the model's raw ns.
QStringList rowsOf(const QAbstractItemModel& model)
{
    QStringList rows;
    for (int r = 0; r < model.rowCount(); ++r) {
        rows << QStringLiteral("%1 %2 %3 %4")
                    .arg(model.index(r, CriticalPathBreakdownModel::Kind).data().toString(),
                         model.index(r, CriticalPathBreakdownModel::Name).data().toString())
                    .arg(model.index(r, CriticalPathBreakdownModel::Ns).data(CriticalPathBreakdownModel::NsRole).toLongLong())
                    .arg(model.index(r, CriticalPathBreakdownModel::Share).data().toString());
    }
    return rows;
}

} // namespace

class TestCriticalPathPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_axis = std::make_unique<TimeAxis>();
        m_document = std::make_unique<ProfileDocument>(m_axis.get());
        m_document->setProfile(criticalPathExample());
        QVERIFY(m_document->hasProfile());
        m_panel = std::make_unique<CriticalPathPanel>(m_document.get());
        m_panel->resize(1000, 400);
    }
    void cleanup()
    {
        m_panel.reset();
        m_document.reset();
        m_axis.reset();
    }

    // Without a path: the panel says how to get one; no rows, an empty bar.
    void emptyState()
    {
        QCOMPARE(m_panel->scope(), Scope::Task);
        QVERIFY(m_panel->message().contains(QStringLiteral("press <b>P</b>")));
        QCOMPARE(m_panel->segmentModel()->rowCount(), 0);
        QCOMPARE(m_panel->labelModel()->rowCount(), 0);
        QCOMPARE(m_panel->bar()->wall(), Time(0));
        m_panel->setScope(Scope::Label);
        QVERIFY(m_panel->message().contains(QStringLiteral("select a row of the rank")));
    }

    // handler's path: §9's nine segments to the tick, in time order.
    void segmentsOfTheWorkedExample()
    {
        const Profile& p = *m_document->profile();
        QVERIFY(m_document->criticalPath()->show(byName(p, "handler")));
        CriticalPathSegmentModel* model = m_panel->segmentModel();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QStringList rows;
        for (int r = 0; r < model->rowCount(); ++r) {
            rows << QStringLiteral("%1-%2 %3 %4 %5")
                        .arg(model->index(r, 0).data(CriticalPathSegmentModel::StartRole).toLongLong())
                        .arg(model->index(r, 0).data(CriticalPathSegmentModel::EndRole).toLongLong())
                        .arg(model->index(r, CriticalPathSegmentModel::Kind).data().toString(),
                             model->index(r, CriticalPathSegmentModel::Label).data().toString(),
                             model->index(r, CriticalPathSegmentModel::Track).data().toString());
        }
        const QStringList expected = {
            QStringLiteral("0-5 running handler main"),    QStringLiteral("5-8 running query main"),
            QStringLiteral("8-10 running handler main"),   QStringLiteral("10-11 waiting sleepAsync main"),
            QStringLiteral("11-12 idle  main"),            QStringLiteral("12-40 queued other main"),
            QStringLiteral("40-46 running query main"),    QStringLiteral("46-50 queued flush main"),
            QStringLiteral("50-52 running handler main"),
        };
        QCOMPARE(rows, expected);
        // Times in the ruler's format: points from the start, durations.
        QCOMPARE(model->index(5, CriticalPathSegmentModel::Start).data().toString(), QStringLiteral("12 ns"));
        QCOMPARE(model->index(5, CriticalPathSegmentModel::Duration).data().toString(), QStringLiteral("28 ns"));
        QCOMPARE(model->index(5, CriticalPathSegmentModel::Duration).data(CriticalPathSegmentModel::ShareRole).toDouble(),
                 28.0 / 52.0);
        QCOMPARE(m_panel->scope(), Scope::Task);
        QVERIFY(m_panel->message().contains(QStringLiteral("Critical path of <b>handler")));
    }

    // A load's next version walks the path again: the segments the user
    // scrolled to stay at the top, found by time (the fuller version has
    // more segments before them); another profile's path starts at its top.
    void aRefinementKeepsTheSegmentsScrolledTo_data()
    {
        QTest::addColumn<bool>("refine");
        QTest::addColumn<int>("previewsWithoutIt");
        QTest::newRow("refined") << true << 0;
        QTest::newRow("refined after a preview without it") << true << 1;
        QTest::newRow("refined after two previews without it") << true << 2;
        QTest::newRow("another profile") << false << 0;
    }
    void aRefinementKeepsTheSegmentsScrolledTo()
    {
        QFETCH(bool, refine);
        QFETCH(int, previewsWithoutIt);
        // A 1 ms call "outer" with 60 children of 5 µs, 10 µs apart: its path
        // alternates between outer and a child. The fuller version has 20
        // more children in its first 100 µs, and another call first.
        const auto version = [](bool fuller) {
            QByteArray text = "[";
            const auto call = [&text](const QByteArray& name, double ts, double dur) {
                text += "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"" + name + "\",\"ts\":"
                    + QByteArray::number(ts) + ",\"dur\":" + QByteArray::number(dur) + "},";
            };
            if (fuller)
                call("first", 0, 5);
            call("outer", 10, 1000);
            for (int i = 0; i < 60; ++i)
                call("child" + QByteArray::number(i), 100 + 10 * i, 5);
            for (int i = 0; fuller && i < 20; ++i)
                call("early" + QByteArray::number(i), 11 + 4 * i, 2);
            text.chop(1);
            return loadedText(text + "]");
        };
        const LoadedProfile before = version(false);
        m_document->setProfile(before);
        m_panel->show();
        QVERIFY(m_document->criticalPath()->show(byName(*before.profile, "outer")));
        CriticalPathSegmentModel* model = m_panel->segmentModel();
        QTableView* view = m_panel->segmentView();
        QCOMPARE(model->rowCount(), 121); // outer, then (child, outer) 60 times
        const auto topStart = [view] { return view->indexAt(QPoint(0, 0)).data(CriticalPathSegmentModel::StartRole).toLongLong(); };
        QCOMPARE(topStart(), 10'000);
        view->scrollTo(model->index(81, 0), QAbstractItemView::PositionAtTop);
        const qint64 scrolledTo = topStart();
        QCOMPARE(scrolledTo, model->index(81, 0).data(CriticalPathSegmentModel::StartRole).toLongLong());
        QVERIFY(scrolledTo > 300'000);
        const LoadedProfile next = version(true);
        QVERIFY(byName(*next.profile, "outer") != byName(*before.profile, "outer"));
        // Previews in between that keep only longer boxes than outer's.
        for (int i = 0; i < previewsWithoutIt; ++i) {
            m_document->refineProfile(loadVersion({"main"}, true, 1'050'000));
            QCOMPARE(model->rowCount(), 0);
            QCOMPARE(m_document->leftOutPath(), QStringLiteral("outer"));
        }
        if (refine) {
            m_document->refineProfile(next);
        } else {
            m_document->setProfile(next);
            QVERIFY(m_document->criticalPath()->show(byName(*next.profile, "outer")));
        }
        QCOMPARE(model->rowCount(), 161); // and (early, outer) 20 times
        QCOMPARE(topStart(), refine ? scrolledTo : 10'000);
    }

    // The breakdown by (kind, label), largest first, exact ns and shares of
    // the 52 ns; by process, the one process; the bar's shares per kind.
    void breakdownOfTheWorkedExample()
    {
        const Profile& p = *m_document->profile();
        QVERIFY(m_document->criticalPath()->show(byName(p, "handler")));
        QAbstractItemModelTester labels(m_panel->labelModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester processes(m_panel->processModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QStringList expected = {
            QStringLiteral("queued other 28 53.8 %"),  QStringLiteral("running handler 9 17.3 %"),
            QStringLiteral("running query 9 17.3 %"),  QStringLiteral("queued flush 4 7.7 %"),
            QStringLiteral("idle  1 1.9 %"),           QStringLiteral("waiting sleepAsync 1 1.9 %"),
        };
        QCOMPARE(rowsOf(*m_panel->labelModel()), expected);
        // The view sorts by time, largest first: the same order.
        QCOMPARE(rowsOf(*m_panel->labelView()->model()), expected);
        QCOMPARE(m_panel->processModel()->rowCount(), 1);
        QCOMPARE(m_panel->processModel()->index(0, CriticalPathBreakdownModel::Ns).data(CriticalPathBreakdownModel::NsRole),
                 QVariant(qlonglong(52)));
        const CriticalPathBar* bar = m_panel->bar();
        QCOMPARE(bar->wall(), Time(52));
        QCOMPARE(bar->share(Kind::Running), 18.0 / 52.0);
        QCOMPARE(bar->share(Kind::Queued), 32.0 / 52.0);
        QCOMPARE(bar->share(Kind::Idle), 1.0 / 52.0);
        QCOMPARE(bar->share(Kind::Waiting), 1.0 / 52.0);
        QCOMPARE(bar->legendText(), QStringLiteral("running 34.6 % · queued 61.5 % · idle 1.9 % · waiting 1.9 %"));
    }

    // Clicking row 5 (12–40, queued behind other) selects other's interval
    // and brings [12, 40] into view from a zoom that did not show it.
    void clickingASegmentSelectsAndReveals()
    {
        const Profile& p = *m_document->profile();
        QVERIFY(m_document->criticalPath()->show(byName(p, "handler")));
        m_panel->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
        m_axis->setVisibleRange(0, 5);
        QTableView* view = m_panel->segmentView();
        const QRect cell = view->visualRect(view->model()->index(5, CriticalPathSegmentModel::Label));
        QVERIFY(cell.isValid());
        // The interval is revealed, for the icicle to bring its row on screen.
        QSignalSpy revealed(m_document.get(), &ProfileDocument::intervalRevealed);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(m_axis->selectedMeasurement(), byName(p, "other"));
        QCOMPARE(m_axis->selectedInterval(), intervalNamed(p, "other"));
        QCOMPARE(revealed.count(), 1);
        QCOMPARE(revealed.last().at(0).value<IntervalId>(), intervalNamed(p, "other"));
        QVERIFY(m_axis->visibleStart() <= 12 && m_axis->visibleEnd() >= 40);
        // A quarter of the 28 ns each side.
        QCOMPARE(m_axis->visibleStart(), Time(5));
        QCOMPARE(m_axis->visibleEnd(), Time(47));
        // A segment's label is shown whole: a generated trace's longest
        // names are 27 characters ("render::dispatch_async_2667").
        const QFontMetrics metrics = view->fontMetrics();
        QVERIFY(view->columnWidth(CriticalPathSegmentModel::Label)
                >= metrics.horizontalAdvance(QStringLiteral("render::dispatch_async_2667")) + 8);
        // Idle names no one: the task that was ready (query) is selected.
        m_panel->activateSegment(4);
        QCOMPARE(m_axis->selectedMeasurement(), byName(p, "query"));
        QCOMPARE(m_axis->selectedInterval(), kNone);
        QCOMPARE(revealed.count(), 1); // no interval, no row to show
    }

    // A label's tasks summed off the GUI thread: handler's one task is its
    // path; query's (5–46) waits for its timer instead of running handler.
    void labelAggregate_data()
    {
        QTest::addColumn<QString>("label");
        QTest::addColumn<qlonglong>("wall");
        QTest::addColumn<QStringList>("rows");
        QTest::newRow("handler") << QStringLiteral("handler") << 52LL
                                 << QStringList{QStringLiteral("queued other 28 53.8 %"),
                                                QStringLiteral("running handler 9 17.3 %"),
                                                QStringLiteral("running query 9 17.3 %"),
                                                QStringLiteral("queued flush 4 7.7 %"), QStringLiteral("idle  1 1.9 %"),
                                                QStringLiteral("waiting sleepAsync 1 1.9 %")};
        QTest::newRow("query") << QStringLiteral("query") << 41LL
                               << QStringList{QStringLiteral("queued other 28 68.3 %"),
                                              QStringLiteral("running query 9 22.0 %"),
                                              QStringLiteral("waiting sleepAsync 3 7.3 %"),
                                              QStringLiteral("idle  1 2.4 %")};
    }
    void labelAggregate()
    {
        QFETCH(QString, label);
        QFETCH(qlonglong, wall);
        QFETCH(QStringList, rows);
        const Profile& p = *m_document->profile();
        QSignalSpy shown(m_panel.get(), &CriticalPathPanel::aggregateShown);
        m_panel->setScope(Scope::Label);
        m_panel->showLabel(labelNamed(p, label.toStdString()));
        QVERIFY(m_panel->message().contains(QStringLiteral("Summing")));
        QVERIFY(shown.wait(5000));
        QCOMPARE(shown.count(), 1);
        QCOMPARE(m_panel->summary()->tasks().size(), std::size_t(1));
        QCOMPARE(m_panel->summary()->wall(), Time(wall));
        QCOMPARE(rowsOf(*m_panel->labelModel()), rows);
        QCOMPARE(m_panel->bar()->wall(), Time(wall));
        // The slowest tasks (one here): picking it shows its path.
        QCOMPARE(m_panel->slowestList()->count(), 1);
        QCOMPARE(m_panel->slowestTasks(), std::vector<MeasurementId>{byName(p, label.toStdString())});
        m_panel->pickSlowest(0);
        QCOMPARE(m_document->criticalPath()->measurement(), byName(p, label.toStdString()));
        QCOMPARE(m_panel->scope(), Scope::Task);
        QCOMPARE(m_panel->summary()->wall(), Time(wall));
        // The aggregate stays for its scope.
        m_panel->setScope(Scope::Label);
        QCOMPARE(rowsOf(*m_panel->labelModel()), rows);
    }

    // Compare mode: the label's paths against the base runs' tasks of the
    // label of the same name (another id there: the base's log has other
    // labels first). The new run's waker (query) is planted 30 % slower:
    // Σ (10000 + 100 i) × 1.3 over 20 tasks = 284.7 µs against 219 µs.
    void comparesTheLabelWithTheBase()
    {
        CriticalPathWorkload base;
        base.othersFirst = true;
        CriticalPathWorkload next;
        next.percent = 130;
        QTemporaryDir dir;
        m_document->setProfile(loadedFile(writeTemp(dir, next.log(), QStringLiteral("new.json"))));
        m_document->compare()->loadBase({writeTemp(dir, base.log(), QStringLiteral("base.json"))});
        m_document->compare()->finishPendingWork();
        QVERIFY(m_document->compare()->isActive());
        const Profile& p = *m_document->profile();
        QSignalSpy shown(m_panel.get(), &CriticalPathPanel::aggregateShown);
        m_panel->setScope(Scope::Label);
        m_panel->showLabel(labelNamed(p, "handler"));
        QVERIFY(shown.wait(5000));
        CriticalPathCompareTab* tab = m_panel->compareTab();
        tab->finishPendingWork();
        const QModelIndex query = tab->labelModel()->match(tab->labelModel()->index(0, CriticalPathCompareModel::Name),
                                                           Qt::DisplayRole, QStringLiteral("query"), 1, Qt::MatchExactly)
                                      .value(0);
        QVERIFY(query.isValid());
        const auto cell = [&](int column) { return query.siblingAtColumn(column).data().toString(); };
        QCOMPARE(cell(CriticalPathCompareModel::Kind), QStringLiteral("running"));
        QCOMPARE(cell(CriticalPathCompareModel::Base), QString::fromUtf8("219 µs"));
        QCOMPARE(cell(CriticalPathCompareModel::New), QString::fromUtf8("285 µs"));
        QCOMPARE(cell(CriticalPathCompareModel::Delta), QString::fromUtf8("+65.7 µs"));
        QCOMPARE(cell(CriticalPathCompareModel::DeltaPct), QString::fromUtf8("+30.0 %"));
        QCOMPARE(query.siblingAtColumn(CriticalPathCompareModel::Delta).data(CriticalPathCompareModel::DeltaRole).toDouble(),
                 65700.0);
        // The running kind regressed by the same 65.7 µs; the tab is in the tables.
        const QAbstractItemModel& kinds = *tab->kindModel();
        QCOMPARE(kinds.index(0, CriticalPathCompareModel::Kind).data().toString(), QStringLiteral("running"));
        QCOMPARE(kinds.index(0, CriticalPathCompareModel::Delta).data().toString(), QString::fromUtf8("+65.7 µs"));
        QCOMPARE(kinds.index(0, CriticalPathCompareModel::Verdict).data().toString(), QStringLiteral("regressed"));
        QVERIFY(tab->message().contains(QStringLiteral("1 base run")));
        auto* tables = qobject_cast<QTabWidget*>(tab->parentWidget()->parentWidget());
        QVERIFY(tables);
        QCOMPARE(tables->tabText(tables->indexOf(tab)), QStringLiteral("Base vs new"));
        // The Task scope has no tab of it; leaving compare mode clears and removes it.
        m_panel->setScope(Scope::Task);
        QCOMPARE(tables->indexOf(tab), -1);
        m_panel->setScope(Scope::Label);
        QVERIFY(tables->indexOf(tab) >= 0);
        m_document->compare()->stop();
        QCOMPARE(tables->indexOf(tab), -1);
        QCOMPARE(tab->kindModel()->rowCount(), 0);
        QVERIFY(tab->message().contains(QStringLiteral("Open a base run")));
    }

    // A baseline report keeps per-label values only: the tab says it has no paths to compare.
    void baselineReportKeepsNoPaths()
    {
        CriticalPathWorkload workload;
        QTemporaryDir dir;
        const QString path = writeTemp(dir, workload.log(), QStringLiteral("new.json"));
        m_document->setProfile(loadedFile(path));
        RunSet runs;
        runs.add(*m_document->profile(), "base.json", true);
        m_document->compare()->loadBase(
            {writeTemp(dir, QByteArray::fromStdString(BaselineReport::write(runs, "test")), QStringLiteral("baseline.json"))});
        m_document->compare()->finishPendingWork();
        QVERIFY(m_document->compare()->isActive());
        QVERIFY(m_document->compare()->base()->profiles.empty());
        QSignalSpy shown(m_panel.get(), &CriticalPathPanel::aggregateShown);
        m_panel->setScope(Scope::Label);
        m_panel->showLabel(labelNamed(*m_document->profile(), "handler"));
        QVERIFY(shown.wait(5000));
        m_panel->compareTab()->finishPendingWork();
        QCOMPARE(m_panel->compareTab()->kindModel()->rowCount(), 0);
        QCOMPARE(m_panel->compareTab()->message(),
                 QStringLiteral("The base is a baseline report, which keeps no critical paths: compare with the base profiles."));
    }

    // The rank's row (the focused label) is followed once the panel is shown.
    void followsTheFocusWhenShown()
    {
        const Profile& p = *m_document->profile();
        QSignalSpy shown(m_panel.get(), &CriticalPathPanel::aggregateShown);
        m_document->setFocusLabel(labelNamed(p, "query"));
        QCOMPARE(m_panel->label(), kNone); // hidden: nothing computed
        QVERIFY(!m_panel->isComputing());
        m_panel->show();
        QCOMPARE(m_panel->label(), labelNamed(p, "query"));
        QCOMPARE(m_panel->scope(), Scope::Label);
        QVERIFY(shown.wait(5000));
        QCOMPARE(m_panel->summary()->wall(), Time(41));
        // Shown: the next focus is computed at once.
        m_document->setFocusLabel(labelNamed(p, "handler"));
        QCOMPARE(m_panel->label(), labelNamed(p, "handler"));
        QVERIFY(shown.wait(5000));
        QCOMPARE(m_panel->summary()->wall(), Time(52));
    }

    // Another profile while the aggregate computes: its result is dropped,
    // no stale rows, no crash; and a cancel shows nothing either.
    void profileSwitchDropsTheAggregate()
    {
        const Profile& p = *m_document->profile();
        QSignalSpy shown(m_panel.get(), &CriticalPathPanel::aggregateShown);
        m_panel->setScope(Scope::Label);
        m_panel->showLabel(labelNamed(p, "handler"));
        QVERIFY(m_panel->isComputing());
        m_document->setProfile(criticalPathExample());
        QTest::qWait(200);
        QCOMPARE(shown.count(), 0);
        QCOMPARE(m_panel->label(), kNone);
        QCOMPARE(m_panel->labelModel()->rowCount(), 0);
        QCOMPARE(m_panel->slowestList()->count(), 0);
        QVERIFY(!m_panel->summary());

        m_panel->showLabel(labelNamed(*m_document->profile(), "handler"));
        m_panel->cancel();
        QTest::qWait(200);
        QCOMPARE(shown.count(), 0);
        QVERIFY(m_panel->message().startsWith(QStringLiteral("Cancelled")));
        QCOMPARE(m_panel->labelModel()->rowCount(), 0);
    }

    // A format without wakers says why; the task's path is still shown.
    void noWakersSaysWhy()
    {
        QVERIFY(!m_panel->message().contains(QStringLiteral("No wakers")));
        m_document->setProfile(loadedFile(QStringLiteral(RUNLANE_TEST_DATA "/samples/folded/simple.txt")));
        QVERIFY(m_document->hasProfile());
        QVERIFY(m_panel->message().contains(QStringLiteral("No wakers: this format records no wakes")));
    }

    // A preview has no wakers whatever its format (they are bound when the
    // load ends): it says so, not that the format records none, and the
    // whole profile of a format with flows says nothing.
    void aPreviewSaysItsWakersComeLater_data()
    {
        QTest::addColumn<int>("partial"); // -1: the whole file
        QTest::addColumn<int>("source");
        QTest::addColumn<QString>("note"); // the message's last line; empty: none
        const QString yet = QStringLiteral("No wakers: flows, wakes and creators are bound when the load ends, so in "
                                           "this preview a pause is waiting, not the time of whoever ended it.");
        const QString none = QStringLiteral("No wakers: this format records no wakes (no children that wake their "
                                            "parent, no wakers, flows or creators): a pause is waiting, not the time "
                                            "of whoever ended it.");
        QTest::newRow("a preview") << int(PartialLoad::Kind::Preview) << int(WakeSource::None) << yet;
        QTest::newRow("the whole file, with flows") << -1 << int(WakeSource::Flows) << QString();
        QTest::newRow("the whole file, without wakers") << -1 << int(WakeSource::None) << none;
        QTest::newRow("a load stopped and kept") << int(PartialLoad::Kind::Cut) << int(WakeSource::None) << none;
    }

    void aPreviewSaysItsWakersComeLater()
    {
        QFETCH(int, partial);
        QFETCH(int, source);
        QFETCH(QString, note);
        ProfileBuilder builder("Chrome Trace Event Format");
        const TrackId track = builder.addTrack(TrackInfo{});
        builder.addCall(track, builder.label("parse"), 0, 2'000'000, 0);
        builder.setWakeSource(WakeSource(source));
        if (partial >= 0)
            markPartial(builder, PartialLoad::Kind(partial));
        m_document->setProfile(LoadedProfile::prepare(builder.build(), QStringLiteral("t.json")));
        const QString message = m_panel->message();
        const qsizetype at = message.lastIndexOf(QStringLiteral("<br><i>"));
        if (note.isEmpty()) {
            QCOMPARE(at, qsizetype(-1));
        } else {
            QVERIFY(at >= 0);
            QCOMPARE(message.mid(at), QStringLiteral("<br><i>") + note + QStringLiteral("</i>"));
        }
    }

    // The path shown in one preview of a loading file, its task left out
    // of the next (shorter than it keeps): the panel says so rather than "No
    // path shown", and shows the path again in the whole profile.
    void saysWhenAPreviewLeftThePathOut()
    {
        m_panel->setScope(Scope::Task);
        m_document->setProfile(loadVersion({"main", "parse"}, true));
        const Profile& first = *m_document->profile();
        QVERIFY(m_document->criticalPath()->show(first.interval(intervalNamed(first, "parse")).measurement));
        QVERIFY(m_panel->message().startsWith(QStringLiteral("Critical path of <b>parse</b>")));
        m_document->refineProfile(loadVersion({"main"}, true, 1'050'000));
        QVERIFY2(m_panel->message().startsWith(
                     QStringLiteral("The path of <b>parse</b> is not in this preview of the file (it keeps boxes of "
                                    "1.05 ms or more): it is shown again when a version that has its task arrives, "
                                    "the whole profile at the latest.<br>")),
                 qPrintable(m_panel->message()));
        m_document->refineProfile(loadVersion({"main", "load", "parse"}, false));
        QVERIFY2(m_panel->message().startsWith(QStringLiteral("Critical path of <b>parse</b>")), qPrintable(m_panel->message()));
        m_document->setProfile(loadVersion({"main"}, false));
        QVERIFY(m_panel->message().startsWith(QStringLiteral("No path shown")));
    }

    // CSV with runlane-cli critical-path --format csv's columns: the
    // breakdown, and (--each) the task's segments.
    void exportsCsv()
    {
        const Profile& p = *m_document->profile();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cp.csv"));
        QString error;
        QVERIFY(!m_panel->exportCsv(path, CriticalPathPanel::CsvTable::Breakdown, &error));
        QVERIFY(m_document->criticalPath()->show(byName(p, "handler")));
        QVERIFY(m_panel->exportCsv(path, CriticalPathPanel::CsvTable::Breakdown, &error));
        QCOMPARE(readAll(path), QStringLiteral("kind,name,file,line,ns\n"
                                               "queued,other,app.nim,40,28\n"
                                               "running,handler,app.nim,10,9\n"
                                               "running,query,app.nim,20,9\n"
                                               "queued,flush,app.nim,50,4\n"
                                               "idle,,,,1\n"
                                               "waiting,sleepAsync,app.nim,30,1\n"));
        QVERIFY(m_panel->exportCsv(path, CriticalPathPanel::CsvTable::Segments, &error));
        QCOMPARE(readAll(path), QStringLiteral("task_created_ns,start_ns,end_ns,kind,name,track\n"
                                               "0,0,5,running,handler,main\n"
                                               "0,5,8,running,query,main\n"
                                               "0,8,10,running,handler,main\n"
                                               "0,10,11,waiting,sleepAsync,main\n"
                                               "0,11,12,idle,,main\n"
                                               "0,12,40,queued,other,main\n"
                                               "0,40,46,running,query,main\n"
                                               "0,46,50,queued,flush,main\n"
                                               "0,50,52,running,handler,main\n"));
    }

    // The panel as PNG: its size, the bar's kinds in their colours.
    void exportsImage()
    {
        const Profile& p = *m_document->profile();
        QVERIFY(m_document->criticalPath()->show(byName(p, "handler")));
        m_panel->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
        const QImage image = m_panel->image(2.0);
        QCOMPARE(image.size(), m_panel->size() * 2);
        const CriticalPathBar* bar = m_panel->bar();
        const QPoint origin = bar->mapTo(m_panel.get(), QPoint(0, 0));
        const int width = bar->width() - 8; // the bar's margins of 4
        // Running is the first 34.6 %, queued the next 61.5 %.
        QCOMPARE(pixelAt(image, QPointF(origin.x() + 4 + width * 0.17, origin.y() + 12)),
                 rgb(CriticalPathBar::kindColor(Kind::Running).rgb()));
        QCOMPARE(pixelAt(image, QPointF(origin.x() + 4 + width * 0.65, origin.y() + 12)),
                 rgb(CriticalPathBar::kindColor(Kind::Queued).rgb()));
    }

private:
    std::unique_ptr<TimeAxis> m_axis;
    std::unique_ptr<ProfileDocument> m_document;
    std::unique_ptr<CriticalPathPanel> m_panel;
};

QTEST_MAIN(TestCriticalPathPanel)
#include "tst_criticalpathpanel.moc"
