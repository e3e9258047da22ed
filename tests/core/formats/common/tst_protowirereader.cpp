#include "core/formats/common/protoencoder.h"
#include "loaderror.h"
#include "protowirereader.h"

#include <QtTest>

using namespace runlane;
using runlane::test::ProtoEncoder;

namespace {

// Every field of `bytes` as "field:type=value", Len payloads as their text
// and where they start: "2:len=abc@2".
QStringList dump(const QByteArray& bytes)
{
    ProtoWireReader r(std::string_view(bytes.constData(), std::size_t(bytes.size())));
    QStringList out;
    while (r.next()) {
        const QString field = QString::number(r.field());
        switch (r.wireType()) {
        case ProtoWireReader::WireType::Varint:
            out << field + ":varint=" + QString::number(r.value());
            break;
        case ProtoWireReader::WireType::Fixed64:
            out << field + ":i64=0x" + QString::number(r.value(), 16);
            break;
        case ProtoWireReader::WireType::Fixed32:
            out << field + ":i32=0x" + QString::number(r.value(), 16);
            break;
        case ProtoWireReader::WireType::Len:
            out << field + ":len=" + QString::fromLatin1(r.payload().data(), qsizetype(r.payload().size())) + "@"
                    + QString::number(r.payloadOffset());
            break;
        }
    }
    return out;
}

struct Failure {
    QString message;
    qint64 offset = -1;
    bool ranOut = false;
    int fieldsBefore = 0;
};

// Reads all fields, and packed lists as such; the error it ends with.
Failure failure(const QByteArray& bytes)
{
    ProtoWireReader r(std::string_view(bytes.constData(), std::size_t(bytes.size())));
    Failure f;
    try {
        std::vector<std::uint64_t> values;
        while (r.next()) {
            if (r.wireType() == ProtoWireReader::WireType::Len)
                r.appendVarints(values);
            ++f.fieldsBefore;
        }
    } catch (const FormatError& e) {
        f.message = QString::fromUtf8(e.what());
        f.offset = e.byteOffset();
        f.ranOut = r.ranOut();
    }
    return f;
}

} // namespace

class TestProtoWireReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fields_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QStringList>("fields");
        QTest::newRow("empty") << QByteArray() << QStringList{};
        QTest::newRow("one-byte varint") << ProtoEncoder().varint(1, 5).data() << QStringList{"1:varint=5"};
        QTest::newRow("300 (the spec's example)") << QByteArray("\x08\xac\x02", 3) << QStringList{"1:varint=300"};
        QTest::newRow("largest uint64")
            << ProtoEncoder().varint(2, 18446744073709551615ull).data() << QStringList{"2:varint=18446744073709551615"};
        QTest::newRow("int64 -1 takes ten bytes")
            << QByteArray("\x10\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11) << QStringList{"2:varint=18446744073709551615"};
        QTest::newRow("fixed64, little-endian")
            << ProtoEncoder().fixed64(3, 0x0102030405060708ull).data() << QStringList{"3:i64=0x102030405060708"};
        QTest::newRow("fixed32") << ProtoEncoder().fixed32(4, 0xdeadbeef).data() << QStringList{"4:i32=0xdeadbeef"};
        QTest::newRow("length-delimited")
            << ProtoEncoder().varint(1, 1).bytes(6, "abc").bytes(6, "").data() << QStringList{"1:varint=1", "6:len=abc@4", "6:len=@9"};
        QTest::newRow("large field number")
            << ProtoEncoder().varint(536870911, 7).data() << QStringList{"536870911:varint=7"};
        QTest::newRow("non-minimal varint") << QByteArray("\x08\x81\x80\x80\x00", 5) << QStringList{"1:varint=1"};
        // A varint of several bytes is read one way with ten bytes or more
        // left (no end to check), another near the end: the same values.
        QTest::newRow("a timestamp at the end (9 bytes)")
            << ProtoEncoder().varint(8, 1700000000123456789ull).data() << QStringList{"8:varint=1700000000123456789"};
        QTest::newRow("a timestamp, then more")
            << ProtoEncoder().varint(8, 1700000000123456789ull).varint(10, 3).fixed64(3, 7).data()
            << QStringList{"8:varint=1700000000123456789", "10:varint=3", "3:i64=0x7"};
        QTest::newRow("ten bytes, then more")
            << QByteArray("\x10\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x18\x05", 13)
            << QStringList{"2:varint=18446744073709551615", "3:varint=5"};
        QTest::newRow("2^63 in ten bytes, then more")
            << QByteArray("\x10\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01\x18\x05", 13)
            << QStringList{"2:varint=9223372036854775808", "3:varint=5"};
        QTest::newRow("two bytes, then more") << QByteArray("\x08\xac\x02\x10\x01\x10\x01\x10\x01\x10\x01\x10\x01", 13)
                                              << QStringList{"1:varint=300", "2:varint=1", "2:varint=1", "2:varint=1",
                                                             "2:varint=1", "2:varint=1"};
    }

    void fields()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QStringList, fields);
        QCOMPARE(dump(bytes), fields);
    }

    // Repeated integers are the same list packed or not.
    void packedAndUnpacked()
    {
        const std::vector<std::int64_t> values{1, 300, 0, -2, 1LL << 40};
        for (const bool packed : {true, false}) {
            const QByteArray bytes = ProtoEncoder().repeated(1, values, packed).data();
            ProtoWireReader r(std::string_view(bytes.constData(), std::size_t(bytes.size())));
            std::vector<std::uint64_t> read;
            while (r.next())
                r.appendVarints(read);
            QCOMPARE(read, (std::vector<std::uint64_t>{1, 300, 0, std::uint64_t(-2), 1ULL << 40}));
        }
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        QTest::addColumn<qint64>("offset");
        QTest::addColumn<bool>("ranOut"); // the bytes end inside the field
        QTest::addColumn<int>("fieldsBefore");
        QTest::newRow("length past the end") << QByteArray("\x08\x01\x12\x05" "ab", 6)
                                             << "field 2: length 5 runs past the end (2 bytes left)" << qint64(2) << true << 1;
        QTest::newRow("length past the end, nothing left") << QByteArray("\x32\x01", 2)
                                                           << "field 6: length 1 runs past the end (0 bytes left)" << qint64(0) << true << 0;
        QTest::newRow("huge length") << QByteArray("\x12\xff\xff\xff\xff\xff\xff\xff\xff\x7f" "x", 11)
                                     << "field 2: length 9223372036854775807 runs past the end (1 byte left)" << qint64(0) << true << 0;
        QTest::newRow("negative length") << QByteArray("\x08\x01\x12\xfe\xff\xff\xff\xff\xff\xff\xff\xff\x01" "ab", 15)
                                         << "field 2: negative length -2" << qint64(2) << false << 1;
        QTest::newRow("truncated varint") << QByteArray("\x08\x80\x80", 3) << "field 1: truncated varint (2 bytes left)"
                                          << qint64(0) << true << 0;
        QTest::newRow("truncated tag") << QByteArray("\x08\x01\x80", 3) << "truncated field tag (1 byte left)"
                                       << qint64(2) << true << 1;
        QTest::newRow("truncated length") << QByteArray("\x12\x80", 2) << "field 2: truncated length (1 byte left)"
                                          << qint64(0) << true << 0;
        QTest::newRow("varint of 11 bytes") << QByteArray("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x81\x01", 12)
                                            << "field 1: a varint longer than 10 bytes" << qint64(0) << false << 0;
        QTest::newRow("varint beyond 64 bits") << QByteArray("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", 11)
                                               << "field 1: a varint longer than 10 bytes" << qint64(0) << false << 0;
        QTest::newRow("varint beyond 64 bits, more after it")
            << QByteArray("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02\x10\x01", 13)
            << "field 1: a varint longer than 10 bytes" << qint64(0) << false << 0;
        QTest::newRow("8-byte value cut") << QByteArray("\x09\x01\x02", 3)
                                          << "field 1: 8-byte value runs past the end (2 bytes left)" << qint64(0) << true << 0;
        QTest::newRow("4-byte value cut") << QByteArray("\x0d\x01", 2)
                                          << "field 1: 4-byte value runs past the end (1 byte left)" << qint64(0) << true << 0;
        QTest::newRow("start group") << QByteArray("\x0b", 1) << "field 1: wire type 3 (group) is not supported"
                                     << qint64(0) << false << 0;
        QTest::newRow("end group") << QByteArray("\x08\x00\x14", 3) << "field 2: wire type 4 (group) is not supported"
                                   << qint64(2) << false << 1;
        QTest::newRow("wire type 6") << QByteArray("\x0e", 1) << "field 1: invalid wire type 6" << qint64(0) << false << 0;
        QTest::newRow("wire type 7") << QByteArray("\x0f", 1) << "field 1: invalid wire type 7" << qint64(0) << false << 0;
        QTest::newRow("field number 0") << QByteArray("\x00\x01", 2) << "invalid field number 0" << qint64(0) << false << 0;
        QTest::newRow("field number beyond 2^29")
            << QByteArray("\x80\x80\x80\x80\x10", 5) << "invalid field number 536870912" << qint64(0) << false << 0;
        QTest::newRow("packed list cut inside a varint")
            << QByteArray("\x0a\x03\x01\x80\x80", 5) << "field 1: truncated varint in a packed list (2 bytes left)"
            << qint64(3) << false << 0;
    }

    void errors()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        QFETCH(qint64, offset);
        QFETCH(bool, ranOut);
        QFETCH(int, fieldsBefore);
        const Failure f = failure(bytes);
        QCOMPARE(f.message, message);
        QCOMPARE(f.offset, offset);
        QCOMPARE(f.ranOut, ranOut);
        QCOMPARE(f.fieldsBefore, fieldsBefore);
    }

    // A nested message's errors are at offsets of the whole input.
    void nestedOffsets()
    {
        const QByteArray inner = QByteArray("\x08\x01\x12\x09", 4);
        const QByteArray bytes = ProtoEncoder().varint(1, 1).bytes(2, inner).data();
        ProtoWireReader r(std::string_view(bytes.constData(), std::size_t(bytes.size())));
        QVERIFY(r.next());
        QVERIFY(r.next());
        QCOMPARE(r.fieldOffset(), std::int64_t(2));
        QCOMPARE(r.payloadOffset(), std::int64_t(4));
        ProtoWireReader m = r.message();
        QVERIFY(m.next());
        QCOMPARE(m.fieldOffset(), std::int64_t(4));
        try {
            m.next();
            QFAIL("no error");
        } catch (const FormatError& e) {
            QCOMPARE(QString::fromUtf8(e.what()), QStringLiteral("field 2: length 9 runs past the end (0 bytes left)"));
            QCOMPARE(e.byteOffset(), std::int64_t(6));
        }
        QVERIFY(!r.next());
    }

    // Messages nest to kMaxDepth and no deeper, however the bytes are made.
    void nestingIsBounded()
    {
        auto nested = [](int depth) {
            ProtoEncoder m;
            m.varint(1, 7);
            for (int i = 0; i < depth; ++i)
                m = ProtoEncoder().message(1, m);
            return m.data();
        };
        auto descend = [](const QByteArray& bytes) {
            ProtoWireReader r(std::string_view(bytes.constData(), std::size_t(bytes.size())));
            int depth = 0;
            while (r.next() && r.wireType() == ProtoWireReader::WireType::Len) {
                r = r.message();
                ++depth;
            }
            return depth;
        };
        QCOMPARE(descend(nested(ProtoWireReader::kMaxDepth)), ProtoWireReader::kMaxDepth);
        try {
            descend(nested(ProtoWireReader::kMaxDepth + 1));
            QFAIL("no error");
        } catch (const FormatError& e) {
            QCOMPARE(QString::fromUtf8(e.what()), QStringLiteral("field 1: messages nested more than 8 deep"));
            QCOMPARE(e.byteOffset(), std::int64_t(2 * ProtoWireReader::kMaxDepth));
        }
    }

    void wireTypeNames()
    {
        QCOMPARE(QString::fromLatin1(ProtoWireReader::wireTypeName(ProtoWireReader::WireType::Varint)), QStringLiteral("varint"));
        QCOMPARE(QString::fromLatin1(ProtoWireReader::wireTypeName(ProtoWireReader::WireType::Len)),
                 QStringLiteral("length-delimited"));
    }
};

QTEST_GUILESS_MAIN(TestProtoWireReader)
#include "tst_protowirereader.moc"
