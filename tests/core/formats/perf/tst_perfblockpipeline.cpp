#include "chunkedfilereader.h"
#include "loaderror.h"
#include "perfblockpipeline.h"
#include "testsupport.h"

#include <QtTest>

#include <atomic>

using namespace runlane;
using runlane::test::loadText;
using runlane::test::TrickleDevice;

namespace {

// `count` samples of one header and three frames, a blank line after each.
QByteArray samples(int count)
{
    QByteArray text;
    for (int i = 0; i < count; ++i) {
        text += "app 10/11 [000] " + QByteArray::number(1000 + i) + ".000001: 250 cycles:u:\n";
        text += "\t    401000 leaf_" + QByteArray::number(i % 7) + "+0x10 (/usr/bin/app)\n";
        text += "\t    402000 middle+0x10 (/usr/bin/app)\n";
        text += "\t    403000 main+0x10 (/usr/bin/app)\n\n";
    }
    return text;
}

// Every line the pipeline hands out, "offset text", in order; then
// "error <offset>" or "cancelled" if it throws.
QStringList drain(PerfBlockPipeline& pipeline, int* blocks = nullptr)
{
    QStringList out;
    int count = 0;
    try {
        while (const PerfLineBlock* block = pipeline.next()) {
            ++count;
            for (std::size_t i = 0; i < block->lines.size(); ++i) {
                const std::string_view line = block->line(i);
                out << QStringLiteral("%1 %2").arg(block->lines[i].offset).arg(QString::fromUtf8(line.data(), qsizetype(line.size())));
            }
        }
    } catch (const FormatError& e) {
        out << QStringLiteral("error %1").arg(e.byteOffset());
    } catch (const LoadCancelled&) {
        out << QStringLiteral("cancelled");
    }
    if (blocks)
        *blocks = count;
    return out;
}

// The same lines, split on this thread with QByteArray::split.
QStringList expectedLines(const QByteArray& text)
{
    QStringList out;
    qint64 offset = 0;
    QList<QByteArray> lines = text.split('\n');
    lines.removeLast(); // after the last '\n'
    for (const QByteArray& line : lines) {
        out << QStringLiteral("%1 %2").arg(offset).arg(QString::fromUtf8(line));
        offset += line.size() + 1;
    }
    return out;
}

} // namespace

class TestPerfBlockPipeline : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Many more blocks than are in flight, from chunks of any size: every
    // line once, in file order.
    void inOrder_data()
    {
        QTest::addColumn<int>("step");
        QTest::addColumn<int>("blockBytes");
        QTest::addColumn<int>("blocks");
        // 500 samples of 5 lines, 43 + 42 + 38 + 35 + 1 bytes = 159: 79,500 bytes.
        // A blank line adds no text: it shares a block with the next line.
        QTest::newRow("blocks of a line") << 4096 << 1 << 2001;
        QTest::newRow("blocks of 1000 bytes, chunks of 333") << 333 << 1000 << 77;
        QTest::newRow("one block") << (1 << 20) << (1 << 20) << 1;
    }

    void inOrder()
    {
        QFETCH(int, step);
        QFETCH(int, blockBytes);
        QFETCH(int, blocks);
        const QByteArray text = samples(500);
        QCOMPARE(text.size(), 79500);
        TrickleDevice device(text, step);
        ChunkedFileReader input(device, LoadControl{});
        PerfBlockPipeline pipeline(input, std::size_t(blockBytes));
        int count = 0;
        QCOMPARE(drain(pipeline, &count), expectedLines(text));
        QCOMPARE(count, blocks);
        QCOMPARE(input.offset(), 79500);
        QVERIFY(!pipeline.next()); // stays at the end
    }

    // The producer's error comes after every line before it, however far
    // ahead it read.
    void errorAfterTheBlocksBefore()
    {
        const QByteArray text = samples(100) + QByteArray(3 << 19, 'x') + "\n" + samples(1);
        TrickleDevice device(text, 4096);
        ChunkedFileReader input(device, LoadControl{});
        PerfBlockPipeline pipeline(input, 64);
        const QStringList expected = expectedLines(samples(100)) + QStringList{QStringLiteral("error 15900")};
        QCOMPARE(drain(pipeline), expected);
    }

    void cancelled()
    {
        std::atomic<bool> cancel{true};
        LoadControl control;
        control.cancel = &cancel;
        TrickleDevice device(samples(10), 100);
        ChunkedFileReader input(device, control);
        PerfBlockPipeline pipeline(input, 64);
        QCOMPARE(drain(pipeline), QStringList{QStringLiteral("cancelled")});
    }

    // A reader that stops early (an error of its own) destroys the
    // pipeline while the producer waits for room or reads: it must stop.
    void stopEarly_data()
    {
        QTest::addColumn<int>("taken");
        QTest::newRow("none") << 0;
        QTest::newRow("one") << 1;
        QTest::newRow("more than in flight") << 20;
    }

    void stopEarly()
    {
        QFETCH(int, taken);
        TrickleDevice device(samples(2000), 1000);
        ChunkedFileReader input(device, LoadControl{});
        {
            PerfBlockPipeline pipeline(input, 100);
            for (int i = 0; i < taken; ++i)
                QVERIFY(pipeline.next());
        }
        QVERIFY(input.offset() > 0 || taken == 0);
    }

    // Through the loader: a malformed line, or the file's end, many blocks
    // into the file is reported where it is, with its line number.
    void laterBlock_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<qint64>("offset");
        QTest::addColumn<qint64>("line");
        QTest::addColumn<QString>("outcome");
        const QByteArray before = samples(5000); // 795,000 bytes: the error is in the fourth block
        QTest::newRow("bad header") << before + "not a header\n" + samples(10) << qint64(795000) << qint64(25001)
                                    << QStringLiteral("expected a sample header (comm [pid/]tid [cpu] secs.usecs: [period] "
                                                      "event:) but the line has no timestamp (secs.usecs:) nor event "
                                                      "(name:) after the thread, found 'not a header'");
        QTest::newRow("bad frame") << before + samples(1) + "app 10/11 [000] 9000.000001: 250 cycles:u:\n\t    zz\n\n"
                                   << qint64(795000 + 159 + 43) << qint64(25007)
                                   << QStringLiteral("expected a frame line (address symbol (dso)) or a blank line, found 'zz'");
        QTest::newRow("cut") << before + "app 10/11 [000] 9000.000001: 250 cycles:u:\n\t    401000 leaf_0+0x10 (/usr/bi"
                             << qint64(-1) << qint64(-1)
                             << QStringLiteral("the file ends inside line 25002 (sample #5001); that sample is left out");
    }

    void laterBlock()
    {
        QFETCH(QByteArray, text);
        QFETCH(qint64, offset);
        QFETCH(qint64, line);
        QFETCH(QString, outcome);
        const LoadResult result = loadText(text);
        if (offset < 0) {
            QVERIFY(result.ok());
            QCOMPARE(result.profile->diagnostics().warningCount(), 1u);
            QCOMPARE(QString::fromStdString(result.profile->diagnostics().examples().at(0)), outcome);
            return;
        }
        QVERIFY(!result.ok());
        QCOMPARE(result.error.byteOffset, offset);
        QCOMPARE(result.error.line, line);
        QCOMPARE(QString::fromStdString(result.error.message), outcome);
    }
};

QTEST_GUILESS_MAIN(TestPerfBlockPipeline)
#include "tst_perfblockpipeline.moc"
