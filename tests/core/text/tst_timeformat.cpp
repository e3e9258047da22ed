#include "timeformat.h"

#include <QtTest>

using namespace runlane;

class TestTimeFormat : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void duration_data()
    {
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<QString>("text");
        QTest::newRow("ns") << qint64(999) << QString::fromUtf8("999 ns");
        QTest::newRow("µs") << qint64(1000) << QString::fromUtf8("1.00 µs");
        QTest::newRow("µs 3 digits") << qint64(123456) << QString::fromUtf8("123 µs");
        QTest::newRow("ms") << qint64(12345678) << QString::fromUtf8("12.3 ms");
        QTest::newRow("s") << qint64(3600000000000) << QString::fromUtf8("3600 s");
        QTest::newRow("negative") << qint64(-2500000) << QString::fromUtf8("-2.50 ms");
        QTest::newRow("zero") << qint64(0) << QString::fromUtf8("0 ns");
    }

    void duration()
    {
        QFETCH(qint64, ns);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(TimeFormat::duration(ns)), text);
    }

    void point_data()
    {
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << qint64(0) << QString::fromUtf8("0 ns");
        QTest::newRow("ns") << qint64(999) << QString::fromUtf8("999 ns");
        QTest::newRow("µs") << qint64(812004) << QString::fromUtf8("812.004 µs");
        QTest::newRow("µs leading zeros") << qint64(1005) << QString::fromUtf8("1.005 µs");
        QTest::newRow("ms, µs resolution") << qint64(12345678) << QString::fromUtf8("12.345 ms");
        QTest::newRow("s, µs resolution") << qint64(25056312999) << QString::fromUtf8("25.056312 s");
        QTest::newRow("s, exact") << qint64(25000000000) << QString::fromUtf8("25.000000 s");
        QTest::newRow("hours") << qint64(7200123456000) << QString::fromUtf8("7200.123456 s");
        QTest::newRow("negative") << qint64(-2500000) << QString::fromUtf8("-2.500 ms");
    }

    void point()
    {
        QFETCH(qint64, ns);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(TimeFormat::point(ns)), text);
    }

    // Tick and bin widths: 1-2-5 steps, from 1 ns up to 5e18 ns, whatever
    // is asked (a span of centuries on a narrow view asks for more).
    void niceStep_data()
    {
        QTest::addColumn<double>("atLeast");
        QTest::addColumn<qint64>("step");
        QTest::newRow("negative") << -5.0 << qint64(1);
        QTest::newRow("zero") << 0.0 << qint64(1);
        QTest::newRow("1") << 1.0 << qint64(1);
        QTest::newRow("1.5") << 1.5 << qint64(2);
        QTest::newRow("3") << 3.0 << qint64(5);
        QTest::newRow("7") << 7.0 << qint64(10);
        QTest::newRow("12 ms") << 12e6 << qint64(20000000);
        QTest::newRow("exactly 5 s") << 5e9 << qint64(5000000000);
        QTest::newRow("1e18") << 1e18 << qint64(1000000000000000000);
        QTest::newRow("1.5e18") << 1.5e18 << qint64(2000000000000000000);
        QTest::newRow("4e18") << 4e18 << qint64(5000000000000000000);
        QTest::newRow("beyond 5e18") << 6e18 << qint64(5000000000000000000);
        QTest::newRow("beyond 2^63") << 1e30 << qint64(5000000000000000000);
        QTest::newRow("infinity") << std::numeric_limits<double>::infinity() << qint64(5000000000000000000);
    }
    void niceStep()
    {
        QFETCH(double, atLeast);
        QFETCH(qint64, step);
        QCOMPARE(qint64(TimeFormat::niceStep(atLeast)), step);
    }

    // CSV and JSON's ms: every digit a nanosecond holds, no trailing zeros.
    void milliseconds_data()
    {
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << qint64(0) << "0";
        QTest::newRow("whole") << qint64(3'000'000) << "3";
        QTest::newRow("half") << qint64(12'500'000) << "12.5";
        QTest::newRow("one ns") << qint64(1) << "0.000001";
        QTest::newRow("negative") << qint64(-3'000'010) << "-3.00001";
        QTest::newRow("lowest") << std::numeric_limits<qint64>::min() << "-9223372036854.775808";
    }
    void milliseconds()
    {
        QFETCH(qint64, ns);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(TimeFormat::milliseconds(ns)), text);
    }

    void ascii() { QCOMPARE(TimeFormat::durationAscii(1500), std::string("1.50 us")); }

    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("status");
        QTest::addColumn<qint64>("ns");
        QTest::newRow("ms") << "10ms" << int(ParseStatus::Ok) << qint64(10000000);
        QTest::newRow("fraction s") << "1.5s" << int(ParseStatus::Ok) << qint64(1500000000);
        QTest::newRow("us") << "250us" << int(ParseStatus::Ok) << qint64(250000);
        QTest::newRow("µs") << QString::fromUtf8("250µs") << int(ParseStatus::Ok) << qint64(250000);
        QTest::newRow("space") << "3 ns" << int(ParseStatus::Ok) << qint64(3);
        QTest::newRow("zero without unit") << "0" << int(ParseStatus::Ok) << qint64(0);
        QTest::newRow("bare number") << "10" << int(ParseStatus::Syntax) << qint64(0);
        QTest::newRow("unknown unit") << "10min" << int(ParseStatus::Syntax) << qint64(0);
        QTest::newRow("garbage") << "fast" << int(ParseStatus::Syntax) << qint64(0);
        QTest::newRow("empty") << "" << int(ParseStatus::Syntax) << qint64(0);
        QTest::newRow("negative") << "-5ms" << int(ParseStatus::Ok) << qint64(-5000000);
        QTest::newRow("beyond int64") << "99999999999999999999s" << int(ParseStatus::Range) << qint64(0);
        QTest::newRow("just beyond int64") << "9223372036.854775808s" << int(ParseStatus::Range) << qint64(0);
        QTest::newRow("largest") << "9223372036.854775807s" << int(ParseStatus::Ok) << qint64(9223372036854775807);
        QTest::newRow("huge exponent") << "1e400ms" << int(ParseStatus::Range) << qint64(0);
    }

    void parse()
    {
        QFETCH(QString, text);
        QFETCH(int, status);
        QFETCH(qint64, ns);
        Time out = -1;
        QCOMPARE(int(TimeFormat::parseDuration(text.toStdString(), out)), status);
        if (status == int(ParseStatus::Ok))
            QCOMPARE(qint64(out), ns);
    }
};

QTEST_GUILESS_MAIN(TestTimeFormat)
#include "tst_timeformat.moc"
