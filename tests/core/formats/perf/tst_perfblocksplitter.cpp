#include "chunkedfilereader.h"
#include "loaderror.h"
#include "perfblocksplitter.h"
#include "testsupport.h"

#include <QtTest>

#include <atomic>

using namespace runlane;
using runlane::test::TrickleDevice;

namespace {

// A line as "offset flags text": flags B blank, C comment, I indented,
// U unended; then h for a header that parses, p for one that does not, with
// the header's comm/tid/time/event.
QString describe(const PerfLineBlock& block, std::size_t i)
{
    const PerfLineBlock::Line& line = block.lines[i];
    QString flags;
    const std::pair<std::uint8_t, char> names[] = {{PerfLineBlock::Blank, 'B'},
                                                  {PerfLineBlock::Comment, 'C'},
                                                  {PerfLineBlock::Indented, 'I'},
                                                  {PerfLineBlock::Unended, 'U'}};
    for (const auto& [flag, name] : names) {
        if (line.flags & flag)
            flags += QLatin1Char(name);
    }
    QString header;
    if (line.header != PerfLineBlock::kNoHeader) {
        const PerfLineBlock::Header& h = block.headers[line.header];
        if (h.problem.empty())
            header = QStringLiteral(" h[%1|%2|%3|%4]")
                         .arg(QString::fromUtf8(h.fields.comm.data(), qsizetype(h.fields.comm.size())))
                         .arg(h.fields.tid)
                         .arg(h.fields.time)
                         .arg(QString::fromUtf8(h.fields.event.data(), qsizetype(h.fields.event.size())));
        else
            header = QStringLiteral(" p");
    }
    const std::string_view text = block.line(i);
    return QStringLiteral("%1 %2 '%3'%4")
        .arg(line.offset)
        .arg(flags.isEmpty() ? QStringLiteral("-") : flags)
        .arg(QString::fromUtf8(text.data(), qsizetype(text.size())))
        .arg(header);
}

// Everything the splitter hands out: "block" before each block's lines,
// "error <offset> <message>" or "cancelled" where it throws.
QStringList split(const QByteArray& text, qint64 step, std::size_t blockBytes, const LoadControl& control = {})
{
    TrickleDevice device(text, step);
    ChunkedFileReader input(device, control);
    PerfBlockSplitter splitter(input, blockBytes);
    PerfLineBlock block;
    QStringList out;
    try {
        while (splitter.next(block)) {
            out << QStringLiteral("block");
            for (std::size_t i = 0; i < block.lines.size(); ++i)
                out << describe(block, i);
        }
        out << QStringLiteral("end");
    } catch (const FormatError& e) {
        out << QStringLiteral("error %1 %2").arg(e.byteOffset()).arg(QString::fromUtf8(e.what()).left(20));
    } catch (const LoadCancelled&) {
        out << QStringLiteral("cancelled");
    }
    // Once it has thrown, or ended, it stays at the end.
    if (splitter.next(block) || !block.lines.empty())
        out << QStringLiteral("more after the end");
    return out;
}

const QByteArray kTwoSamples = "app 10/11 [000] 1.000001: 250 cycles:u: \n"
                               "\t    401000 main+0x10 (/usr/bin/app)\n"
                               "\n"
                               "app 10/11 [000] 1.000101: 250 cycles:u: \n"
                               "\t    401000 main+0x20 (/usr/bin/app)\n"
                               "\n";

} // namespace

class TestPerfBlockSplitter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void lines_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("step"); // bytes a read of the input
        QTest::addColumn<int>("blockBytes");
        QTest::addColumn<QStringList>("expected");

        const QStringList sample1 = {QStringLiteral("0 - 'app 10/11 [000] 1.000001: 250 cycles:u: ' h[app|11|1000001000|cycles:u]"),
                                     QStringLiteral("41 I '\t    401000 main+0x10 (/usr/bin/app)'"),
                                     QStringLiteral("78 B ''")};
        const QStringList sample2 = {QStringLiteral("79 - 'app 10/11 [000] 1.000101: 250 cycles:u: ' h[app|11|1000101000|cycles:u]"),
                                     QStringLiteral("120 I '\t    401000 main+0x20 (/usr/bin/app)'"),
                                     QStringLiteral("157 B ''")};
        QTest::newRow("one block") << kTwoSamples << (1 << 20) << (1 << 20)
                                   << (QStringList{QStringLiteral("block")} + sample1 + sample2 + QStringList{QStringLiteral("end")});
        // A block ends after the line that takes it to blockBytes, inside
        // a sample or not: the reader keeps its state from block to block.
        QTest::newRow("samples across blocks")
            << kTwoSamples << (1 << 20) << 60
            << QStringList{QStringLiteral("block"), sample1[0], sample1[1], QStringLiteral("block"), sample1[2], sample2[0],
                           sample2[1], QStringLiteral("block"), sample2[2], QStringLiteral("end")};
        // Chunks of 7 bytes: every line spans chunks, and comes out whole
        // at the offset of its first byte.
        QTest::newRow("lines across chunks") << kTwoSamples << 7 << (1 << 20)
                                             << (QStringList{QStringLiteral("block")} + sample1 + sample2
                                                 + QStringList{QStringLiteral("end")});
        // A blank line adds no text: it shares a block with the next line.
        QTest::newRow("a line a block, chunks of 1 byte")
            << kTwoSamples << 1 << 1
            << QStringList{QStringLiteral("block"), sample1[0], QStringLiteral("block"), sample1[1], QStringLiteral("block"),
                           sample1[2], sample2[0], QStringLiteral("block"), sample2[1], QStringLiteral("block"), sample2[2],
                           QStringLiteral("end")};
        QTest::newRow("CRLF") << QByteArray("app 7 1.5: cyc: \r\n  ff f (d)\r\n\r\n") << 5 << (1 << 20)
                              << QStringList{QStringLiteral("block"), QStringLiteral("0 - 'app 7 1.5: cyc: ' h[app|7|1500000000|cyc]"),
                                             QStringLiteral("18 I '  ff f (d)'"), QStringLiteral("30 B ''"),
                                             QStringLiteral("end")};
        QTest::newRow("cut mid-line") << QByteArray("app 7 1.5: cyc:\n  ff f (d)\n  ee g (") << 4 << 16
                                      << QStringList{QStringLiteral("block"), QStringLiteral("0 - 'app 7 1.5: cyc:' h[app|7|1500000000|cyc]"),
                                                     QStringLiteral("16 I '  ff f (d)'"), QStringLiteral("block"),
                                                     QStringLiteral("27 IU '  ee g ('"), QStringLiteral("end")};
        QTest::newRow("cut after a CR") << QByteArray("app 7 1.5: cyc:\r") << 3 << 100
                                        << QStringList{QStringLiteral("block"),
                                                       QStringLiteral("0 U 'app 7 1.5: cyc:' h[app|7|1500000000|cyc]"),
                                                       QStringLiteral("end")};
        QTest::newRow("byte order mark") << QByteArray("\xEF\xBB\xBF# cmdline\napp 7 1.5: cyc:\n") << 3 << 100
                                         << QStringList{QStringLiteral("block"), QStringLiteral("3 C '# cmdline'"),
                                                        QStringLiteral("13 - 'app 7 1.5: cyc:' h[app|7|1500000000|cyc]"),
                                                        QStringLiteral("end")};
        // Indented lines are frames or padded headers (no callchains): the
        // reader tells which; other lines can only be headers.
        QTest::newRow("indented lines") << QByteArray("  app 7 1.5: cyc: ff f (d)\n\t ff a: b (d)\n \t \nnot a header\n")
                                        << (1 << 20) << (1 << 20)
                                        << QStringList{QStringLiteral("block"), QStringLiteral("0 I '  app 7 1.5: cyc: ff f (d)'"),
                                                       QStringLiteral("27 I '\t ff a: b (d)'"), QStringLiteral("41 B ' \t '"),
                                                       QStringLiteral("45 - 'not a header' p"), QStringLiteral("end")};
        QTest::newRow("empty") << QByteArray() << 10 << 10 << QStringList{QStringLiteral("end")};
        QTest::newRow("only a newline") << QByteArray("\n") << 10 << 10
                                        << QStringList{QStringLiteral("block"), QStringLiteral("0 B ''"), QStringLiteral("end")};
    }

    void lines()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, step);
        QFETCH(int, blockBytes);
        QFETCH(QStringList, expected);
        QCOMPARE(split(text, step, std::size_t(blockBytes)), expected);
    }

    // Without the header parses (left to the reader when it waits for the
    // producer): the same lines, the same kinds, no parse.
    void withoutHeaders()
    {
        TrickleDevice device(kTwoSamples, 7);
        ChunkedFileReader input(device, LoadControl{});
        PerfBlockSplitter splitter(input, 1 << 20);
        PerfLineBlock block;
        QVERIFY(splitter.next(block, false));
        QStringList lines;
        for (std::size_t i = 0; i < block.lines.size(); ++i)
            lines << describe(block, i);
        QCOMPARE(lines, (QStringList{QStringLiteral("0 - 'app 10/11 [000] 1.000001: 250 cycles:u: '"),
                                     QStringLiteral("41 I '\t    401000 main+0x10 (/usr/bin/app)'"), QStringLiteral("78 B ''"),
                                     QStringLiteral("79 - 'app 10/11 [000] 1.000101: 250 cycles:u: '"),
                                     QStringLiteral("120 I '\t    401000 main+0x20 (/usr/bin/app)'"),
                                     QStringLiteral("157 B ''")}));
        QVERIFY(block.headers.empty());
        QVERIFY(!splitter.next(block, false));
    }

    // A line longer than kMaxLine: the lines before it come out first,
    // then the error at the line's first byte, wherever the chunks end.
    void longLine_data()
    {
        QTest::addColumn<int>("step");
        QTest::addColumn<int>("blockBytes");
        QTest::addColumn<QStringList>("expected");
        const QString error = QStringLiteral("error 17 a line of more than ");
        QTest::newRow("same block") << (256 << 10) << (1 << 20)
                                    << QStringList{QStringLiteral("block"), QStringLiteral("0 - 'app 7 1.5: cyc:' h[app|7|1500000000|cyc]"),
                                                   QStringLiteral("16 B ''"), error};
        QTest::newRow("a later block") << (100 << 10) << 10
                                       << QStringList{QStringLiteral("block"), QStringLiteral("0 - 'app 7 1.5: cyc:' h[app|7|1500000000|cyc]"),
                                                      QStringLiteral("block"), QStringLiteral("16 B ''"), error};
    }

    void longLine()
    {
        QFETCH(int, step);
        QFETCH(int, blockBytes);
        QFETCH(QStringList, expected);
        const QByteArray text = "app 7 1.5: cyc:\n\n" + QByteArray(3 << 19, 'x') + "\n";
        QCOMPARE(split(text, step, std::size_t(blockBytes)), expected);
    }

    // A line just under the limit is read; one chunk's worth over it
    // fails only once a chunk without its end takes it past the limit,
    // as the reader has always checked.
    void lineAtTheLimit()
    {
        const QByteArray line(int(PerfBlockSplitter::kMaxLine), 'x');
        const QStringList out = split(line + "\n", 1 << 20, 1 << 20);
        QCOMPARE(out.size(), 3);
        QCOMPARE(out[0], QStringLiteral("block"));
        QVERIFY(out[1].startsWith(QStringLiteral("0 - 'xxx")));
        QCOMPARE(out[2], QStringLiteral("end"));
    }

    // Cancel is seen when the next chunk is read: the lines of the chunk
    // read come out first.
    void cancel()
    {
        QByteArray text;
        for (int i = 0; i < 10; ++i)
            text += "sample " + QByteArray::number(i) + "\n"; // 9 bytes a line
        std::atomic<bool> cancelled{false};
        LoadControl control;
        control.cancel = &cancelled;
        TrickleDevice device(text, 27); // three lines a chunk
        ChunkedFileReader input(device, control);
        PerfBlockSplitter splitter(input, 1); // a line a block
        PerfLineBlock block;
        QVERIFY(splitter.next(block));
        QCOMPARE(block.line(0), std::string_view("sample 0"));
        cancelled = true;
        QVERIFY(splitter.next(block));
        QCOMPARE(block.line(0), std::string_view("sample 1"));
        QCOMPARE(block.lines[0].offset, 9);
        QVERIFY(splitter.next(block));
        QCOMPARE(block.line(0), std::string_view("sample 2"));
        QVERIFY_THROWS_EXCEPTION(LoadCancelled, splitter.next(block));
        QVERIFY(!splitter.next(block));
    }

    void cancelledBeforeTheFirstRead()
    {
        std::atomic<bool> cancelled{true};
        LoadControl control;
        control.cancel = &cancelled;
        QCOMPARE(split(kTwoSamples, 10, 10, control), QStringList{QStringLiteral("cancelled")});
    }
};

QTEST_GUILESS_MAIN(TestPerfBlockSplitter)
#include "tst_perfblocksplitter.moc"
