#include "chromebatchparser.h"

#include <QtTest>

#include <simdjson.h>

#include <string>
#include <vector>

using namespace runlane;

namespace {

// `json` with simdjson's padding after it, as the fast reader's jobs hold it.
std::vector<char> padded(const std::string& json)
{
    std::vector<char> text(json.size() + simdjson::SIMDJSON_PADDING, ' ');
    std::copy(json.begin(), json.end(), text.begin());
    return text;
}

long parse(ChromeBatchParser& parser, const std::vector<char>& text, std::size_t length,
           std::vector<ChromeEvent>& events, TextArena& texts)
{
    return parser.parse(text.data(), length, text.size(), events, texts);
}

// What the sink would read of an event's texts and times, in one line.
QString outline(const ChromeEvent& e)
{
    QString line = QStringLiteral("ph=%1 name=%2 cat=%3 pid=%4 ts=%5 dur=%6")
                       .arg(QString::fromUtf8(e.ph.data(), qsizetype(e.ph.size())))
                       .arg(QString::fromUtf8(e.name.data(), qsizetype(e.name.size())))
                       .arg(QString::fromUtf8(e.cat.data(), qsizetype(e.cat.size())))
                       .arg(e.pid.kind == ChromeEvent::Value::String
                                ? QString::fromUtf8(e.pid.text.data(), qsizetype(e.pid.text.size()))
                                : QString::number(e.pid.number))
                       .arg(e.ts.kind == ChromeEvent::TimeValue::Ok ? QString::number(e.ts.ns)
                                                                     : QStringLiteral("bad:") + QString::fromUtf8(e.ts.text.data(), qsizetype(e.ts.text.size())))
                       .arg(e.dur.kind == ChromeEvent::TimeValue::Ok ? QString::number(e.dur.ns) : QStringLiteral("-"));
    for (std::size_t i = 0; i < e.numericArgCount; ++i)
        line += QStringLiteral(" %1=%2").arg(QString::fromUtf8(e.numericArgs[i].first.data(), qsizetype(e.numericArgs[i].first.size())))
                    .arg(e.numericArgs[i].second);
    return line;
}

} // namespace

class TestChromeBatchParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The fast reader parses a later job with the same parser while the
    // sink may still read an earlier job's events. Their texts must not
    // live in simdjson's buffer, which the later parse writes over: an
    // unescaped text points into the job's own text, an escaped one into
    // the job's TextArena. Each row parses a batch, then a second batch of
    // the same shape with other texts, and reads the first batch after.
    void textsOutlastTheNextParse_data()
    {
        QTest::addColumn<QString>("first");
        QTest::addColumn<QString>("second");
        QTest::addColumn<QString>("expected");
        QTest::newRow("escaped texts")
            << "[{\"ph\":\"X\",\"name\":\"f\\u00e9\",\"cat\":\"c\\\"1\",\"pid\":\"\\u0037\",\"ts\":1,\"dur\":2,\"args\":{\"k\\u00e9y\":3}}]"
            << "[{\"ph\":\"X\",\"name\":\"g\\u00e8\",\"cat\":\"d\\\"2\",\"pid\":\"\\u0038\",\"ts\":1,\"dur\":2,\"args\":{\"m\\u00e8y\":4}}]"
            << QStringLiteral("ph=X name=f\u00e9 cat=c\"1 pid=7 ts=1000 dur=2000 k\u00e9y=3");
        QTest::newRow("escaped ph") << "[{\"ph\":\"\\u0042\",\"name\":\"a\",\"ts\":1}]" << "[{\"ph\":\"\\u0045\",\"name\":\"b\",\"ts\":1}]"
                                    << QStringLiteral("ph=B name=a cat= pid=0 ts=1000 dur=-");
        QTest::newRow("plain texts") << "[{\"ph\":\"C\",\"name\":\"queue\",\"pid\":\"7\",\"ts\":5,\"args\":{\"pending\":212}}]"
                                     << "[{\"ph\":\"C\",\"name\":\"other\",\"pid\":\"8\",\"ts\":5,\"args\":{\"waiting\":313}}]"
                                     << QStringLiteral("ph=C name=queue cat= pid=7 ts=5000 dur=- pending=212");
        QTest::newRow("a description written on the spot")
            << "[{\"ph\":\"X\",\"name\":\"a\",\"ts\":true}]" << "[{\"ph\":\"X\",\"name\":\"b\",\"ts\":false}]"
            << QStringLiteral("ph=X name=a cat= pid=0 ts=bad:true dur=-");
    }
    void textsOutlastTheNextParse()
    {
        QFETCH(QString, first);
        QFETCH(QString, second);
        QFETCH(QString, expected);
        ChromeBatchParser parser;
        const std::string a = first.toStdString();
        const std::string b = second.toStdString();
        const std::vector<char> textA = padded(a);
        const std::vector<char> textB = padded(b);
        std::vector<ChromeEvent> eventsA;
        std::vector<ChromeEvent> eventsB;
        TextArena textsA;
        TextArena textsB;
        QCOMPARE(parse(parser, textA, a.size(), eventsA, textsA), 1L);
        QCOMPARE(parse(parser, textB, b.size(), eventsB, textsB), 1L);
        QCOMPARE(outline(eventsA[0]), expected);
    }

    // An unescaped text is the job's own bytes, not a copy.
    void plainTextsAreNotCopied()
    {
        ChromeBatchParser parser;
        const std::string json = "[{\"ph\":\"X\",\"name\":\"io::poll\",\"cat\":\"app\",\"ts\":1,\"dur\":1}]";
        const std::vector<char> text = padded(json);
        std::vector<ChromeEvent> events;
        TextArena texts;
        QCOMPARE(parse(parser, text, json.size(), events, texts), 1L);
        // As pointers: QCOMPARE reads two char pointers as C strings.
        QCOMPARE(static_cast<const void*>(events[0].name.data()), static_cast<const void*>(text.data() + json.find("io::poll")));
        QCOMPARE(static_cast<const void*>(events[0].cat.data()), static_cast<const void*>(text.data() + json.find("app")));
        QCOMPARE(texts.capacity(), std::size_t(0));
    }

    // Times: the one-pass read and the general one give what the file
    // says, exactly, in nanoseconds.
    void times_data()
    {
        QTest::addColumn<QString>("ts");
        QTest::addColumn<qint64>("ns");
        QTest::newRow("µs with ns") << "1000014.509" << qint64(1000014509);
        QTest::newRow("integer") << "12" << qint64(12000);
        QTest::newRow("negative") << "-2.5" << qint64(-2500);
        QTest::newRow("rounded (general)") << "1.0005" << qint64(1001);
        QTest::newRow("exponent (general)") << "1.5e3" << qint64(1500000);
        QTest::newRow("16 digits (general)") << "1650900741301300.123" << qint64(1650900741301300123LL);
    }
    void times()
    {
        QFETCH(QString, ts);
        QFETCH(qint64, ns);
        ChromeBatchParser parser;
        const std::string json = "[{\"ph\":\"X\",\"ts\":" + ts.toStdString() + ",\"dur\":" + ts.toStdString() + "}]";
        const std::vector<char> text = padded(json);
        std::vector<ChromeEvent> events;
        TextArena texts;
        QCOMPARE(parse(parser, text, json.size(), events, texts), 1L);
        QCOMPARE(int(events[0].ts.kind), int(ChromeEvent::TimeValue::Ok));
        QCOMPARE(qint64(events[0].ts.ns), ns);
        QCOMPARE(qint64(events[0].dur.ns), ns);
    }
};

QTEST_APPLESS_MAIN(TestChromeBatchParser)
#include "tst_chromebatchparser.moc"
