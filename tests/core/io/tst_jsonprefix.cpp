#include "formatprefix.h"
#include "jsonprefix.h"

#include <QtTest>

using namespace runlane;

namespace {

// "name@offset=scalar" per key, for exact comparisons in one string.
QString outline(const JsonPrefix& json)
{
    QStringList parts;
    for (const JsonPrefix::Key& key : json.keys()) {
        parts << QStringLiteral("%1@%2=%3")
                     .arg(QString::fromStdString(key.name))
                     .arg(key.offset)
                     .arg(QString::fromUtf8(key.scalar.data(), qsizetype(key.scalar.size())));
    }
    return parts.join(QLatin1Char(' '));
}

} // namespace

class TestJsonPrefix : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void keys_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("keys");
        QTest::newRow("scalars") << QByteArray("{\"a\": 1, \"b\": \"x\", \"c\": true}") << "a@1=1 b@9=\"x\" c@19=true";
        QTest::newRow("nested values skipped") << QByteArray("{\"m\": {\"k\": [1, {\"z\": \"}\"}]}, \"traceEvents\": [")
                                               << "m@1= traceEvents@30=";
        QTest::newRow("cut inside a value") << QByteArray("{\"a\": 12, \"b\": {\"c\": ") << "a@1=12 b@10=";
        QTest::newRow("cut inside a key") << QByteArray("{\"a\": 1, \"bc") << "a@1=1";
        QTest::newRow("cut after a scalar") << QByteArray("{\"v\": 12") << "v@1=";
        QTest::newRow("escaped quote in a key") << QByteArray("{\"a\\\"b\": 2}") << "a\"b@1=2";
        QTest::newRow("blanks") << QByteArray("\xef\xbb\xbf \n{ \"k\" :\t7 }") << "k@7=7";
        QTest::newRow("no colon") << QByteArray("{\"k\" 1}") << "k@1=";
        QTest::newRow("empty object") << QByteArray("{}") << "";
    }

    void keys()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, keys);
        const FormatPrefix prefix(std::string_view(text.constData(), std::size_t(text.size())), true);
        QCOMPARE(prefix.json().kind(), JsonPrefix::Kind::Object);
        QCOMPARE(outline(prefix.json()), keys);
    }

    void integers_data()
    {
        QTest::addColumn<QByteArray>("scalar");
        QTest::addColumn<qint64>("value"); // -1: not a plain integer
        QTest::newRow("one") << QByteArray("1") << qint64(1);
        QTest::newRow("zero") << QByteArray("0") << qint64(0);
        QTest::newRow("18 digits") << QByteArray("999999999999999999") << qint64(999999999999999999);
        QTest::newRow("19 digits") << QByteArray("1000000000000000000") << qint64(-1);
        QTest::newRow("leading zero") << QByteArray("01") << qint64(-1);
        QTest::newRow("negative") << QByteArray("-1") << qint64(-1);
        QTest::newRow("fraction") << QByteArray("1.0") << qint64(-1);
        QTest::newRow("text") << QByteArray("\"1\"") << qint64(-1);
    }

    void integers()
    {
        QFETCH(QByteArray, scalar);
        QFETCH(qint64, value);
        const QByteArray text = "{\"v\": " + scalar + "}";
        const FormatPrefix prefix(std::string_view(text.constData(), std::size_t(text.size())), true);
        QCOMPARE(prefix.json().keys().size(), std::size_t(1));
        const auto integer = prefix.json().keys()[0].integer();
        QCOMPARE(integer ? qint64(*integer) : qint64(-1), value);
    }

    void arrays_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("firstKey"); // "name@offset", or "" for none
        QTest::newRow("object element") << QByteArray("[ {\"ph\": \"X\"}]") << "ph@3";
        QTest::newRow("number element") << QByteArray("[1, 2]") << "";
        QTest::newRow("empty element") << QByteArray("[{}]") << "";
        QTest::newRow("cut") << QByteArray("[{\"p") << "";
        QTest::newRow("empty array") << QByteArray("[]") << "";
    }

    void arrays()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, firstKey);
        const FormatPrefix prefix(std::string_view(text.constData(), std::size_t(text.size())), true);
        QCOMPARE(prefix.json().kind(), JsonPrefix::Kind::Array);
        const auto& key = prefix.json().firstElementKey();
        QCOMPARE(key ? QStringLiteral("%1@%2").arg(QString::fromStdString(key->name)).arg(key->offset) : QString(""),
                 firstKey);
    }

    // UTF-16 is decoded for the text formats and never taken for JSON.
    void utf16()
    {
        const QByteArray text("\xff\xfe{\0}\0", 6);
        const FormatPrefix prefix(std::string_view(text.constData(), std::size_t(text.size())), true);
        QVERIFY(prefix.utf16());
        QCOMPARE(QByteArray(prefix.text().data(), qsizetype(prefix.text().size())), QByteArray("{}"));
        QCOMPARE(prefix.json().kind(), JsonPrefix::Kind::NotJson);
        QCOMPARE(prefix.start(), std::size_t(0));
    }

    void blank()
    {
        const FormatPrefix prefix(" \n", false);
        QVERIFY(prefix.blank());
        QVERIFY(!prefix.complete());
        QCOMPARE(prefix.json().kind(), JsonPrefix::Kind::NotJson);
    }
};

QTEST_GUILESS_MAIN(TestJsonPrefix)
#include "tst_jsonprefix.moc"
