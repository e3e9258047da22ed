#include "gzipsupport.h"
#include "profilebuilder.h"
#include "testsupport.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <numeric>
#include <span>
#include <set>
#include <thread>
#include <tuple>

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

// A Chrome trace for progressive loading: `units` units, each a B, an X
// inside it and its E on one of four threads, 10 µs apart (in time order,
// or the units in reverse), one event a line. Knows each event's end.
struct UnitTrace {
    QByteArray json;
    std::vector<std::int64_t> eventEnds; // the byte after each event's '}'
    std::vector<char> phases;
    std::vector<Time> times; // ns

    UnitTrace(int units, bool reversed, int first = -1)
    {
        json = "{\"traceEvents\":[\n";
        for (int u = 0; u < units && (first < 0 || int(phases.size()) < first); ++u) {
            const int k = reversed ? units - 1 - u : u;
            const QByteArray tid = QByteArray::number(1 + k % 4);
            const QByteArray ts = QByteArray::number(k * 10);
            add('B', k * 10, "{\"ph\":\"B\",\"name\":\"outer" + QByteArray::number(k % 50) + "\",\"pid\":1,\"tid\":" + tid
                    + ",\"ts\":" + ts + "}", first);
            add('X', k * 10 + 1, "{\"ph\":\"X\",\"name\":\"leaf" + QByteArray::number(k % 7) + "\",\"pid\":1,\"tid\":" + tid
                    + ",\"ts\":" + QByteArray::number(k * 10 + 1) + ",\"dur\":" + QByteArray::number(k % 5 + 1) + "}", first);
            add('E', k * 10 + 8, "{\"ph\":\"E\",\"pid\":1,\"tid\":" + tid + ",\"ts\":" + QByteArray::number(k * 10 + 8) + "}",
                first);
        }
        json += "\n]}\n";
    }
    void add(char ph, std::int64_t us, const QByteArray& event, int first)
    {
        if (first >= 0 && int(phases.size()) >= first)
            return;
        if (!phases.empty())
            json += ",\n";
        json += event;
        eventEnds.push_back(json.size());
        phases.push_back(ph);
        times.push_back(us * 1000);
    }
    // Events wholly in the first `bytes` bytes.
    std::size_t eventsIn(std::int64_t bytes) const
    {
        return std::size_t(std::upper_bound(eventEnds.begin(), eventEnds.end(), bytes) - eventEnds.begin());
    }
    // The intervals the first `events` events make once matched: every X
    // and every B (closed or not).
    std::size_t intervalsIn(std::size_t events, bool completedOnly) const
    {
        std::size_t count = 0;
        for (std::size_t i = 0; i < events; ++i)
            count += phases[i] == 'X' || phases[i] == (completedOnly ? 'E' : 'B');
        return count;
    }
    // PartialLoad::completeUpTo after the first `events` events: the
    // latest time read, but not after an open B; kTimeMin if reversed.
    Time completeUpTo(std::size_t events) const
    {
        Time latest = kTimeMin;
        Time open = kTimeMax;
        for (std::size_t i = 0; i < events; ++i) {
            if (times[i] < latest)
                return kTimeMin;
            latest = times[i];
            open = phases[i] == 'B' ? times[i] : phases[i] == 'E' ? kTimeMax : open;
        }
        return std::min(latest, open);
    }
};

// (pid, tid, label, start, end) of every interval of a profile.
std::set<std::tuple<std::int64_t, std::int64_t, std::string, Time, Time>> intervalSet(const Profile& p)
{
    std::set<std::tuple<std::int64_t, std::int64_t, std::string, Time, Time>> out;
    for (const Interval& iv : p.intervals()) {
        const Measurement& m = p.measurement(iv.measurement);
        out.emplace(p.track(m.track).pid, p.track(m.track).tid, std::string(p.labelName(m.label)), iv.start, iv.end);
    }
    return out;
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

    // Cancel reaches every step of the build, and the parts within the
    // numbering step: set as a step or part is reported, the load ends
    // cancelled, and nothing after the next check is reported.
    void cancelDuringTheBuild_data()
    {
        QTest::addColumn<QString>("at"); // a report's text
        for (const char* at : {"finishing the events read", "finishing the events read: matching begins and ends",
                               "ordering the tracks", "nesting the calls", "nesting the calls: allocating memory",
                               "numbering in creation order: the creators' depths",
                               "numbering in creation order: sorting", "numbering in creation order: renumbering",
                               "numbering in creation order: moving the measurements", "storing the measurements"})
            QTest::newRow(at) << QString::fromUtf8(at);
    }
    void cancelDuringTheBuild()
    {
        QFETCH(QString, at);
        QTemporaryDir dir;
        const QString path = writeTemp(dir, UnitTrace(200, false).json);
        std::atomic<bool> cancel{false};
        std::vector<std::string> told;
        LoadControl control;
        control.cancel = &cancel;
        control.building = [&](int, int, const char* what) {
            QVERIFY2(!cancel, what); // reported after the cancel
            told.emplace_back(what);
            if (at == QString::fromUtf8(what))
                cancel = true;
        };
        const LoadResult r = ProfileLoader::load(path, control);
        QVERIFY(!r.ok());
        QVERIFY(r.error.cancelled);
        QCOMPARE(told.back(), at.toStdString());
    }

    // A caller that can keep what was read (the viewer): a stop (keep, then
    // cancel) during the build, once the whole file was read, keeps it all:
    // the whole profile, not cut; only `abandon` (Cancel) stops the build,
    // the format's finishing pass included.
    void stopDuringTheBuild_data()
    {
        QTest::addColumn<QString>("at"); // the report the button is pressed at
        QTest::addColumn<bool>("abandon"); // Cancel (abandon, then cancel) instead of a stop
        for (const char* at : {"finishing the events read: matching begins and ends", "nesting the calls",
                               "numbering in creation order: sorting", "storing the measurements"}) {
            QTest::addRow("stop at %s", at) << QString::fromUtf8(at) << false;
            QTest::addRow("cancel at %s", at) << QString::fromUtf8(at) << true;
        }
    }
    void stopDuringTheBuild()
    {
        QFETCH(QString, at);
        QFETCH(bool, abandon);
        QTemporaryDir dir;
        const QString path = writeTemp(dir, UnitTrace(200, false).json);
        const LoadResult plain = ProfileLoader::load(path);
        QVERIFY(plain.ok());
        std::atomic<bool> cancel{false};
        std::atomic<bool> keep{false};
        std::atomic<bool> abandoned{false};
        LoadControl control;
        control.cancel = &cancel;
        control.keepPartial = &keep;
        control.abandon = &abandoned;
        control.building = [&](int, int, const char* what) {
            if (at != QString::fromUtf8(what))
                return;
            (abandon ? abandoned : keep) = true;
            cancel = true;
        };
        const LoadResult r = ProfileLoader::load(path, control);
        QVERIFY(cancel);
        QCOMPARE(r.ok(), !abandon);
        if (abandon) {
            QVERIFY(r.error.cancelled);
            return;
        }
        QVERIFY(!r.profile->partial());
        QCOMPARE(r.profile->intervalCount(), plain.profile->intervalCount());
        QCOMPARE(r.profile->measurementCount(), plain.profile->measurementCount());
    }

    void fileSystemErrors_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing") << "missing" << "no such file";
        QTest::newRow("directory") << "directory" << "this is a directory, not a profile file";
        QTest::newRow("empty") << "empty" << "the file is empty";
        QTest::newRow("binary") << "binary" << "the file holds binary data (byte 0x7f at offset 0): not a JSON profile, and its first bytes are not those of a pprof or Perfetto trace";
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

    // Progressive loading (LoadControl::preview) on either JSON path: at a
    // cadence of 0 ms, a preview every 4096 events read, each holding the
    // X events and the B/E pairs completed so far (none dropped under the
    // budget), every one of them in the final profile; and a last one once
    // every event was read, before the profile is built.
    void previewsWhileLoading_data()
    {
        QTest::addColumn<bool>("reversed");
        QTest::addColumn<bool>("gzip");
        QTest::newRow("in time order") << false << false;
        QTest::newRow("units in reverse time order") << true << false;
        QTest::newRow("gzip") << false << true;
    }
    void previewsWhileLoading()
    {
        QFETCH(bool, reversed);
        QFETCH(bool, gzip);
        const UnitTrace trace(20000, reversed);
        QVERIFY(trace.json.size() > 3 * (1 << 20));
        QTemporaryDir dir;
        const QString path = writeTemp(dir, gzip ? runlane::test::gzip(trace.json) : trace.json);
        std::vector<std::shared_ptr<const Profile>> previews;
        const LoadResult r = ProfileLoader::load(path, runlane::test::previewing(previews));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QVERIFY(!r.profile->partial());
        QCOMPARE(r.profile->intervalCount(), std::size_t(40000));
        QCOMPARE(previews.size(), std::size_t(60000 / 4096 + 1));
        const auto whole = intervalSet(*r.profile);
        std::int64_t bytes = 0;
        for (std::size_t i = 0; i + 1 < previews.size(); ++i) {
            const Profile& p = *previews[i];
            QVERIFY(p.partial());
            QCOMPARE(p.partial()->kind, PartialLoad::Kind::Preview);
            const std::size_t events = 4096 * (i + 1);
            QCOMPARE(p.partial()->eventsRead, std::uint64_t(events));
            QVERIFY(p.partial()->bytesRead >= bytes);
            bytes = p.partial()->bytesRead;
            QCOMPARE(p.partial()->totalBytes, QFileInfo(path).size());
            QCOMPARE(p.partial()->shortestKept, Time(0));
            QCOMPARE(p.partial()->completeUpTo, trace.completeUpTo(events));
            QCOMPARE(p.intervalCount(), trace.intervalsIn(events, true));
            for (const auto& interval : intervalSet(p))
                QVERIFY(whole.count(interval) == 1);
        }
        // (A gzip file this small is read whole, compressed, at once.)
        if (!gzip)
            QVERIFY(previews[previews.size() - 2]->partial()->bytesRead > previews.front()->partial()->bytesRead);
        const Profile& last = *previews.back();
        QCOMPARE(last.partial()->kind, PartialLoad::Kind::Preview);
        QCOMPARE(last.partial()->eventsRead, std::uint64_t(60000));
        QCOMPARE(last.partial()->bytesRead, QFileInfo(path).size());
        QCOMPARE(last.partial()->totalBytes, QFileInfo(path).size());
        QCOMPARE(last.partial()->completeUpTo, trace.completeUpTo(60000));
        QVERIFY(intervalSet(last) == whole);
    }

    // A load that showed no preview (read before the first was due) makes
    // no last one either: a small file's profile comes at once.
    void noLastPreviewWithoutEarlierOnes()
    {
        const UnitTrace trace(2000, false);
        QTemporaryDir dir;
        const QString path = writeTemp(dir, trace.json);
        int previews = 0;
        LoadControl control;
        control.preview = [&previews](std::shared_ptr<const Profile>) { ++previews; };
        control.previewFirstMs = 3'600'000;
        const LoadResult r = ProfileLoader::load(path, control);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(r.profile->intervalCount(), std::size_t(4000));
        QCOMPARE(previews, 0);
    }

    // Once the file is read, each step of the build is reported as it
    // begins (LoadControl::building), in order: the format's finishing
    // pass first for the formats that have one. The two longest are
    // reported again as they go, under the same step number: nesting the
    // calls as it groups the intervals by track (when the format did not
    // give them so: a trace's threads interleave, a folded file's one
    // track does not), allocates, and as the loading thread finishes a
    // track ("K of N tracks laid out": which tracks it lays out depends on
    // the cores, so K only grows) and once all are; the numbering at each
    // of its parts; a Chrome trace's finishing pass as it matches begins
    // and ends. (Their shares, "sorting: 40 %", come only after 100 ms: not
    // in a file this small.)
    void buildStepsAreReported_data()
    {
        QTest::addColumn<QString>("file"); // "" the generated trace
        QTest::addColumn<bool>("gzip");
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("tracks");
        QTest::newRow("chrome") << QString() << false << 1 << 4;
        QTest::newRow("chrome, gzip") << QString() << true << 1 << 4;
        QTest::newRow("folded") << QStringLiteral("samples/folded/alternating.txt") << false << 2 << 1;
    }
    void buildStepsAreReported()
    {
        QFETCH(QString, file);
        QFETCH(bool, gzip);
        QFETCH(int, first);
        QFETCH(int, tracks);
        QTemporaryDir dir;
        const QByteArray json = UnitTrace(200, false).json;
        const QString path = file.isEmpty() ? writeTemp(dir, gzip ? runlane::test::gzip(json) : json) : dataPath(file);
        std::vector<int> steps;
        std::vector<std::string> names;
        LoadControl control;
        control.building = [&](int step, int count, const char* what) {
            QCOMPARE(count, ProfileBuilder::kBuildSteps);
            steps.push_back(step);
            names.emplace_back(what);
        };
        const LoadResult r = ProfileLoader::load(path, control);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(int(r.profile->tracks().size()), tracks);
        // Each step's first report, then its parts'.
        std::vector<int> begun;
        std::string prefix; // the step begun last's name, then ": "
        std::map<int, std::vector<std::string>> parts;
        for (std::size_t i = 0; i < steps.size(); ++i) {
            if (begun.empty() || steps[i] != begun.back()) {
                begun.push_back(steps[i]);
                prefix = names[i] + ": ";
                continue;
            }
            QVERIFY2(names[i].starts_with(prefix), names[i].c_str());
            parts[steps[i]].push_back(names[i].substr(prefix.size()));
        }
        std::vector<int> expected(std::size_t(ProfileBuilder::kBuildSteps - first + 1));
        std::iota(expected.begin(), expected.end(), first);
        QCOMPARE(begun, expected);
        QCOMPARE(names.back(), std::string("laying out memory for the views"));
        if (first == 1) {
            QCOMPARE(names.front(), std::string("finishing the events read"));
            QCOMPARE(parts[1], std::vector<std::string>{"matching begins and ends"});
        }
        QCOMPARE(parts.size(), std::size_t(first == 1 ? 3 : 2));
        // The radix sort's parts (CreationOrder; the comparison sort, for
        // keys beyond 64 bits, merges too).
        const std::vector<std::string> numbering{"the creators' depths", "sorting", "renumbering",
                                                 "moving the measurements"};
        QCOMPARE(parts[8], numbering);
        std::vector<std::string> preparing{"allocating memory"};
        if (tracks > 1)
            preparing.insert(preparing.begin(), "grouping the intervals by track");
        QVERIFY(parts[4].size() >= preparing.size());
        QCOMPARE(std::vector<std::string>(parts[4].begin(), parts[4].begin() + std::ptrdiff_t(preparing.size())), preparing);
        QCOMPARE(parts[4].size() > preparing.size(), tracks > 1);
        int laidOut = 0;
        for (const std::string& part : std::span(parts[4]).subspan(preparing.size())) {
            const std::string tail = " of " + std::to_string(tracks) + " tracks laid out";
            QVERIFY2(part.ends_with(tail), part.c_str());
            const int k = std::stoi(part.substr(0, part.size() - tail.size()));
            QVERIFY2(k > laidOut && k <= tracks, part.c_str());
            laidOut = k;
        }
        if (tracks > 1)
            QCOMPARE(parts[4].back(), std::to_string(tracks) + " of " + std::to_string(tracks) + " tracks laid out");
    }

    // Cancel with keepPartial: the profile of every event wholly in the
    // bytes read before the cancel, as a file of exactly those events
    // loads, with a warning saying where it stopped.
    void cancelKeepsWhatWasRead_data()
    {
        QTest::addColumn<bool>("gzip");
        QTest::addColumn<std::int64_t>("cancelAt");
        QTest::newRow("at 2 MiB") << false << std::int64_t(2 << 20);
        QTest::newRow("at the first chunk") << false << std::int64_t(1);
        QTest::newRow("gzip") << true << std::int64_t(1);
    }
    void cancelKeepsWhatWasRead()
    {
        QFETCH(bool, gzip);
        QFETCH(std::int64_t, cancelAt);
        const UnitTrace trace(20000, false);
        QTemporaryDir dir;
        const QString path = writeTemp(dir, gzip ? runlane::test::gzip(trace.json) : trace.json);
        std::atomic<bool> cancel{false};
        std::atomic<bool> keep{true};
        LoadControl control;
        control.cancel = &cancel;
        control.keepPartial = &keep;
        control.progress = [&](std::int64_t done, std::int64_t) { cancel = cancel || done >= cancelAt; };
        const LoadResult r = ProfileLoader::load(path, control);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QVERIFY(r.profile->partial());
        const PartialLoad& cut = *r.profile->partial();
        QCOMPARE(cut.kind, PartialLoad::Kind::Cut);
        QCOMPARE(cut.totalBytes, QFileInfo(path).size());
        // A gzip file's bytes are compressed ones: this one is read whole
        // before its text is.
        QVERIFY(cut.bytesRead >= cancelAt && (gzip ? cut.bytesRead <= cut.totalBytes : cut.bytesRead < cut.totalBytes));
        const std::size_t events = gzip ? std::size_t(cut.eventsRead) : trace.eventsIn(cut.bytesRead);
        QVERIFY(events > 0 && events < trace.phases.size());
        QCOMPARE(cut.eventsRead, std::uint64_t(events));
        QCOMPARE(cut.completeUpTo, trace.completeUpTo(events));
        QCOMPARE(r.profile->intervalCount(), trace.intervalsIn(events, false));
        // The same as a file of those events alone.
        const QString first = writeTemp(dir, UnitTrace(20000, false, int(events)).json, QStringLiteral("first.json"));
        const LoadResult truncated = ProfileLoader::load(first);
        QVERIFY2(truncated.ok(), truncated.error.toString().c_str());
        QCOMPARE(intervalSet(*r.profile), intervalSet(*truncated.profile));
        const std::string percent = std::to_string(cut.bytesRead * 100 / cut.totalBytes);
        QCOMPARE(r.profile->diagnostics().firstMessage("load stopped"),
                 "loading was stopped at byte " + std::to_string(cut.bytesRead) + " of "
                     + std::to_string(cut.totalBytes) + " (" + percent + " %): the profile holds the events read before");
        // Without keepPartial the same cancel cancels.
        keep = false;
        cancel = false;
        const LoadResult cancelled = ProfileLoader::load(path, control);
        QVERIFY(cancelled.error.cancelled);
        // Kept, then abandoned (the user went back, or opened another file):
        // the kept part's build stops too, rather than making the next load
        // wait for it.
        std::atomic<bool> abandon{true};
        keep = true;
        cancel = false;
        control.abandon = &abandon;
        const LoadResult abandoned = ProfileLoader::load(path, control);
        QVERIFY(!abandoned.ok());
        QVERIFY(abandoned.error.cancelled);
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
