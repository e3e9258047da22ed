#include "jsonsaxhandler.h"

#include <QBuffer>
#include <QtTest>

using namespace runlane;

namespace {

// Writes down what the base hands a reader, one word per token: a
// container as its bracket and depth(), a value as its kind, text and the
// key before it (the default member()).
class Recorder : public JsonSaxHandler<Recorder>
{
public:
    explicit Recorder(ChunkedFileReader& input) : JsonSaxHandler(input) { }

    QStringList log;

private:
    friend JsonSaxHandler<Recorder>;

    void scalar(const JsonScalar& v)
    {
        if (v.kind == JsonScalar::String && v.text == "boom")
            throw FormatError("boom at " + std::to_string(input().offset()), 7, 3);
        static const char kinds[] = "ntfiuds";
        QString word = QLatin1Char(kinds[v.kind]) + QString::fromStdString(v.plain());
        if (v.isInt64())
            word += QStringLiteral("=%1").arg(v.int64());
        log << word + QLatin1Char('/') + QString::fromStdString(lastKey());
    }
    void open(char bracket) { log << QLatin1Char(bracket) + QString::number(depth()); }
    void close(char bracket) { log << QLatin1Char(bracket) + QString::number(depth()); }
};

// A reader with its own member(): the default one is not called.
class KeyCounter : public JsonSaxHandler<KeyCounter>
{
public:
    explicit KeyCounter(ChunkedFileReader& input) : JsonSaxHandler(input) { }

    int keys = 0;
    std::string lastSeen;

private:
    friend JsonSaxHandler<KeyCounter>;

    void scalar(const JsonScalar&) { lastSeen = lastKey(); }
    void open(char) { }
    void close(char) { }
    void member(std::string&) { ++keys; }
};

// The input of one parse: `text`, with `skip` bytes before the value read.
struct Input {
    explicit Input(const QByteArray& text, int skip = 0) : bytes(text), buffer(&bytes)
    {
        buffer.open(QIODevice::ReadOnly);
        reader = std::make_unique<ChunkedFileReader>(buffer, control);
        for (int k = 0; k < skip; ++k)
            reader->get();
    }
    QByteArray bytes;
    QBuffer buffer;
    LoadControl control;
    std::unique_ptr<ChunkedFileReader> reader;
};

} // namespace

class TestJsonSaxHandler : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tokens_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("log");
        QTest::newRow("scalars") << QByteArray("[1, -2, 18446744073709551615, 9223372036854775807, 1.50, \"x\\\"y\", null, true, false]")
                                 << "[0 u1=1/ i-2=-2/ u18446744073709551615/ u9223372036854775807=9223372036854775807/ d1.50/ "
                                    "sx\"y/ nnull/ ttrue/ ffalse/ ]0";
        QTest::newRow("keys and depths") << QByteArray("{\"a\": {\"b\": [2, {}]}, \"c\": 3}")
                                         << "{0 {1 [2 u2=2/b {3 }3 ]2 }1 u3=3/c }0";
        QTest::newRow("a top-level scalar") << QByteArray(" 12 ") << "u12=12/";
        QTest::newRow("an exponent keeps its text") << QByteArray("[1e3, -0.0]") << "[0 d1e3/ d-0.0/ ]0";
    }

    void tokens()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, log);
        Input input(text);
        Recorder recorder(*input.reader);
        QVERIFY(recorder.parse());
        QCOMPARE(recorder.log.join(QLatin1Char(' ')), log);
        QVERIFY(!recorder.syntaxError().seen);
    }

    void ownMember()
    {
        Input input("{\"a\": 1, \"b\": {\"c\": 2}}");
        KeyCounter counter(*input.reader);
        QVERIFY(counter.parse());
        QCOMPARE(counter.keys, 3);
        QCOMPARE(counter.lastSeen, std::string());
    }

    void syntaxErrors_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("skip"); // bytes read before the parse starts
        QTest::addColumn<QString>("message");
        QTest::addColumn<qint64>("offset");
        QTest::addColumn<bool>("atEnd");
        QTest::addColumn<QString>("unexpected");
        QTest::addColumn<int>("cut"); // JsonSaxHandler::ArrayCut
        QTest::addColumn<int>("depth");
        QTest::newRow("unterminated") << QByteArray("[1, 2") << 0
                                      << "invalid JSON: syntax error while parsing array - unexpected end of input; "
                                         "expected ']'"
                                      << qint64(5) << true << "" << 1 << 1;
        QTest::newRow("trailing comma") << QByteArray("[1, 2,]") << 0
                                        << "invalid JSON: syntax error while parsing value - unexpected ']'; expected "
                                           "'[', '{', or a literal"
                                        << qint64(6) << false << "]" << 2 << 1;
        QTest::newRow("cut inside an item") << QByteArray("[{\"a\": 1") << 0
                                            << "invalid JSON: syntax error while parsing object - unexpected end of "
                                               "input; expected '}'"
                                            << qint64(8) << true << "" << 3 << 2;
        QTest::newRow("cut inside a string") << QByteArray("[{\"a\": \"xy") << 0
                                             << "invalid JSON: syntax error while parsing value - invalid string: "
                                                "missing closing quote; last read: '\"xy'"
                                             << qint64(10) << true << "" << 3 << 2;
        QTest::newRow("no colon") << QByteArray("{\"a\" 1}") << 0
                                  << "invalid JSON: syntax error while parsing object separator - unexpected number "
                                     "literal; expected ':'"
                                  << qint64(5) << false << "" << 0 << 1;
        QTest::newRow("bad literal, offset from where the parse began")
            << QByteArray("xxxx[1, tru, 2, 3, 4, 5]") << 4
            << "invalid JSON: syntax error while parsing value - invalid literal; last read: '1, tru,'" << qint64(8)
            << false << "" << 0 << 1;
        QTest::newRow("a byte that is not UTF-8 quoted as hex")
            << QByteArray("[\xff]") << 0
            << "invalid JSON: syntax error while parsing value - invalid literal; last read: '[\\xff'" << qint64(1)
            << false << "" << 0 << 1;
    }

    void syntaxErrors()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, skip);
        QFETCH(QString, message);
        QFETCH(qint64, offset);
        QFETCH(bool, atEnd);
        QFETCH(QString, unexpected);
        QFETCH(int, cut);
        QFETCH(int, depth);
        Input input(text, skip);
        Recorder recorder(*input.reader);
        QVERIFY(!recorder.parse());
        const jsonsax::SyntaxError& e = recorder.syntaxError();
        QVERIFY(e.seen);
        QCOMPARE(QString::fromStdString(e.message), message);
        QCOMPARE(qint64(e.offset), offset);
        QCOMPARE(e.atEnd, atEnd);
        QCOMPARE(e.unexpected ? QString(QLatin1Char(e.unexpected)) : QString(), unexpected);
        QCOMPARE(int(recorder.arrayCut()), cut);
        QCOMPARE(recorder.log.filter(QRegularExpression("^[\\[{]")).size()
                     - recorder.log.filter(QRegularExpression("^[\\]}]")).size(),
                 depth);
        try {
            recorder.throwSyntaxError(42);
            QFAIL("no FormatError");
        } catch (const FormatError& error) {
            QCOMPARE(QString::fromUtf8(error.what()), message);
            QCOMPARE(qint64(error.eventIndex()), qint64(42));
            QCOMPARE(qint64(error.byteOffset()), offset);
        }
    }

    // A reader's own FormatError leaves parse() as it is.
    void readerErrorPassesThrough()
    {
        Input input("{\"a\": [\"boom\"]}");
        Recorder recorder(*input.reader);
        try {
            recorder.parse();
            QFAIL("no FormatError");
        } catch (const FormatError& error) {
            QCOMPARE(QString::fromUtf8(error.what()), QStringLiteral("boom at 13"));
            QCOMPARE(qint64(error.eventIndex()), qint64(7));
            QCOMPARE(qint64(error.byteOffset()), qint64(3));
        }
        QCOMPARE(recorder.log.join(QLatin1Char(' ')), QStringLiteral("{0 [1"));
    }

    void plainText_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<qint64>("i");
        QTest::addColumn<quint64>("u");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("plain");
        QTest::newRow("null") << int(JsonScalar::Null) << qint64(0) << quint64(0) << "" << "null";
        QTest::newRow("true") << int(JsonScalar::True) << qint64(0) << quint64(0) << "" << "true";
        QTest::newRow("false") << int(JsonScalar::False) << qint64(0) << quint64(0) << "" << "false";
        QTest::newRow("negative") << int(JsonScalar::Integer) << qint64(INT64_MIN) << quint64(0) << ""
                                  << "-9223372036854775808";
        QTest::newRow("unsigned") << int(JsonScalar::Unsigned) << qint64(0) << quint64(UINT64_MAX) << ""
                                  << "18446744073709551615";
        QTest::newRow("float as written") << int(JsonScalar::Float) << qint64(0) << quint64(0) << "1.000" << "1.000";
        QTest::newRow("string unquoted") << int(JsonScalar::String) << qint64(0) << quint64(0) << "a \"b\""
                                         << "a \"b\"";
    }

    void plainText()
    {
        QFETCH(int, kind);
        QFETCH(qint64, i);
        QFETCH(quint64, u);
        QFETCH(QString, text);
        QFETCH(QString, plain);
        const std::string bytes = text.toStdString();
        const JsonScalar v{JsonScalar::Kind(kind), i, u, 0.0, bytes};
        QCOMPARE(QString::fromStdString(v.plain()), plain);
        std::string buffer = "old";
        QCOMPARE(QString::fromStdString(std::string(v.plain(buffer))), plain);
        std::string out = "x";
        v.appendPlain(out);
        QCOMPARE(QString::fromStdString(out), "x" + plain);
    }
};

QTEST_GUILESS_MAIN(TestJsonSaxHandler)
#include "tst_jsonsaxhandler.moc"
