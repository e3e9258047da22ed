#include "rangeextrema.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <vector>

using namespace runlane;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// 0, 1, …, 99, but -3 at 40 and 500 at 70: blocks of 32 are [0, 32),
// [32, 64), [64, 96) and [96, 100).
QList<double> hundred()
{
    QList<double> values;
    for (int i = 0; i < 100; ++i)
        values << double(i);
    values[40] = -3;
    values[70] = 500;
    return values;
}

} // namespace

class TestRangeExtrema : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void extrema_data()
    {
        QTest::addColumn<QList<double>>("values");
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("last");
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("max");
        const QList<double> few{3, -1, 4, 1, -5, 9, 2, 6};
        QTest::newRow("all of few") << few << 0 << 8 << -5.0 << 9.0;
        QTest::newRow("inside few") << few << 1 << 4 << -1.0 << 4.0;
        QTest::newRow("one") << few << 5 << 6 << 9.0 << 9.0;
        QTest::newRow("empty") << few << 3 << 3 << kInf << -kInf;
        QTest::newRow("reversed") << few << 5 << 2 << kInf << -kInf;
        QTest::newRow("past the end") << few << 6 << 50 << 2.0 << 6.0;
        const QList<double> odd{std::nan(""), 2, kInf, -kInf, 7};
        QTest::newRow("non-finite left out") << odd << 0 << 5 << 2.0 << 7.0;
        QTest::newRow("only non-finite") << odd << 2 << 4 << kInf << -kInf;
        QTest::newRow("all of hundred") << hundred() << 0 << 100 << -3.0 << 500.0;
        QTest::newRow("partial blocks and whole ones") << hundred() << 33 << 97 << -3.0 << 500.0;
        QTest::newRow("between the outliers") << hundred() << 41 << 70 << 41.0 << 69.0;
        QTest::newRow("exactly one block") << hundred() << 64 << 96 << 64.0 << 500.0;
        QTest::newRow("after the outliers") << hundred() << 71 << 100 << 71.0 << 99.0;
        QTest::newRow("two whole blocks") << hundred() << 0 << 64 << -3.0 << 63.0;
        QTest::newRow("last short block") << hundred() << 96 << 100 << 96.0 << 99.0;
    }
    void extrema()
    {
        QFETCH(QList<double>, values);
        QFETCH(int, first);
        QFETCH(int, last);
        QFETCH(double, min);
        QFETCH(double, max);
        const std::vector<double> v(values.begin(), values.end());
        const RangeExtrema extrema(v);
        QCOMPARE(extrema.size(), v.size());
        const auto [lo, hi] = extrema.extrema(std::size_t(first), std::size_t(last));
        QCOMPARE(lo, min);
        QCOMPARE(hi, max);
    }

    // Every range of a series of 1,000 values over many blocks, against a scan.
    void agreesWithAScan()
    {
        std::vector<double> v(1000);
        std::uint32_t state = 12345;
        for (double& x : v) {
            state = state * 1664525u + 1013904223u;
            x = double(int(state >> 8) % 20001 - 10000) / 8.0;
        }
        const RangeExtrema extrema(v);
        for (std::size_t first = 0; first <= v.size(); first += 7) {
            for (std::size_t last = first; last <= v.size(); last += 13) {
                double lo = kInf;
                double hi = -kInf;
                for (std::size_t i = first; i < last; ++i) {
                    lo = std::min(lo, v[i]);
                    hi = std::max(hi, v[i]);
                }
                const auto got = extrema.extrema(first, last);
                if (got.first != lo || got.second != hi)
                    QFAIL(qPrintable(QStringLiteral("[%1, %2): %3..%4, expected %5..%6")
                                         .arg(first).arg(last).arg(got.first).arg(got.second).arg(lo).arg(hi)));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestRangeExtrema)
#include "tst_rangeextrema.moc"
