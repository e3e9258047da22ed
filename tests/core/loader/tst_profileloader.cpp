#include "gzipsupport.h"
#include "testsupport.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

#include <thread>

using namespace runlane;
using runlane::test::writeTemp;
using runlane::test::dataPath;
using runlane::test::loadText;

namespace {

// A Chrome trace of `count` nested X events, about 70 bytes each.
QByteArray bigTrace(int count)
{
    QByteArray json = "[";
    for (int i = 0; i < count; ++i) {
        json += "{\"ph\":\"X\",\"name\":\"n" + QByteArray::number(i % 97) + "\",\"pid\":1,\"tid\":1,\"ts\":"
            + QByteArray::number(i * 10) + ",\"dur\":5},\n";
    }
    json.chop(2);
    json += "]";
    return json;
}

// `data` written into a FIFO by another thread while the loader reads it.
LoadResult loadThroughPipe(const QByteArray& data)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("pipe.json"));
    if (::mkfifo(QFile::encodeName(path).constData(), 0600) != 0)
        return {};
    std::thread writer([&] {
        QFile out(path);
        if (out.open(QIODevice::WriteOnly))
            out.write(data);
    });
    LoadResult r = ProfileLoader::load(path);
    writer.join();
    return r;
}

} // namespace

class TestProfileLoader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void progressIsReportedPerChunk()
    {
        QTemporaryDir dir;
        const QByteArray data = bigTrace(60000);
        QVERIFY(data.size() > 3 * (1 << 20));
        const QString path = writeTemp(dir, data);
        std::vector<std::pair<std::int64_t, std::int64_t>> calls;
        LoadControl control;
        control.progress = [&calls](std::int64_t done, std::int64_t total) { calls.emplace_back(done, total); };
        const LoadResult r = ProfileLoader::load(path, control);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(r.profile->intervalCount(), std::size_t(60000));
        // One call per 1 MiB chunk after the first read, and one at the end.
        const std::int64_t chunks = (data.size() - 256 * 1024 + (1 << 20) - 1) / (1 << 20);
        QCOMPARE(std::int64_t(calls.size()), chunks + 1);
        for (std::size_t i = 1; i < calls.size(); ++i)
            QVERIFY(calls[i].first >= calls[i - 1].first);
        QCOMPARE(calls.back().first, std::int64_t(data.size()));
        QCOMPARE(calls.back().second, std::int64_t(data.size()));
    }

    void cancelStopsTheLoad()
    {
        QTemporaryDir dir;
        const QString path = writeTemp(dir, bigTrace(60000));
        std::atomic<bool> cancel{false};
        int calls = 0;
        LoadControl control;
        control.cancel = &cancel;
        control.progress = [&](std::int64_t, std::int64_t) {
            ++calls;
            cancel = true;
        };
        const LoadResult r = ProfileLoader::load(path, control);
        QVERIFY(!r.ok());
        QVERIFY(r.error.cancelled);
        QCOMPARE(QString::fromStdString(r.error.message), QStringLiteral("loading was cancelled"));
        QCOMPARE(calls, 1);
    }

    void fileSystemErrors_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing") << "missing" << "no such file";
        QTest::newRow("directory") << "directory" << "this is a directory, not a profile file";
        QTest::newRow("empty") << "empty" << "the file is empty";
        QTest::newRow("binary") << "binary" << "the file holds binary data (byte 0x7f at offset 0), not a JSON profile";
    }

    void fileSystemErrors()
    {
        QFETCH(QString, what);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QString path = dir.filePath(what);
        if (what == QStringLiteral("directory"))
            QVERIFY(QDir(dir.path()).mkdir(what));
        else if (what == QStringLiteral("empty"))
            path = writeTemp(dir, QByteArray());
        else if (what == QStringLiteral("binary"))
            path = writeTemp(dir, QByteArray("\x7f" "ELF\x02\x01\x01\0\0\0", 10));
        const LoadResult r = ProfileLoader::load(path);
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error.message), message);
        QCOMPARE(QString::fromStdString(r.error.file), path);
        QCOMPARE(QString::fromStdString(r.error.toString()), path + QStringLiteral(": ") + message);
    }

    void unreadableFile()
    {
        if (geteuid() == 0)
            QSKIP("root reads files whatever their permissions");
        QTemporaryDir dir;
        const QString path = writeTemp(dir, bigTrace(3));
        QVERIFY(::chmod(QFile::encodeName(path).constData(), 0) == 0);
        const LoadResult r = ProfileLoader::load(path);
        QVERIFY(!r.ok());
        QVERIFY2(QString::fromStdString(r.error.message).startsWith(QStringLiteral("cannot open the file: ")),
                 r.error.message.c_str());
    }

    // A pipe cannot seek back: the first bytes read to detect the format
    // must be reused.
    void namedPipe()
    {
        const LoadResult r = loadThroughPipe(bigTrace(20000));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(r.profile->intervalCount(), std::size_t(20000));
    }

    void fileRemovedWhileOpen()
    {
        // The loader reads through its open handle; the name may go away.
        QTemporaryDir dir;
        const QString path = writeTemp(dir, bigTrace(40000));
        LoadControl control;
        bool removed = false;
        control.progress = [&](std::int64_t, std::int64_t) {
            if (!removed)
                removed = QFile::remove(path);
        };
        const LoadResult r = ProfileLoader::load(path, control);
        QVERIFY(removed);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(r.profile->intervalCount(), std::size_t(40000));
    }

    // A gzip-compressed file loads as its text does, whatever the format
    // (detected from the decompressed bytes) and on either JSON path.
    void gzipLoadsAsItsText_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("chrome") << "samples/chrome-trace/catapult/x_event_trace.json";
        QTest::newRow("chrome, large") << "samples/chrome-trace/catapult/multiple_input_latency.json";
        QTest::newRow("enso") << "profiles/enso-async.json";
        QTest::newRow("chronos") << "profiles/chronos-states.json";
        QTest::newRow("chroprof") << "profiles/chroprof-snapshots.json";
        QTest::newRow("folded") << "samples/folded/perf-vertx-stacks-01-collapsed-all.txt";
        QTest::newRow("speedscope") << "samples/speedscope/0.6.0_two-sampled.speedscope.json";
    }
    void gzipLoadsAsItsText()
    {
        QFETCH(QString, file);
        QFile in(dataPath(file));
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray text = in.readAll();
        QTemporaryDir dir;
        // The name says nothing: detection is by content.
        const QString path = writeTemp(dir, runlane::test::gzip(text), QStringLiteral("profile.json"));
        const LoadResult plain = ProfileLoader::load(dataPath(file));
        const LoadResult compressed = ProfileLoader::load(path);
        QVERIFY2(plain.ok(), plain.error.toString().c_str());
        QVERIFY2(compressed.ok(), compressed.error.toString().c_str());
        const Profile& a = *plain.profile;
        const Profile& b = *compressed.profile;
        QCOMPARE(b.formatName(), a.formatName());
        QCOMPARE(b.startTime(), a.startTime());
        QCOMPARE(b.endTime(), a.endTime());
        QCOMPARE(b.trackCount(), a.trackCount());
        QCOMPARE(b.labelCount(), a.labelCount());
        QCOMPARE(b.measurementCount(), a.measurementCount());
        QCOMPARE(b.intervalCount(), a.intervalCount());
        for (IntervalId i = 0; i < a.intervalCount(); ++i) {
            QCOMPARE(b.interval(i).start, a.interval(i).start);
            QCOMPARE(b.interval(i).end, a.interval(i).end);
        }
        QCOMPARE(b.snapshots().size(), a.snapshots().size());
        QCOMPARE(b.diagnostics().warningCount(), a.diagnostics().warningCount());
    }

    // Progress of a compressed file is by compressed bytes read, up to the
    // file's size: the decompressed size is not known until the end.
    void gzipProgressCountsCompressedBytes()
    {
        QTemporaryDir dir;
        const QByteArray text = bigTrace(200000);
        const QByteArray data = runlane::test::gzip(text);
        const QString path = writeTemp(dir, data);
        std::vector<std::pair<std::int64_t, std::int64_t>> calls;
        LoadControl control;
        control.progress = [&calls](std::int64_t done, std::int64_t total) { calls.emplace_back(done, total); };
        const LoadResult r = ProfileLoader::load(path, control);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(r.profile->intervalCount(), std::size_t(200000));
        QVERIFY(calls.size() >= 3);
        for (std::size_t i = 0; i < calls.size(); ++i) {
            QCOMPARE(calls[i].second, std::int64_t(data.size()));
            QVERIFY(calls[i].first <= calls[i].second);
            if (i > 0)
                QVERIFY(calls[i].first >= calls[i - 1].first);
        }
        QCOMPARE(calls.back().first, std::int64_t(data.size()));
    }

    void gzipThroughAPipe()
    {
        const LoadResult r = loadThroughPipe(runlane::test::gzip(bigTrace(20000)));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(r.profile->intervalCount(), std::size_t(20000));
    }

    // A cut or corrupt stream says so, not what the parser made of the
    // text it cut; positions in the text are said to be in the text.
    void gzipErrors_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QString>("message");
        const QByteArray trace = bigTrace(20000);
        const QByteArray whole = runlane::test::gzip(trace);
        const qsizetype cut = whole.size() / 2;
        QTest::newRow("cut") << whole.left(cut)
                             << QStringLiteral("read error: the gzip stream is cut short: it ends after %1 compressed bytes, "
                                               "in the middle of its data (an incomplete download or copy?)")
                                    .arg(cut);
        QTest::newRow("header only") << whole.left(12)
                                     << QStringLiteral("read error: the gzip stream is cut short: it ends after 12 "
                                                       "compressed bytes, in the middle of its data (an incomplete "
                                                       "download or copy?)");
        QByteArray crc = whole;
        crc[crc.size() - 8] = char(crc[crc.size() - 8] ^ 0x55);
        QTest::newRow("crc") << crc
                             << QStringLiteral("read error: the gzip data is corrupt at compressed byte %1: the decompressed "
                                               "data does not match the CRC-32 or the length in the gzip trailer")
                                    .arg(crc.size());
        QTest::newRow("syntax") << runlane::test::gzip("[{\"ph\":\"X\",\n \"ts\": x}]")
                                << QStringLiteral("line 2, column 8 (byte 19) of the decompressed text, event #0: ");
    }
    void gzipErrors()
    {
        QFETCH(QByteArray, data);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString path = writeTemp(dir, data);
        const LoadResult r = ProfileLoader::load(path);
        QVERIFY(!r.ok());
        QVERIFY(r.error.compressed);
        const QString text = QString::fromStdString(r.error.toString());
        if (message.endsWith(QStringLiteral(": ")))
            QVERIFY2(text.startsWith(path + QStringLiteral(": ") + message), qPrintable(text));
        else
            QCOMPARE(QString::fromStdString(r.error.message), message);
    }

    void sourceFileIsNotModified()
    {
        const QString path = dataPath("profiles/enso-async.json");
        const QFileInfo before(path);
        QVERIFY(ProfileLoader::load(path).ok());
        const QFileInfo after(path);
        QCOMPARE(after.lastModified(), before.lastModified());
        QCOMPARE(after.size(), before.size());
    }
};

QTEST_GUILESS_MAIN(TestProfileLoader)
#include "tst_profileloader.moc"
