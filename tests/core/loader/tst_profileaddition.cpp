// Adding a V8 CPU profile to a trace of the same run (LoadControl::additions,
// AddedThread): where the samples go, that they are the profile's own, and
// that every failure names the added file.
#include "addedthread.h"
#include "gzipsupport.h"
#include "measurementmetrics.h"
#include "testsupport.h"

#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <tuple>

using namespace runlane;
using runlane::test::readAll;
using runlane::test::writeTemp;
using runlane::test::dataPath;

namespace {

const QString kNodeTrace = QStringLiteral("samples/node/http-async-hooks.trace.json");
const QString kNodeProfile = QStringLiteral("samples/node/http-async-hooks.cpuprofile");

// Three samples of work() from 1000 µs, the profile ending at 1040 µs.
const QByteArray kSmallProfile = JSON({"nodes": [{"id": 1, "callFrame": {"functionName": "(root)", "url": "", "lineNumber": -1}, "children": [2]},
                                                 {"id": 2, "callFrame": {"functionName": "work", "url": "file:///a.js", "lineNumber": 3}}],
                                       "startTime": 1000, "endTime": 1040, "samples": [2, 2, 2, 2], "timeDeltas": [0, 10, 10, 10]});

LoadResult loadWith(const QString& trace, const QStringList& added,
                    std::optional<ProfileAddition::Thread> thread = std::nullopt)
{
    LoadControl control;
    for (const QString& path : added)
        control.additions.push_back(ProfileAddition{path.toStdString(), thread});
    return ProfileLoader::load(trace, control);
}

// The tracks of a kind with these ids, in track order.
std::vector<TrackId> tracksOf(const Profile& p, TrackKind kind, std::int64_t pid, std::int64_t tid)
{
    std::vector<TrackId> found;
    for (TrackId t = 0; t < p.trackCount(); ++t) {
        if (p.track(t).kind == kind && p.track(t).pid == pid && p.track(t).tid == tid)
            found.push_back(t);
    }
    return found;
}

TrackId onlySamplesTrack(const Profile& p)
{
    TrackId found = kNone;
    for (TrackId t = 0; t < p.trackCount(); ++t) {
        if (p.track(t).kind == TrackKind::Samples)
            found = found == kNone ? t : kNone - 1;
    }
    return found;
}

// Every interval of a track as (depth, start, end, label text).
using Layout = std::vector<std::tuple<int, Time, Time, std::string>>;
Layout layoutOf(const Profile& p, TrackId track)
{
    Layout layout;
    for (int d = 0; d < p.track(track).depthCount(); ++d) {
        for (const Interval& iv : p.depthSlice(track, d))
            layout.emplace_back(d, iv.start, iv.end, p.labelText(p.measurement(iv.measurement).label));
    }
    return layout;
}

// Per label of a track: exec and time with children, as the rank adds them.
std::map<std::string, std::pair<Time, Time>> figuresOf(const Profile& p, TrackId track)
{
    const MeasurementMetrics metrics(p);
    std::map<std::string, std::pair<Time, Time>> figures;
    for (MeasurementId m = 0; m < p.measurementCount(); ++m) {
        if (p.measurement(m).track != track)
            continue;
        auto& [exec, total] = figures[p.labelText(p.measurement(m).label)];
        exec += metrics.exec(m);
        if (!metrics.nestedInSameLabel(m))
            total += metrics.total(m);
    }
    return figures;
}

// Two threads of pid 7 (X events of 1 µs from 1000 µs), named or not.
QByteArray twoThreads(const QByteArray& name8, int events8, int events9)
{
    QByteArray json = "[";
    if (!name8.isEmpty())
        json += "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":7,\"tid\":8,\"args\":{\"name\":\"" + name8 + "\"}},";
    for (const auto& [tid, count] : {std::pair{8, events8}, std::pair{9, events9}}) {
        for (int i = 0; i < count; ++i)
            json += "{\"ph\":\"X\",\"name\":\"t" + QByteArray::number(tid) + "\",\"pid\":7,\"tid\":" + QByteArray::number(tid)
                + ",\"ts\":" + QByteArray::number(1000 + 2 * i) + ",\"dur\":1},";
    }
    json.chop(1);
    return json + "]";
}

} // namespace

class TestProfileAddition : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The node sample: the profile's samples sit under the main thread, as
    // its own band right after the traced one, and are exactly the samples
    // of the profile loaded alone, at the same absolute times.
    void nodeTraceAndProfile()
    {
        const LoadResult merged = loadWith(dataPath(kNodeTrace), {dataPath(kNodeProfile)});
        QVERIFY2(merged.ok(), merged.error.toString().c_str());
        const LoadResult alone = ProfileLoader::load(dataPath(kNodeProfile));
        QVERIFY2(alone.ok(), alone.error.toString().c_str());
        const LoadResult trace = ProfileLoader::load(dataPath(kNodeTrace));
        QVERIFY(trace.ok());
        const Profile& p = *merged.profile;

        const std::vector<TrackId> main = tracksOf(p, TrackKind::Thread, 19372, 19372);
        const std::vector<TrackId> samples = tracksOf(p, TrackKind::Samples, 19372, 19372);
        QCOMPARE(main.size(), std::size_t(1));
        QCOMPARE(samples.size(), std::size_t(1));
        QCOMPARE(samples[0], main[0] + 1);
        QCOMPARE(p.string(p.track(main[0]).name), "node / JavaScriptMainThread");
        QCOMPARE(p.string(p.track(samples[0]).name), "node / JavaScriptMainThread (samples)");
        QCOMPARE(p.trackCount(), trace.profile->trackCount() + 1);
        QCOMPARE(p.formatName(), "Chrome Trace Event Format");

        const TrackId own = onlySamplesTrack(*alone.profile);
        QVERIFY(own < alone.profile->trackCount());
        const Layout layout = layoutOf(p, samples[0]);
        QCOMPARE(layout.size(), std::size_t(2469));
        QCOMPARE(layout, layoutOf(*alone.profile, own));
        QCOMPARE(figuresOf(p, samples[0]), figuresOf(*alone.profile, own));
        // V8's clock in absolute ns on both: the first sample at startTime
        // 1420572912 µs + its delta 4331 µs, the last sample lasting until
        // endTime 1420869444 µs.
        QCOMPARE(std::get<1>(layout.front()), Time(1420577243000));
        Time last = 0;
        for (const auto& interval : layout)
            last = std::max(last, std::get<2>(interval));
        QCOMPARE(last, Time(1420869444000));
        QCOMPARE(alone.profile->startTime(), Time(1420572912000));
        // The trace's span already holds the profile's.
        QCOMPARE(p.startTime(), trace.profile->startTime());
        QCOMPARE(p.endTime(), trace.profile->endTime());
        QCOMPARE(p.diagnostics().warningCount(), trace.profile->diagnostics().warningCount());

        QCOMPARE(p.addedFiles().size(), std::size_t(1));
        QCOMPARE(p.addedFiles()[0].path, dataPath(kNodeProfile).toStdString());
        QCOMPARE(p.addedFiles()[0].format, "V8 CPU profile");
        QCOMPARE(p.addedFiles()[0].pid, 19372);
        QCOMPARE(p.addedFiles()[0].tid, 19372);
        QVERIFY(trace.profile->addedFiles().empty());
    }

    // The candidates of a loaded trace, for a picker: its traced threads.
    void candidatesOfTheNodeTrace()
    {
        const LoadResult trace = ProfileLoader::load(dataPath(kNodeTrace));
        QVERIFY(trace.ok());
        const std::vector<AddedThread::Candidate> threads = AddedThread::candidates(*trace.profile);
        QCOMPARE(threads.size(), std::size_t(1));
        QCOMPARE(threads[0].pid, 19372);
        QCOMPARE(threads[0].tid, 19372);
        QCOMPARE(threads[0].name, "node / JavaScriptMainThread");
        QCOMPARE(threads[0].threadName, "JavaScriptMainThread");
        QVERIFY(threads[0].isDefault);
        QCOMPARE(AddedThread::pick(threads), &threads[0]);
    }

    // The default thread, by the rules in order; ties to the lowest ids.
    void defaultThread_data()
    {
        QTest::addColumn<QByteArray>("trace");
        QTest::addColumn<qint64>("tid");
        QTest::newRow("named main thread") << twoThreads("CrRendererMain", 1, 5) << qint64(8);
        QTest::newRow("node's main thread") << twoThreads("JavaScriptMainThread", 1, 5) << qint64(8);
        QTest::newRow("other name: most intervals") << twoThreads("Worker", 1, 5) << qint64(9);
        QTest::newRow("most intervals") << twoThreads({}, 3, 2) << qint64(8);
        QTest::newRow("tie: lowest tid") << twoThreads({}, 2, 2) << qint64(8);
        QByteArray pidThread = twoThreads({}, 1, 5);
        pidThread.replace("\"tid\":8", "\"tid\":7");
        QTest::newRow("tid == pid") << pidThread << qint64(7);
    }
    void defaultThread()
    {
        QFETCH(QByteArray, trace);
        QFETCH(qint64, tid);
        QTemporaryDir dir;
        const LoadResult r = loadWith(writeTemp(dir, trace, QStringLiteral("trace.json")),
                                      {writeTemp(dir, kSmallProfile, QStringLiteral("small.cpuprofile"))});
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const std::vector<TrackId> samples = tracksOf(*r.profile, TrackKind::Samples, 7, tid);
        QCOMPARE(samples.size(), std::size_t(1));
        QCOMPARE(tracksOf(*r.profile, TrackKind::Thread, 7, tid)[0] + 1, samples[0]);
        QCOMPARE(layoutOf(*r.profile, samples[0]), (Layout{{0, 1000000, 1040000, "work (file:///a.js:4)"}}));
        // The picker's default is the loader's.
        const LoadResult alone = ProfileLoader::load(writeTemp(dir, trace, QStringLiteral("trace.json")));
        QVERIFY(alone.ok());
        const std::vector<AddedThread::Candidate> threads = AddedThread::candidates(*alone.profile);
        const AddedThread::Candidate* chosen = AddedThread::pick(threads);
        QVERIFY(chosen);
        QCOMPARE(chosen->tid, tid);
        QVERIFY(chosen->isDefault);
        QCOMPARE(std::count_if(threads.begin(), threads.end(), [](const auto& c) { return c.isDefault; }), 1);
    }

    // A thread the user names goes first, whatever the default.
    void explicitThread()
    {
        QTemporaryDir dir;
        const LoadResult r = loadWith(writeTemp(dir, twoThreads("CrRendererMain", 1, 5), QStringLiteral("trace.json")),
                                      {writeTemp(dir, kSmallProfile, QStringLiteral("small.cpuprofile"))},
                                      ProfileAddition::Thread{7, 9});
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QVERIFY(tracksOf(*r.profile, TrackKind::Samples, 7, 8).empty());
        const std::vector<TrackId> samples = tracksOf(*r.profile, TrackKind::Samples, 7, 9);
        QCOMPARE(samples.size(), std::size_t(1));
        QCOMPARE(r.profile->string(r.profile->track(samples[0]).name), "pid 7 / tid 9 (samples)");
        QCOMPARE(r.profile->addedFiles()[0].tid, 9);
    }

    // A thread that already has samples (DevTools recorded them) gets the
    // file's as a band of their own, named after the file; so does a
    // second profile added to one thread.
    void threadWithSamplesGetsAnotherBand()
    {
        QTemporaryDir dir;
        const QString small = writeTemp(dir, kSmallProfile, QStringLiteral("small.cpuprofile"));
        const QString again = writeTemp(dir, kSmallProfile, QStringLiteral("again.cpuprofile"));
        const LoadResult r = loadWith(writeTemp(dir, twoThreads({}, 1, 0), QStringLiteral("trace.json")), {small, again});
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const std::vector<TrackId> samples = tracksOf(*r.profile, TrackKind::Samples, 7, 8);
        QCOMPARE(samples.size(), std::size_t(2));
        QCOMPARE(test::qstr(r.profile->string(r.profile->track(samples[0]).name)), "pid 7 / tid 8 (samples)");
        QCOMPARE(test::qstr(r.profile->string(r.profile->track(samples[1]).name)), "pid 7 / tid 8 (samples: again.cpuprofile)");
        QCOMPARE(samples[1], samples[0] + 1);
        QCOMPARE(layoutOf(*r.profile, samples[1]), layoutOf(*r.profile, samples[0]));
        QCOMPARE(r.profile->addedFiles().size(), std::size_t(2));
        QCOMPARE(r.profile->addedFiles()[1].path, again.toStdString());
    }

    // Whatever goes wrong with an added file is said of that file: its
    // path, its offsets; the trace is not blamed.
    void errorsNameTheAddedFile_data()
    {
        QTest::addColumn<QByteArray>("trace");
        QTest::addColumn<QByteArray>("added");
        QTest::addColumn<qint64>("pid");
        QTest::addColumn<qint64>("tid");
        QTest::addColumn<QString>("error");
        const QByteArray trace = twoThreads("CrRendererMain", 1, 5);
        QTest::newRow("unknown thread")
            << trace << kSmallProfile << qint64(7) << qint64(3)
            << "added: the trace has no thread 7:3 (pid:tid) to add this to; its threads: 7:8 pid 7 / CrRendererMain, 7:9 "
               "pid 7 / tid 9";
        QTest::newRow("a trace")
            << trace << trace << qint64(-1) << qint64(-1)
            << "added: this is a Chrome Trace Event Format file; only V8 CPU profiles (.cpuprofile) and Enso Language Server "
               "message logs can be added to a trace";
        QTest::newRow("folded stacks")
            << trace << QByteArray("main;work 3\n") << qint64(-1) << qint64(-1)
            << "added: this is a folded stacks file; only V8 CPU profiles (.cpuprofile) and Enso Language Server "
               "message logs can be added to a trace";
        QTest::newRow("not a profile") << trace << QByteArray("hello") << qint64(-1) << qint64(-1)
                                       << "added: not a profile: expected JSON ('[' or '{') or Enso Language Server message log or folded stacks or perf "
                                          "script, found 'h' at byte 0";
        QTest::newRow("cut short") << trace << kSmallProfile.left(60) << qint64(-1) << qint64(-1)
                                   << "added: line 1, column 61 (byte 60): invalid JSON: syntax error while parsing "
                                      "object key - unexpected end of input; expected string literal";
        QTest::newRow("to a profile without threads")
            << kSmallProfile << kSmallProfile << qint64(-1) << qint64(-1)
            << "added: cannot be added to trace.json: that profile has no threads; a CPU profile is added to a trace of the "
               "same run";
    }
    void errorsNameTheAddedFile()
    {
        QFETCH(QByteArray, trace);
        QFETCH(QByteArray, added);
        QFETCH(qint64, pid);
        QFETCH(qint64, tid);
        QFETCH(QString, error);
        QTemporaryDir dir;
        const QString tracePath = writeTemp(dir, trace, QStringLiteral("trace.json"));
        const QString addedPath = writeTemp(dir, added, QStringLiteral("added"));
        std::optional<ProfileAddition::Thread> thread;
        if (pid >= 0)
            thread = ProfileAddition::Thread{pid, tid};
        const LoadResult r = loadWith(tracePath, {addedPath}, thread);
        QVERIFY(!r.ok());
        QCOMPARE(r.error.file, addedPath.toStdString());
        QCOMPARE(QString::fromStdString(r.error.toString()), dir.filePath(error));
    }

    void missingAddition()
    {
        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("none.cpuprofile"));
        const LoadResult r = loadWith(dataPath(kNodeTrace), {missing});
        QVERIFY(!r.ok());
        QCOMPARE(r.error.toString(), missing.toStdString() + ": no such file");
    }

    // The node profile cut anywhere fails with its own offset, never a crash.
    void truncatedAddition_data()
    {
        QTest::addColumn<int>("size");
        QTest::newRow("in the nodes") << 100;
        QTest::newRow("in the samples") << 138000;
        QTest::newRow("before the last brace") << 140140;
    }
    void truncatedAddition()
    {
        QFETCH(int, size);
        QTemporaryDir dir;
        const QString cut = writeTemp(dir, readAll(dataPath(kNodeProfile)).left(size), QStringLiteral("cut.cpuprofile"));
        const LoadResult r = loadWith(dataPath(kNodeTrace), {cut});
        QVERIFY(!r.ok());
        QCOMPARE(r.error.file, cut.toStdString());
        QCOMPARE(r.error.byteOffset, std::int64_t(size));
        QCOMPARE(r.error.line, std::int64_t(1));
        QCOMPARE(r.error.column, std::int64_t(size + 1));
        QVERIFY2(!r.error.message.empty(), r.error.toString().c_str());
    }

    // A gzip-compressed profile is added as its text is.
    void gzipAddition()
    {
        QTemporaryDir dir;
        const QString gz = writeTemp(dir, runlane::test::gzip(readAll(dataPath(kNodeProfile))),
                                     QStringLiteral("profile.cpuprofile.gz"));
        const LoadResult plain = loadWith(dataPath(kNodeTrace), {dataPath(kNodeProfile)});
        const LoadResult compressed = loadWith(dataPath(kNodeTrace), {gz});
        QVERIFY2(plain.ok(), plain.error.toString().c_str());
        QVERIFY2(compressed.ok(), compressed.error.toString().c_str());
        const TrackId a = onlySamplesTrack(*plain.profile);
        const TrackId b = onlySamplesTrack(*compressed.profile);
        QCOMPARE(b, a);
        QCOMPARE(layoutOf(*compressed.profile, b), layoutOf(*plain.profile, a));

        // An error in it is at an offset of the decompressed text.
        const QString cut = writeTemp(dir, runlane::test::gzip(readAll(dataPath(kNodeProfile)).left(100)),
                                      QStringLiteral("cut.cpuprofile.gz"));
        const LoadResult r = loadWith(dataPath(kNodeTrace), {cut});
        QVERIFY(!r.ok());
        QCOMPARE(r.error.file, cut.toStdString());
        QVERIFY(r.error.compressed);
        QCOMPARE(r.error.byteOffset, std::int64_t(100));
    }

    // A profile that overlaps none of the trace loads, with a warning.
    void profileOfAnotherRunWarns()
    {
        QTemporaryDir dir;
        QByteArray later = kSmallProfile;
        later.replace("\"startTime\": 1000, \"endTime\": 1040", "\"startTime\": 2501000, \"endTime\": 2501040");
        QVERIFY(later != kSmallProfile);
        const LoadResult r = loadWith(writeTemp(dir, twoThreads({}, 1, 0), QStringLiteral("trace.json")),
                                      {writeTemp(dir, later, QStringLiteral("later.cpuprofile"))});
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Diagnostics& d = r.profile->diagnostics();
        QCOMPARE(d.warningKinds().count("added profile outside the trace"), std::size_t(1));
        QCOMPARE(QString::fromStdString(d.firstMessage("added profile outside the trace")),
                 "later.cpuprofile: its samples lie 2.500 s after the trace ends and overlap none of it; recorded in "
                 "another run?");
        QCOMPARE(r.profile->endTime(), Time(2501040000));
    }
};

QTEST_GUILESS_MAIN(TestProfileAddition)
#include "tst_profileaddition.moc"
