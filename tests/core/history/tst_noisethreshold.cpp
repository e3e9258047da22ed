#include "noisethreshold.h"

#include <QtTest>

#include <vector>

using runlane::NoiseThreshold;

Q_DECLARE_METATYPE(std::vector<double>)

class TestNoiseThreshold : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Type 7: h = (n - 1) p between the sorted values.
    void quantile_data()
    {
        QTest::addColumn<std::vector<double>>("values");
        QTest::addColumn<double>("p");
        QTest::addColumn<double>("expected");
        QTest::newRow("none") << std::vector<double>{} << 0.75 << 0.0;
        QTest::newRow("one") << std::vector<double>{7} << 0.25 << 7.0;
        // 1 2 3 4: h = 0.75 -> 1.75; h = 2.25 -> 3.25.
        QTest::newRow("q1 of 4") << std::vector<double>{4, 1, 3, 2} << 0.25 << 1.75;
        QTest::newRow("q3 of 4") << std::vector<double>{4, 1, 3, 2} << 0.75 << 3.25;
        // 1 2 3 4 5: h = 1 and 3, on the values.
        QTest::newRow("q1 of 5") << std::vector<double>{5, 4, 3, 2, 1} << 0.25 << 2.0;
        QTest::newRow("q3 of 5") << std::vector<double>{5, 4, 3, 2, 1} << 0.75 << 4.0;
        QTest::newRow("max") << std::vector<double>{1, 9} << 1.0 << 9.0;
        QTest::newRow("min") << std::vector<double>{1, 9} << 0.0 << 1.0;
    }
    void quantile()
    {
        QFETCH(std::vector<double>, values);
        QFETCH(double, p);
        QFETCH(double, expected);
        QCOMPARE(NoiseThreshold::quantile(values, p), expected);
    }

    void changes()
    {
        // 100 -> 110: 10 %; 110 -> 99: 10 %; 99 -> 0 -> 50: the pair from 0 has none.
        const std::vector<double> c = NoiseThreshold::changes({100, 110, 99, 0, 50});
        QCOMPARE(c.size(), std::size_t(3));
        QCOMPARE(c[0], 0.1);
        QCOMPARE(c[1], 0.1);
        QCOMPARE(c[2], 1.0);
    }

    // Worked by hand: the changes, their Q1 and Q3 (type 7), Q3 + 3 IQR.
    void threshold_data()
    {
        QTest::addColumn<std::vector<double>>("series");
        QTest::addColumn<double>("expected");
        QTest::newRow("no history") << std::vector<double>{} << 0.002;
        QTest::newRow("one run") << std::vector<double>{1000} << 0.002;
        QTest::newRow("only zeros") << std::vector<double>{0, 0, 0} << 0.002;
        // Changes 0.1, 0.1, 0, 0.1 -> sorted 0 0.1 0.1 0.1: Q1 = 0.075
        // (h = 0.75), Q3 = 0.1 (h = 2.25): 0.1 + 3 × 0.025 = 0.175.
        QTest::newRow("jittery 10 %") << std::vector<double>{100, 110, 99, 99, 108.9} << 0.175;
        // Changes 1 %, 2 %, 1 %, 3 %, 2 % (1000 1010 989.8 999.698
        // 969.70706 989.1012012) -> sorted 1 1 2 2 3 %: Q1 = 1 %, Q3 = 2 %:
        // 2 % + 3 × 1 % = 5 %.
        QTest::newRow("steady 1-3 %") << std::vector<double>{1000, 1010, 989.8, 999.698, 969.70706, 989.1012012} << 0.05;
        // Constant: no noise at all, the smallest change stands out.
        QTest::newRow("constant") << std::vector<double>{500, 500, 500, 500} << 0.0;
        // Changes 0.2 % each but one of 1 %: sorted 0.2 0.2 0.2 1 %:
        // Q1 = 0.2 %, Q3 = 0.2 % + 0.25 × 0.8 % = 0.4 %; 0.4 % + 3 × 0.2 % = 1 %.
        QTest::newRow("one outlier") << std::vector<double>{1000, 1002, 1000.0 * 1.002 * 1.002, 1000.0 * 1.002 * 1.002 * 1.002,
                                                            1000.0 * 1.002 * 1.002 * 1.002 * 1.01}
                                     << 0.01;
    }
    void threshold()
    {
        QFETCH(std::vector<double>, series);
        QFETCH(double, expected);
        const double t = NoiseThreshold::of(series);
        QVERIFY2(std::fabs(t - expected) < 1e-12, qPrintable(QString::number(t, 'g', 17)));
    }
};

QTEST_GUILESS_MAIN(TestNoiseThreshold)
#include "tst_noisethreshold.moc"
