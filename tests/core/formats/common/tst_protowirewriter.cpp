#include "core/formats/common/protoencoder.h"
#include "protowirewriter.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace runlane;
using runlane::test::ProtoEncoder;

namespace {

QByteArray bytesOf(const std::string& s)
{
    return QByteArray(s.data(), qsizetype(s.size()));
}

} // namespace

// Each field as the test's own encoder (ProtoEncoder) writes it; nested
// messages with their length in four bytes, as protozero writes them.
class TstProtoWireWriter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void scalars_data()
    {
        QTest::addColumn<quint64>("value");
        for (const quint64 v : {quint64(0), quint64(1), quint64(127), quint64(128), quint64(300), quint64(1) << 35,
                                std::numeric_limits<quint64>::max()})
            QTest::newRow(qPrintable(QString::number(v))) << v;
    }
    void scalars()
    {
        QFETCH(quint64, value);
        std::string out;
        ProtoWireWriter w(out);
        w.varint(3, value);
        w.fixed64(300, value);
        QCOMPARE(bytesOf(out), ProtoEncoder().varint(3, value).fixed64(300, value).data());
    }

    void doublesAndBytes()
    {
        std::string out;
        ProtoWireWriter w(out);
        w.doubleValue(44, -2.5);
        w.doubleValue(44, std::numeric_limits<double>::infinity());
        w.bytes(2, "name");
        w.bytes(2, std::string(200, 'x'));
        w.bytes(5, {});
        const ProtoEncoder expected = ProtoEncoder()
                                          .fixed64(44, 0xc004000000000000ull)
                                          .fixed64(44, 0x7ff0000000000000ull)
                                          .bytes(2, "name")
                                          .bytes(2, QByteArray(200, 'x'))
                                          .bytes(5, {});
        QCOMPARE(bytesOf(out), expected.data());
    }

    // A message's length: four varint bytes, the first three continued,
    // whatever its size; nested ones each their own.
    void messagesHaveFourByteLengths()
    {
        std::string out;
        ProtoWireWriter w(out);
        const std::size_t outer = w.beginMessage(1);
        w.varint(8, 5);
        const std::size_t inner = w.beginMessage(11);
        w.bytes(23, std::string(130, 'a'));
        QVERIFY(w.endMessage(inner));
        QVERIFY(w.endMessage(outer));
        const QByteArray innerBody = ProtoEncoder().bytes(23, QByteArray(130, 'a')).data(); // 2 + 2 + 130 bytes
        QCOMPARE(innerBody.size(), 134);
        QByteArray expected = ProtoEncoder().tag(1, 2).data() + QByteArray::fromHex("8d818000") // 141: 2 + 1 + 4 + 134
            + ProtoEncoder().varint(8, 5).tag(11, 2).data() + QByteArray::fromHex("86818000") + innerBody;
        QCOMPARE(bytesOf(out), expected);
    }

    void tooLargeAMessage()
    {
        std::string out;
        ProtoWireWriter w(out);
        const std::size_t m = w.beginMessage(1);
        out.append(ProtoWireWriter::kMaxMessage, 'x');
        QVERIFY(w.endMessage(m));
        out.push_back('x');
        QVERIFY(!w.endMessage(m));
    }
};

QTEST_GUILESS_MAIN(TstProtoWireWriter)
#include "tst_protowirewriter.moc"
