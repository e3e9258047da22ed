#include "core/formats/perfetto/perfettoencoder.h"
#include "core/formats/perfetto/samplecounter.h"
#include "formatregistry.h"
#include "perfettoformat.h"
#include "profileloader.h"
#include "testsupport.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <atomic>

using namespace runlane;
using namespace runlane::test::perfetto;
using runlane::test::dataPath;
using runlane::test::ProtoEncoder;
using runlane::test::qstr;
using runlane::test::readAll;

namespace {

LoadResult loadBytes(const QByteArray& bytes)
{
    QTemporaryDir dir;
    const QString path = runlane::test::writeTemp(dir, bytes, QStringLiteral("trace.pftrace"));
    return ProfileLoader::load(path, {}, FormatRegistry::find("perfetto"));
}

QString timeText(Time t)
{
    return t == kTimeMax ? QStringLiteral("open") : QString::number(t);
}

// The profile as text: per track its intervals (label@start-end, "^d" at
// depth d, "[task]" for an async task), then counters, marks, flows, the
// measurements' args and the warnings' kinds with their counts.
QString describe(const Profile& p)
{
    QStringList out;
    for (TrackId t = 0; t < p.trackCount(); ++t) {
        const Track& track = p.track(t);
        QString line = qstr(p.string(track.name)) + (track.kind == TrackKind::Async ? " (async):" : ":");
        for (IntervalId i = track.begin; i < track.end; ++i) {
            const Interval& iv = p.interval(i);
            const Measurement& m = p.measurement(iv.measurement);
            line += " " + qstr(p.labelText(m.label)) + "@" + timeText(iv.start) + "-" + timeText(iv.end);
            if (p.depthOf(i) > 0)
                line += "^" + QString::number(p.depthOf(i));
            if (m.isAsync())
                line += "[task]";
        }
        out << line;
    }
    for (const CounterSeries& c : p.counters()) {
        QString line = "counter " + qstr(p.string(c.name)) + ":";
        for (std::size_t i = 0; i < c.times.size(); ++i)
            line += " " + QString::number(c.times[i]) + "=" + QString::number(c.values[i]);
        out << line;
    }
    for (const Mark& m : p.marks())
        out << "mark " + qstr(p.string(m.name)) + "@" + QString::number(m.time)
                + (m.detail != kEmptyString ? " " + qstr(p.string(m.detail)) : QString());
    for (const Flow& f : p.flows())
        out << "flow " + qstr(p.labelText(p.measurement(p.interval(f.from).measurement).label)) + "->"
                + qstr(p.labelText(p.measurement(p.interval(f.to).measurement).label));
    for (const Profile::Args& a : p.args())
        out << "args " + qstr(p.labelText(p.measurement(a.measurement).label)) + " " + qstr(p.string(a.json));
    for (const auto& [kind, count] : p.diagnostics().warningKinds())
        out << "warning " + qstr(kind) + " x" + QString::number(count);
    return out.join('\n');
}

// Sequence 1's thread 10/11 "main" (uuid 1) in process 10 "app" (uuid 100).
ProtoEncoder app()
{
    return processTrack(100, 10, "app");
}
ProtoEncoder mainThread()
{
    return threadTrack(1, 10, 11, "main", 100);
}

ProtoEncoder internedNames(std::initializer_list<std::pair<std::uint64_t, QByteArray>> names, std::uint64_t flags)
{
    ProtoEncoder interned;
    for (const auto& [iid, name] : names)
        interned.message(2, eventName(iid, name));
    return onSequence(1).varint(13, flags).message(12, interned);
}

// An event on the main thread named by interning id `iid` (none if 0).
ProtoEncoder byIid(std::uint64_t ts, std::uint64_t type, std::uint64_t iid, std::uint64_t flags = NeedsState)
{
    ProtoEncoder body;
    body.varint(11, 1);
    if (iid)
        body.varint(10, iid);
    return trackEvent(ts, type, body).varint(13, flags);
}

} // namespace

class TstPerfettoReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Each sample with its exact counts, and a second reading of the same
    // file by the test's own decoder (SampleCounter) that must agree.
    void samples_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("slices");
        QTest::addColumn<int>("instants");
        QTest::addColumn<int>("counterValues");
        QTest::addColumn<int>("tracks");
        QTest::addColumn<int>("counters");
        QTest::addColumn<int>("flows");
        QTest::addColumn<QString>("notRead");
        QTest::newRow("tokio tracing-perfetto")
            << "perfetto/tokio-tracing-perfetto.pftrace" << 227 << 8 << 0 << 9 << 0 << 0 << QString();
        QTest::newRow("generated SDK-like") << "perfetto/generated-sdk-like.pftrace" << 7 << 1 << 4 << 3 << 1 << 1
                                             << QString();
        QTest::newRow("systing eBPF")
            << "perfetto/systing-ebpf.perfetto-trace" << 0 << 0 << 0 << 0 << 0 << 0
            << "355 perf_sample packets, 118 process_tree packets, 44 ftrace_events packets not read (Runlane reads "
               "track events, their tracks and clocks)";
        QTest::newRow("Android GPU counters")
            << "perfetto/android-gpu-counters.perfetto" << 0 << 0 << 0 << 0 << 0 << 0
            << "10 gpu_counter_event packets, 1 trace_config packet, 1 trace_stats packet, 1 system_info packet not "
               "read (Runlane reads track events, their tracks and clocks)";
    }

    void samples()
    {
        QFETCH(QString, file);
        QFETCH(int, slices);
        QFETCH(int, instants);
        QFETCH(int, counterValues);
        QFETCH(int, tracks);
        QFETCH(int, counters);
        QFETCH(int, flows);
        QFETCH(QString, notRead);
        const SampleCounts second = SampleCounter::count(readAll(dataPath(file)));
        QCOMPARE(second.slices, slices);
        QCOMPARE(second.instants, instants);
        QCOMPARE(second.counterValues, counterValues);
        QCOMPARE(int(second.threadTracks + second.otherTracks), tracks);
        QCOMPARE(int(second.counterTracks), counters);
        QCOMPARE(second.flows, flows);

        const FormatRegistry::Detection detected = ProfileLoader::detect(dataPath(file));
        QCOMPARE(detected.format, FormatRegistry::find("perfetto"));
        const LoadResult r = ProfileLoader::load(dataPath(file));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(int(p.measurementCount()), slices);
        QCOMPARE(int(p.intervalCount()), slices);
        QCOMPARE(int(p.marks().size()), instants);
        QCOMPARE(int(p.trackCount()), tracks);
        QCOMPARE(int(p.counters().size()), counters);
        int points = 0;
        for (const CounterSeries& c : p.counters())
            points += int(c.times.size());
        QCOMPARE(points, counterValues);
        QCOMPARE(int(p.flows().size()), flows);
        QCOMPARE(qstr(p.diagnostics().firstMessage("packets not read")), notRead);
    }

    // The tokio sample's threads, named as Perfetto names them, and
    // threads although each is described only after its first event.
    void tokioThreads()
    {
        const LoadResult r = ProfileLoader::load(dataPath("perfetto/tokio-tracing-perfetto.pftrace"));
        QVERIFY(r.ok());
        QStringList names;
        for (const Track& t : r.profile->tracks())
            names << qstr(r.profile->string(t.name)) + (t.kind == TrackKind::Thread ? " " : " (not a thread) ")
                    + QString::number(t.end - t.begin);
        QCOMPARE(names.join(", "),
                 "pid 1605085 / tokio-runtime-worker-7 47, pid 1605085 / tokio-runtime-worker-6 5, "
                 "pid 1605085 / tokio-runtime-worker-5 22, pid 1605085 / tokio-runtime-worker-4 4, "
                 "pid 1605085 / tokio-runtime-worker-3 12, pid 1605085 / tokio-runtime-worker-2 12, "
                 "pid 1605085 / tokio-runtime-worker-1 104, pid 1605085 / tokio-runtime-worker-0 8, pid 1605085 / main 13");
        QCOMPARE(r.profile->diagnostics().warningCount(), 0u);
    }

    // The generated SDK-like trace (tests/data/perfetto/SOURCES.md) whole:
    // incremental microsecond clocks on three sequences, a reset that gives
    // name 1 to another event, an async track, a counter, a flow.
    void generatedTrace()
    {
        const LoadResult r = ProfileLoader::load(dataPath("perfetto/generated-sdk-like.pftrace"));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(describe(*r.profile),
                 "server / main: handle@5000100000-5000300000 handle again@5000400000-5000600000 "
                 "parse@5000150000-5000250000^1\n"
                 "server / worker: compute@5000350000-5000500000\n"
                 "requests (async): request 1@5000050000-5000400000[task] request 2@5000500000-5000650000[task] "
                 "db query@5000150000-5000350000^1\n"
                 "counter queue depth: 5000650000=1 5000750000=3 5000850000=2 5001050000=0\n"
                 "mark tick@5000260000\n"
                 "flow handle->compute");
    }

    void handBuilt_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        QTest::newRow("slices nest by begin and end order")
            << trace({app(), mainThread(), slice(10, SliceBegin, 1, "outer"), slice(20, SliceBegin, 1, "inner"),
                      slice(30, SliceEnd, 1), slice(35, Instant, 1, "tick"), slice(40, SliceEnd, 1)})
            << "app / main: outer@10-40 inner@20-30^1\nmark tick@35";
        QTest::newRow("equal timestamps in stream order")
            << trace({app(), mainThread(), slice(10, SliceBegin, 1, "a"), slice(10, SliceBegin, 1, "b"),
                      slice(20, SliceEnd, 1), slice(20, SliceBegin, 1, "c"), slice(30, SliceEnd, 1),
                      slice(30, SliceEnd, 1)})
            << "app / main: a@10-30 b@10-20^1 c@20-30^1";
        QTest::newRow("interned names")
            << trace({app(), mainThread(), internedNames({{1, "alpha"}, {2, "beta"}}, Cleared | NeedsState),
                      byIid(10, SliceBegin, 1), byIid(20, SliceBegin, 2), byIid(30, SliceEnd, 0),
                      byIid(40, SliceEnd, 0)})
            << "app / main: alpha@10-40 beta@20-30^1";
        QTest::newRow("a reset mid-sequence replaces the interned names")
            << trace({app(), mainThread(), internedNames({{1, "alpha"}, {2, "beta"}}, Cleared | NeedsState),
                      byIid(10, SliceBegin, 1), byIid(20, SliceEnd, 0),
                      internedNames({{1, "gamma"}}, Cleared | NeedsState), byIid(30, SliceBegin, 1),
                      byIid(40, SliceEnd, 0), byIid(50, SliceBegin, 2), byIid(60, SliceEnd, 0)})
            << "app / main: alpha@10-20 gamma@30-40 (empty)@50-60\nwarning undefined interned name x1";
        QTest::newRow("an unknown interning id")
            << trace({app(), mainThread(), byIid(10, Instant, 7)})
            << "app / main:\nmark @10\nwarning undefined interned name x1";
        // BOOTTIME 1,000,000 ns = clock 64 at 500 units of 1,000 ns; the
        // packets' timestamps are deltas in those units.
        const ProtoEncoder snapshot = onSequence(1).varint(13, Cleared).message(
            6, ProtoEncoder()
                   .message(1, ProtoEncoder().varint(1, 6).varint(2, 1000000))
                   .message(1, ProtoEncoder().varint(1, 64).varint(2, 500).varint(3, 1).varint(4, 1000)));
        const ProtoEncoder defaults64 = onSequence(1).message(59, ProtoEncoder().varint(58, 64));
        QTest::newRow("an incremental clock")
            << trace({app(), mainThread(), snapshot, defaults64, slice(10, SliceBegin, 1, "a"),
                      slice(5, SliceEnd, 1), slice(0, Instant, 1, "same")})
            << "app / main: a@1010000-1015000\nmark same@1015000";
        QTest::newRow("an incremental clock restarts at its next snapshot")
            << trace({app(), mainThread(), snapshot, defaults64, slice(10, SliceBegin, 1, "a"),
                      slice(5, SliceEnd, 1), snapshot, defaults64, slice(1, Instant, 1, "after")})
            << "app / main: a@1010000-1015000\nmark after@1001000";
        QTest::newRow("a timestamp on a clock no snapshot knows is dropped")
            << trace({app(), mainThread(), slice(10, SliceBegin, 1, "a"),
                      slice(15, Instant, 1, "lost").varint(58, 12), slice(20, SliceEnd, 1)})
            << "app / main: a@10-20\nwarning unknown clock x1";
        QTest::newRow("a global clock through a snapshot")
            << trace({app(), mainThread(),
                      onSequence(2).message(6, ProtoEncoder()
                                                   .message(1, ProtoEncoder().varint(1, 6).varint(2, 5000))
                                                   .message(1, ProtoEncoder().varint(1, 1).varint(2, 100))),
                      slice(130, Instant, 1, "realtime").varint(58, 1)})
            << "app / main:\nmark realtime@5030";
        QTest::newRow("a compressed run of packets")
            << trace({app(), compressed({mainThread(), slice(10, SliceBegin, 1, "zipped")}),
                      slice(20, SliceEnd, 1)})
            << "app / main: zipped@10-20";
        QTest::newRow("compressed packets inside compressed packets")
            << trace({app(), mainThread(), compressed({compressed({slice(10, Instant, 1, "deep")})})})
            << "app / main:\nmark deep@10";
        QTest::newRow("a zstd-compressed run of packets")
            << trace({app(), zstdCompressed({mainThread(), slice(10, SliceBegin, 1, "squeezed")}),
                      slice(20, SliceEnd, 1)})
            << "app / main: squeezed@10-20";
        QTest::newRow("zstd inside deflate inside zstd")
            << trace({app(), mainThread(), zstdCompressed({compressed({zstdCompressed({slice(10, Instant, 1, "deep")})})})})
            << "app / main:\nmark deep@10";
        QTest::newRow("previous_packet_dropped skips what needs the lost state until the next reset")
            << trace({app(), mainThread(), internedNames({{1, "alpha"}}, Cleared | NeedsState),
                      byIid(10, SliceBegin, 1).varint(42, 1), byIid(20, SliceEnd, 0),
                      slice(25, Instant, 1, "no state needed"), internedNames({{1, "beta"}}, Cleared | NeedsState),
                      byIid(30, SliceBegin, 1), byIid(40, SliceEnd, 0)})
            << "app / main: beta@30-40\nmark no state needed@25\nwarning packets lost x1";
        QTest::newRow("a slice end without begin")
            << trace({app(), mainThread(), slice(5, SliceEnd, 1), slice(10, SliceBegin, 1, "a"),
                      slice(20, SliceEnd, 1), slice(25, SliceEnd, 1)})
            << "app / main: a@10-20\nwarning slice end without begin x2";
        QTest::newRow("a slice never ended ends with the profile")
            << trace({app(), mainThread(), slice(10, SliceBegin, 1, "a"), slice(20, Instant, 1, "i")})
            << "app / main: a@10-20\nmark i@20\nwarning slice never ended x1";
        QTest::newRow("the sequence's default track")
            << trace({app(), mainThread(), onSequence(1).message(59, ProtoEncoder().message(11, ProtoEncoder().varint(11, 1))),
                      trackEvent(10, SliceBegin, ProtoEncoder().bytes(23, "d")), trackEvent(20, SliceEnd, ProtoEncoder())})
            << "app / main: d@10-20";
        QTest::newRow("an event without a track")
            << trace({app(), trackEvent(10, Instant, ProtoEncoder().bytes(23, "nowhere"))})
            << "warning track event without a track x1";
        const ProtoEncoder incremental = ProtoEncoder().varint(4, 1000).varint(5, 1);
        const ProtoEncoder plain;
        QTest::newRow("counters: multiplier, incremental, int and double")
            << trace({app(), childTrack(5, 100, "bytes", &incremental), childTrack(6, 100, "load", &plain),
                      trackEvent(10, Counter, ProtoEncoder().varint(11, 5).varint(30, 2)),
                      trackEvent(20, Counter, ProtoEncoder().varint(11, 5).varint(30, 3)),
                      trackEvent(20, Counter, ProtoEncoder().varint(11, 6).fixed64(44, 0x3ff8000000000000ull))})
            << "counter bytes: 10=2000 20=5000\ncounter load: 20=1.5";
        QTest::newRow("a counter value on a thread track")
            << trace({app(), mainThread(), trackEvent(10, Counter, ProtoEncoder().varint(11, 1).varint(30, 2))})
            << "warning counter value on a track that is no counter x1";
        QTest::newRow("flow ids chain slices across threads")
            << trace({app(), mainThread(), threadTrack(2, 10, 12, "worker", 100),
                      trackEvent(10, SliceBegin, ProtoEncoder().varint(11, 1).bytes(23, "post").fixed64(47, 7)),
                      slice(20, SliceEnd, 1),
                      trackEvent(30, SliceBegin, ProtoEncoder().varint(11, 2).bytes(23, "run").fixed64(48, 7)),
                      slice(40, SliceEnd, 2)})
            << "app / main: post@10-20\napp / worker: run@30-40\nflow post->run";
        QTest::newRow("an async track: its slices are tasks")
            << trace({app(), mainThread(), childTrack(7, 100, "Loading"), slice(10, SliceBegin, 7, "load a"),
                      slice(12, SliceBegin, 7, "parse"), slice(15, SliceEnd, 7), slice(20, SliceEnd, 7),
                      slice(30, SliceBegin, 7, "load b"), slice(40, SliceEnd, 7)})
            << "Loading (async): load a@10-20[task] load b@30-40[task] parse@12-15^1";
        QTest::newRow("a field Runlane does not know after the track event")
            << trace({app(), mainThread(), slice(10, Instant, 1, "x").bytes(1001, "extension")})
            << "app / main:\nmark x@10";
        QTest::newRow("a track described after its first events")
            << trace({app(), slice(10, SliceBegin, 1, "early"), slice(20, SliceEnd, 1), mainThread(),
                      slice(30, Instant, 1, "later")})
            << "app / main: early@10-20\nmark later@30";
        QTest::newRow("a track never described is an async track")
            << trace({app(), slice(10, SliceBegin, 9, "a"), slice(20, SliceEnd, 9)})
            << "track 9 (async): a@10-20[task]\nwarning track without descriptor x1";
        QTest::newRow("an instant's debug annotations are its mark's details")
            << trace({app(), mainThread(),
                      onSequence(1).varint(13, Cleared | NeedsState).message(
                          12, ProtoEncoder()
                                  .message(3, ProtoEncoder().varint(1, 1).bytes(2, "user"))
                                  .message(29, ProtoEncoder().varint(1, 5).bytes(2, "al\"ice"))),
                      trackEvent(10, Instant,
                                 ProtoEncoder()
                                     .varint(11, 1)
                                     .bytes(23, "login")
                                     .message(4, ProtoEncoder().bytes(10, "attempt").varint(4, std::uint64_t(-3)))
                                     .message(4, ProtoEncoder().varint(1, 1).varint(17, 5))
                                     .message(4, ProtoEncoder().bytes(10, "ok").varint(2, 1))
                                     .message(4, ProtoEncoder().bytes(10, "load").fixed64(5, 0x3ff8000000000000ull))
                                     .message(4, ProtoEncoder().varint(1, 2).bytes(6, "x"))
                                     .message(4, ProtoEncoder().bytes(10, "more").message(11, ProtoEncoder().bytes(10, "k"))))
                          .varint(13, NeedsState)})
            << "app / main:\nmark login@10 {\"attempt\": -3, \"user\": \"al\\\"ice\", \"ok\": true, \"load\": 1.5, "
               "\"?\": \"x\", \"more\": \"…\"}";
        // Names inline and interned, values inline and interned, on a thread's
        // slice and an async task's; the slice inside has none.
        const ProtoEncoder annotationNames = onSequence(1).varint(13, Cleared | NeedsState).message(
            12, ProtoEncoder()
                    .message(3, ProtoEncoder().varint(1, 1).bytes(2, "url"))
                    .message(3, ProtoEncoder().varint(1, 2).bytes(2, "size"))
                    .message(29, ProtoEncoder().varint(1, 7).bytes(2, "/index.html")));
        QTest::newRow("a slice's debug annotations are its args")
            << trace({app(), mainThread(), childTrack(7, 100, "Loading"), annotationNames,
                      trackEvent(10, SliceBegin,
                                 ProtoEncoder()
                                     .varint(11, 1)
                                     .bytes(23, "fetch")
                                     .message(4, ProtoEncoder().varint(1, 1).varint(17, 7))
                                     .message(4, ProtoEncoder().varint(1, 2).varint(3, 512))
                                     .message(4, ProtoEncoder().bytes(10, "method").bytes(6, "GET")))
                          .varint(13, NeedsState),
                      slice(20, SliceBegin, 1, "parse"), slice(30, SliceEnd, 1), slice(40, SliceEnd, 1),
                      trackEvent(50, SliceBegin,
                                 ProtoEncoder()
                                     .varint(11, 7)
                                     .bytes(23, "load")
                                     .message(4, ProtoEncoder().bytes(10, "file").varint(17, 7)))
                          .varint(13, NeedsState),
                      slice(60, SliceEnd, 7)})
            << "app / main: fetch@10-40 parse@20-30^1\nLoading (async): load@50-60[task]\n"
               "args fetch {\"url\": \"/index.html\", \"size\": 512, \"method\": \"GET\"}\n"
               "args load {\"file\": \"/index.html\"}";
        QTest::newRow("packets Runlane does not read are counted")
            << trace({app(), mainThread(), onSequence(1).bytes(66, "x"), onSequence(1).bytes(66, "y"),
                      onSequence(1).bytes(9, "")})
            << "warning packets not read x1";
    }

    void handBuilt()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        const LoadResult r = loadBytes(bytes);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(describe(*r.profile), expected);
    }

    // Many packets in compressed runs, each slice read once: per row the
    // runs' codecs (z: deflate, s: zstd; "zs": zstd inside deflate), each
    // run holding `perRun` slices (begin and end packets) of its own name.
    void compressedRuns_data()
    {
        QTest::addColumn<QString>("codecs");
        QTest::addColumn<int>("perRun");
        QTest::newRow("one deflate run") << "z" << 1000;
        QTest::newRow("one zstd run") << "s" << 1000;
        QTest::newRow("three zstd runs") << "s,s,s" << 400;
        QTest::newRow("deflate and zstd runs in turn") << "z,s,z,s" << 250;
        QTest::newRow("zstd inside deflate") << "zs,zs" << 500;
    }

    void compressedRuns()
    {
        QFETCH(QString, codecs);
        QFETCH(int, perRun);
        QByteArray bytes = trace({app(), mainThread()});
        std::uint64_t ts = 0;
        for (const QString& codec : codecs.split(',')) {
            QByteArray packets;
            for (int i = 0; i < perRun; ++i) {
                packets += trace({slice(ts, SliceBegin, 1, "s" + QByteArray::number(i % 7))});
                packets += trace({slice(ts + 5, SliceEnd, 1)});
                ts += 10;
            }
            for (int k = int(codec.size()) - 1; k >= 0; --k) {
                const QByteArray squeezed = codec[k] == 's' ? zstdFrame(packets) : qCompress(packets).mid(4);
                packets = trace({onSequence(1).bytes(codec[k] == 's' ? 133 : 50, squeezed)});
            }
            bytes += packets;
        }
        const LoadResult r = loadBytes(bytes);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        const int runs = int(codecs.split(',').size());
        QCOMPARE(int(p.intervalCount()), runs * perRun);
        QCOMPARE(int(p.measurementCount()), runs * perRun);
        QCOMPARE(p.labelCount(), std::size_t(7));
        QCOMPARE(p.startTime(), Time(0));
        QCOMPARE(p.endTime(), Time(runs * perRun - 1) * 10 + 5);
        QCOMPARE(p.diagnostics().warningCount(), 0u);
    }

    // Progressive loading: slices reach the previews as they end, a preview
    // every 4096 packets at a cadence of 0 ms (the events come in time
    // order: complete up to the latest time read, or the start of the
    // slice still open), and a last one of every slice once all were read;
    // a cancel with keepPartial keeps the packets wholly read before it, as
    // a file of those packets alone loads, complete up to the same.
    void progressive()
    {
        QByteArray bytes = trace({app(), mainThread()});
        std::vector<std::int64_t> ends{std::int64_t(bytes.size())}; // packets 0 and 1 end together
        ends.insert(ends.begin(), 0);
        std::vector<bool> begins{false, false};
        for (int i = 0; i < 100000; ++i) {
            bytes += trace({slice(std::uint64_t(i) * 10, SliceBegin, 1, "s" + QByteArray::number(i % 7))});
            ends.push_back(bytes.size());
            bytes += trace({slice(std::uint64_t(i) * 10 + 5, SliceEnd, 1)});
            ends.push_back(bytes.size());
            begins.push_back(true);
            begins.push_back(false);
        }
        QTemporaryDir dir;
        const QString path = runlane::test::writeTemp(dir, bytes, QStringLiteral("trace.pftrace"));
        std::vector<std::shared_ptr<const Profile>> previews;
        LoadControl control;
        control.preview = [&previews](std::shared_ptr<const Profile> p) { previews.push_back(std::move(p)); };
        control.previewFirstMs = 0;
        control.previewEveryMs = 0;
        const LoadResult r = ProfileLoader::load(path, control, FormatRegistry::find("perfetto"));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(r.profile->intervalCount(), std::size_t(100000));
        QCOMPARE(previews.size(), std::size_t(200002 / 4096 + 1));
        const PartialLoad& last = *previews.back()->partial();
        QCOMPARE(last.eventsRead, std::uint64_t(200002));
        QCOMPARE(last.bytesRead, std::int64_t(bytes.size()));
        QCOMPARE(last.completeUpTo, Time(99999 * 10 + 5));
        QCOMPARE(previews.back()->intervalCount(), std::size_t(100000));
        previews.pop_back();
        for (std::size_t k = 0; k < previews.size(); ++k) {
            const PartialLoad& partial = *previews[k]->partial();
            QCOMPARE(partial.kind, PartialLoad::Kind::Preview);
            QCOMPARE(partial.eventsRead, std::uint64_t(4096 * (k + 1)));
            // Slice i begins at 10 i and ends at 10 i + 5: after an even
            // number of packets the last one read is an end.
            QCOMPARE(partial.completeUpTo, Time((4096 * (k + 1) - 2) / 2 - 1) * 10 + 5);
            // The slices ended in the packets before: (4096 (k + 1) - 2) / 2.
            QCOMPARE(previews[k]->intervalCount(), std::size_t((4096 * (k + 1) - 2) / 2));
        }

        std::atomic<bool> cancel{false};
        std::atomic<bool> keep{true};
        LoadControl cut;
        cut.cancel = &cancel;
        cut.keepPartial = &keep;
        cut.progress = [&cancel](std::int64_t, std::int64_t) { cancel = true; };
        const LoadResult c = ProfileLoader::load(path, cut, FormatRegistry::find("perfetto"));
        QVERIFY2(c.ok(), c.error.toString().c_str());
        const PartialLoad& partial = *c.profile->partial();
        QCOMPARE(partial.kind, PartialLoad::Kind::Cut);
        QCOMPARE(partial.bytesRead, std::int64_t(256 * 1024 + (1 << 20)));
        const std::size_t packets = std::size_t(std::upper_bound(ends.begin(), ends.end(), partial.bytesRead) - ends.begin());
        QCOMPARE(partial.eventsRead, std::uint64_t(packets));
        // The last packet kept is slice (packets - 3) / 2's begin or end.
        const Time lastSlice = Time(packets - 3) / 2;
        QCOMPARE(partial.completeUpTo, lastSlice * 10 + (begins[packets - 1] ? 0 : 5));
        QCOMPARE(c.profile->intervalCount(), std::size_t(std::count(begins.begin(), begins.begin() + std::ptrdiff_t(packets), true)));
        auto withoutWarnings = [](const Profile& p) {
            QStringList lines = describe(p).split('\n');
            lines.erase(std::remove_if(lines.begin(), lines.end(), [](const QString& l) { return l.startsWith("warning"); }),
                        lines.end());
            return lines;
        };
        const LoadResult first = loadBytes(bytes.left(ends[packets - 1]));
        QVERIFY2(first.ok(), first.error.toString().c_str());
        QCOMPARE(withoutWarnings(*c.profile), withoutWarnings(*first.profile));
    }

    // A cancel that keeps nothing ends the load at any point of it, the
    // packets read ahead on the other thread or not: the loader says
    // cancelled, whichever thread sees it first.
    void cancelled_data()
    {
        QTest::addColumn<int>("progressCalls");
        QTest::newRow("at the first chunk") << 1;
        QTest::newRow("at the second chunk") << 2;
        QTest::newRow("at the third chunk") << 3;
    }

    void cancelled()
    {
        QFETCH(int, progressCalls);
        QByteArray bytes = trace({app(), mainThread()});
        for (int i = 0; i < 100000; ++i)
            bytes += trace({slice(std::uint64_t(i) * 10, SliceBegin, 1, "s"), slice(std::uint64_t(i) * 10 + 5, SliceEnd, 1)});
        QTemporaryDir dir;
        const QString path = runlane::test::writeTemp(dir, bytes, QStringLiteral("trace.pftrace"));
        std::atomic<bool> cancel{false};
        LoadControl control;
        control.cancel = &cancel;
        int calls = 0;
        control.progress = [&](std::int64_t, std::int64_t) {
            if (++calls == progressCalls)
                cancel = true;
        };
        const LoadResult r = ProfileLoader::load(path, control, FormatRegistry::find("perfetto"));
        QVERIFY(!r.ok());
        QVERIFY(r.error.cancelled);
        QVERIFY(!r.profile);
    }

    // A file cut inside its fourth packet keeps the three before it: the
    // packets take 18, 23, 19 and 19 bytes with their framing.
    void truncated_data()
    {
        QTest::addColumn<int>("cut"); // bytes taken off the end
        QTest::addColumn<QString>("message");
        QTest::newRow("inside the fourth packet")
            << 3 << "the trace is cut short after packet 3 at byte 60: packet 4 is 17 bytes long and 14 are left; what "
                    "came before is read";
        QTest::newRow("inside the fourth packet's length")
            << 18 << "the trace is cut short after packet 3 at byte 60: the file ends inside a packet's length; what "
                     "came before is read";
    }

    void truncated()
    {
        QFETCH(int, cut);
        QFETCH(QString, message);
        const QByteArray whole =
            trace({app(), mainThread(), slice(5, SliceBegin, 1, "open"), slice(10, Instant, 1, "lost")});
        QCOMPARE(whole.size(), 79);
        const LoadResult r = loadBytes(whole.left(whole.size() - cut));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(qstr(r.profile->diagnostics().firstMessage("truncated file")), message);
        QCOMPARE(describe(*r.profile), "app / main: open@5-5\nwarning slice never ended x1\nwarning truncated file x1");
    }

    // Input that is no trace, or a trace with broken parts: a clear error,
    // or a warning and what could be read; never a crash.
    void malformed_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("error"); // the load's error, or "" if it loads
        QTest::addColumn<QString>("warning"); // kind: first message
        const QByteArray good = trace({app(), mainThread(), slice(10, Instant, 1, "kept")});
        QTest::newRow("text") << QByteArray("hello")
                              << "trace.pftrace: byte 0: not a Perfetto trace: it starts with field 13 of wire type 0, "
                                 "not a packet (field 1, length-delimited)"
                              << QString();
        QTest::newRow("garbage after the packets")
            << good + QByteArray("\x0f\x01", 2) << ""
            << "unreadable rest: the trace is unreadable after packet 3 at byte 60: field 1 has wire type 7, which a "
               "Trace never holds; the rest of the file is ignored";
        QTest::newRow("a negative length")
            << good + QByteArray("\x0a\xfe\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11) << ""
            << "unreadable rest: the trace is unreadable after packet 3 at byte 60: field 1: negative length -2; the "
               "rest of the file is ignored";
        QTest::newRow("a varint of 11 bytes")
            << good + QByteArray("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x81\x01", 12) << ""
            << "unreadable rest: the trace is unreadable after packet 3 at byte 60: field 1: a varint longer than 10 "
               "bytes; the rest of the file is ignored";
        QTest::newRow("a track event of the wrong wire type")
            << good + trace({ProtoEncoder().varint(8, 5).varint(10, 1).varint(11, 3)}) << ""
            << "malformed packet: packet 4 at byte 60 (byte 66): TracePacket field 11 is varint, not length-delimited; "
               "skipped";
        QTest::newRow("compressed packets that are no zlib")
            << good + trace({onSequence(1).bytes(50, "nonsense")}) << ""
            << "malformed packet: packet 4 at byte 60: compressed packets are not valid zlib data; skipped";
        QTest::newRow("compressed packets cut short")
            << good + trace({onSequence(1).bytes(50, qCompress(trace({slice(1, Instant, 1, "x")})).mid(4, 10))}) << ""
            << "malformed packet: packet 4 at byte 60: compressed packets are cut short; skipped";
        QTest::newRow("compressed five deep")
            << good + trace({compressed({compressed({compressed({compressed({compressed({slice(1, Instant, 1, "x")})})})})})})
            << ""
            << "malformed packet: packet 8 (compressed in the packet at byte 60): compressed packets nested more than 4 "
               "deep; skipped";
        // A zstd frame (magic, a header of no content size and a 1 KiB
        // window) whose one block is of the reserved type 3.
        const QByteArray corruptFrame("\x28\xb5\x2f\xfd\x00\x00\x07\x00\x00", 9);
        const QByteArray frame = zstdFrame(trace({slice(1, Instant, 1, "x"), slice(2, Instant, 1, "y")}));
        QTest::newRow("zstd compressed packets that are no zstd")
            << good + trace({onSequence(1).bytes(133, "nonsense")}) << ""
            << "malformed packet: packet 4 at byte 60: zstd compressed packets are not a valid zstd frame (Unknown "
               "frame descriptor); skipped";
        QTest::newRow("a corrupt zstd frame")
            << good + trace({onSequence(1).bytes(133, corruptFrame)}) << ""
            << "malformed packet: packet 4 at byte 60: zstd compressed packets are not a valid zstd frame (Data "
               "corruption detected); skipped";
        QTest::newRow("a zstd frame cut short")
            << good + trace({onSequence(1).bytes(133, frame.left(frame.size() - 3))}) << ""
            << "malformed packet: packet 4 at byte 60: zstd compressed packets are cut short; skipped";
        QTest::newRow("empty zstd compressed packets")
            << good + trace({onSequence(1).bytes(133, QByteArray())}) << ""
            << "malformed packet: packet 4 at byte 60: zstd compressed packets are cut short; skipped";
        QTest::newRow("bytes after the zstd frame")
            << good + trace({onSequence(1).bytes(133, frame + "abc")}) << ""
            << "malformed packet: packet 4 at byte 60: zstd compressed packets hold 3 bytes after their frame; skipped";
        QTest::newRow("zstd five deep")
            << good
                + trace({zstdCompressed({zstdCompressed({zstdCompressed({zstdCompressed({zstdCompressed({slice(1, Instant, 1, "x")})})})})})})
            << ""
            << "malformed packet: packet 8 (compressed in the packet at byte 60): compressed packets nested more than 4 "
               "deep; skipped";
        QTest::newRow("a parent loop") << trace({childTrack(1, 2, "a"), childTrack(2, 1, "b"), slice(1, Instant, 1, "x")})
                                       << "" << QString();
    }

    void malformed()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, error);
        QFETCH(QString, warning);
        const LoadResult r = loadBytes(bytes);
        if (!error.isEmpty()) {
            QVERIFY(!r.ok());
            QVERIFY2(qstr(r.error.toString()).contains(error), r.error.toString().c_str());
            return;
        }
        QVERIFY2(r.ok(), r.error.toString().c_str());
        if (warning.isEmpty())
            return;
        const QString kind = warning.section(": ", 0, 0);
        QCOMPARE(qstr(r.profile->diagnostics().firstMessage(kind.toStdString())), warning.section(": ", 1));
    }

    // Detection by content: a Trace's first packet, whatever the file's name.
    void probe_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("complete");
        QTest::addColumn<bool>("mine");
        const QByteArray good = trace({app(), mainThread(), slice(10, Instant, 1, "kept")});
        QTest::newRow("a trace") << good << true << true;
        QTest::newRow("a trace's prefix, cut inside a packet") << good.left(50) << false << true;
        QTest::newRow("a whole file cut inside a packet") << good.left(50) << true << true;
        QTest::newRow("pprof's sample_type first") << ProtoEncoder().message(1, ProtoEncoder().varint(1, 1).varint(2, 2)).data()
                                                  << true << false;
        QTest::newRow("field 2 first") << ProtoEncoder().message(2, app()).data() << true << false;
        QTest::newRow("JSON") << QByteArray("[{\"ph\": \"X\"}]") << true << false;
        QTest::newRow("empty") << QByteArray() << true << false;
    }

    void probe()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(bool, complete);
        QFETCH(bool, mine);
        const FormatPrefix prefix(std::string_view(bytes.constData(), std::size_t(bytes.size())), complete);
        QCOMPARE(PerfettoFormat().probe(prefix).verdict == InputFormat::Probe::Verdict::Mine, mine);
        if (complete && mine)
            QCOMPARE(FormatRegistry::detect(std::string_view(bytes.constData(), std::size_t(bytes.size())), true).format,
                     FormatRegistry::find("perfetto"));
    }
};

QTEST_GUILESS_MAIN(TstPerfettoReader)
#include "tst_perfettoreader.moc"
