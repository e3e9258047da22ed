#include "historytrend.h"

#include <QtTest>

#include <cmath>

using namespace runlane;

namespace {

std::vector<HistoryStore::Point> pointsOf(const std::vector<double>& values)
{
    std::vector<HistoryStore::Point> points;
    for (std::size_t i = 0; i < values.size(); ++i) {
        HistoryStore::Point p;
        p.run.id = std::int64_t(i + 1);
        p.key = LabelKey{"steady", "app.rs", 1};
        p.value = values[i];
        points.push_back(p);
    }
    return points;
}

} // namespace

class TestHistoryTrend : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // tst_noisethreshold's steady series, then +6.6 %: at the last run the
    // band is 5 % around the median of the six before it, worked by hand.
    void handBand()
    {
        const HistoryTrend trend =
            HistoryTrend::compute(pointsOf({1000, 1010, 989.8, 999.698, 969.70706, 989.1012012, 1060}));
        QCOMPARE(trend.points().size(), std::size_t(7));
        const HistoryTrend::Point& first = trend.points().front();
        QVERIFY(!first.hasWindow);
        QCOMPARE(first.verdict, Comparison::Verdict::Added);
        // Run 2: one run before it, no change to learn from: 0.2 % around 1000.
        const HistoryTrend::Point& second = trend.points()[1];
        QVERIFY(second.hasWindow);
        QCOMPARE(second.median, 1000.0);
        QCOMPARE(second.threshold, 0.002);
        QCOMPARE(second.verdict, Comparison::Verdict::Regressed); // +1 % > 0.2 %
        const HistoryTrend::Point& last = trend.points().back();
        QCOMPARE(last.median, (989.8 + 999.698) / 2);
        QVERIFY(std::fabs(last.threshold - 0.05) < 1e-12);
        QVERIFY(std::fabs(last.high() - (989.8 + 999.698) / 2 * 1.05) < 1e-9);
        QCOMPARE(last.verdict, Comparison::Verdict::Regressed);
        QCOMPARE(trend.count(Comparison::Verdict::Added), std::size_t(1));
    }

    // The window: only the `window` runs before each one count.
    void window()
    {
        const HistoryTrend trend = HistoryTrend::compute(pointsOf({100, 100, 200, 200, 200}), 2);
        QCOMPARE(trend.points()[2].median, 100.0);
        QCOMPARE(trend.points()[2].verdict, Comparison::Verdict::Regressed);
        QCOMPARE(trend.points()[3].median, 150.0); // 100 and 200
        QCOMPARE(trend.points()[4].median, 200.0);
        QCOMPARE(trend.points()[4].verdict, Comparison::Verdict::Unchanged);
    }
};

QTEST_GUILESS_MAIN(TestHistoryTrend)
#include "tst_historytrend.moc"
