#include "gzipdevice.h"
#include "gzipsupport.h"

#include <QBuffer>
#include <QtTest>

using namespace runlane;
using runlane::test::gzip;

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

// A source that hands out at most `step` bytes per read, as a pipe may:
// every boundary in the compressed stream falls between two reads.
class TrickleDevice : public QIODevice
{
public:
    TrickleDevice(QByteArray data, qint64 step) : m_data(std::move(data)), m_step(step) { open(ReadOnly | Unbuffered); }
    bool isSequential() const override { return true; }

protected:
    qint64 readData(char* out, qint64 max) override
    {
        const qint64 n = std::min({max, m_step, qint64(m_data.size()) - m_pos});
        std::memcpy(out, m_data.constData() + m_pos, std::size_t(n));
        m_pos += n;
        return n;
    }
    qint64 writeData(const char*, qint64) override { return -1; }

private:
    QByteArray m_data;
    qint64 m_step;
    qint64 m_pos = 0;
};

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

    void corruptDataIsAnError_data()
    {
        QTest::addColumn<int>("byte");
        QTest::addColumn<char>("value");
        QTest::addColumn<int>("noticedAt"); // where zlib stood when it saw it; negative: from the end
        QTest::addColumn<QString>("message");
        // The header: zlib has read the magic, the method and the flags.
        QTest::newRow("method") << 2 << char(7) << 4 << QStringLiteral("unknown compression method");
        // The trailer: the CRC-32 of the text, then its length.
        QTest::newRow("crc") << -8 << char(0x55) << -4 << QStringLiteral("incorrect data check");
        QTest::newRow("length") << -2 << char(0x55) << 0 << QStringLiteral("incorrect length check");
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

    void magic()
    {
        QVERIFY(GzipDevice::isGzip(QByteArray("\x1f\x8b\x08", 3)));
        QVERIFY(!GzipDevice::isGzip(QByteArray("\x1f", 1)));
        QVERIFY(!GzipDevice::isGzip(QByteArray("[{\"ph\"")));
    }
};

QTEST_GUILESS_MAIN(TestGzipDevice)
#include "tst_gzipdevice.moc"
