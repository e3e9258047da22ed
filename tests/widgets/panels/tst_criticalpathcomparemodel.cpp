#include "core/compare/criticalpathruns.h"
#include "criticalpathcomparemodel.h"
#include "diffcolors.h"
#include "testsupport.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QtTest>

#include <memory>

using namespace runlane;
using namespace runlane::test;

namespace {

using Verdict = Comparison::Verdict;

// The workload's handler tasks (criticalpathworkload.h), the base as
// generated against a new run with `percent` of the waker's time and its
// loop blocked by `blocker`. Holds the profiles the comparison reads.
struct Compared : CriticalPathRuns {
    std::shared_ptr<const CriticalPathComparison> comparison;

    Compared(int percent, const std::string& blocker)
        : comparison(std::make_shared<const CriticalPathComparison>(compare(percent, blocker)))
    {
    }
};

// Each row's cells as shown, joined by " | ".
QStringList rows(const QAbstractItemModel& model)
{
    QStringList out;
    for (int r = 0; r < model.rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < model.columnCount(); ++c)
            cells << model.index(r, c).data().toString();
        out << cells.join(QStringLiteral(" | "));
    }
    return out;
}

} // namespace

// The Critical path panel's tables in compare mode: the kinds with their
// verdicts and the (kind, label) rows side by side, checked by Qt's model
// tester and to the cell.
class TestCriticalPathCompareModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The waker 30 % slower: running regressed by the planted 65.7 µs.
    void kinds()
    {
        const Compared compared(130, "flush");
        CriticalPathCompareModel model(CriticalPathCompareModel::Part::Kinds);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        model.setComparison(compared.comparison);
        QCOMPARE(rows(model), (QStringList{
                                  QString::fromUtf8("running |  | 259 µs | 325 µs | +65.7 µs | +25.4 % | regressed"),
                                  QString::fromUtf8("queued |  | 10.0 µs | 10.0 µs | +0 ns | +0.0 % | unchanged"),
                                  QString::fromUtf8("idle |  | 0 ns | 0 ns | +0 ns | +0.0 % | unchanged"),
                                  QString::fromUtf8("waiting |  | 0 ns | 0 ns | +0 ns | +0.0 % | unchanged"),
                              }));
        const QModelIndex delta = model.index(0, CriticalPathCompareModel::Delta);
        QCOMPARE(delta.data(CriticalPathCompareModel::DeltaRole).toDouble(), 65700.0);
        QCOMPARE(delta.data(CriticalPathCompareModel::SortRole).toDouble(), 65700.0);
        QCOMPARE(delta.data(Qt::ToolTipRole).toString(),
                 QString::fromUtf8("Each task's running time is a sample; p = 6.8e-08, 95 % interval of Δ: +56.9 µs … "
                                   "+74.5 µs (welch-total-calls)"));
        QCOMPARE(delta.data(Qt::ForegroundRole).value<QBrush>().color(), DiffColors::verdictText(Verdict::Regressed));
        model.setComparison(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    // The blocker renamed: one row added, one removed; sorting by |Δ|.
    void labels()
    {
        const Compared compared(100, "compact");
        CriticalPathCompareModel model(CriticalPathCompareModel::Part::Labels);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setComparison(compared.comparison);
        QCOMPARE(rows(model), (QStringList{
                                  QString::fromUtf8("queued | compact | 0 ns | 10.0 µs | +10.0 µs | new | added"),
                                  QString::fromUtf8("queued | flush | 10.0 µs | 0 ns | -10.0 µs | -100.0 % | removed"),
                                  QString::fromUtf8("running | handler | 40.0 µs | 40.0 µs | +0 ns | +0.0 % | "),
                                  QString::fromUtf8("running | query | 219 µs | 219 µs | +0 ns | +0.0 % | "),
                              }));
        QCOMPARE(model.index(1, CriticalPathCompareModel::Name).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("flush (app.nim:50)"));
        QCOMPARE(model.index(1, CriticalPathCompareModel::Delta).data(CriticalPathCompareModel::SortRole).toDouble(),
                 10000.0);
        QCOMPARE(model.index(0, CriticalPathCompareModel::Verdict).data(Qt::ForegroundRole).value<QBrush>().color(),
                 DiffColors::verdictText(Verdict::Added));
        QCOMPARE(model.headerData(CriticalPathCompareModel::Name, Qt::Horizontal).toString(), QStringLiteral("Label"));
    }
};

QTEST_MAIN(TestCriticalPathCompareModel)
#include "tst_criticalpathcomparemodel.moc"
