#include "statistics.h"

#include <QtTest>

#include <algorithm>
#include <random>

using namespace runlane;

Q_DECLARE_METATYPE(std::vector<double>)

namespace {

// The 95 % bootstrap interval of median(b) - median(a) the plain way, to
// check Statistics against: 200,000 resamples, each drawing every value.
std::pair<double, double> drawingEveryValue(const std::vector<double>& a, const std::vector<double>& b, std::uint64_t seed)
{
    std::mt19937_64 random(seed);
    const auto draw = [&random](const std::vector<double>& x) {
        std::vector<double> r(x.size());
        for (double& v : r)
            v = x[std::uniform_int_distribution<std::size_t>(0, x.size() - 1)(random)];
        return Statistics::median(r);
    };
    std::vector<double> deltas(200000);
    for (double& d : deltas)
        d = draw(b) - draw(a);
    std::sort(deltas.begin(), deltas.end());
    return {deltas[std::size_t(0.025 * double(deltas.size() - 1) + 0.5)],
            deltas[std::size_t(0.975 * double(deltas.size() - 1) + 0.5)]};
}

} // namespace

class TestStatistics : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void summarise()
    {
        const Statistics::Summary s = Statistics::summarise({4, 1, 3, 2});
        QCOMPARE(s.n, std::size_t(4));
        QCOMPARE(s.median, 2.5);
        QCOMPARE(s.mean, 2.5);
        QCOMPARE(s.min, 1.0);
        QCOMPARE(s.max, 4.0);
        QCOMPARE(s.stddev, std::sqrt(5.0 / 3.0));
        QCOMPARE(Statistics::median({7, 1, 5}), 5.0);
        QCOMPARE(Statistics::summarise({}).n, std::size_t(0));
        QCOMPARE(Statistics::summarise({3}).stddev, 0.0);
    }

    // Expected values: exact ones by enumerating every split (and R's
    // wilcox.test example for the depression scores), normal ones from the
    // tie-corrected formula with continuity correction.
    void mannWhitney_data()
    {
        QTest::addColumn<std::vector<double>>("a");
        QTest::addColumn<std::vector<double>>("b");
        QTest::addColumn<double>("u");
        QTest::addColumn<double>("p");
        QTest::addColumn<bool>("exact");
        QTest::newRow("3 vs 3, apart") << std::vector<double>{1, 2, 3} << std::vector<double>{4, 5, 6} << 0.0 << 0.1 << true;
        QTest::newRow("reversed") << std::vector<double>{4, 5, 6} << std::vector<double>{1, 2, 3} << 9.0 << 0.1 << true;
        QTest::newRow("5 vs 5, apart") << std::vector<double>{1, 2, 3, 4, 5} << std::vector<double>{6, 7, 8, 9, 10} << 0.0
                                       << 2.0 / 252 << true;
        QTest::newRow("R wilcox.test example")
            << std::vector<double>{0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46}
            << std::vector<double>{1.15, 0.88, 0.90, 0.74, 1.21} << 35.0 << 0.2544122544122544 << true;
        QTest::newRow("ties, exact") << std::vector<double>{1, 2, 2, 3} << std::vector<double>{2, 3, 3, 4} << 3.0
                                     << 0.2857142857142857 << true;
        QTest::newRow("all equal") << std::vector<double>{5, 5, 5} << std::vector<double>{5, 5, 5} << 4.5 << 1.0 << true;
        QTest::newRow("one each") << std::vector<double>{1} << std::vector<double>{2} << 0.0 << 1.0 << true;
        QTest::newRow("empty side") << std::vector<double>{} << std::vector<double>{2} << 0.0 << 1.0 << false;
        std::vector<double> a;
        std::vector<double> b;
        for (int i = 0; i < 30; ++i) {
            a.push_back(double(i % 7) + i * 0.1);
            b.push_back(double(i % 5) + i * 0.1 + 1.5);
        }
        QTest::newRow("30 vs 30, normal") << a << b << 370.0 << 0.2397977461259767 << false;
        std::vector<double> c;
        std::vector<double> d;
        for (int i = 0; i < 40; ++i) {
            c.push_back(i % 4);
            d.push_back((i % 4) + (i % 3 == 0 ? 1 : 0));
        }
        QTest::newRow("40 vs 40, many ties") << c << d << 680.0 << 0.2368358026200677 << false;
    }

    void mannWhitney()
    {
        QFETCH(std::vector<double>, a);
        QFETCH(std::vector<double>, b);
        QFETCH(double, u);
        QFETCH(double, p);
        QFETCH(bool, exact);
        const Statistics::MannWhitney r = Statistics::mannWhitney(a, b);
        QCOMPARE(r.u, u);
        QVERIFY2(std::fabs(r.p - p) < 1e-12, qPrintable(QString::number(r.p, 'g', 17)));
        QCOMPARE(r.exact, exact);
    }

    // Exact p of every size from 1 to 20 per side for samples that do not
    // overlap: 2 / C(m + n, m), the most extreme of all splits.
    void exactTailsOfEverySize()
    {
        for (int m = 1; m <= 10; ++m) {
            for (int n = 1; n <= 10; ++n) {
                std::vector<double> a;
                std::vector<double> b;
                for (int i = 0; i < m; ++i)
                    a.push_back(i);
                for (int i = 0; i < n; ++i)
                    b.push_back(100 + i);
                double splits = 1;
                for (int i = 1; i <= m; ++i)
                    splits = splits * (n + i) / i;
                const Statistics::MannWhitney r = Statistics::mannWhitney(a, b);
                QVERIFY(r.exact);
                QVERIFY2(std::fabs(r.p - std::min(1.0, 2 / splits)) < 1e-12, qPrintable(QStringLiteral("%1 vs %2").arg(m).arg(n)));
            }
        }
    }

    void bootstrapIsReproducible()
    {
        std::vector<double> a;
        std::vector<double> b;
        for (int i = 0; i < 20; ++i) {
            a.push_back(100 + (i * 37) % 11);
            b.push_back(110 + (i * 53) % 13);
        }
        const Statistics::Interval first = Statistics::bootstrapMedianDelta(a, b, 42);
        const Statistics::Interval again = Statistics::bootstrapMedianDelta(a, b, 42);
        QCOMPARE(first.low, again.low);
        QCOMPARE(first.high, again.high);
        // The medians differ by 9.5 (105 and 114.5): the interval holds it
        // and stays clear of 0.
        QVERIFY2(first.low <= 9.5 && first.high >= 9.5, qPrintable(QStringLiteral("%1 %2").arg(first.low).arg(first.high)));
        QVERIFY(first.low > 0);
        // Identical samples of one value: no uncertainty at all.
        const Statistics::Interval none = Statistics::bootstrapMedianDelta({5, 5, 5}, {5, 5, 5}, 1);
        QCOMPARE(none.low, 0.0);
        QCOMPARE(none.high, 0.0);
    }

    // Few runs: the exact law of the resampled medians, which many Monte
    // Carlo resamples (here 200,000, a plain reimplementation) approach.
    void exactBootstrapMatchesManyResamples_data()
    {
        QTest::addColumn<std::vector<double>>("a");
        QTest::addColumn<std::vector<double>>("b");
        QTest::newRow("5 vs 5") << std::vector<double>{10, 12, 11, 14, 13} << std::vector<double>{15, 13, 17, 16, 19};
        QTest::newRow("6 vs 4, ties") << std::vector<double>{10, 10, 12, 11, 14, 13} << std::vector<double>{13, 13, 16, 18};
        QTest::newRow("3 vs 12") << std::vector<double>{5, 9, 7}
                                 << std::vector<double>{4, 8, 6, 9, 12, 3, 7, 7, 10, 5, 8, 11};
        // One value against a window of runs (a history check): exact up
        // to kExactSingleSideValues on the other side, even and odd.
        std::vector<double> window30;
        for (int i = 0; i < 30; ++i)
            window30.push_back(100 + double((i * 7) % 13) + (i % 4) * 0.5);
        std::vector<double> window31 = window30;
        window31.push_back(104.5);
        QTest::newRow("30 vs 1") << window30 << std::vector<double>{109};
        QTest::newRow("1 vs 31") << std::vector<double>{101} << window31;
    }

    void exactBootstrapMatchesManyResamples()
    {
        QFETCH(std::vector<double>, a);
        QFETCH(std::vector<double>, b);
        const Statistics::Interval exact = Statistics::bootstrapMedianDelta(a, b, 1);
        const auto [low, high] = drawingEveryValue(a, b, 7);
        QVERIFY2(std::fabs(exact.low - low) <= 0.5 && std::fabs(exact.high - high) <= 0.5,
                 qPrintable(QStringLiteral("exact [%1, %2], resampled [%3, %4]").arg(exact.low).arg(exact.high).arg(low).arg(high)));
    }

    // More values than the exact law takes (each call of a label, one run
    // against one): resamples drawn through the middle order statistics'
    // Beta law must give the quantiles of drawing every value (200,000
    // resamples each, a plain reimplementation).
    void resampledBootstrapMatchesDrawingEveryValue_data()
    {
        QTest::addColumn<std::vector<double>>("a");
        QTest::addColumn<std::vector<double>>("b");
        const auto sample = [](int n, int mod, int step, double base) {
            std::vector<double> v;
            for (int i = 0; i < n; ++i)
                v.push_back(base + double((i * step) % mod) + (i % 3) * 0.25);
            return v;
        };
        QTest::newRow("13 vs 13, odd") << sample(13, 11, 7, 100) << sample(13, 13, 5, 104);
        QTest::newRow("20 vs 20, even") << sample(20, 11, 37, 100) << sample(20, 13, 53, 110);
        QTest::newRow("3 vs 40, ties") << std::vector<double>{5, 9, 7} << sample(40, 6, 5, 4);
        QTest::newRow("150 vs 101") << sample(150, 97, 31, 1000) << sample(101, 89, 17, 1030);
        QTest::newRow("200 vs 199") << sample(200, 50, 7, 0) << sample(199, 50, 11, 2);
    }

    void resampledBootstrapMatchesDrawingEveryValue()
    {
        QFETCH(std::vector<double>, a);
        QFETCH(std::vector<double>, b);
        QVERIFY(a.size() > Statistics::kExactBootstrapValues || b.size() > Statistics::kExactBootstrapValues);
        QVERIFY(a.size() + b.size() <= Statistics::kBootstrapMaxValues);
        const Statistics::Interval fast = Statistics::bootstrapMedianDelta(a, b, 3, 200000);
        const auto [low, high] = drawingEveryValue(a, b, 11);
        const double tolerance = 0.02 * (high - low) + 1e-9;
        QVERIFY2(std::fabs(fast.low - low) <= tolerance && std::fabs(fast.high - high) <= tolerance,
                 qPrintable(QStringLiteral("fast [%1, %2], every value drawn [%3, %4]").arg(fast.low).arg(fast.high).arg(low).arg(high)));
    }

    // 30 runs against 1 (a history check): the exact p counts the one
    // value's rank, either side first. Above all 30: ranks 31 and 1 are
    // as extreme, p = 2/31; in the middle (rank 16 of 31) p = 1.
    void exactPOneAgainstMany()
    {
        std::vector<double> window;
        for (int i = 1; i <= 30; ++i)
            window.push_back(i * 10);
        for (const auto& [value, p] : {std::pair{1000.0, 2.0 / 31}, std::pair{155.0, 1.0}}) {
            const Statistics::MannWhitney many = Statistics::mannWhitney(window, {value});
            const Statistics::MannWhitney one = Statistics::mannWhitney({value}, window);
            QVERIFY(many.exact && one.exact);
            QVERIFY2(std::fabs(many.p - p) < 1e-12, qPrintable(QString::number(many.p, 'g', 17)));
            QVERIFY2(std::fabs(one.p - p) < 1e-12, qPrintable(QString::number(one.p, 'g', 17)));
        }
    }

    void normalTail()
    {
        QVERIFY(std::fabs(Statistics::normalUpperTail(1.959963984540054) - 0.025) < 1e-12);
        QCOMPARE(Statistics::normalUpperTail(0), 0.5);
    }
};

QTEST_GUILESS_MAIN(TestStatistics)
#include "tst_statistics.moc"
