#include "numberparse.h"

#include <QRandomGenerator>
#include <QRegularExpression>
#include <QtTest>

using namespace runlane;

Q_DECLARE_METATYPE(runlane::ParseStatus)

class TestNumberParse : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void scaledDecimal_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("scale");
        QTest::addColumn<ParseStatus>("status");
        QTest::addColumn<qint64>("value");

        QTest::newRow("integer µs") << "12" << 3 << ParseStatus::Ok << qint64(12000);
        QTest::newRow("sub-µs digits kept") << "3.011" << 3 << ParseStatus::Ok << qint64(3011);
        QTest::newRow("epoch µs with ns") << "1650900741301300.123" << 3 << ParseStatus::Ok
                                          << qint64(1650900741301300123LL);
        QTest::newRow("round half up") << "1.0005" << 3 << ParseStatus::Ok << qint64(1001);
        QTest::newRow("round down") << "1.0004999" << 3 << ParseStatus::Ok << qint64(1000);
        QTest::newRow("negative rounds away from 0") << "-1.0005" << 3 << ParseStatus::Ok << qint64(-1001);
        QTest::newRow("exponent") << "1.5e3" << 3 << ParseStatus::Ok << qint64(1500000);
        QTest::newRow("negative exponent") << "25E-1" << 3 << ParseStatus::Ok << qint64(2500);
        QTest::newRow("leading point digits") << "0.000001" << 3 << ParseStatus::Ok << qint64(0);
        QTest::newRow("blanks") << "  42 " << 0 << ParseStatus::Ok << qint64(42);
        QTest::newRow("plus sign") << "+7" << 0 << ParseStatus::Ok << qint64(7);
        QTest::newRow("many digits") << "123456789012345678901234" << -10 << ParseStatus::Ok
                                     << qint64(12345678901235LL);
        QTest::newRow("max") << "9223372036854775807" << 0 << ParseStatus::Ok << qint64(9223372036854775807LL);
        QTest::newRow("min") << "-9223372036854775808" << 0 << ParseStatus::Ok << qint64(-9223372036854775807LL - 1);
        QTest::newRow("overflow") << "9223372036854775808" << 0 << ParseStatus::Range << qint64(0);
        QTest::newRow("1e300 µs") << "1e300" << 3 << ParseStatus::Range << qint64(0);
        QTest::newRow("huge µs") << "9223372036854776" << 3 << ParseStatus::Range << qint64(0);
        QTest::newRow("empty") << "" << 3 << ParseStatus::Syntax << qint64(0);
        QTest::newRow("letters") << "abc" << 3 << ParseStatus::Syntax << qint64(0);
        QTest::newRow("NaN") << "NaN" << 3 << ParseStatus::Syntax << qint64(0);
        QTest::newRow("trailing junk") << "12x" << 3 << ParseStatus::Syntax << qint64(0);
        QTest::newRow("bare exponent") << "1e" << 3 << ParseStatus::Syntax << qint64(0);
        QTest::newRow("tiny") << "1e-40" << 3 << ParseStatus::Ok << qint64(0);
    }

    void scaledDecimal()
    {
        QFETCH(QString, text);
        QFETCH(int, scale);
        QFETCH(ParseStatus, status);
        QFETCH(qint64, value);
        std::int64_t out = -1;
        const std::string utf8 = text.toStdString();
        QCOMPARE(parseScaledDecimal(utf8, scale, out), status);
        if (status == ParseStatus::Ok)
            QCOMPARE(qint64(out), value);
    }

    void scaleIntegers()
    {
        std::int64_t out = 0;
        QCOMPARE(scaleInteger(-5, 3, out), ParseStatus::Ok);
        QCOMPARE(out, std::int64_t(-5000));
        QCOMPARE(scaleUnsigned(9223372036854775ULL, 3, out), ParseStatus::Ok);
        QCOMPARE(out, std::int64_t(9223372036854775000LL));
        QCOMPARE(scaleUnsigned(9223372036854776ULL, 3, out), ParseStatus::Range);
        QCOMPARE(scaleUnsigned(18446744073709551615ULL, 0, out), ParseStatus::Range);
    }

    // The one-pass form: true only for the texts it names, and then the
    // same value as parseScaledDecimal.
    void shortScaledDecimal_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("scale");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<qint64>("value");
        QTest::newRow("µs with ns") << "1000014.509" << 3 << true << qint64(1000014509);
        QTest::newRow("fewer fraction digits") << "5.47" << 3 << true << qint64(5470);
        QTest::newRow("integer") << "12" << 3 << true << qint64(12000);
        QTest::newRow("zero") << "0" << 3 << true << qint64(0);
        QTest::newRow("zero point") << "0.001" << 3 << true << qint64(1);
        QTest::newRow("minus zero") << "-0" << 3 << true << qint64(0);
        QTest::newRow("negative") << "-2.5" << 3 << true << qint64(-2500);
        QTest::newRow("15 digits") << "999999999999999.999" << 3 << true << qint64(999999999999999999LL);
        QTest::newRow("scale 0") << "42" << 0 << true << qint64(42);
        QTest::newRow("16 digits: general") << "1650900741301300" << 3 << false << qint64(0);
        QTest::newRow("20 digits: general, no overflow") << "12345678901234567890" << 3 << false << qint64(0);
        QTest::newRow("4 fraction digits: general") << "1.0005" << 3 << false << qint64(0);
        QTest::newRow("fraction at scale 0: general") << "1.5" << 0 << false << qint64(0);
        QTest::newRow("exponent: general") << "1.5e3" << 3 << false << qint64(0);
        QTest::newRow("scale 4: general") << "1" << 4 << false << qint64(0);
        QTest::newRow("leading zero") << "01" << 3 << false << qint64(0);
        QTest::newRow("point, no digit") << "1." << 3 << false << qint64(0);
        QTest::newRow("no digit before the point") << ".5" << 3 << false << qint64(0);
        QTest::newRow("plus sign") << "+1" << 3 << false << qint64(0);
        QTest::newRow("blank") << " 1" << 3 << false << qint64(0);
        QTest::newRow("sign only") << "-" << 3 << false << qint64(0);
        QTest::newRow("empty") << "" << 3 << false << qint64(0);
        QTest::newRow("letters after") << "12ab" << 3 << false << qint64(0);
    }
    void shortScaledDecimal()
    {
        QFETCH(QString, text);
        QFETCH(int, scale);
        QFETCH(bool, ok);
        QFETCH(qint64, value);
        std::int64_t out = -1;
        const std::string utf8 = text.toStdString();
        QCOMPARE(parseShortScaledDecimal(utf8, scale, out), ok);
        if (ok)
            QCOMPARE(qint64(out), value);
    }

    // Random texts from the characters of numbers: wherever the one-pass
    // form says yes, the text is a JSON number and parseScaledDecimal gives
    // the same value. It says yes often enough for that to mean something.
    void shortScaledDecimalAgreesWithTheGeneralForm()
    {
        const QRegularExpression json(QStringLiteral("^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?$"));
        QRandomGenerator rng(45);
        static const char alphabet[] = "0123456789000111.-e+ ";
        int taken = 0;
        for (int round = 0; round < 200000; ++round) {
            std::string text;
            const int length = 1 + int(rng.bounded(20));
            for (int i = 0; i < length; ++i)
                text += alphabet[rng.bounded(int(sizeof(alphabet) - 1))];
            const int scale = int(rng.bounded(5));
            std::int64_t fast = 0;
            if (!parseShortScaledDecimal(text, scale, fast))
                continue;
            ++taken;
            QVERIFY2(json.match(QString::fromStdString(text)).hasMatch(), text.c_str());
            std::int64_t general = 0;
            QCOMPARE(parseScaledDecimal(text, scale, general), ParseStatus::Ok);
            QCOMPARE(fast, general);
        }
        QVERIFY2(taken > 5000, qPrintable(QString::number(taken)));
    }

    void integers_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<qint64>("value");
        QTest::newRow("zero") << "0" << true << qint64(0);
        QTest::newRow("negative") << "-1" << true << qint64(-1);
        QTest::newRow("hex is not decimal") << "0x10" << false << qint64(0);
        QTest::newRow("float") << "1.5" << false << qint64(0);
        QTest::newRow("sign only") << "-" << false << qint64(0);
        QTest::newRow("overflow") << "99999999999999999999" << false << qint64(0);
    }

    void integers()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(qint64, value);
        std::int64_t out = 0;
        QCOMPARE(parseInteger(text.toStdString(), out), ok);
        if (ok)
            QCOMPARE(qint64(out), value);
    }
};

QTEST_GUILESS_MAIN(TestNumberParse)
#include "tst_numberparse.moc"
