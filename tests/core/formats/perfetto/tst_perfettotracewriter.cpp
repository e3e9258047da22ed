#include "core/formats/perfetto/perfettoencoder.h"
#include "core/formats/perfetto/samplecounter.h"
#include "core/formats/roundtriptext.h"
#include "formatregistry.h"
#include "measurementmetrics.h"
#include "perfettotracewriter.h"
#include "profileloader.h"
#include "testsupport.h"
#include "usageseries.h"

#include <QDirIterator>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

using namespace runlane;
using runlane::test::dataPath;
using runlane::test::flowTexts;
using runlane::test::qstr;
using runlane::test::rankText;
using runlane::test::perfetto::SampleCounter;
using runlane::test::perfetto::SampleCounts;

namespace {

LoadResult loadBytes(const std::string& bytes)
{
    QTemporaryDir dir;
    const QString path = runlane::test::writeTemp(dir, QByteArray::fromStdString(bytes), QStringLiteral("out.pftrace"));
    return ProfileLoader::load(path);
}

// Who created whom: each measurement as the path of labels from its root
// creator, its creation, end, state, intervals and args, sorted.
QString treeText(const Profile& p)
{
    QStringList lines;
    for (MeasurementId m = 0; m < p.measurementCount(); ++m) {
        const Measurement& mm = p.measurement(m);
        QString path = qstr(p.labelText(mm.label));
        int hops = 0;
        for (MeasurementId c = mm.creator; c != kNone && hops < 1000; c = p.measurement(c).creator, ++hops)
            path = qstr(p.labelText(p.measurement(c).label)) + " > " + path;
        QString line = path + QStringLiteral(" %1-%2 %3").arg(mm.created).arg(mm.finished).arg(qstr(finalStateName(mm.finalState())));
        for (const IntervalId id : p.intervalsOf(m))
            line += QStringLiteral(" [%1,%2)").arg(p.interval(id).start).arg(p.interval(id).end);
        if (p.argsOf(m) != kEmptyString)
            line += QStringLiteral(" args ") + qstr(p.string(p.argsOf(m)));
        lines << line;
    }
    lines.sort();
    return lines.join('\n');
}

// Exec and intervals per label of what ran: what every profile keeps,
// tasks or not (a measurement that never ran has nothing to write).
QString execText(const Profile& p)
{
    const MeasurementMetrics metrics(p);
    std::map<std::string, std::pair<Time, int>> byLabel;
    for (MeasurementId m = 0; m < p.measurementCount(); ++m) {
        if (p.intervalsOf(m).empty())
            continue;
        auto& [exec, intervals] = byLabel[p.labelText(p.measurement(m).label)];
        exec += metrics.exec(m);
        intervals += int(p.intervalsOf(m).size());
    }
    QString text;
    for (const auto& [label, v] : byLabel)
        text += qstr(label) + QStringLiteral(" %1 %2\n").arg(v.first).arg(v.second);
    return text;
}

// The usage of each thread (or sampled) track in 50 bins of `range`: per
// bin, the exec of each label (by its text: two labels of one text are one
// when read back) in ns, rounded, the tracks sorted (a sampled track is a
// thread when read back, named by its pid and tid). The labels `idle`
// names (V8's "(idle)": no busy time) are left out: Perfetto has no idle
// slices, they are busy when read back.
QStringList usageText(const Profile& p, TimeRange range, const QStringList& idle)
{
    QStringList tracks;
    const Time bin = std::max<Time>(1, (range.to - range.from) / 50);
    for (TrackId t = 0; t < p.trackCount(); ++t) {
        if (p.track(t).kind == TrackKind::Async || p.track(t).begin == p.track(t).end)
            continue;
        const UsageSeries u = UsageSeries::compute(p, t, bin, p.labelCount(), range);
        QString text;
        for (std::size_t b = 0; b < u.binCount(); ++b) {
            const TimeRange part = u.binPart(b);
            std::map<QString, double> exec;
            for (std::size_t s = 0; s < u.labels().size(); ++s) {
                const QString label = qstr(p.labelText(u.labels()[s]));
                if (!idle.contains(label))
                    exec[label] += u.share(b, s) * double(part.to - part.from);
            }
            text += QStringLiteral("%1-%2:").arg(part.from).arg(part.to);
            for (const auto& [label, ns] : exec) {
                if (std::llround(ns) != 0)
                    text += QStringLiteral(" %1=%2").arg(label).arg(std::llround(ns));
            }
            text += QLatin1Char('\n');
        }
        tracks << text;
    }
    tracks.sort();
    return tracks;
}

QStringList idleLabels(const Profile& p)
{
    QStringList out;
    for (LabelId l = 0; l < p.labelCount(); ++l) {
        if (p.isIdle(l))
            out << qstr(p.labelText(l));
    }
    return out;
}

// A plain call (created as it starts, one interval, ended as it ends or
// open), which Perfetto's slices hold whole; anything else needs
// Runlane's task notes to come back.
bool plainCall(const Profile& p, MeasurementId m)
{
    const Measurement& mm = p.measurement(m);
    const auto ivs = p.intervalsOf(m);
    return ivs.size() == 1 && mm.created == p.interval(ivs[0]).start
        && (mm.finalState() == FinalState::Completed || mm.finalState() == FinalState::Unfinished);
}

// Each measurement's async track (by name: the task lanes it is shown in;
// a thread's name comes back as Perfetto names it), flags, creator's label
// and wakes, sorted: with treeText, the tasks as the lanes show them.
QString tasksText(const Profile& p)
{
    QStringList lines;
    for (MeasurementId m = 0; m < p.measurementCount(); ++m) {
        const Measurement& mm = p.measurement(m);
        const Track& track = p.track(mm.track);
        QString line = qstr(p.labelText(mm.label))
            + QStringLiteral(" on %1, flags %2, created %3 by %4")
                  .arg(track.kind == TrackKind::Async ? qstr(p.string(track.name)) : QStringLiteral("a thread"))
                  .arg(mm.flags & ~SingleInterval)
                  .arg(mm.created)
                  .arg(mm.creator == kNone ? QStringLiteral("none") : qstr(p.labelText(p.measurement(mm.creator).label)));
        for (const Wake& w : p.wakesOf(m))
            line += QStringLiteral(" wake %1/%2").arg(w.time).arg(w.flags);
        lines << line;
    }
    lines.sort();
    return lines.join('\n');
}

} // namespace

class TstPerfettoTraceWriter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTrip_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString& dir : {QStringLiteral("samples"), QStringLiteral("profiles"), QStringLiteral("perfetto")}) {
            QDirIterator it(dataPath(dir), QDir::Files, QDirIterator::Subdirectories);
            QStringList files;
            while (it.hasNext()) {
                const QString f = it.next();
                if (!f.endsWith(QStringLiteral(".md")))
                    files << QDir(dataPath("")).relativeFilePath(f);
            }
            files.sort();
            for (const QString& f : files)
                QTest::newRow(qPrintable(f)) << f;
        }
    }

    // Load, write as Perfetto, load again. Every profile keeps its
    // intervals, each label's exec, each thread's usage, its span, its
    // marks and counters, its rank, tree, tasks (their tracks, states,
    // creators and wakes) and flows (without their names: Perfetto's have
    // none). The test's own decoder (SampleCounter) counts the written
    // slices, instants, counter values and thread tracks, and reads the
    // task notes: every measurement that is no plain call has them (task
    // id: its index + 1), with its facts, and every wake.
    void roundTrip()
    {
        QFETCH(QString, file);
        const LoadResult first = ProfileLoader::load(dataPath(file));
        if (!first.ok())
            QSKIP("not a profile Runlane reads");
        const Profile& a = *first.profile;
        if (!a.snapshots().empty())
            QSKIP("pre-aggregated metrics have no timeline to write");
        if (a.intervalCount() == 0 && a.marks().empty() && a.counters().empty())
            QSKIP("nothing to write");
        std::string error;
        const std::string bytes = PerfettoTraceWriter::toString(a, &error);
        QVERIFY2(error.empty(), error.c_str());
        const LoadResult second = loadBytes(bytes);
        QVERIFY2(second.ok(), second.error.toString().c_str());
        const Profile& b = *second.profile;
        QCOMPARE(b.formatName(), std::string_view("Perfetto trace"));
        // Only what Perfetto says of an open slice: a begin without an end.
        for (const auto& [kind, count] : b.diagnostics().warningKinds())
            QCOMPARE(qstr(kind), QStringLiteral("slice never ended"));

        const SampleCounts counts = SampleCounter::count(QByteArray::fromStdString(bytes));
        QCOMPARE(std::size_t(counts.slices), a.intervalCount());
        QCOMPARE(std::size_t(counts.instants), a.marks().size());
        std::size_t points = 0;
        std::size_t series = 0;
        for (const CounterSeries& c : a.counters()) {
            points += c.times.size();
            series += c.times.empty() ? 0 : 1;
        }
        QCOMPARE(std::size_t(counts.counterValues), points);
        QCOMPARE(counts.counterTracks, series);
        std::size_t threads = 0;
        for (TrackId t = 0; t < a.trackCount(); ++t) {
            const bool marked = std::any_of(a.marks().begin(), a.marks().end(), [t](const Mark& m) { return m.track == t; });
            threads += a.track(t).kind != TrackKind::Async && (a.track(t).begin < a.track(t).end || marked) ? 1 : 0;
        }
        QCOMPARE(counts.threadTracks, threads);
        QCOMPARE(counts.packets.at(60), counts.descriptors);
        for (const auto& [id, task] : counts.tasks) {
            QVERIFY(id >= 1 && id <= a.measurementCount());
            const Measurement& m = a.measurement(MeasurementId(id - 1));
            const std::size_t ran = a.intervalsOf(MeasurementId(id - 1)).size();
            QCOMPARE(std::size_t(task.slices), ran);
            QCOMPARE(task.instants, ran == 0 ? 1 : 0);
            QCOMPARE(task.described, 1);
            QCOMPARE(task.created, m.created);
            QCOMPARE(task.finished, m.finished);
            QCOMPARE(task.state, std::string(finalStateName(m.finalState())));
            QCOMPARE(task.creator, m.creator == kNone ? 0 : std::uint64_t(m.creator) + 1);
            QCOMPARE(task.flags, std::uint64_t(m.flags & ~SingleInterval));
        }
        for (MeasurementId m = 0; m < a.measurementCount(); ++m) {
            if (!plainCall(a, m))
                QVERIFY2(counts.tasks.count(m + 1), qPrintable(QStringLiteral("measurement %1 has no notes").arg(m)));
        }
        std::map<std::uint64_t, int> wakes;
        for (const Wake& w : a.wakes())
            ++wakes[w.task + 1];
        QCOMPARE(counts.wakes, wakes);

        QCOMPARE(b.intervalCount(), a.intervalCount());
        QCOMPARE(execText(b), execText(a));
        QCOMPARE(b.startTime(), a.startTime());
        QCOMPARE(b.endTime(), a.endTime());
        const TimeRange all{a.startTime(), a.endTime()};
        QCOMPARE(usageText(b, all, idleLabels(a)), usageText(a, all, idleLabels(a)));
        QCOMPARE(b.marks().size(), a.marks().size());
        QCOMPARE(b.counters().size(), a.counters().size());
        for (std::size_t i = 0; i < a.counters().size(); ++i) {
            const CounterSeries& c = a.counters()[i];
            const std::string name = std::string(a.string(c.name))
                + (c.key != kEmptyString ? " " + std::string(a.string(c.key)) : std::string());
            QCOMPARE(b.string(b.counters()[i].name), std::string_view(name));
            QCOMPARE(b.counters()[i].times, c.times);
            QCOMPARE(b.counters()[i].values, c.values);
        }
        QCOMPARE(rankText(b), rankText(a));
        QCOMPARE(treeText(b), treeText(a));
        QCOMPARE(tasksText(b), tasksText(a));
        QCOMPARE(flowTexts(b, false), flowTexts(a, false));
    }

    // Each name and source location is interned once, on the packet of its
    // first slice; the first packet clears the sequence's state.
    void namesAreInternedOnce()
    {
        const LoadResult r = runlane::test::loadText(JSON([{"ph": "X", "name": "handle", "ts": 0, "dur": 10,
                                                            "args": {"file": "srv.rs", "line": 7}},
                                                           {"ph": "X", "name": "handle", "ts": 20, "dur": 10,
                                                            "args": {"file": "srv.rs", "line": 7}},
                                                           {"ph": "i", "name": "handle", "ts": 40, "s": "t"}]));
        QVERIFY(r.ok());
        const QByteArray bytes = QByteArray::fromStdString(PerfettoTraceWriter::toString(*r.profile));
        QCOMPARE(bytes.count("handle"), 1);
        QCOMPARE(bytes.count("srv.rs"), 1);
        const SampleCounts counts = SampleCounter::count(bytes);
        QCOMPARE(counts.slices, 2);
        QCOMPARE(counts.instants, 1);
        QCOMPARE(counts.packets.at(11), 5); // 2 begins, 2 ends, 1 instant
        // Packet 1: field 1, a 4-byte length, trusted_packet_sequence_id 1, sequence_flags 1.
        QCOMPARE(bytes.mid(5, 4), QByteArray::fromHex("500168" "01"));
    }

    // A sampled stack is a thread of slices, named as the track was, its
    // process's name not twice.
    void sampledTrackIsAThread_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("name");
        QTest::newRow("cpuprofile") << "samples/cpuprofile/node10-example.cpuprofile" << "pid 0 / CPU profile (samples)";
        QTest::newRow("chrome") << "samples/chrome-trace/devtools-samples/firefox-chrome-trace-issue-5429.json.gz"
                                << "pid 44554 / tid 44554 (samples)";
    }
    void sampledTrackIsAThread()
    {
        QFETCH(QString, file);
        QFETCH(QString, name);
        const LoadResult r = ProfileLoader::load(dataPath(file));
        QVERIFY(r.ok());
        const LoadResult back = loadBytes(PerfettoTraceWriter::toString(*r.profile));
        QVERIFY(back.ok());
        QStringList threads;
        for (const Track& t : back.profile->tracks()) {
            if (t.kind == TrackKind::Thread)
                threads << qstr(back.profile->string(t.name));
        }
        QCOMPARE(threads, QStringList{name});
    }

    // A track its reader named as a whole (Chronos' event loop, Enso's
    // process) keeps that name as its thread's, not "tid 0"; a name that is
    // the process's is not said twice.
    void threadKeepsItsName_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("names");
        QTest::newRow("chronos") << "profiles/chronos-states.json" << QStringList{"pid 0 / node"};
        QTest::newRow("enso") << "profiles/enso-async.json" << QStringList{"Ide / tid 0", "LanguageServer / tid 0"};
    }
    void threadKeepsItsName()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, names);
        const LoadResult r = ProfileLoader::load(dataPath(file));
        QVERIFY(r.ok());
        const LoadResult back = loadBytes(PerfettoTraceWriter::toString(*r.profile));
        QVERIFY(back.ok());
        QStringList threads;
        for (const Track& t : back.profile->tracks())
            threads << qstr(back.profile->string(t.name));
        QCOMPARE(threads, names);
    }

    // The notes as another writer could give them (names inline, not
    // interned): the reader rebuilds the task from them alone, two lanes
    // with one sibling merge key are one track, and without the key (or
    // the notes) the trace reads as any Perfetto trace: each lane a track,
    // each slice a task of its own, the wake no wake.
    void notesRebuildTasks_data()
    {
        QTest::addColumn<bool>("merged");
        QTest::addColumn<bool>("noted");
        QTest::addColumn<QString>("tasks");
        QTest::newRow("notes, merge key")
            << true << true
            << "fetch on jobs: created 5, finished 40, failed, [10,20) [30,35), wakes 32/2\n"
               "never on jobs: created 45, finished 45, cancelled, by fetch\n"
               "other on jobs: created 15, finished 25, completed, [15,25)";
        QTest::newRow("notes, no merge key")
            << false << true
            << "fetch on jobs: created 5, finished 40, failed, [10,20) [30,35), wakes 32/2\n"
               "never on jobs (2): created 45, finished 45, cancelled, by fetch\n"
               "other on jobs (2): created 15, finished 25, completed, [15,25)";
        QTest::newRow("no notes")
            << false << false
            << "fetch on jobs: created 10, finished 20, completed, [10,20)\n"
               "fetch on jobs: created 30, finished 35, completed, [30,35)\n"
               "other on jobs (2): created 15, finished 25, completed, [15,25)";
    }
    void notesRebuildTasks()
    {
        using namespace runlane::test::perfetto;
        using runlane::test::ProtoEncoder;
        QFETCH(bool, merged);
        QFETCH(bool, noted);
        QFETCH(QString, tasks);
        const auto lane = [&](std::uint64_t uuid) {
            ProtoEncoder d;
            d.varint(1, uuid).varint(5, 1).bytes(2, "jobs");
            if (merged)
                d.varint(15, 3).bytes(16, "k");
            return ProtoEncoder().varint(10, 1).message(60, d);
        };
        const auto note = [&](ProtoEncoder& body, const char* name, std::uint64_t value, const char* text = nullptr) {
            if (!noted)
                return;
            ProtoEncoder a;
            a.bytes(10, name);
            if (text)
                a.bytes(6, text);
            else
                a.varint(3, value);
            body.message(4, a);
        };
        const auto event = [&](std::uint64_t ts, std::uint64_t type, std::uint64_t track, const char* name,
                               const std::function<void(ProtoEncoder&)>& notes = {}) {
            ProtoEncoder body;
            body.varint(11, track);
            if (name)
                body.bytes(23, name);
            if (notes)
                notes(body);
            return trackEvent(ts, type, body);
        };
        const auto fetchNotes = [&](ProtoEncoder& b) {
            note(b, "runlane.task", 5);
            note(b, "runlane.created", 5);
            note(b, "runlane.finished", 40);
            note(b, "runlane.state", 0, "failed");
            note(b, "runlane.flags", AsyncMeasurement);
        };
        const QByteArray bytes = trace({
            processTrack(1, 7, "app"),
            lane(2),
            lane(3),
            event(10, SliceBegin, 2, "fetch", fetchNotes),
            event(15, SliceBegin, 3, "other"),
            event(20, SliceEnd, 2, nullptr),
            event(25, SliceEnd, 3, nullptr),
            event(30, SliceBegin, 2, "fetch", [&](ProtoEncoder& b) { note(b, "runlane.task", 5); }),
            event(32, Instant, 2, "wake",
                  [&](ProtoEncoder& b) {
                      note(b, "runlane.wake", 5);
                      note(b, "runlane.wake_flags", Wake::ByRef);
                  }),
            event(35, SliceEnd, 2, nullptr),
            event(45, Instant, 3, "never",
                  [&](ProtoEncoder& b) {
                      note(b, "runlane.task", 6);
                      note(b, "runlane.created", 45);
                      note(b, "runlane.finished", 45);
                      note(b, "runlane.state", 0, "cancelled");
                      note(b, "runlane.creator", 5);
                      note(b, "runlane.flags", AsyncMeasurement);
                  }),
        });
        const LoadResult r = loadBytes(bytes.toStdString());
        QVERIFY(r.ok());
        const Profile& p = *r.profile;
        QCOMPARE(p.diagnostics().warningKinds().size(), std::size_t(0));
        QStringList lines;
        for (MeasurementId m = 0; m < p.measurementCount(); ++m) {
            const Measurement& mm = p.measurement(m);
            const Track& track = p.track(mm.track);
            const bool second = mm.track != p.measurement(0).track;
            QString line = qstr(p.labelText(mm.label)) + QStringLiteral(" on %1%2: created %3, finished %4, %5")
                                                             .arg(qstr(p.string(track.name)), second ? " (2)" : "")
                                                             .arg(mm.created)
                                                             .arg(mm.finished)
                                                             .arg(qstr(finalStateName(mm.finalState())));
            if (mm.creator != kNone)
                line += QStringLiteral(", by ") + qstr(p.labelText(p.measurement(mm.creator).label));
            if (!p.intervalsOf(m).empty())
                line += ',';
            for (const IntervalId id : p.intervalsOf(m))
                line += QStringLiteral(" [%1,%2)").arg(p.interval(id).start).arg(p.interval(id).end);
            if (!p.wakesOf(m).empty())
                line += QStringLiteral(", wakes");
            for (const Wake& w : p.wakesOf(m))
                line += QStringLiteral(" %1/%2").arg(w.time).arg(w.flags);
            lines << line;
        }
        lines.sort();
        QCOMPARE(lines.join('\n'), tasks);
        QCOMPARE(p.marks().size(), std::size_t(noted ? 0 : 2));
    }

    void negativeTimesCannotBeWritten()
    {
        const LoadResult r = runlane::test::loadText(JSON([{"ph": "X", "name": "early", "ts": -5, "dur": 10}]));
        QVERIFY(r.ok());
        std::string error;
        QCOMPARE(PerfettoTraceWriter::toString(*r.profile, &error), std::string());
        QCOMPARE(qstr(error), QStringLiteral("cannot write a Perfetto trace: its timestamps are unsigned and the "
                                             "profile has a time before 0 (-5000 ns)"));
    }

    void writeFileIsAtomic()
    {
        const LoadResult r = ProfileLoader::load(dataPath("profiles/fgh-chrome.json"));
        QVERIFY(r.ok());
        QTemporaryDir dir;
        std::string error;
        QVERIFY(PerfettoTraceWriter::writeFile(*r.profile, dir.filePath(QStringLiteral("out.pftrace")), error));
        QCOMPARE(ProfileLoader::load(dir.filePath(QStringLiteral("out.pftrace"))).profile->intervalCount(), std::size_t(3));
        QVERIFY(!PerfettoTraceWriter::writeFile(*r.profile, dir.filePath(QStringLiteral("missing/out.pftrace")), error));
        QVERIFY2(qstr(error).startsWith(QStringLiteral("cannot write ")), error.c_str());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"out.pftrace"});
    }
};

QTEST_GUILESS_MAIN(TstPerfettoTraceWriter)
#include "tst_perfettotracewriter.moc"
