// Compare mode on the real MainWindow, offscreen, driven as a user drives
// it: File ▸ Compare with…, drops (Shift, the compare target), the compare
// rank's rows and colours, the differential flame graph's pixels for a
// planted regression, the removed paths, the exports, a base that cannot
// be read.

#include "baselinereport.h"
#include "comparecontroller.h"
#include "comparefiltermodel.h"
#include "comparemodel.h"
#include "comparesession.h"
#include "compareusagechart.h"
#include "core/compare/runsgenerator.h"
#include "diffcolors.h"
#include "difflegend.h"
#include "droptargets.h"
#include "icicleview.h"
#include "imageexporter.h"
#include "mainwindow.h"
#include "mainwindowdriver.h"
#include "profiledocument.h"
#include "profileloader.h"
#include "rankpanel.h"
#include "removedpathspanel.h"
#include "timeruler.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QLineSeries>
#include <QLabel>
#include <QMimeData>
#include <QTableView>
#include <QTreeWidget>
#include <QtTest>

#include <sys/stat.h>

using namespace runlane;
using namespace runlane::test;
using Verdict = Comparison::Verdict;

namespace {

bool writeFile(const QString& path, const QByteArray& text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
}

int rowNamed(const QAbstractItemModel& model, const QString& name)
{
    for (int r = 0; r < model.rowCount(); ++r) {
        if (model.index(r, CompareModel::Name).data().toString() == name)
            return r;
    }
    return -1;
}

void drop(MainWindow& window, const QString& file, QPoint at, Qt::KeyboardModifiers modifiers)
{
    QMimeData data;
    data.setUrls({QUrl::fromLocalFile(file)});
    QDragEnterEvent enter(at, Qt::CopyAction, &data, Qt::LeftButton, modifiers);
    QApplication::sendEvent(&window, &enter);
    QDragMoveEvent move(at, Qt::CopyAction, &data, Qt::LeftButton, modifiers);
    QApplication::sendEvent(&window, &move);
    QDropEvent dropped(at, Qt::CopyAction, &data, Qt::LeftButton, modifiers);
    QApplication::sendEvent(&window, &dropped);
}

} // namespace

class TestCompare : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_settings.isValid());
        useTemporarySettings(m_settings.path(), QStringLiteral("tst_compare"));
        QVERIFY(m_files.isValid());
        // One run a side of 20 labels; no run-to-run noise, 1 % call to
        // call. The new run: f7 30 % slower, f3 30 % faster, f19 gone and
        // "fresh" new at its place.
        RunsGenerator base(11);
        base.noise = 0;
        QVERIFY(writeFile(path("base.json"), base.chronosLog()));
        RunsGenerator next(12);
        next.noise = 0;
        next.factors = {{"f7", 1.3}, {"f3", 0.7}};
        QByteArray text = next.chronosLog();
        text.replace("\"proc\":\"f19\"", "\"proc\":\"fresh\"");
        QVERIFY(writeFile(path("new.json"), text));
        QVERIFY(writeFile(path("broken.json"), "{\"chronosFutureEvents\": 1, \"events\": [{\"t\": }"));
        // Cut in the middle of an event: loads what came before, with a warning.
        QByteArray cut = base.chronosLog();
        cut.truncate(cut.size() / 2);
        QVERIFY(writeFile(path("cut.json"), cut));
    }

    void compareWithFromTheMenu()
    {
        MainWindow window;
        QVERIFY(openNew(window));
        QCOMPARE(window.windowTitle(), QStringLiteral("new.json — Runlane"));
        window.compareController()->setOpenFilesChooser([this] { return QStringList{path("base.json")}; });
        window.action(QStringLiteral("compareWith"))->trigger();
        settle(window);
        CompareSession* session = window.document()->compare();
        QVERIFY(session->isActive());
        QVERIFY(session->comparison());
        // Which is which, in the title and the status bar.
        QCOMPARE(window.windowTitle(), QStringLiteral("new.json (new) vs base.json (base) — Runlane"));
        QVERIFY2(window.statusText().startsWith(QStringLiteral("New: new.json · base: base.json · exec: 1 regressed, 1 improved")),
                 qPrintable(window.statusText()));

        // The compare rank: one row per label, verdicts of the per-call test.
        RankPanel* rank = window.rank();
        QVERIFY(rank->isComparing());
        QVERIFY(rank->compareView()->isVisible());
        QVERIFY(!rank->view()->isVisible());
        CompareModel* model = rank->compareModel();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model->rowCount(), 21); // 19 matched, 1 added, 1 removed
        QCOMPARE(model->shown()->test(), Comparison::Test::Calls);
        const std::map<QString, Verdict> expected{{"f7", Verdict::Regressed},
                                                  {"f3", Verdict::Improved},
                                                  {"fresh", Verdict::Added},
                                                  {"f19", Verdict::Removed}};
        for (int r = 0; r < model->rowCount(); ++r) {
            const QString name = model->index(r, CompareModel::Name).data().toString();
            const auto it = expected.find(name);
            const Verdict verdict = Verdict(model->index(r, CompareModel::Verdict).data(CompareModel::VerdictRole).toInt());
            QCOMPARE(verdict, it == expected.end() ? Verdict::Unchanged : it->second);
            // Rows coloured by verdict.
            QCOMPARE(model->index(r, CompareModel::Delta).data(Qt::ForegroundRole).value<QBrush>().color(),
                     DiffColors::verdictText(verdict));
        }
        // Sorted by the size of Δ: f7 (+30 % of 7.65 ms) before f3 (−30 % of 3.85 ms).
        const QAbstractItemModel* shown = rank->compareView()->model();
        QCOMPARE(shown->index(0, CompareModel::Name).data().toString(), QStringLiteral("f7"));
        QCOMPARE(shown->index(1, CompareModel::Name).data().toString(), QStringLiteral("f3"));
        const double slowerPct = shown->index(0, CompareModel::DeltaPct).data(CompareModel::SortRole).toDouble();
        const double fasterPct = shown->index(1, CompareModel::DeltaPct).data(CompareModel::SortRole).toDouble();
        QVERIFY2(slowerPct > 0.28 && slowerPct < 0.32, qPrintable(QString::number(slowerPct)));
        QVERIFY2(fasterPct > -0.32 && fasterPct < -0.28, qPrintable(QString::number(fasterPct)));
        QCOMPARE(shown->index(0, CompareModel::DeltaPct).data().toString(), QString::asprintf("%+.1f %%", slowerPct * 100));
        // The rows' pixels: a regressed row's tint behind its cells.
        QApplication::processEvents();
        const QImage grabbed = rank->compareView()->viewport()->grab().toImage();
        const QRect cell = rank->compareView()->visualRect(shown->index(0, CompareModel::Verdict));
        QCOMPARE(QColor(grabbed.pixel(cell.right() - 2, cell.center().y())), DiffColors::verdictBackground(Verdict::Regressed));
        const QRect cell2 = rank->compareView()->visualRect(shown->index(1, CompareModel::Verdict));
        QCOMPARE(QColor(grabbed.pixel(cell2.right() - 2, cell2.center().y())), DiffColors::verdictBackground(Verdict::Improved));

        // Filter by verdict.
        rank->verdictBox()->setCurrentIndex(2); // regressed
        QCOMPARE(rank->shownRowCount(), 1);
        rank->verdictBox()->setCurrentIndex(1); // changed
        QCOMPARE(rank->shownRowCount(), 2);
        rank->verdictBox()->setCurrentIndex(0);
        QCOMPARE(rank->shownRowCount(), 21);
        // Another metric: calls did not change.
        rank->metricBox()->setCurrentIndex(rank->metricBox()->findText(QStringLiteral("calls")));
        const int f7 = rowNamed(*model, QStringLiteral("f7"));
        QCOMPARE(model->index(f7, CompareModel::Base).data().toString(), QStringLiteral("20"));
        QCOMPARE(model->index(f7, CompareModel::Calls).data().toString(), QStringLiteral("20 → 20"));
        QCOMPARE(model->index(f7, CompareModel::New).data().toString(), QStringLiteral("20"));
        QCOMPARE(Verdict(model->index(f7, CompareModel::Verdict).data(CompareModel::VerdictRole).toInt()), Verdict::Unchanged);
        // Working vs waiting: f7's futures run from creation to end, so its
        // Δ wall is its Δ exec and it waited no longer.
        QCOMPARE(model->index(f7, CompareModel::DeltaWall).data().toString(),
                 model->index(f7, CompareModel::DeltaExec).data().toString());
        QVERIFY(model->index(f7, CompareModel::DeltaExec).data().toString().startsWith(QStringLiteral("+2.")));
        QCOMPARE(model->index(f7, CompareModel::DeltaWait).data().toString(), QStringLiteral("0 ns"));
        rank->metricBox()->setCurrentIndex(rank->metricBox()->findText(QStringLiteral("exec")));

        // Selecting a row focuses its label in every view.
        const QModelIndex f7Shown = shown->index(0, CompareModel::Name);
        rank->compareView()->selectionModel()->setCurrentIndex(f7Shown, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        const Profile& p = *window.document()->profile();
        QCOMPARE(QString::fromUtf8(p.labelName(window.document()->focusLabel()).data(), 2), QStringLiteral("f7"));
        // Ctrl+C: the selected compare row, tab-separated.
        const QStringList copied = rank->selectedRowsText().split(QLatin1Char('\n'));
        QCOMPARE(copied.size(), 3); // header, f7, the last newline
        QVERIFY(copied[0].startsWith(QStringLiteral("name\tfile\tline\tmetric\tverdict\tbase_median_ns\t")));
        QVERIFY2(copied[1].startsWith(QStringLiteral("f7\twork.nim\t17\texec\tregressed\t")), qPrintable(copied[1]));
        QVERIFY(!copied[1].contains(QLatin1Char(',')));
        // The usage overlay: f7's share of the loop in base and new, bins
        // of one width from each start, adding up to its exec on each side.
        CompareUsageChart* overlay = window.compareController()->usageChart();
        overlay->finishPendingWork();
        QVERIFY(overlay->series());
        const CompareUsageChart::Series& usage = *overlay->series();
        // Each side's exec of f7 in total (the rank's, independent of the chart).
        double f7Base = 0;
        for (const RunSet::Label& l : session->base()->runs->labels()) {
            if (l.key.name == "f7")
                f7Base = l.runs.front()[std::size_t(CompareMetric::Exec)];
        }
        double f7New = 0;
        const RankTable table = RankTable::compute(*window.document()->metrics());
        for (const RankRow& row : table.rows()) {
            if (row.label == window.document()->focusLabel())
                f7New = double(row.exec);
        }
        // Each bin's share is of its part inside its profile (the last one ends with it).
        double baseExec = 0;
        double newExec = 0;
        for (std::size_t b = 0; b < usage.base.size(); ++b)
            baseExec += usage.base[b] * double(usage.partOf(b, usage.baseSpan));
        for (std::size_t b = 0; b < usage.next.size(); ++b)
            newExec += usage.next[b] * double(usage.partOf(b, usage.nextSpan));
        QVERIFY(f7Base > 7e6);
        QVERIFY2(std::fabs(baseExec - f7Base) < 1e-6 * f7Base, qPrintable(QStringLiteral("%1 %2").arg(baseExec).arg(f7Base)));
        QVERIFY2(std::fabs(newExec - f7New) < 1e-6 * f7New, qPrintable(QStringLiteral("%1 %2").arg(newExec).arg(f7New)));
        QCOMPARE(overlay->baseLine()->count(), qsizetype(2 * usage.base.size()));
        QCOMPARE(overlay->newLine()->count(), qsizetype(2 * usage.next.size()));
        QVERIFY(window.compareController()->usageDock()->isVisibleTo(&window));
        window.document()->setFocusLabel(kNone);
        QVERIFY(!overlay->series());

        // Exports: the compare rows as CSV, the Markdown report.
        window.setSaveFileChooser([this](const QString& suggestion) { return path(suggestion); });
        window.action(QStringLiteral("exportRank"))->trigger();
        QFile csv(path("new-rank.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().split('\n');
        QCOMPARE(lines.size(), 23); // header, 21 rows, the last newline
        QVERIFY(lines[0].startsWith("name,file,line,metric,verdict,base_median_ns"));
        QVERIFY(lines[1].startsWith("f7,work.nim,17,exec,regressed,"));
        window.action(QStringLiteral("exportCompareMarkdown"))->trigger();
        QFile md(path("new-compare.md"));
        QVERIFY(md.open(QIODevice::ReadOnly));
        QCOMPARE(md.readLine(), QByteArray("### Runlane: ❌ 1 regression, 1 improvement\n"));

        // The differential flame graph.
        window.action(QStringLiteral("aggregated"))->trigger();
        settle(window);
        IcicleView* icicle = window.icicle();
        QVERIFY(icicle->isDifferential());
        QApplication::processEvents();
        const QImage image = icicle->grab().toImage();
        const auto colourOf = [&](const char* name) {
            const IcicleSource* source = icicle->source();
            for (const Interval& span : source->depthSlice(0, 0)) {
                if (p.labelName(source->labelOf(span)) == name) {
                    const QRectF r = icicle->spanRect(source->idOf(span));
                    return QColor(image.pixel(int(r.left()) + 2, int(r.bottom()) - 2));
                }
            }
            return QColor();
        };
        const QColor slower = colourOf("f7");
        const QColor faster = colourOf("f3");
        const QColor same = colourOf("f12");
        const QColor added = colourOf("fresh");
        QVERIFY2(slower.red() > slower.green() + 60 && slower.red() > slower.blue() + 60, qPrintable(slower.name()));
        QVERIFY2(faster.blue() > faster.red() + 60 && faster.blue() > faster.green() + 20, qPrintable(faster.name()));
        QVERIFY2(std::abs(same.red() - same.green()) < 10 && std::abs(same.green() - same.blue()) < 10, qPrintable(same.name()));
        QVERIFY2(added.green() > added.red() + 30 && added.green() > added.blue() + 20, qPrintable(added.name()));
        // Removed paths: listed beside it, nothing vanishes silently.
        QTreeWidget* removed = window.compareController()->removedPaths()->list();
        QCOMPARE(removed->topLevelItemCount(), 1);
        QVERIFY(removed->topLevelItem(0)->text(0).endsWith(QStringLiteral(": f19")));
        QCOMPARE(removed->topLevelItem(0)->text(3), QStringLiteral("1 of 1"));

        // Stop comparing: the plain rank and title again.
        window.action(QStringLiteral("stopComparing"))->trigger();
        QVERIFY(!session->isActive());
        QVERIFY(!rank->isComparing());
        QVERIFY(!icicle->isDifferential());
        QCOMPARE(window.windowTitle(), QStringLiteral("new.json — Runlane"));
    }

    // Issue 39, item 7: the status bar counts the verdicts of the metric
    // the rank shows, and follows the metric box (it counted exec's always).
    void statusCountsTheRanksMetric_data()
    {
        QTest::addColumn<QString>("metric");
        QTest::addColumn<QString>("status");
        // f7 30 % slower and f3 30 % faster in time; their calls unchanged.
        QTest::newRow("exec") << "exec"
                              << "New: new.json · base: base.json · exec: 1 regressed, 1 improved, 0 inconclusive, "
                                 "17 unchanged, 1 added, 1 removed";
        QTest::newRow("wall") << "wall"
                              << "New: new.json · base: base.json · wall: 1 regressed, 1 improved, 0 inconclusive, "
                                 "17 unchanged, 1 added, 1 removed";
        QTest::newRow("calls") << "calls"
                               << "New: new.json · base: base.json · calls: 0 regressed, 0 improved, 0 inconclusive, "
                                  "19 unchanged, 1 added, 1 removed";
    }
    void statusCountsTheRanksMetric()
    {
        QFETCH(QString, metric);
        QFETCH(QString, status);
        MainWindow window;
        QVERIFY(openNew(window));
        window.compareController()->compareWith({path("base.json")});
        settle(window);
        QComboBox* box = window.rank()->metricBox();
        // Away from the metric and back: the text is the switch's, not the load's.
        box->setCurrentIndex(box->findText(metric == QStringLiteral("exec") ? QStringLiteral("calls") : QStringLiteral("exec")));
        box->setCurrentIndex(box->findText(metric));
        QCOMPARE(window.statusText(), status);
        // The same counts as the comparison's own for that metric.
        const Comparison* c = window.document()->compare()->comparison();
        CompareMetric which = CompareMetric::Exec;
        QVERIFY(CompareMetrics::parse(metric.toStdString(), which));
        QVERIFY(status.contains(QStringLiteral("%1: %2 regressed, %3 improved")
                                    .arg(metric)
                                    .arg(c->count(Verdict::Regressed, which))
                                    .arg(c->count(Verdict::Improved, which))));
    }

    // Issue 39, item 14: the differential flame graph's PNG has its colour
    // key below it (red and blue meant nothing in an image read alone):
    // DiffColors' gradient from −50 % to +100 %, exactly the boxes' colours.
    void differentialExportHasItsColourKey()
    {
        MainWindow window;
        QVERIFY(openNew(window));
        window.compareController()->compareWith({path("base.json")});
        settle(window);
        window.action(QStringLiteral("aggregated"))->trigger();
        settle(window);
        IcicleView* icicle = window.icicle();
        QVERIFY(icicle->isDifferential());
        const QString out = path("differential.png");
        window.setSaveFileChooser([&out](const QString&) { return out; });
        window.action(QStringLiteral("exportIcicle"))->trigger();
        const QImage image(out);
        QVERIFY(!image.isNull());
        QCOMPARE(image.devicePixelRatio(), 1.0);
        // The flame graph under its ruler, as the window has them, and the key.
        const int ruler = window.ruler()->height();
        const QFontMetrics metrics = icicle->fontMetrics();
        const int legend = DiffLegend::height(metrics);
        QCOMPARE(legend, 8 + 3 * (metrics.height() + 4) + 8);
        QCOMPARE(ImageExporter::icicleLegendHeight(*icicle), legend);
        QCOMPARE(image.size(), QSize(icicle->width(), ruler + icicle->height() + legend));
        const QRect key(0, ruler + icicle->height(), icicle->width(), legend);
        const QRect bar = DiffLegend::gradientRect(key, metrics);
        QCOMPARE(bar.size(), QSize(360, 12));
        QVERIFY(key.contains(bar));
        // Its ends and middle: DiffColors' colours of −50 % (the fullest
        // blue), +100 % (the fullest red) and of no change (grey).
        const double threshold = window.document()->compare()->options().threshold;
        const int y = bar.center().y();
        QCOMPARE(image.pixel(bar.left(), y), DiffColors::forDelta(-0.5, 1.0, threshold, 0).rgb());
        QCOMPARE(image.pixel(bar.right(), y), DiffColors::forDelta(1.0, 1.0, threshold, 0).rgb());
        QCOMPARE(image.pixel(bar.left() + 180, y), DiffColors::forDelta(0, 1.0, threshold, 0).rgb());
        QCOMPARE(DiffLegend::changeAt(0, 360), -0.5);
        QCOMPARE(DiffLegend::changeAt(359, 360), 1.0);
        // Beyond the ends the colours are the ends'.
        QCOMPARE(DiffColors::forDelta(-0.9, 1.0, threshold, 0).rgb(), DiffColors::forDelta(-0.5, 1.0, threshold, 0).rgb());
        QCOMPARE(DiffColors::forDelta(4.0, 1.0, threshold, 0).rgb(), DiffColors::forDelta(1.0, 1.0, threshold, 0).rgb());
        // Every column in the colour of its change, left (faster) to right.
        for (int x = 0; x < bar.width(); ++x)
            QCOMPARE(image.pixel(bar.left() + x, y), DiffColors::forDelta(DiffLegend::changeAt(x, bar.width()), 1.0, threshold, 0).rgb());
        // The swatch of a path no base run has: 12 × 12 px of its green.
        int green = 0;
        for (int yy = key.top(); yy <= key.bottom(); ++yy) {
            for (int x = 0; x < key.width(); ++x)
                green += image.pixel(x, yy) == DiffColors::newPath().rgb();
        }
        QCOMPARE(green, 144);
        // Not comparing: no key, the image as before.
        window.action(QStringLiteral("stopComparing"))->trigger();
        settle(window);
        QVERIFY(!icicle->isDifferential());
        QCOMPARE(ImageExporter::icicleLegendHeight(*icicle), 0);
        window.action(QStringLiteral("exportIcicle"))->trigger();
        QCOMPARE(QImage(out).size(), QSize(icicle->width(), ruler + icicle->height()));
    }

    void dropsCompareOrOpen()
    {
        MainWindow window;
        QVERIFY(openNew(window));
        CompareSession* session = window.document()->compare();
        const QRect area = window.centralWidget()->geometry();
        // Shift held: anywhere compares.
        drop(window, path("base.json"), area.center(), Qt::ShiftModifier);
        settle(window);
        QVERIFY(session->isActive());
        QCOMPARE(session->basePaths(), QStringList{path("base.json")});
        QCOMPARE(window.currentPath(), path("new.json"));
        window.action(QStringLiteral("stopComparing"))->trigger();
        // The compare target on the right edge, shown during the drag.
        QMimeData data;
        data.setUrls({QUrl::fromLocalFile(path("base.json"))});
        const QPoint right(area.right() - 20, area.center().y());
        QDragEnterEvent enter(right, Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        auto* target = window.findChild<QLabel*>(QStringLiteral("compareDrop"));
        QVERIFY(target && target->isVisible());
        QVERIFY(target->text().contains(QStringLiteral("base.json")));
        QDragLeaveEvent leave;
        QApplication::sendEvent(&window, &leave);
        QVERIFY(!target->isVisible());
        drop(window, path("base.json"), right, Qt::NoModifier);
        settle(window);
        QVERIFY(session->isActive());
        // Right of the target, on the details dock: opens, as before compare
        // mode (base.json vs base.json: nothing changed).
        window.action(QStringLiteral("stopComparing"))->trigger();
        drop(window, path("base.json"), QPoint(area.right() + 40, area.center().y()), Qt::NoModifier);
        settle(window);
        QVERIFY(!session->isActive());
        QCOMPARE(window.currentPath(), path("base.json"));
        window.openFile(path("new.json"));
        settle(window);
        drop(window, path("base.json"), right, Qt::NoModifier);
        settle(window);
        QVERIFY(session->isActive());
        // Elsewhere: opens, and the new file is compared with the same base.
        drop(window, path("base.json"), area.center(), Qt::NoModifier);
        settle(window);
        QCOMPARE(window.currentPath(), path("base.json"));
        QVERIFY(session->isActive());
        QVERIFY(session->comparison());
        QCOMPARE(session->comparison()->count(Verdict::Regressed), std::size_t(0));
        QCOMPARE(session->comparison()->count(Verdict::Added), std::size_t(0));
        QCOMPARE(staleState(window), QString());
        // Closing the profile ends compare mode.
        window.action(QStringLiteral("close"))->trigger();
        QVERIFY(!session->isActive());
        QCOMPARE(staleState(window), QString());
    }

    void baselineReportAsTheBase()
    {
        // A baseline report stands where base runs do: the compare rank,
        // no call paths (the differential flame graph says why).
        RunSet runs;
        const auto base = ProfileLoader::load(path("base.json"));
        QVERIFY(base.ok());
        runs.add(*base.profile, "base.json", true);
        QVERIFY(writeFile(path("baseline.json"), QByteArray::fromStdString(BaselineReport::write(runs, "test"))));
        MainWindow window;
        QVERIFY(openNew(window));
        window.compareController()->compareWith({path("baseline.json")});
        settle(window);
        CompareSession* session = window.document()->compare();
        QVERIFY(session->isActive());
        QVERIFY(session->base()->profiles.empty());
        CompareModel* model = window.rank()->compareModel();
        QCOMPARE(model->rowCount(), 21);
        const int f7 = rowNamed(*model, QStringLiteral("f7"));
        QCOMPARE(Verdict(model->index(f7, CompareModel::Verdict).data(CompareModel::VerdictRole).toInt()), Verdict::Regressed);
        window.action(QStringLiteral("aggregated"))->trigger();
        settle(window);
        QVERIFY(!window.icicle()->isDifferential());
        QVERIFY(window.compareController()->removedPaths()->legend()->text().contains(QStringLiteral("baseline report")));
    }

    void stopWhileTheBaseLoads()
    {
        // Stop comparing (or close) while the base loads: it is not applied
        // later, and the status bar says it was cancelled.
        // The base is a FIFO nobody writes to: its load waits for data until
        // it is cancelled, so it is still loading when Stop comes, however
        // fast or slow the machine (a small file could be read already).
        MainWindow window;
        QVERIFY(openNew(window));
        CompareSession* session = window.document()->compare();
        const QString fifo = path("waiting-base.json");
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        window.compareController()->compareWith({fifo});
        QVERIFY(session->isLoading());
        window.action(QStringLiteral("stopComparing"))->trigger();
        settle(window);
        QVERIFY(!session->isActive());
        QVERIFY2(window.statusText().startsWith(QStringLiteral("Loading the base waiting-base.json cancelled")),
                 qPrintable(window.statusText()));
        QCOMPARE(window.windowTitle(), QStringLiteral("new.json — Runlane"));
    }

    void baseCutShortIsSaid()
    {
        // A base file cut short is compared for what came before the cut,
        // and the compare rank's banner says so first.
        MainWindow window;
        QVERIFY(openNew(window));
        window.compareController()->compareWith({path("cut.json")});
        settle(window);
        QVERIFY(window.document()->compare()->isActive());
        const auto* banner = window.findChild<QLabel*>(QStringLiteral("rankBanner"));
        QVERIFY(banner);
        QVERIFY2(banner->text().contains(QStringLiteral("⚠ base run cut.json is cut short (")), qPrintable(banner->text()));
    }

    void unreadableBaseKeepsTheComparison()
    {
        MainWindow window;
        QVERIFY(openNew(window));
        window.compareController()->compareWith({path("base.json")});
        settle(window);
        const auto before = window.document()->compare()->sharedComparison();
        QVERIFY(before);
        window.compareController()->compareWith({path("broken.json")});
        settle(window);
        closeMessageBoxes(window);
        QVERIFY(window.compareController()->lastError().contains(QStringLiteral("broken.json")));
        QVERIFY(window.document()->compare()->isActive());
        QCOMPARE(window.document()->compare()->basePaths(), QStringList{path("base.json")});
        QCOMPARE(window.document()->compare()->sharedComparison(), before);
        QVERIFY(window.statusText().startsWith(QStringLiteral("Could not compare with broken.json")));
    }

private:
    QString path(const QString& name) const { return m_files.filePath(name); }
    // The window a user compares in: new.json open.
    bool openNew(MainWindow& window) const
    {
        window.resize(1400, 900);
        window.show();
        window.openFile(path("new.json"));
        return settle(window) && window.document()->hasProfile();
    }

    QTemporaryDir m_settings;
    QTemporaryDir m_files;
};

QTEST_MAIN(TestCompare)
#include "tst_compare.moc"
