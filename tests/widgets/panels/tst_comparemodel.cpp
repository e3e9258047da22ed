#include "comparemodel.h"
#include "core/compare/randomruns.h"
#include "core/compare/runsgenerator.h"

#include <QtTest>

using namespace runlane;

namespace {

// The viewer's rows of a comparison of every metric (a generated profile
// stands for the new one: the rows need a profile to point into).
struct Rows {
    CompareModel model;

    explicit Rows(const Comparison& c)
    {
        static const std::shared_ptr<const Profile> profile = test::RunsGenerator(1).profile();
        model.setComparison(std::make_shared<const Comparison>(c), profile);
    }
    QString text(int column, int role = Qt::DisplayRole) const
    {
        return model.index(0, column).data(role).toString();
    }
};

// tst_compareformatter's label: calls 100 … 130 µs against 131 … 161 µs,
// one run a side, every metric.
Comparison oneAgainstOne()
{
    CompareOptions options;
    options.metrics = CompareMetrics::list();
    const LabelKey f{"f", "work.nim", 3};
    return Comparison::compute(test::oneRunOfCalls(f, {100000, 110000, 120000, 130000}),
                               test::oneRunOfCalls(f, {131000, 141000, 151000, 161000}), options);
}

// "+7.5 %" as 7.5; NaN for "new" and "gone" (from a base of 0).
double percent(QString text)
{
    text.remove(QStringLiteral(" %"));
    bool ok = false;
    const double v = text.toDouble(&ok);
    return ok ? v : std::nan("");
}

} // namespace

class TestCompareModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Runlane issue 39 in the viewer: the interval beside Δ% is of that
    // Δ%, and its tooltip says what it is.
    void intervalOfTheShownDelta_data()
    {
        QTest::addColumn<int>("metric");
        QTest::addColumn<QString>("delta");
        QTest::addColumn<QString>("deltaPct");
        QTest::addColumn<QString>("interval");
        QTest::addColumn<QString>("method");
        const QString welch = QStringLiteral("Welch's interval of the total's change, from the spread of its calls");
        const QString bootstrap = QStringLiteral("exact bootstrap of the figure's change over the calls");
        QTest::newRow("exec") << int(CompareMetric::Exec) << QString::fromUtf8("+124 µs") << QStringLiteral("+27.0 %")
                              << QString::fromUtf8("+7.5 % … +46.4 %") << welch;
        QTest::newRow("p50") << int(CompareMetric::P50) << QString::fromUtf8("+31.0 µs") << QStringLiteral("+28.2 %")
                             << QString::fromUtf8("+10.0 % … +46.4 %") << bootstrap;
        QTest::newRow("max") << int(CompareMetric::Max) << QString::fromUtf8("+31.0 µs") << QStringLiteral("+23.8 %")
                             << QString::fromUtf8("+8.5 % … +39.2 %") << bootstrap;
    }

    void intervalOfTheShownDelta()
    {
        QFETCH(int, metric);
        QFETCH(QString, delta);
        QFETCH(QString, deltaPct);
        QFETCH(QString, interval);
        QFETCH(QString, method);
        Rows rows(oneAgainstOne());
        rows.model.setMetric(CompareMetric(metric));
        QCOMPARE(rows.model.rowCount(), 1);
        QCOMPARE(rows.text(CompareModel::Delta), delta);
        QCOMPARE(rows.text(CompareModel::DeltaPct), deltaPct);
        QCOMPARE(rows.text(CompareModel::Interval), interval);
        QCOMPARE(rows.text(CompareModel::Interval, Qt::ToolTipRole),
                 QStringLiteral("regressed over each call's value (one run per side); p = 0.029; Δ% %1, its 95 % interval %2 (%3)")
                     .arg(deltaPct, interval, method));
        QCOMPARE(rows.model.headerData(CompareModel::Interval, Qt::Horizontal, Qt::ToolTipRole).toString(),
                 QStringLiteral("95 % confidence interval of the Δ% beside it (of the same figure)"));
    }

    // The property on the rows as shown (100 seeded random comparisons,
    // every metric): Δ% inside the interval's text, unless inconclusive
    // for a reason other than the interval.
    void shownDeltaInsideShownInterval()
    {
        int checked = 0;
        for (std::uint64_t seed = 1; seed <= 100; ++seed) {
            test::RandomRuns random(seed);
            const test::RandomRuns::Pair runs = random.pair();
            Rows rows(Comparison::compute(runs.base, runs.next, runs.options));
            for (const CompareMetric metric : CompareMetrics::all()) {
                rows.model.setMetric(metric);
                const Comparison& shown = *rows.model.shown();
                for (int r = 0; r < rows.model.rowCount(); ++r) {
                    const Comparison::LabelResult& label = shown.labels()[std::size_t(r)];
                    if (label.metrics.empty() || test::inconclusiveBesidesInterval(shown, label.metrics.front()))
                        continue;
                    const double pct = percent(rows.model.index(r, CompareModel::DeltaPct).data().toString());
                    const QStringList ends = rows.model.index(r, CompareModel::Interval).data().toString().split(QString::fromUtf8(" … "));
                    QCOMPARE(ends.size(), 2);
                    if (std::isnan(pct))
                        continue;
                    QVERIFY2(percent(ends[0]) <= pct && pct <= percent(ends[1]),
                             qPrintable(QStringLiteral("seed %1, %2: %3 in %4")
                                            .arg(seed)
                                            .arg(QString::fromStdString(label.key.name))
                                            .arg(pct)
                                            .arg(ends.join(QStringLiteral(", ")))));
                    ++checked;
                }
            }
        }
        QVERIFY2(checked >= 1000, qPrintable(QString::number(checked)));
    }
};

QTEST_MAIN(TestCompareModel)
#include "tst_comparemodel.moc"
