#include "comparemodel.h"
#include "elidedlabel.h"
#include "profiledocument.h"
#include "rankformatter.h"
#include "rankheader.h"
#include "rankmodel.h"
#include "rankpanel.h"
#include "textcelldelegate.h"
#include "timeaxis.h"
#include "widgettestsupport.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QStyleOptionHeader>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTextDocument>
#include <QtTest>

#include <optional>

using namespace runlane;
using namespace runlane::test;

namespace {

// Exec 9 µs, 10 µs and 100 ns: sorted as text, "10.0 µs" < "100 ns" <
// "9.00 µs"; by value, 100 ns < 9 µs < 10 µs.
QByteArray threeCalls()
{
    return JSON([{"ph" : "X", "pid" : 1, "tid" : 1, "name" : "alpha", "ts" : 0, "dur" : 9},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "beta", "ts" : 10, "dur" : 10},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "gamma", "ts" : 30, "dur" : 0.1},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "gamma", "ts" : 31, "dur" : 0.1},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "Alphabet", "ts" : 40, "dur" : 1}]);
}

struct Fixture {
    TimeAxis axis;
    ProfileDocument document{&axis};
    RankPanel panel{&document};

    explicit Fixture(const LoadedProfile& loaded)
    {
        document.setProfile(loaded);
        panel.resize(1200, 400);
        panel.show();
        panel.finishPendingWork();
    }
    QStringList names() const
    {
        QStringList list;
        for (int r = 0; r < panel.proxy()->rowCount(); ++r)
            list << panel.proxy()->index(r, RankModel::Name).data().toString();
        return list;
    }
    LabelId label(std::string_view name) const { return labelNamed(*document.profile(), name); }
    QString banner() const { return labelTexts(panel); }
};

void compareRows(const Profile& p, const RankTable& shown, const RankTable& expected)
{
    QCOMPARE(shown.rows().size(), expected.rows().size());
    for (std::size_t i = 0; i < shown.rows().size(); ++i) {
        const RankRow& a = shown.rows()[i];
        const RankRow& b = expected.rows()[i];
        QCOMPARE(qstr(p.labelName(a.label)), qstr(p.labelName(b.label)));
        QCOMPARE(a.calls, b.calls);
        QCOMPARE(a.unfinished, b.unfinished);
        QCOMPARE(a.exec, b.exec);
        QCOMPARE(a.total, b.total);
        QCOMPARE(a.wall, b.wall);
        QCOMPARE(a.max, b.max);
        QCOMPARE(a.p50, b.p50);
        QCOMPARE(a.p99, b.p99);
    }
}

} // namespace

class TestRankPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        m_three = loadedText(threeCalls());
        m_demo = loadedFile(QStringLiteral(RUNLANE_DEMO_PROFILE));
        QVERIFY(!m_three.isNull());
        QVERIFY(!m_demo.isNull());
    }

    void modelsPassTheTester()
    {
        TimeAxis axis;
        ProfileDocument document(&axis);
        RankPanel panel(&document);
        QAbstractItemModelTester modelTester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(panel.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        document.setProfile(m_demo);
        panel.finishPendingWork();
        QCOMPARE(panel.model()->rowCount(), 287);
        panel.setFilterText(QStringLiteral("handle"));
        panel.proxy()->sort(RankModel::Wall, Qt::AscendingOrder);
        axis.setSelection(axis.boundsStart() + 1'000'000'000, axis.boundsStart() + 2'000'000'000);
        panel.finishPendingWork();
        document.setProfile(m_three);
        panel.finishPendingWork();
        QCOMPARE(panel.model()->rowCount(), 4);
        document.clear();
        panel.finishPendingWork();
        QCOMPARE(panel.model()->rowCount(), 0);
    }

    void sortsByValue_data()
    {
        QTest::addColumn<int>("column");
        QTest::addColumn<int>("order");
        QTest::addColumn<QStringList>("names");
        QTest::newRow("exec, largest first (the default)")
            << int(RankModel::Exec) << int(Qt::DescendingOrder) << QStringList{"beta", "alpha", "Alphabet", "gamma"};
        QTest::newRow("exec, smallest first")
            << int(RankModel::Exec) << int(Qt::AscendingOrder) << QStringList{"gamma", "Alphabet", "alpha", "beta"};
        // Ties keep the order shown before (exec, largest first): sorting
        // by one column then another sorts by both.
        QTest::newRow("calls") << int(RankModel::Calls) << int(Qt::DescendingOrder)
                               << QStringList{"gamma", "beta", "alpha", "Alphabet"};
        QTest::newRow("name, case-insensitive")
            << int(RankModel::Name) << int(Qt::AscendingOrder) << QStringList{"alpha", "Alphabet", "beta", "gamma"};
        QTest::newRow("p50") << int(RankModel::P50) << int(Qt::AscendingOrder)
                             << QStringList{"gamma", "Alphabet", "alpha", "beta"};
    }
    void sortsByValue()
    {
        QFETCH(int, column);
        QFETCH(int, order);
        QFETCH(QStringList, names);
        Fixture f(m_three);
        if (column != RankModel::Exec || order != Qt::DescendingOrder)
            f.panel.view()->sortByColumn(column, Qt::SortOrder(order));
        QCOMPARE(f.names(), names);
        // Right-aligned numbers, formatted in adaptive units.
        const QModelIndex exec = f.panel.proxy()->index(0, RankModel::Exec);
        QCOMPARE(exec.data(Qt::TextAlignmentRole).toInt(), int(Qt::AlignRight | Qt::AlignVCenter));
    }

    // Issue 13, item 11: the first click on a number sorts largest first,
    // on a name A to Z; the arrow points up for ascending, as elsewhere.
    void firstClickSortsNumbersLargestFirst_data()
    {
        QTest::addColumn<int>("column");
        QTest::addColumn<QStringList>("order");
        QTest::addColumn<int>("arrow");
        QTest::newRow("calls") << int(RankModel::Calls) << QStringList{"gamma", "alpha", "beta", "Alphabet"}
                               << int(QStyleOptionHeader::SortDown);
        QTest::newRow("name") << int(RankModel::Name) << QStringList{"alpha", "Alphabet", "beta", "gamma"}
                              << int(QStyleOptionHeader::SortUp);
    }
    void firstClickSortsNumbersLargestFirst()
    {
        QFETCH(int, column);
        QFETCH(QStringList, order);
        QFETCH(int, arrow);
        Fixture f(loadedText(threeCalls()));
        QHeaderView* header = f.panel.view()->horizontalHeader();
        // Away from the column first, then one click on it.
        const int other = column == RankModel::Name ? RankModel::Location : RankModel::Name;
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(header->sectionViewportPosition(other) + 5, 5));
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(header->sectionViewportPosition(column) + 5, 5));
        QCOMPARE(header->sortIndicatorSection(), column);
        QCOMPARE(header->sortIndicatorOrder(), column == RankModel::Name ? Qt::AscendingOrder : Qt::DescendingOrder);
        if (column == RankModel::Calls) // ties (alpha, beta, Alphabet: 1 call) keep no defined order
            QCOMPARE(f.names().first(), order.first());
        else
            QCOMPARE(f.names(), order);
        auto* rankHeader = qobject_cast<RankHeader*>(header);
        QVERIFY(rankHeader);
        QCOMPARE(rankHeader->arrowOf(column), arrow);
    }

    void formatsCells()
    {
        Fixture f(m_three);
        const int row = f.panel.model()->rowOf(f.label("gamma"));
        auto cell = [&](int column) { return f.panel.model()->index(row, column).data().toString(); };
        QCOMPARE(cell(RankModel::Calls), QStringLiteral("2"));
        QCOMPARE(cell(RankModel::Exec), QStringLiteral("200 ns"));
        QCOMPARE(cell(RankModel::Mean), QStringLiteral("100 ns"));
        // 200 ns of 20.2 µs busy.
        QCOMPARE(cell(RankModel::Busy), QStringLiteral("1.0 %"));
        QCOMPARE(f.panel.model()->index(row, RankModel::Exec).data(RankModel::SortRole).toLongLong(), 200);
    }

    // The count says when a filter hides rows, with a link that clears
    // it (issue 39, item 12).
    void filtersRows_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<QString>("count");
        const QString clear = QStringLiteral(" · <a href='clear'>clear</a>");
        QTest::newRow("substring, any case") << "ALPH" << QStringList{"alpha", "Alphabet"}
                                             << "2 of 4 labels match 'ALPH'" + clear;
        QTest::newRow("regex") << "/^(beta|gamma)$/" << QStringList{"beta", "gamma"}
                               << "2 of 4 labels match '/^(beta|gamma)$/'" + clear;
        QTest::newRow("no match") << "zeta" << QStringList{} << "0 of 4 labels match 'zeta'" + clear;
        QTest::newRow("markup, escaped") << "<b>" << QStringList{} << "0 of 4 labels match '&lt;b&gt;'" + clear;
        QTest::newRow("cleared") << "" << QStringList{"beta", "alpha", "Alphabet", "gamma"} << "4 labels";
    }
    void filtersRows()
    {
        QFETCH(QString, filter);
        QFETCH(QStringList, names);
        QFETCH(QString, count);
        Fixture f(m_three);
        f.panel.setFilterText(filter);
        QCOMPARE(f.names(), names);
        auto* shown = f.panel.findChild<QLabel*>(QStringLiteral("rankCount"));
        QVERIFY(shown);
        QCOMPARE(shown->text(), count);
        // An invalid pattern, as when one is half typed, keeps the last good filter.
        f.panel.setFilterText(QStringLiteral("/(beta/"));
        QCOMPARE(f.names(), names);
        // The count's link clears the filter.
        Q_EMIT shown->linkActivated(QStringLiteral("clear"));
        QCOMPARE(f.names(), (QStringList{"beta", "alpha", "Alphabet", "gamma"}));
        QCOMPARE(shown->text(), QStringLiteral("4 labels"));
        QCOMPARE(f.panel.findChild<QLineEdit*>()->text(), QString());
    }

    // Issue 39, item 12: a filter typed for one file does not hide the
    // next file's rows ("0 of 2 labels"); a live recording's next
    // version (the same labels, grown) keeps it.
    void newProfileClearsTheFilter()
    {
        Fixture f(m_three);
        f.panel.setFilterText(QStringLiteral("alph"));
        QCOMPARE(f.names(), (QStringList{"alpha", "Alphabet"}));
        f.document.continueProfile(m_three);
        f.panel.finishPendingWork();
        QCOMPARE(f.names(), (QStringList{"alpha", "Alphabet"}));
        QCOMPARE(f.panel.findChild<QLineEdit*>()->text(), QStringLiteral("alph"));
        f.document.setProfile(loadedFile(dataPath(QStringLiteral("profiles/fgh-chrome.json"))));
        f.panel.finishPendingWork();
        QCOMPARE(f.names(), (QStringList{"f", "g", "h"}));
        QCOMPARE(f.panel.findChild<QLineEdit*>()->text(), QString());
        QCOMPARE(f.panel.findChild<QLabel*>(QStringLiteral("rankCount"))->text(), QStringLiteral("3 labels"));
        // So does closing the file.
        f.panel.setFilterText(QStringLiteral("g"));
        f.document.clear();
        f.panel.finishPendingWork();
        QCOMPARE(f.panel.findChild<QLineEdit*>()->text(), QString());
    }

    // A load's next version (ProfileDocument::refineProfile: the same
    // names, ids of their own) keeps the filter typed and the rows the
    // user scrolled to, by the name at the top; an unscrolled rank shows
    // the new top rows; another profile starts over.
    void aRefinementKeepsTheFilterAndTheRowsScrolledTo_data()
    {
        QTest::addColumn<bool>("refine");
        QTest::addColumn<QString>("top");
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QString>("topAfter");
        QTest::newRow("refined, scrolled") << true << "f040" << "f" << "f040";
        QTest::newRow("refined, scrolled, no filter") << true << "f040" << "" << "f040";
        QTest::newRow("refined, at the top") << true << "" << "f" << "f050";
        QTest::newRow("another profile") << false << "f040" << "f" << "g000";
    }
    void aRefinementKeepsTheFilterAndTheRowsScrolledTo()
    {
        QFETCH(bool, refine);
        QFETCH(QString, top);
        QFETCH(QString, filter);
        QFETCH(QString, topAfter);
        // 100 calls f000..f099, each longer than the next; the next
        // version names ten g calls first (every id moves), longer than
        // all, and makes f050..f059 the longest f calls.
        const auto version = [](bool next) {
            QByteArray text = "[";
            Time ts = 0;
            const auto call = [&](const QByteArray& name, int dur) {
                text += "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"" + name + "\",\"ts\":"
                    + QByteArray::number(ts) + ",\"dur\":" + QByteArray::number(dur) + "},";
                ts += dur + 1;
            };
            for (int i = 0; next && i < 10; ++i)
                call("g" + QByteArray::number(i).rightJustified(3, '0'), 5000);
            for (int i = 0; i < 100; ++i)
                call("f" + QByteArray::number(i).rightJustified(3, '0'), next && i / 10 == 5 ? 2000 - i : 1000 - 5 * i);
            text.chop(1);
            return loadedText(text + "]");
        };
        Fixture f(version(false));
        f.panel.setFilterText(filter);
        QTableView* view = f.panel.view();
        const auto topName = [view] { return view->indexAt(QPoint(0, 0)).data().toString(); };
        QCOMPARE(topName(), QStringLiteral("f000"));
        if (!top.isEmpty()) {
            const int row = f.panel.model()->rowOf(f.label(top.toStdString()));
            view->scrollTo(f.panel.proxy()->mapFromSource(f.panel.model()->index(row, RankModel::Name)),
                           QAbstractItemView::PositionAtTop);
            QCOMPARE(topName(), top);
        }
        const LoadedProfile next = version(true);
        QVERIFY(labelNamed(*next.profile, "f040") != f.label("f040"));
        // The new table comes after the event loop ran, as in the window:
        // the view has laid out the empty table of the drop by then.
        QSignalSpy shown(&f.panel, &RankPanel::tableShown);
        if (refine)
            f.document.refineProfile(next);
        else
            f.document.setProfile(next);
        QVERIFY(shown.wait(10000));
        QCOMPARE(f.panel.findChild<QLineEdit*>()->text(), refine ? filter : QString());
        QCOMPARE(f.panel.proxy()->rowCount(), refine && !filter.isEmpty() ? 100 : 110);
        QCOMPARE(topName(), topAfter);
    }

    // A range selected on the shared axis: the panel shows the core's
    // clipped rank of exactly that range, and says so.
    void rangeSelectionGivesTheClippedRank()
    {
        Fixture f(m_demo);
        const Time start = f.axis.boundsStart();
        const TimeRange range{start + 10'000'000'000, start + 11'250'000'000};
        QSignalSpy shown(&f.panel, &RankPanel::tableShown);
        f.axis.setSelection(range.from, range.to);
        QVERIFY(shown.wait(10000));
        const RankTable expected = RankTable::compute(*m_demo.metrics, range);
        QVERIFY(f.panel.model()->table()->range());
        compareRows(*m_demo.profile, *f.panel.model()->table(), expected);
        QVERIFY2(f.banner().contains(QStringLiteral("Range 10.000000 s – 11.250000 s")), qPrintable(f.banner()));
        f.axis.clearSelection();
        QVERIFY(shown.wait(10000));
        compareRows(*m_demo.profile, *f.panel.model()->table(), RankTable::compute(*m_demo.metrics));
        QVERIFY(f.banner().contains(QStringLiteral("Whole profile")));
    }

    // Issue 39, item 7: a banner longer than its room is cut with "…",
    // the link before the cut kept, and is whole in its tooltip (it was cut
    // at the panel's edge, unreadable); one with room is shown whole.
    void bannerIsElidedWithItsTextInTheTooltip_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("elided");
        QTest::addColumn<bool>("link"); // the way back to the whole profile is shown
        QTest::newRow("wide") << 2000 << false << true;
        QTest::newRow("narrow") << 800 << true << true; // 458 px for the banner
        QTest::newRow("narrowest") << 640 << true << false; // 298 px
    }
    void bannerIsElidedWithItsTextInTheTooltip()
    {
        QFETCH(int, width);
        QFETCH(bool, elided);
        QFETCH(bool, link);
        Fixture f(m_demo);
        f.panel.resize(width, 400);
        const Time start = f.axis.boundsStart();
        QSignalSpy shown(&f.panel, &RankPanel::tableShown);
        f.axis.setSelection(start + 10'000'000'000, start + 11'250'000'000);
        QVERIFY(shown.wait(10000));
        QApplication::processEvents();
        const auto* banner = f.panel.findChild<ElidedLabel*>(QStringLiteral("rankBanner"));
        QVERIFY(banner);
        const QString full = QStringLiteral("Range 10.000000 s – 11.250000 s (1.25 s) · whole profile · times clipped to "
                                            "it, total includes what was created before it");
        const QString details = QStringLiteral(
            "Exec, total and wall are clipped to the range; total includes the time of what a label created before the "
            "range. Calls, unfinished and the percentiles cover every call alive in the range, counted as finished if it "
            "finished at any time.");
        QTextDocument document;
        document.setHtml(banner->fullText());
        QCOMPARE(document.toPlainText(), full);
        // What is shown fits the label, whole or cut.
        const int room = banner->contentsRect().width();
        QVERIFY2(ElidedLabel::textWidth(banner->text(), banner->font()) <= room, qPrintable(banner->text()));
        QCOMPARE(banner->isElided(), elided);
        if (!elided) {
            QCOMPARE(banner->text(), banner->fullText());
            QCOMPARE(banner->toolTip(), details);
            return;
        }
        QVERIFY2(ElidedLabel::textWidth(banner->fullText(), banner->font()) > room, qPrintable(QString::number(room)));
        document.setHtml(banner->text());
        const QString cut = document.toPlainText();
        QVERIFY2(cut.endsWith(QStringLiteral("…")), qPrintable(cut));
        QVERIFY2(full.startsWith(cut.chopped(1)), qPrintable(cut));
        QVERIFY2(cut.startsWith(QStringLiteral("Range 10.000000 s – 11.250000 s (1.25 s) ·")), qPrintable(cut));
        // The link to the whole profile survives a cut after it (it comes
        // before the explanation).
        QCOMPARE(banner->text().contains(QStringLiteral("<a href=\"whole\">whole profile</a>")), link);
        QCOMPARE(banner->toolTip(), full + QStringLiteral("\n\n") + details);
        // Wide again: whole, and the tooltip the details alone.
        f.panel.resize(2000, 400);
        QApplication::processEvents();
        QVERIFY(!banner->isElided());
        QCOMPARE(banner->text(), banner->fullText());
        QCOMPARE(banner->toolTip(), details);
    }

    // Both ranks' file:line columns keep a long path's end (the file and
    // the line), each through its own delegate; the other columns do not.
    void locationKeepsItsEnd_data()
    {
        QTest::addColumn<QString>("view");
        QTest::addColumn<int>("location");
        QTest::addColumn<int>("name");
        QTest::newRow("rank") << QString() << int(RankModel::Location) << int(RankModel::Name);
        QTest::newRow("compare") << QStringLiteral("compareView") << int(CompareModel::Location)
                                 << int(CompareModel::Name);
    }
    void locationKeepsItsEnd()
    {
        QFETCH(QString, view);
        QFETCH(int, location);
        QFETCH(int, name);
        Fixture f(m_three);
        QTableView* table = view.isEmpty() ? f.panel.view() : f.panel.findChild<QTableView*>(view);
        QVERIFY(table);
        const auto* delegate = qobject_cast<TextCellDelegate*>(table->itemDelegateForColumn(location));
        QVERIFY(delegate);
        QCOMPARE(delegate->elideMode(), std::optional(Qt::ElideLeft));
        // The names: the table's own delegate, eliding as the view does.
        QCOMPARE(table->itemDelegateForColumn(name), nullptr);
        const auto* other = qobject_cast<TextCellDelegate*>(table->itemDelegate());
        QVERIFY(!other || !other->elideMode());
    }

    void newerRangeReplacesOlder()
    {
        Fixture f(m_demo);
        const Time start = f.axis.boundsStart();
        for (Time i = 1; i <= 5; ++i)
            f.axis.setSelection(start + i * 1'000'000'000, start + i * 2'000'000'000);
        f.panel.finishPendingWork();
        const auto& range = f.panel.model()->table()->range();
        QVERIFY(range);
        QCOMPARE(range->from, start + 5'000'000'000);
        QCOMPARE(range->to, start + 10'000'000'000);
    }

    void selectingARowFocusesItsLabel()
    {
        Fixture f(m_three);
        QSignalSpy emphasis(&f.document, &ProfileDocument::emphasisChanged);
        f.panel.view()->selectRow(2); // exec order: beta, alpha, Alphabet, gamma
        QCOMPARE(f.document.focusLabel(), f.label("Alphabet"));
        QCOMPARE(emphasis.count(), 1);
        // Focus set elsewhere (the usage chart): the panel follows.
        f.document.setFocusLabel(f.label("gamma"));
        QCOMPARE(f.panel.view()->currentIndex().row(), 3);
        QVERIFY(f.panel.view()->selectionModel()->isRowSelected(3, {}));
        f.document.setFocusLabel(kNone);
        QVERIFY(!f.panel.view()->selectionModel()->hasSelection());
        // Escape in the panel clears the focus.
        f.panel.view()->selectRow(0);
        QCOMPARE(f.document.focusLabel(), f.label("beta"));
        QTest::keyClick(&f.panel, Qt::Key_Escape);
        QCOMPARE(f.document.focusLabel(), kNone);
    }

    void copiesAndExportsRows()
    {
        Fixture f(m_three);
        f.panel.view()->selectRow(0);
        f.panel.view()->selectionModel()->select(f.panel.proxy()->index(3, 0),
                                                 QItemSelectionModel::Select | QItemSelectionModel::Rows);
        const RankTable& table = *f.panel.model()->table();
        const std::size_t beta = std::size_t(f.panel.model()->rowOf(f.label("beta")));
        const std::size_t gamma = std::size_t(f.panel.model()->rowOf(f.label("gamma")));
        const QString copied = f.panel.selectedRowsText();
        QCOMPARE(copied, QString::fromStdString(RankFormatter::csvRows(*m_three.profile, table, {beta, gamma}, '\t')));
        QVERIFY(copied.startsWith(QStringLiteral("name\tfile\tline\tcalls")));
        QCOMPARE(copied.count(QLatin1Char('\n')), 3);
        // Export: every shown row, in the shown order.
        f.panel.setFilterText(QStringLiteral("alph"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("rank.csv"));
        QVERIFY(f.panel.exportCsv(path));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const std::size_t alpha = std::size_t(f.panel.model()->rowOf(f.label("alpha")));
        const std::size_t alphabet = std::size_t(f.panel.model()->rowOf(f.label("Alphabet")));
        QCOMPARE(QString::fromUtf8(file.readAll()),
                 QString::fromStdString(RankFormatter::csvRows(*m_three.profile, table, {alpha, alphabet}, ',')));
    }

    // Issue 39, item 14: copy and CSV export give every column the view
    // shows, the scheduling delays included (tokio-hand: main loop's 500
    // and 400 ns, conn's 1000 ns; none in a range before conn's poll),
    // in the shown order, times in ns; none for a profile without wakes.
    void copyAndExportHaveTheDelayColumns_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qint64>("to"); // the range's end; 0: whole profile
        QTest::addColumn<QString>("text");
        const QString header = QStringLiteral("name,file,line,calls,unfinished,stillborn,primitive,failed,cancelled,exec_ns,"
                                              "total_ns,wall_ns,max_ns,mean_ns,p50_ns,p90_ns,p99_ns,wall_max_ns,wall_p50_ns,"
                                              "wall_p90_ns,wall_p99_ns,busy_share");
        const QString delays = QStringLiteral(",delays,delay_sum_ns,delay_max_ns,delay_p90_ns\n");
        QTest::newRow("tokio") << "profiles/tokio-hand.jsonl" << qint64(0)
                               << header + delays
                                      + "main loop,src/main.rs,10,0,1,0,0,0,0,1700,2400,6600,1700,1700,1700,1700,1700,"
                                        "6600,6600,6600,6600,0.708333,2,900,500,500\n"
                                        "src/conn.rs:20,,,1,0,0,0,0,0,700,700,4100,700,700,700,700,700,4100,4100,4100,"
                                        "4100,0.291667,1,1000,1000,1000\n";
        // 1000 to 6000 ns: main loop's poll at 3500 is in, conn's at 6000 out.
        QTest::newRow("tokio, a range") << "profiles/tokio-hand.jsonl" << qint64(6000)
                                        << header + delays
                                               + "main loop,src/main.rs,10,0,1,0,0,0,0,1500,1700,5000,1500,1500,1500,1500,"
                                                 "1500,5000,5000,5000,5000,0.882353,1,500,500,500\n"
                                                 "src/conn.rs:20,,,1,0,0,0,0,0,200,200,3500,200,200,200,200,200,3500,3500,"
                                                 "3500,3500,0.117647,0,,,\n";
        QTest::newRow("no wakes") << "profiles/fgh-chrome.json" << qint64(0)
                                  << header + "\n"
                                         "f,app.rs,1,1,0,0,0,0,0,70000,160000,160000,70000,70000,70000,70000,70000,160000,"
                                         "160000,160000,160000,0.437500\n"
                                         "g,app.rs,2,1,0,0,0,0,0,60000,90000,90000,60000,60000,60000,60000,60000,90000,"
                                         "90000,90000,90000,0.375000\n"
                                         "h,app.rs,3,1,0,0,0,0,0,30000,30000,30000,30000,30000,30000,30000,30000,30000,"
                                         "30000,30000,30000,0.187500\n";
    }
    void copyAndExportHaveTheDelayColumns()
    {
        QFETCH(QString, file);
        QFETCH(qint64, to);
        QFETCH(QString, text);
        Fixture f(loadedFile(dataPath(file)));
        if (to > 0) {
            f.axis.setSelection(f.axis.boundsStart(), to);
            f.panel.finishPendingWork();
        }
        QCOMPARE(f.panel.selectedRowsText(), QString(text).replace(QLatin1Char(','), QLatin1Char('\t')));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("rank.csv"));
        QVERIFY(f.panel.exportCsv(path));
        QFile csv(path);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(csv.readAll()), text);
    }

    // tokio-hand.jsonl (tests/data/profiles/README.md): main loop's
    // delays are 500 and 400 ns, conn's 1000 ns; shown only where there
    // are wakes.
    void delayColumnsForProfilesWithWakes_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("shown");
        QTest::addColumn<QStringList>("cells"); // sum, max, p90
        QTest::addColumn<qint64>("sortSum");
        QTest::newRow("main loop") << "profiles/tokio-hand.jsonl" << "main loop" << true
                                   << QStringList{"900 ns", "500 ns", "500 ns"} << qint64(900);
        QTest::newRow("conn") << "profiles/tokio-hand.jsonl" << "src/conn.rs:20" << true
                              << QStringList{"1.00 µs", "1.00 µs", "1.00 µs"} << qint64(1000);
        QTest::newRow("no wakes") << "profiles/fgh-chrome.json" << "f" << false << QStringList{"", "", ""} << qint64(-1);
    }
    void delayColumnsForProfilesWithWakes()
    {
        QFETCH(QString, file);
        QFETCH(QString, name);
        QFETCH(bool, shown);
        QFETCH(QStringList, cells);
        QFETCH(qint64, sortSum);
        Fixture f(loadedFile(dataPath(file)));
        const int row = f.panel.model()->rowOf(f.label(name.toStdString()));
        QVERIFY(row >= 0);
        QStringList got;
        for (int c = RankModel::DelaySum; c <= RankModel::DelayP90; ++c) {
            got << f.panel.model()->index(row, c).data().toString();
            QCOMPARE(f.panel.view()->isColumnHidden(c), !shown);
        }
        QCOMPARE(got, cells);
        QCOMPARE(f.panel.model()->index(row, RankModel::DelaySum).data(RankModel::SortRole).toLongLong(), sortSum);
        QCOMPARE(f.panel.model()->headerData(RankModel::DelaySum, Qt::Horizontal).toString(), QStringLiteral("delay Σ"));
        // A profile without wakes after one with them hides them again.
        f.document.setProfile(m_three);
        f.panel.finishPendingWork();
        QVERIFY(f.panel.view()->isColumnHidden(RankModel::DelaySum));
    }

    // With a range selected, the delay columns count the polls that start
    // in it (tokio-hand: main loop's polls after a wake start at 3500 and
    // 7400 with delays 500 and 400 ns, conn's at 6000 with 1000 ns).
    void delayColumnsFollowTheRange_data()
    {
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        QTest::addColumn<QStringList>("mainLoop"); // sum, max, p90
        QTest::addColumn<QStringList>("conn");
        QTest::newRow("before 5000") << qint64(0) << qint64(5000) << QStringList{"500 ns", "500 ns", "500 ns"}
                                     << QStringList{"—", "—", "—"};
        QTest::newRow("from 5000") << qint64(5000) << qint64(8000) << QStringList{"400 ns", "400 ns", "400 ns"}
                                   << QStringList{"1.00 µs", "1.00 µs", "1.00 µs"};
        QTest::newRow("a poll's start is in, its wake not") << qint64(7100) << qint64(7500)
                                                            << QStringList{"400 ns", "400 ns", "400 ns"}
                                                            << QStringList{"no row"}; // closed before the range
    }
    void delayColumnsFollowTheRange()
    {
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        QFETCH(QStringList, mainLoop);
        QFETCH(QStringList, conn);
        Fixture f(loadedFile(dataPath(QStringLiteral("profiles/tokio-hand.jsonl"))));
        f.axis.setSelection(from, to);
        f.panel.finishPendingWork();
        QVERIFY(f.panel.model()->table()->range());
        auto cells = [&f](std::string_view name) {
            const int row = f.panel.model()->rowOf(f.label(name));
            if (row < 0)
                return QStringList{QStringLiteral("no row")};
            QStringList got;
            for (int c = RankModel::DelaySum; c <= RankModel::DelayP90; ++c)
                got << f.panel.model()->index(row, c).data().toString();
            return got;
        };
        QCOMPARE(cells("main loop"), mainLoop);
        QCOMPARE(cells("src/conn.rs:20"), conn);
        QVERIFY(f.panel.model()->headerData(RankModel::DelaySum, Qt::Horizontal, Qt::ToolTipRole).toString().endsWith(
            QStringLiteral("of the polls that start in the range")));
        f.axis.clearSelection();
        f.panel.finishPendingWork();
        QCOMPARE(cells("main loop"), QStringList({"900 ns", "500 ns", "500 ns"}));
        QVERIFY(f.panel.model()->headerData(RankModel::DelaySum, Qt::Horizontal, Qt::ToolTipRole).toString().endsWith(
            QStringLiteral("whole profile")));
    }

    void preAggregatedMetricsHaveNoPercentiles()
    {
        Fixture f(loadedFile(dataPath(QStringLiteral("profiles/chroprof-rows.json"))));
        QVERIFY(f.panel.model()->rowCount() > 0);
        const QModelIndex p50 = f.panel.model()->index(0, RankModel::P50);
        QCOMPARE(p50.data().toString(), QStringLiteral("—"));
        QCOMPARE(p50.data(RankModel::SortRole).toLongLong(), -1);
        QVERIFY(!f.panel.model()->index(0, RankModel::Max).data().toString().isEmpty());
    }

private:
    LoadedProfile m_three;
    LoadedProfile m_demo;
};

QTEST_MAIN(TestRankPanel)
#include "tst_rankpanel.moc"
