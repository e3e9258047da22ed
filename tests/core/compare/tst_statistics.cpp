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

// The same for the nearest-rank q-quantile (RankTable's p50 … max) of
// b minus that of a.
std::pair<double, double> quantileDrawingEveryValue(const std::vector<double>& a, const std::vector<double>& b, double q,
                                                    std::uint64_t seed, std::size_t resamples)
{
    std::mt19937_64 random(seed);
    const auto draw = [&](const std::vector<double>& x) {
        std::vector<double> r(x.size());
        for (double& v : r)
            v = x[std::uniform_int_distribution<std::size_t>(0, x.size() - 1)(random)];
        const std::size_t k = std::clamp<std::size_t>(std::size_t(std::ceil(q * double(r.size()))), 1, r.size()) - 1;
        std::nth_element(r.begin(), r.begin() + std::ptrdiff_t(k), r.end());
        return r[k];
    };
    std::vector<double> deltas(resamples);
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

    // References from mpmath (betainc, 40 digits).
    void regularizedBeta_data()
    {
        QTest::addColumn<double>("x");
        QTest::addColumn<double>("a");
        QTest::addColumn<double>("b");
        QTest::addColumn<double>("expected");
        QTest::addColumn<double>("relative"); // tolerance: lgamma of 5e4 keeps 11 digits
        QTest::newRow("P(Bin(4, 1/2) >= 2)") << 0.5 << 2.0 << 3.0 << 0.6875 << 1e-12;
        QTest::newRow("P(Bin(7, 0.2) >= 3)") << 0.2 << 3.0 << 5.0 << 0.148032 << 1e-12;
        QTest::newRow("uniform") << 0.3 << 1.0 << 1.0 << 0.3 << 1e-12;
        QTest::newRow("500, 500") << 0.51 << 500.0 << 500.0 << 0.73642439164341471481 << 1e-12;
        QTest::newRow("far tail") << 0.001 << 3.0 << 1000.0 << 0.080577590360204410253 << 1e-12;
        QTest::newRow("arcsine") << 0.01 << 0.5 << 0.5 << 0.063768560858519848583 << 1e-12;
        QTest::newRow("upper side") << 0.9 << 40.0 << 2.0 << 0.073904414707173021464 << 1e-12;
        QTest::newRow("t, df 1e5") << 0.99 << 5e4 << 0.5 << 1.4495725929421882531e-220 << 1e-9;
        QTest::newRow("0") << 0.0 << 2.0 << 2.0 << 0.0 << 1e-12;
        QTest::newRow("1") << 1.0 << 2.0 << 2.0 << 1.0 << 1e-12;
    }

    void regularizedBeta()
    {
        QFETCH(double, x);
        QFETCH(double, a);
        QFETCH(double, b);
        QFETCH(double, expected);
        QFETCH(double, relative);
        const double got = Statistics::regularizedBeta(x, a, b);
        QVERIFY2(std::fabs(got - expected) <= relative * expected + 1e-300, qPrintable(QString::number(got, 'g', 17)));
    }

    // Student's t of the two-sided 95 % (mpmath); a fractional df is
    // what Welch–Satterthwaite gives.
    void studentQuantile_data()
    {
        QTest::addColumn<double>("df");
        QTest::addColumn<double>("t");
        QTest::newRow("1") << 1.0 << 12.706204736174704646;
        QTest::newRow("2") << 2.0 << 4.3026527297494638523;
        QTest::newRow("3.5") << 3.5 << 2.9400886379827297938;
        QTest::newRow("10") << 10.0 << 2.2281388519862747484;
        QTest::newRow("30") << 30.0 << 2.04227245630123831;
        QTest::newRow("1000") << 1000.0 << 1.962339080826408485;
        QTest::newRow("1e8: the normal") << 1e8 << 1.959963984540054;
    }

    void studentQuantile()
    {
        QFETCH(double, df);
        QFETCH(double, t);
        const double got = Statistics::studentUpperQuantile(0.025, df);
        QVERIFY2(std::fabs(got - t) < 1e-9 * t, qPrintable(QString::number(got, 'g', 17)));
    }

    // Welch's interval of scaleB Σb - scaleA Σa (mpmath, 40 digits): the
    // change of two totals, a side of one value fixed.
    void welchSumDelta_data()
    {
        QTest::addColumn<std::vector<double>>("a");
        QTest::addColumn<double>("scaleA");
        QTest::addColumn<std::vector<double>>("b");
        QTest::addColumn<double>("scaleB");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::newRow("4 vs 3") << std::vector<double>{1, 2, 3, 4} << 1.0 << std::vector<double>{2, 4, 6} << 1.0
                                << -9.9795397178902166004 << 13.9795397178902166;
        QTest::newRow("scaled (--per call, busy)") << std::vector<double>{1, 2, 3, 4} << 0.5 << std::vector<double>{2, 4, 6}
                                                   << 2.0 << -9.5037963979542222267 << 47.503796397954222227;
        QTest::newRow("4 vs 4, df 6") << std::vector<double>{100, 110, 120, 130} << 1.0
                                      << std::vector<double>{130, 140, 150, 160} << 1.0 << 30.651412193411781329
                                      << 209.34858780658821867;
        QTest::newRow("one call: fixed") << std::vector<double>{7} << 1.0 << std::vector<double>{2, 4, 6} << 1.0
                                         << -9.9048262705019864262 << 19.904826270501986426;
        QTest::newRow("no spread") << std::vector<double>{5, 5} << 1.0 << std::vector<double>{8} << 1.0 << -2.0 << -2.0;
    }

    void welchSumDelta()
    {
        QFETCH(std::vector<double>, a);
        QFETCH(double, scaleA);
        QFETCH(std::vector<double>, b);
        QFETCH(double, scaleB);
        QFETCH(double, low);
        QFETCH(double, high);
        const Statistics::Interval ci = Statistics::welchSumDelta(a, scaleA, b, scaleB);
        const double tolerance = 1e-9 * (std::fabs(low) + std::fabs(high) + 1);
        QVERIFY2(std::fabs(ci.low - low) < tolerance && std::fabs(ci.high - high) < tolerance,
                 qPrintable(QStringLiteral("[%1, %2]").arg(ci.low, 0, 'g', 17).arg(ci.high, 0, 'g', 17)));
    }

    // The exact law of a resample's nearest-rank quantile, by hand:
    // max* of {1, 2, 3} is 1, 2, 3 with 1/27, 7/27, 19/27, so 10 - max*
    // is 7 (1/27 >= 2.5 %) … 9; the median (k = 2 of 4) of {1, 2, 3, 4}
    // is at most 3 with 0.949, so 10 - it is 6 (0.051) … 9.
    void quantileBootstrapByHand_data()
    {
        QTest::addColumn<std::vector<double>>("a");
        QTest::addColumn<std::vector<double>>("b");
        QTest::addColumn<double>("q");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::newRow("max") << std::vector<double>{3, 1, 2} << std::vector<double>{10} << 1.0 << 7.0 << 9.0;
        QTest::newRow("p50 of 4") << std::vector<double>{4, 2, 3, 1} << std::vector<double>{10} << 0.5 << 6.0 << 9.0;
        QTest::newRow("constant") << std::vector<double>{5, 5, 5} << std::vector<double>{8, 8} << 0.9 << 3.0 << 3.0;
        QTest::newRow("one each") << std::vector<double>{5} << std::vector<double>{8} << 0.99 << 3.0 << 3.0;
    }

    void quantileBootstrapByHand()
    {
        QFETCH(std::vector<double>, a);
        QFETCH(std::vector<double>, b);
        QFETCH(double, q);
        QFETCH(double, low);
        QFETCH(double, high);
        const Statistics::Interval ci = Statistics::bootstrapQuantileDelta(a, b, q);
        QCOMPARE(ci.low, low);
        QCOMPARE(ci.high, high);
    }

    // The exact law against drawing every value (200,000 resamples; 10,000
    // of the larger samples) for the median, p90, p99 and the max, from a
    // few calls to a thousand.
    void quantileBootstrapMatchesDrawingEveryValue_data()
    {
        QTest::addColumn<std::vector<double>>("a");
        QTest::addColumn<std::vector<double>>("b");
        QTest::addColumn<double>("q");
        const auto sample = [](int n, int mod, int step, double base) {
            std::vector<double> v;
            for (int i = 0; i < n; ++i)
                v.push_back(base + double((i * step) % mod) + (i % 3) * 0.25);
            return v;
        };
        for (const double q : {0.5, 0.9, 0.99, 1.0}) {
            const QByteArray at = QByteArray::number(q);
            QTest::newRow("7 vs 9, q " + at) << sample(7, 11, 7, 100) << sample(9, 13, 5, 104) << q;
            QTest::newRow("40 vs 35, ties, q " + at) << sample(40, 6, 5, 4) << sample(35, 7, 3, 5) << q;
            QTest::newRow("300 vs 250, q " + at) << sample(300, 97, 31, 1000) << sample(250, 89, 17, 1030) << q;
            QTest::newRow("1000 vs 800, q " + at) << sample(1000, 997, 31, 1000) << sample(800, 991, 17, 1010) << q;
        }
    }

    void quantileBootstrapMatchesDrawingEveryValue()
    {
        QFETCH(std::vector<double>, a);
        QFETCH(std::vector<double>, b);
        QFETCH(double, q);
        const Statistics::Interval exact = Statistics::bootstrapQuantileDelta(a, b, q);
        const auto [low, high] = quantileDrawingEveryValue(a, b, q, 5, a.size() + b.size() > 100 ? 10000 : 200000);
        // The Monte Carlo error at a 2.5 % quantile: a step of these laws
        // (values 0.25 to 1 apart) or 3 % of the width (about 4 standard
        // errors of 10,000 resamples).
        const double tolerance = std::max(1.0, 0.03 * (high - low));
        QVERIFY2(std::fabs(exact.low - low) <= tolerance && std::fabs(exact.high - high) <= tolerance,
                 qPrintable(QStringLiteral("exact [%1, %2], every value drawn [%3, %4]").arg(exact.low).arg(exact.high).arg(low).arg(high)));
    }

    void normalTail()
    {
        QVERIFY(std::fabs(Statistics::normalUpperTail(1.959963984540054) - 0.025) < 1e-12);
        QCOMPARE(Statistics::normalUpperTail(0), 0.5);
    }
};

QTEST_GUILESS_MAIN(TestStatistics)
#include "tst_statistics.moc"
