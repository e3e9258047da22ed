#include "chunkedfilereader.h"
#include "gzipdevice.h"
#include "gzipsupport.h"
#include "testsupport.h"

#include <QBuffer>
#include <QtTest>

using namespace runlane;
using runlane::test::deflated;
using runlane::test::gzip;
using runlane::test::TrickleDevice;

namespace {

// Text that compresses as a trace does (repeated keys, changing numbers).
QByteArray traceLike(int lines)
{
    QByteArray text;
    for (int i = 0; i < lines; ++i)
        text += "{\"ph\":\"X\",\"name\":\"f" + QByteArray::number(i % 13) + "\",\"ts\":" + QByteArray::number(i * 7919 % 100003)
            + "},\n";
    return text;
}

// Everything the device gives in reads of `step` bytes; `ok` false if a
// read failed, `error` its message.
QByteArray readAll(QIODevice& device, qint64 step, bool& ok, QString& error)
{
    QByteArray all;
    QByteArray chunk(int(step), Qt::Uninitialized);
    ok = true;
    for (;;) {
        const qint64 n = device.read(chunk.data(), step);
        if (n < 0) {
            ok = false;
            error = device.errorString();
            return all;
        }
        if (n == 0)
            return all;
        all.append(chunk.constData(), n);
    }
}

QByteArray littleEndian32(quint32 value)
{
    QByteArray bytes(4, Qt::Uninitialized);
    for (int i = 0; i < 4; ++i)
        bytes[i] = char((value >> (8 * i)) & 0xff);
    return bytes;
}

// A gzip member written by hand (RFC 1952), with the optional header
// fields `flags` asks for: FEXTRA 4, FNAME 8, FCOMMENT 16, FHCRC 2.
QByteArray member(const QByteArray& text, int flags, const QByteArray& deflated, bool goodHeaderCrc = true)
{
    QByteArray header("\x1f\x8b\x08", 3);
    header += char(flags);
    header += QByteArray("\0\0\0\0\0\x03", 6); // mtime, xfl, OS Unix
    if (flags & 4)
        header += QByteArray("\x06\0RL\x02\0ab", 8); // xlen 6: one subfield "RL" of 2 bytes
    if (flags & 8)
        header += QByteArray("trace.json", 11); // with its NUL
    if (flags & 16)
        header += QByteArray("a comment", 10);
    if (flags & 2) {
        const quint32 crc = quint32(crc32(0, reinterpret_cast<const Bytef*>(header.constData()), uInt(header.size())));
        const quint16 crc16 = quint16(goodHeaderCrc ? crc : ~crc);
        header += char(crc16 & 0xff);
        header += char(crc16 >> 8);
    }
    const quint32 crc = quint32(crc32(0, reinterpret_cast<const Bytef*>(text.constData()), uInt(text.size())));
    return header + deflated + littleEndian32(crc) + littleEndian32(quint32(text.size()));
}

QByteArray decompress(const QByteArray& compressed, qint64 readStep, qint64 sourceStep, bool& ok, QString& error)
{
    TrickleDevice source(compressed, sourceStep);
    GzipDevice gzip(source);
    return readAll(gzip, readStep, ok, error);
}

} // namespace

class TestGzipDevice : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTrip_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<qint64>("readStep");
        QTest::addColumn<qint64>("sourceStep");
        const QByteArray big = traceLike(100000); // ~3.6 MB, several source reads
        QTest::newRow("empty") << QByteArray() << qint64(4096) << qint64(1 << 20);
        QTest::newRow("one byte") << QByteArray("x") << qint64(1) << qint64(1);
        QTest::newRow("big, 1 MiB reads") << big << qint64(1 << 20) << qint64(1 << 20);
        QTest::newRow("big, odd reads") << big << qint64(7777) << qint64(333);
        QTest::newRow("small, byte by byte") << traceLike(300) << qint64(1) << qint64(1);
    }
    void roundTrip()
    {
        QFETCH(QByteArray, text);
        QFETCH(qint64, readStep);
        QFETCH(qint64, sourceStep);
        bool ok = false;
        QString error;
        QCOMPARE(decompress(gzip(text), readStep, sourceStep, ok, error), text);
        QVERIFY2(ok, qPrintable(error));
    }

    // `cat a.gz b.gz` is one stream to gzip; so it is here, whatever the
    // reads' boundaries (a member's magic split over two reads included).
    void membersFollowEachOther_data()
    {
        QTest::addColumn<qint64>("sourceStep");
        QTest::newRow("whole") << qint64(1 << 20);
        QTest::newRow("byte by byte") << qint64(1);
        QTest::newRow("odd") << qint64(5);
    }
    void membersFollowEachOther()
    {
        QFETCH(qint64, sourceStep);
        const QByteArray a = traceLike(50);
        const QByteArray b = "second member\n";
        bool ok = false;
        QString error;
        QCOMPARE(decompress(gzip(a) + gzip(b) + gzip(a), 1000, sourceStep, ok, error), a + b + a);
        QVERIFY(ok);
        // Bytes after the last member that start no other are ignored, as
        // gzip does (tar's zero padding, a stray newline).
        QCOMPARE(decompress(gzip(a) + QByteArray(512, '\0'), 1000, sourceStep, ok, error), a);
        QVERIFY(ok);
        QCOMPARE(decompress(gzip(a) + "\x1f", 1000, sourceStep, ok, error), a);
        QVERIFY(ok);
    }

    // Every cut of a stream before its end is an error naming where it
    // ends; what came before the cut is handed out first.
    void cutStreamIsAnError()
    {
        const QByteArray text = traceLike(40);
        const QByteArray whole = gzip(text);
        for (qsizetype cut = 1; cut < whole.size(); ++cut) {
            bool ok = true;
            QString error;
            const QByteArray got = decompress(whole.left(cut), 64, 1 << 20, ok, error);
            QVERIFY2(!ok, qPrintable(QStringLiteral("cut at %1 read as whole").arg(cut)));
            QVERIFY(text.startsWith(got));
            if (cut >= 10) // past the header: the cut is the message
                QCOMPARE(error, QStringLiteral("the gzip stream is cut short: it ends after %1 compressed bytes, in the "
                                               "middle of its data (an incomplete download or copy?)")
                                    .arg(cut));
        }
    }

    // What gzip writers put in a header, and the kinds of deflate block,
    // read through every boundary: as gzip reads them, or refused as it
    // refuses them.
    void headersAndBlocks_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QString>("error"); // empty: reads as the text
        const QByteArray text = traceLike(200);
        const QByteArray dynamic = deflated(text, 6, -MAX_WBITS);
        QTest::newRow("no fields") << member(text, 0, dynamic) << QString();
        QTest::newRow("name") << member(text, 8, dynamic) << QString();
        QTest::newRow("extra") << member(text, 4, dynamic) << QString();
        QTest::newRow("comment") << member(text, 16, dynamic) << QString();
        QTest::newRow("header crc") << member(text, 2, dynamic) << QString();
        QTest::newRow("every field") << member(text, 2 | 4 | 8 | 16, dynamic) << QString();
        QTest::newRow("stored blocks") << member(text, 8, deflated(text, 0, -MAX_WBITS)) << QString();
        QTest::newRow("fixed codes") << member(text, 8, deflated(text, 6, -MAX_WBITS, Z_FIXED)) << QString();
        QTest::newRow("one member of each")
            << member(text, 0, deflated(text, 0, -MAX_WBITS)) + member(text, 2 | 4 | 8 | 16, dynamic)
                   + member(text, 0, deflated(text, 9, -MAX_WBITS, Z_FIXED))
            << QString();
        // Refused as gzip and zlib refuse them, once the field is read.
        QTest::newRow("wrong header crc") << member(text, 2, dynamic, false)
                                          << QStringLiteral("the gzip data is corrupt at compressed byte 12: invalid gzip "
                                                            "header: the header's CRC-16 does not match it");
        QByteArray reserved = member(text, 8, dynamic);
        reserved[3] = char(8 | 0x20);
        QTest::newRow("reserved flag") << reserved
                                       << QStringLiteral("the gzip data is corrupt at compressed byte 10: invalid gzip "
                                                         "header: unknown header flags set");
    }
    void headersAndBlocks()
    {
        QFETCH(QByteArray, data);
        QFETCH(QString, error);
        const QByteArray text = traceLike(200);
        const qsizetype members = data.count("\x1f\x8b\x08") > 1 ? 3 : 1;
        for (const qint64 step : {qint64(1), qint64(7), qint64(1 << 20)}) {
            bool ok = false;
            QString message;
            const QByteArray got = decompress(data, 4096, step, ok, message);
            if (error.isEmpty()) {
                QVERIFY2(ok, qPrintable(message));
                QCOMPARE(got, text.repeated(members));
            } else {
                QVERIFY(!ok);
                QCOMPARE(message, error);
            }
        }
    }

    void corruptDataIsAnError_data()
    {
        QTest::addColumn<int>("byte");
        QTest::addColumn<char>("value");
        QTest::addColumn<int>("noticedAt"); // what was read when it was seen; 0 or negative: from the end
        QTest::addColumn<QString>("message");
        // The header: its 10 fixed bytes are read, then judged.
        QTest::newRow("method") << 2 << char(7) << 10 << QStringLiteral("invalid gzip header: unknown compression method");
        // The first deflate block's header: final, of the reserved type 3.
        QTest::newRow("block type") << 10 << char(7) << 11 << QStringLiteral("invalid deflate block");
        // The trailer: the CRC-32 of the text, then its length; ISA-L
        // checks both once it has read them.
        const QString check = QStringLiteral("the decompressed data does not match the CRC-32 or the length in the gzip trailer");
        QTest::newRow("crc") << -8 << char(0x55) << 0 << check;
        QTest::newRow("length") << -2 << char(0x55) << 0 << check;
    }
    void corruptDataIsAnError()
    {
        QFETCH(int, byte);
        QFETCH(char, value);
        QFETCH(int, noticedAt);
        QFETCH(QString, message);
        const QByteArray text = traceLike(40);
        QByteArray data = gzip(text);
        data[byte < 0 ? data.size() + byte : byte] = value;
        bool ok = true;
        QString error;
        decompress(data, 4096, 1 << 20, ok, error);
        QVERIFY(!ok);
        const qsizetype at = noticedAt > 0 ? noticedAt : data.size() + noticedAt;
        QCOMPARE(error, QStringLiteral("the gzip data is corrupt at compressed byte %1: %2").arg(at).arg(message));
    }

    // Corrupt data read in reads of any size: the same error at the same
    // compressed byte. (What a decoder writes just before it notices is
    // garbage and may differ with the room it had; it stops within a
    // window, 32 KiB, of the error.)
    void corruptionReadsTheSameWhateverTheReads_data()
    {
        QTest::addColumn<double>("where"); // of the compressed bytes
        QTest::addColumn<int>("bit");
        QTest::newRow("a fifth, bit 0") << 0.2 << 0;
        QTest::newRow("half, bit 3") << 0.5 << 3;
        QTest::newRow("nine tenths, bit 6") << 0.9 << 6;
    }
    void corruptionReadsTheSameWhateverTheReads()
    {
        QFETCH(double, where);
        QFETCH(int, bit);
        QByteArray data = gzip(traceLike(20000));
        const auto at = qsizetype(double(data.size()) * where);
        data[at] = char(data[at] ^ (1 << bit));
        bool ok = true;
        QString expected;
        const QByteArray whole = decompress(data, 1 << 20, 1 << 20, ok, expected);
        QVERIFY(!ok);
        QVERIFY(expected.startsWith(QStringLiteral("the gzip data is corrupt at compressed byte ")));
        for (const qint64 step : {qint64(1), qint64(333), qint64(4096)}) {
            QString error;
            const QByteArray got = decompress(data, step, step, ok, error);
            QVERIFY(!ok);
            QCOMPARE(error, expected);
            const qsizetype common = std::max<qsizetype>(0, std::min(got.size(), whole.size()) - 32768);
            QCOMPARE(got.left(common), whole.left(common));
        }
    }

    void progressCountsCompressedBytes()
    {
        const QByteArray text = traceLike(100000);
        const QByteArray data = gzip(text);
        QBuffer buffer;
        buffer.setData(data);
        QVERIFY(buffer.open(QIODevice::ReadOnly));
        GzipDevice device(buffer);
        QCOMPARE(device.compressedSize(), std::int64_t(data.size()));
        QByteArray chunk(1 << 16, Qt::Uninitialized);
        QCOMPARE(device.read(chunk.data(), chunk.size()), qint64(chunk.size()));
        // One read of the source so far, of 256 KiB or the whole.
        QCOMPARE(GzipDevice::progress(device, chunk.size()),
                 std::make_pair(std::int64_t(std::min<qsizetype>(data.size(), 256 * 1024)), std::int64_t(data.size())));
        bool ok = false;
        QString error;
        readAll(device, 1 << 20, ok, error);
        QVERIFY(ok);
        QCOMPARE(GzipDevice::progress(device, text.size()), std::make_pair(std::int64_t(data.size()), std::int64_t(data.size())));
        // A plain device: the bytes consumed, of its size.
        QCOMPARE(GzipDevice::progress(buffer, 100), std::make_pair(std::int64_t(100), std::int64_t(data.size())));
    }

    // The trailer's ISIZE sizes the loader's buffers before a byte is
    // inflated; a pipe has none to read, a damaged one is capped.
    void textSizeHint()
    {
        const QByteArray text = traceLike(5000);
        QByteArray data = gzip(text);
        QBuffer buffer(&data);
        QVERIFY(buffer.open(QIODevice::ReadOnly));
        {
            GzipDevice device(buffer);
            QCOMPARE(device.statedTextSize(), std::int64_t(text.size()));
            QCOMPARE(GzipDevice::textSizeHint(device), std::int64_t(text.size()));
            QCOMPARE(buffer.pos(), qint64(0)); // reading starts where it was
            // What a binary reader (Perfetto's) reserves by.
            QCOMPARE(ChunkedFileReader(device, LoadControl{}).textSizeHint(), std::int64_t(text.size()));
        }
        QCOMPARE(GzipDevice::textSizeHint(buffer), std::int64_t(data.size()));
        QCOMPARE(ChunkedFileReader(buffer, LoadControl{}).textSizeHint(), std::int64_t(data.size()));
        // Several members: the last one's size, a hint only.
        QByteArray two = gzip(text) + gzip("tail\n");
        QBuffer twoBuffer(&two);
        QVERIFY(twoBuffer.open(QIODevice::ReadOnly));
        QCOMPARE(GzipDevice(twoBuffer).statedTextSize(), std::int64_t(5));
        // A damaged trailer claiming 4 GiB - 1: capped at 40 x the file.
        QByteArray damaged = data;
        damaged.replace(damaged.size() - 4, 4, QByteArray(4, char(0xff)));
        QBuffer damagedBuffer(&damaged);
        QVERIFY(damagedBuffer.open(QIODevice::ReadOnly));
        GzipDevice device(damagedBuffer);
        QCOMPARE(device.statedTextSize(), std::int64_t(0xffffffff));
        QCOMPARE(GzipDevice::textSizeHint(device), std::int64_t(damaged.size()) * GzipDevice::kMaxRatio);
        // A pipe: nothing to read ahead.
        TrickleDevice pipe(data, 4096);
        QCOMPARE(GzipDevice(pipe).statedTextSize(), std::int64_t(-1));
        QCOMPARE(GzipDevice::textSizeHint(GzipDevice(pipe)), std::int64_t(0));
    }

    void magic()
    {
        QVERIFY(GzipDevice::isGzip(QByteArray("\x1f\x8b\x08", 3)));
        QVERIFY(!GzipDevice::isGzip(QByteArray("\x1f", 1)));
        QVERIFY(!GzipDevice::isGzip(QByteArray("[{\"ph\"")));
    }
};

QTEST_GUILESS_MAIN(TestGzipDevice)
#include "tst_gzipdevice.moc"
