#include "chunkedfilereader.h"
#include "loaderror.h"
#include "perfettoencoder.h"
#include "perfettopacketsplitter.h"
#include "testsupport.h"

#include <QtTest>

#include <atomic>

using namespace runlane;
using namespace runlane::test::perfetto;
using runlane::test::ProtoEncoder;
using runlane::test::TrickleDevice;
using End = PerfettoPacketBlock::End;

namespace {

// `count` packets: a begin (named by iid) and an end on track 7, in turn,
// with a Trace field other than a packet (field 2, a varint) after every
// tenth. Their "start offset size", as the test's own walk of the bytes
// finds them, go to `packets`.
QByteArray packets(int count, QStringList& expected)
{
    QByteArray bytes;
    for (int i = 0; i < count; ++i) {
        ProtoEncoder body;
        body.varint(11, 7);
        if (i % 2 == 0)
            body.varint(10, std::uint64_t(i));
        const QByteArray packet = trackEvent(std::uint64_t(1000 + i), i % 2 == 0 ? SliceBegin : SliceEnd, body).data();
        const qint64 start = bytes.size();
        bytes += ProtoEncoder().bytes(1, packet).data();
        expected << QStringLiteral("%1 %2 %3").arg(start).arg(bytes.size() - packet.size()).arg(packet.size());
        if (i % 10 == 9)
            bytes += ProtoEncoder().varint(2, 5).data();
    }
    return bytes;
}

struct Drained {
    QStringList packets;
    int blocks = 0;
    std::uint64_t otherFields = 0;
    int scanned = 0;
    QString end; // the last block's End, "kind at what" (empty: none)
    QString error; // "FormatError <offset>: message" or "cancelled"
};

Drained drain(PerfettoPacketSplitter& splitter, bool scan)
{
    Drained out;
    PerfettoPacketBlock block;
    try {
        while (splitter.next(block, scan)) {
            ++out.blocks;
            out.otherFields += block.otherTraceFields;
            for (std::size_t i = 0; i < block.packets.size(); ++i) {
                const PerfettoPacketBlock::Packet& p = block.packets[i];
                out.packets << QStringLiteral("%1 %2 %3").arg(p.start).arg(p.offset).arg(p.size);
                if (!block.scanned.empty() && block.scanned[i])
                    ++out.scanned;
            }
            if (block.end != End::None)
                out.end = QStringLiteral("%1 %2 %3").arg(int(block.end)).arg(block.endAt).arg(QString::fromStdString(block.what))
                    + (block.end == End::CutInPacket ? QStringLiteral(" %1/%2").arg(block.received).arg(block.length) : QString());
        }
    } catch (const FormatError& e) {
        out.error = QStringLiteral("FormatError %1: %2").arg(e.byteOffset()).arg(QString::fromUtf8(e.what()));
    } catch (const LoadCancelled&) {
        out.error = QStringLiteral("cancelled");
    }
    return out;
}

// The one packet of `bytes` (a Trace of one packet), scanned; its views
// point into `block`.
PerfettoPacketScan scanOf(const QByteArray& bytes, bool& scanned, PerfettoPacketBlock& block)
{
    TrickleDevice device(bytes, 4096);
    ChunkedFileReader input(device, LoadControl{});
    PerfettoPacketSplitter splitter(input);
    scanned = false;
    if (!splitter.next(block, true) || block.packets.size() != 1)
        return {};
    scanned = block.scanned.at(0);
    return block.scans.at(0);
}

} // namespace

class TestPerfettoPacketSplitter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Every packet once, in file order, where it is in the file, from
    // chunks of any size and blocks of any size; the other fields counted.
    void inOrder_data()
    {
        QTest::addColumn<int>("step");
        QTest::addColumn<int>("blockBytes");
        QTest::addColumn<bool>("scan");
        QTest::addColumn<int>("blocks");
        // A packet per block, and the other field after the last packet in
        // a block of its own: 3,001 blocks.
        QTest::newRow("blocks of a packet, chunks of 7") << 7 << 1 << true << 3001;
        QTest::newRow("blocks of a packet, not scanned") << 4096 << 1 << false << 3001;
        QTest::newRow("blocks of 1000 bytes, chunks of 333") << 333 << 1000 << true << -1;
        QTest::newRow("one block") << (1 << 20) << (1 << 20) << true << 1;
    }

    void inOrder()
    {
        QFETCH(int, step);
        QFETCH(int, blockBytes);
        QFETCH(bool, scan);
        QFETCH(int, blocks);
        QStringList expected;
        const QByteArray bytes = packets(3000, expected);
        TrickleDevice device(bytes, step);
        ChunkedFileReader input(device, LoadControl{});
        PerfettoPacketSplitter splitter(input, std::size_t(blockBytes));
        const Drained got = drain(splitter, scan);
        QCOMPARE(got.error, QString());
        QCOMPARE(got.packets, expected);
        QCOMPARE(got.otherFields, std::uint64_t(300));
        QCOMPARE(got.scanned, scan ? 3000 : 0);
        QCOMPARE(got.end, QString());
        if (blocks > 0)
            QCOMPARE(got.blocks, blocks);
        else
            QVERIFY(got.blocks > 30 && got.blocks < 3000);
        QCOMPARE(input.offset(), qint64(bytes.size()));
    }

    // What the producer reads of a packet without its sequence's state.
    void scan()
    {
        bool scanned = false;
        PerfettoPacketBlock block;
        ProtoEncoder begin;
        begin.varint(11, 42).varint(10, 3);
        PerfettoPacketScan s =
            scanOf(trace({trackEvent(1234, SliceBegin, begin).varint(13, NeedsState).varint(58, 6)}), scanned, block);
        QVERIFY(scanned);
        QCOMPARE(s.offset, std::int64_t(2)); // after the packet's tag and length
        QVERIFY(s.hasTimestamp);
        QCOMPARE(s.timestamp, std::uint64_t(1234));
        QCOMPARE(s.sequence, 1u);
        QCOMPARE(s.flags, std::uint32_t(NeedsState));
        QCOMPARE(s.clock, 6u);
        QCOMPARE(s.interned, PerfettoPacketScan::kAbsent);
        QCOMPARE(s.data, 5u); // after timestamp (3 bytes) and sequence (2)
        QVERIFY(s.simpleEvent);
        QCOMPARE(s.event.type, PerfettoTrackEvent::Type::SliceBegin);
        QVERIFY(s.event.hasNameIid);
        QCOMPARE(s.event.nameIid, std::uint64_t(3));
        QVERIFY(s.event.hasTrack);
        QCOMPARE(s.event.track, std::uint64_t(42));
        QVERIFY(!s.event.hasCounter);

        // A counter as a double, a name as text.
        ProtoEncoder counter;
        counter.varint(11, 9).fixed64(44, std::bit_cast<std::uint64_t>(2.5)).bytes(23, "n");
        s = scanOf(trace({trackEvent(5, Counter, counter)}), scanned, block);
        QVERIFY(scanned && s.simpleEvent);
        QVERIFY(s.event.hasCounter);
        QCOMPARE(s.event.counter, 2.5);
        QVERIFY(s.event.hasName && !s.event.hasNameIid);
        QCOMPARE(s.event.name, std::string_view("n"));

        // Left to the reader's own loop: a field it does not read here, a
        // field twice, both names, a wire type not the schema's.
        const QList<ProtoEncoder> others{ProtoEncoder().varint(11, 1).bytes(4, "annotation"),
                                         ProtoEncoder().varint(11, 1).varint(11, 2),
                                         ProtoEncoder().varint(10, 1).bytes(23, "x"),
                                         ProtoEncoder().bytes(11, "x")};
        for (const ProtoEncoder& body : others) {
            s = scanOf(trace({trackEvent(5, SliceBegin, body)}), scanned, block);
            QVERIFY(scanned);
            QVERIFY(!s.simpleEvent);
            QCOMPARE(s.data, 4u); // after timestamp (2 bytes) and sequence (2)
        }

        // Interned data and defaults are found where they are; the packet's
        // own malformed field leaves it to the reader, which tells it.
        s = scanOf(trace({ProtoEncoder().varint(10, 2).message(12, eventName(1, "a")).message(59, ProtoEncoder().varint(58, 6))}),
                   scanned, block);
        QVERIFY(scanned);
        QCOMPARE(s.interned, 2u);
        QCOMPARE(s.defaults, 2u + 2u + std::uint32_t(eventName(1, "a").data().size()));
        QCOMPARE(s.data, PerfettoPacketScan::kAbsent);
        scanOf(trace({ProtoEncoder().bytes(8, "not a timestamp")}), scanned, block);
        QVERIFY(!scanned);
    }

    // How the Trace ends: the last block says it, after its packets; a
    // file that does not start as a Trace is an error.
    void ends_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("packets");
        QTest::addColumn<QString>("end");
        QTest::addColumn<QString>("error");
        const QByteArray one = trace({slice(1, SliceEnd, 7)}); // 12 bytes
        QCOMPARE(one.size(), 12);
        QTest::newRow("clean") << one + one << 2 << QString() << QString();
        QTest::newRow("cut in a tag") << one + "\x8a" << 1 << "1 12 the file ends inside a field tag" << QString();
        QTest::newRow("cut in a packet") << one + one.left(10) << 1 << "2 12  8/10" << QString();
        QTest::newRow("cut in a length") << one + "\x0a\x80" << 1 << "1 12 the file ends inside a packet's length"
                                         << QString();
        QTest::newRow("a group") << one + "\x0b" << 1 << "3 12 field 1 has wire type 3, which a Trace never holds"
                                 << QString();
        QTest::newRow("field 0") << one + QByteArray("\x02\x00", 2) << 1 << "3 12 invalid field number 0" << QString();
        QTest::newRow("another field first") << "\x10\x05" + one << 0 << QString()
                                             << "FormatError 0: not a Perfetto trace: it starts with field 2 of wire "
                                                "type 0, not a packet (field 1, length-delimited)";
        QTest::newRow("a packet's negative length")
            << QByteArray("\x0a\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11) << 0 << QString()
            << "FormatError 0: not a Perfetto trace: field 1: negative length -1";
    }

    void ends()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, packets);
        QFETCH(QString, end);
        QFETCH(QString, error);
        for (const qint64 step : {qint64(1), qint64(4096)}) {
            TrickleDevice device(bytes, step);
            ChunkedFileReader input(device, LoadControl{});
            PerfettoPacketSplitter splitter(input, 1);
            const Drained got = drain(splitter, true);
            QCOMPARE(got.packets.size(), packets);
            QCOMPARE(got.end, end);
            QCOMPARE(got.error, error);
        }
    }

    // A packet's length may be written in more bytes than it needs (up to
    // 10, protobuf's longest varint): the packet is found where it is, from
    // chunks of a byte or of the whole file.
    void paddedLengths_data()
    {
        QTest::addColumn<int>("lengthBytes");
        QTest::newRow("1 byte") << 1;
        QTest::newRow("2 bytes") << 2;
        QTest::newRow("9 bytes") << 9;
        QTest::newRow("10 bytes") << 10;
    }

    void paddedLengths()
    {
        QFETCH(int, lengthBytes);
        const QByteArray one = trace({slice(1, SliceEnd, 7)});
        const QByteArray payload = one.mid(2);
        QCOMPARE(payload.size(), 10);
        QByteArray padded("\x0a", 1);
        for (int i = 0; i + 1 < lengthBytes; ++i)
            padded += char(i == 0 ? 0x8a : 0x80);
        padded += char(lengthBytes == 1 ? 0x0a : 0x00);
        padded += payload;
        const QStringList expected{QStringLiteral("0 2 10"), QStringLiteral("12 %1 10").arg(13 + lengthBytes)};
        for (const qint64 step : {qint64(1), qint64(4096)}) {
            TrickleDevice device(one + padded, step);
            ChunkedFileReader input(device, LoadControl{});
            PerfettoPacketSplitter splitter(input);
            const Drained got = drain(splitter, true);
            QCOMPARE(got.error, QString());
            QCOMPARE(got.end, QString());
            QCOMPARE(got.packets, expected);
            QCOMPARE(got.scanned, 2);
        }
    }

    // An error of the input comes after the packets read before it.
    void cancelledAfterThePacketsBefore()
    {
        QStringList expected;
        const QByteArray bytes = packets(3000, expected);
        std::atomic<bool> cancel{false};
        LoadControl control;
        control.cancel = &cancel;
        TrickleDevice device(bytes, 1000);
        ChunkedFileReader input(device, control);
        PerfettoPacketSplitter splitter(input, std::size_t(1) << 20);
        PerfettoPacketBlock block;
        // The first chunk is read before the cancel: the packets wholly in
        // it come out first, in one block.
        QVERIFY(input.buffered().size() == 1000);
        cancel = true;
        QVERIFY(splitter.next(block, true));
        const qsizetype whole = std::count_if(expected.begin(), expected.end(), [](const QString& p) {
            const QStringList f = p.split(' ');
            return f[1].toLongLong() + f[2].toLongLong() <= 1000;
        });
        QCOMPARE(qsizetype(block.packets.size()), whole);
        QVERIFY(whole > 10);
        QVERIFY_THROWS_EXCEPTION(LoadCancelled, splitter.next(block, true));
        QVERIFY(!splitter.next(block, true));
    }
};

QTEST_GUILESS_MAIN(TestPerfettoPacketSplitter)
#include "tst_perfettopacketsplitter.moc"
