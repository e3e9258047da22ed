#include "jsonskipper.h"

#include <QRandomGenerator>
#include <QtTest>

#include <string>

using namespace runlane;

namespace {

// Feeds `text` to a skipper in pieces of `piece` bytes; returns where the
// value ended, or -1.
long endOf(const std::string& text, std::size_t piece)
{
    JsonSkipper skipper;
    skipper.start(text[0]);
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t stop = std::min(text.size(), at + piece);
        if (const char* end = skipper.feed(text.data() + at, text.data() + stop))
            return long(end - text.data());
        at = stop;
    }
    return -1;
}

// A random JSON value with strings full of brackets, quotes and escapes.
std::string randomValue(QRandomGenerator& rng, int depth)
{
    const int kind = depth > 4 ? int(rng.bounded(3)) : int(rng.bounded(5));
    switch (kind) {
    case 0:
        return std::to_string(rng.bounded(100000)) + (rng.bounded(2) ? ".25" : "");
    case 1: {
        static const char* const pieces[] = {"a", "}", "]", "{", "[", "\\\"", "\\\\", ",", " ", "\\n", "é", "\\u0041", "xyz"};
        std::string s = "\"";
        const int n = int(rng.bounded(40));
        for (int i = 0; i < n; ++i)
            s += pieces[rng.bounded(13)];
        return s + "\"";
    }
    case 2:
        return rng.bounded(2) ? "true" : "null";
    case 3: {
        std::string s = "[";
        const int n = int(rng.bounded(6));
        for (int i = 0; i < n; ++i)
            s += (i ? ", " : "") + randomValue(rng, depth + 1);
        return s + "]";
    }
    default: {
        std::string s = "{";
        const int n = int(rng.bounded(6));
        for (int i = 0; i < n; ++i)
            s += (i ? "," : "") + randomValue(rng, 9) + ":" + randomValue(rng, depth + 1);
        return s + "}";
    }
    }
}

} // namespace

class TestJsonSkipper : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void findsTheEnd_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("after");
        QTest::newRow("object") << "{\"a\":1}" << ",{}";
        QTest::newRow("nested") << "{\"a\":[1,{\"b\":[]}],\"c\":{}}" << "]";
        QTest::newRow("brackets in strings") << "{\"a\":\"}]\",\"b\":\"[{\"}" << " ,";
        QTest::newRow("escaped quote") << "{\"a\":\"say \\\"}\\\" now\"}" << ",";
        QTest::newRow("escaped backslash before quote") << "{\"a\":\"c:\\\\\",\"b\":\"}\"}" << "]";
        QTest::newRow("string value") << "\"a}\\\"b\"" << ",";
        QTest::newRow("number") << "-12.5e3" << ",";
        QTest::newRow("literal at a bracket") << "true" << "]";
        QTest::newRow("long, escapes across blocks")
            << QStringLiteral("{\"s\":\"%1\\\"%2\\\\\",\"t\":[%3]}")
                   .arg(QString(70, QLatin1Char('x')), QString(63, QLatin1Char('}')), QString(100, QLatin1Char('1')))
            << ",";
        QTest::newRow("long, no escapes")
            << QStringLiteral("{\"s\":\"%1\",\"t\":{\"u\":\"%2\"}}").arg(QString(200, QLatin1Char('{')), QString(130, QLatin1Char(']')))
            << "\n";
    }
    void findsTheEnd()
    {
        QFETCH(QString, value);
        QFETCH(QString, after);
        const std::string text = (value + after + QString(80, QLatin1Char(' '))).toStdString();
        const long expected = long(value.toStdString().size());
        // Whole, and cut into pieces of every size up to 70 bytes.
        QCOMPARE(endOf(text, text.size()), expected);
        for (std::size_t piece = 1; piece <= 70; ++piece)
            QCOMPARE(endOf(text, piece), expected);
    }

    void incompleteValuesNeedMore_data()
    {
        QTest::addColumn<QString>("value");
        QTest::newRow("open object") << "{\"a\":[1,2]";
        QTest::newRow("open string") << "{\"a\":\"}}}}]]]";
        QTest::newRow("escape at the end") << "{\"a\":\"\\";
    }
    void incompleteValuesNeedMore()
    {
        QFETCH(QString, value);
        const std::string text = value.toStdString();
        QCOMPARE(endOf(text, text.size()), -1L);
        QCOMPARE(endOf(text + std::string(100, 'x'), 7), -1L);
    }

    // Thousands of random values, cut at random: the skipper agrees with
    // where the generator ended each one.
    void randomValues()
    {
        QRandomGenerator rng(20261122);
        for (int round = 0; round < 3000; ++round) {
            const std::string value = randomValue(rng, 0);
            if (value[0] != '{' && value[0] != '[' && value[0] != '"')
                continue; // scalars end at a delimiter, tested above
            const std::string text = value + ",  " + std::string(70, ' ');
            const std::size_t piece = 1 + rng.bounded(quint32(text.size()));
            QCOMPARE(endOf(text, piece), long(value.size()));
        }
    }
};

QTEST_GUILESS_MAIN(TestJsonSkipper)
#include "tst_jsonskipper.moc"
