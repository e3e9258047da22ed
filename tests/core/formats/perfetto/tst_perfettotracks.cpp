#include "core/formats/perfetto/perfettoencoder.h"
#include "formatregistry.h"
#include "perfettotracewriter.h"
#include "profilebuilder.h"
#include "profileloader.h"
#include "testsupport.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

using namespace runlane;
using namespace runlane::test::perfetto;
using runlane::test::asyncTasks;
using runlane::test::previewing;
using runlane::test::ProtoEncoder;
using runlane::test::qstr;
using runlane::test::taskTexts;

namespace {

// One packet of the generated trace: when it is written (`at`, its place in
// the stream), its timestamp, which task it is of (-1: a descriptor or a
// call), and whether it begins the task.
struct Packet {
    Time at;
    Time ns;
    int task;
    bool begins;
    QByteArray bytes;
};

// Process 10 "app" with its thread "main" (uuid 1) and three async tracks:
// "requests" (200), "jobs" (201) and one without a name (300, "track 300"
// as finish() names it). `count` tasks, one every 10 ns on the async
// tracks in turn (task k on the (k % 3)th), each beside a 2 ns call on
// main, in four shapes by k % 4:
//   0: [s, s + 3 + 7k % 20];
//   1: [s, s + 9 + k % 13] with a nested slice [s + 1, s + 2];
//   2: [s, s + 25];
//   3: begins at s + 5, its end (timestamp s + 1) written after the begin:
//      no length.
// The last task of each track never ends, nor does "forever" on a fourth
// async track "open" (202) at 0, the longest-lived. A task ends before the
// next one of its track begins (Perfetto nests slices on one track by
// their order).
std::vector<Packet> generate(int count)
{
    ProtoEncoder unnamed;
    unnamed.varint(1, 300).varint(5, 100);
    std::vector<Packet> packets;
    for (const ProtoEncoder& d : {processTrack(100, 10, "app"), threadTrack(1, 10, 11, "main", 100),
                                  childTrack(200, 100, "requests"), childTrack(201, 100, "jobs"), childTrack(202, 100, "open"),
                                  ProtoEncoder().varint(10, 1).message(60, unnamed)})
        packets.push_back(Packet{-1, 0, -1, false, trace({d})});
    packets.push_back(Packet{0, 0, count, true, trace({slice(0, SliceBegin, 202, "forever")})});
    for (int k = 0; k < count; ++k) {
        const Time s = 10 * Time(k);
        const std::uint64_t track = std::uint64_t(200 + (k % 3 == 2 ? 100 : k % 3));
        const QByteArray name = "task_" + QByteArray::number(k % 7);
        auto add = [&](Time at, Time ns, std::uint64_t type, std::uint64_t on, const QByteArray& sliceName, int task,
                       bool begins) {
            packets.push_back(Packet{at, ns, task, begins, trace({slice(std::uint64_t(ns), type, on, sliceName)})});
        };
        add(s, s, SliceBegin, 1, "work", -1, false);
        add(s + 2, s + 2, SliceEnd, 1, {}, -1, false);
        const bool ends = k < count - 3;
        switch (k % 4) {
        case 0:
            add(s, s, SliceBegin, track, name, k, true);
            if (ends)
                add(s + 3 + 7 * k % 20, s + 3 + 7 * k % 20, SliceEnd, track, {}, k, false);
            break;
        case 1:
            add(s, s, SliceBegin, track, name, k, true);
            add(s + 1, s + 1, SliceBegin, track, "inner", -1, false);
            add(s + 2, s + 2, SliceEnd, track, {}, -1, false);
            if (ends)
                add(s + 9 + k % 13, s + 9 + k % 13, SliceEnd, track, {}, k, false);
            break;
        case 2:
            add(s, s, SliceBegin, track, name, k, true);
            if (ends)
                add(s + 25, s + 25, SliceEnd, track, {}, k, false);
            break;
        default:
            add(s + 5, s + 5, SliceBegin, track, name, k, true);
            if (ends)
                add(s + 6, s + 1, SliceEnd, track, {}, k, false);
        }
    }
    std::stable_sort(packets.begin(), packets.end(), [](const Packet& a, const Packet& b) { return a.at < b.at; });
    return packets;
}

QByteArray traceOf(const std::vector<Packet>& packets, std::size_t count)
{
    QByteArray bytes;
    for (std::size_t i = 0; i < count; ++i)
        bytes += packets[i].bytes;
    return bytes;
}

LoadResult loadBytes(const QByteArray& bytes, const LoadControl& control = {})
{
    QTemporaryDir dir;
    const QString path = runlane::test::writeTemp(dir, bytes, QStringLiteral("trace.pftrace"));
    return ProfileLoader::load(path, control, FormatRegistry::find("perfetto"));
}

QStringList trackNames(const Profile& p)
{
    QStringList names;
    for (TrackId t = 0; t < p.trackCount(); ++t)
        names << qstr(p.string(p.track(t).name));
    return names;
}

// The tasks a preview of the first `read` packets keeps under `budget`:
// longest-lived so far first (its end, or if not read yet the latest
// time a slice began or ended at; an end before the begin is the begin),
// equal ones in the order they began.
std::set<int> keptTasks(const std::vector<Packet>& packets, std::size_t read, std::size_t budget)
{
    Time latest = kTimeMin;
    std::map<int, Time> begun;
    std::map<int, Time> ended;
    std::vector<int> order;
    for (std::size_t i = 0; i < read; ++i) {
        const Packet& p = packets[i];
        if (p.at < 0)
            continue;
        Time ns = p.ns;
        if (p.task >= 0 && p.begins) {
            begun[p.task] = ns;
            order.push_back(p.task);
        } else if (p.task >= 0) {
            ns = std::max(ns, begun.at(p.task));
            ended[p.task] = ns;
        }
        latest = std::max(latest, ns);
    }
    std::vector<std::pair<Time, std::size_t>> lives; // (life, order)
    for (std::size_t i = 0; i < order.size(); ++i) {
        const auto end = ended.find(order[i]);
        lives.emplace_back((end != ended.end() ? end->second : latest) - begun.at(order[i]), i);
    }
    std::sort(lives.begin(), lives.end(),
              [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    std::set<int> kept;
    for (std::size_t i = 0; i < std::min(budget, lives.size()); ++i)
        kept.insert(order[lives[i].second]);
    return kept;
}

} // namespace

class TestPerfettoTracks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Each preview (one every 4096 packets read) holds the async tasks the
    // packets before it make, exactly as the load of those packets alone
    // builds them (created, finished, final state, own interval, track): a
    // slice still open is a task not finished, ending with what was read;
    // nested slices are left to the final profile. Its tracks are named
    // as that load names them. Over the budget, the longest-lived so far
    // are kept and the others counted.
    void tasksInPreviews_data()
    {
        QTest::addColumn<int>("budget");
        QTest::newRow("all") << 10'000;
        QTest::newRow("budget of 100") << 100;
    }
    void tasksInPreviews()
    {
        QFETCH(int, budget);
        const int count = 3000;
        const std::vector<Packet> packets = generate(count);
        std::vector<std::shared_ptr<const Profile>> previews;
        LoadControl control = previewing(previews);
        control.previewTaskBudget = std::size_t(budget);
        const LoadResult whole = loadBytes(traceOf(packets, packets.size()), control);
        QVERIFY2(whole.ok(), whole.error.toString().c_str());
        QCOMPARE(packets.size(), std::size_t(6 + 1 + 3000 * 2 + 750 * (2 + 4 + 2 + 2) - 3));
        QCOMPARE(previews.size(), packets.size() / 4096 + 1);
        QCOMPARE(asyncTasks(*whole.profile).size(), std::size_t(count + 1));
        QCOMPARE(trackNames(*whole.profile), QStringList({"app / main", "open", "requests", "jobs", "track 300"}));
        for (std::size_t i = 0; i < previews.size(); ++i) {
            const std::size_t read = i + 1 < previews.size() ? 4096 * (i + 1) : packets.size();
            const Profile& preview = *previews[i];
            QCOMPARE(preview.partial()->eventsRead, std::uint64_t(read));
            QVERIFY(preview.partial()->holdsTasks);
            const LoadResult cut = loadBytes(traceOf(packets, read));
            QVERIFY2(cut.ok(), cut.error.toString().c_str());
            QCOMPARE(trackNames(preview), trackNames(*cut.profile));
            const auto expected = asyncTasks(*cut.profile);
            const auto shown = asyncTasks(preview);
            const std::set<int> kept = keptTasks(packets, read, std::size_t(budget));
            QCOMPARE(shown.size(), kept.size());
            QCOMPARE(preview.partial()->tasksLeftOut, std::uint64_t(expected.size() - kept.size()));
            if (kept.size() == expected.size()) {
                QCOMPARE(taskTexts(shown), taskTexts(expected));
                continue;
            }
            // Which ones: the generated task k begins at 10 k (+ 5), "forever"
            // (task `count`) at 0.
            for (const auto& [key, text] : shown) {
                QVERIFY2(kept.count(key.first == "open" ? count : int(key.second / 10)) == 1, qPrintable(text));
                QCOMPARE(text, expected.at(key));
            }
        }
    }

    // What a preview says is complete (PartialLoad::completeUpTo), in a
    // trace of 5,000 slices [10 i, 10 i + 5] on one thread, in time order,
    // with one more event after the 1,000th: the latest time read while
    // the events come in time order, but no later than a slice still open
    // or an event waiting for its track's descriptor (here the descriptor
    // comes after the 3,000th slice); nothing once one came out of order.
    // Previews after 4,096 and 8,192 packets, and at the end.
    void completeUpTo_data()
    {
        QTest::addColumn<QString>("extra");
        QTest::addColumn<QList<qint64>>("expected");
        QTest::newRow("in order") << "" << QList<qint64>{20465, 40945, 49995};
        QTest::newRow("an async slice open") << "open" << QList<qint64>{10005, 10005, 10005};
        QTest::newRow("an event waits for its track") << "waits" << QList<qint64>{10005, 40935, 49995};
        QTest::newRow("an event out of order") << "late" << QList<qint64>{kTimeMin, kTimeMin, kTimeMin};
    }
    void completeUpTo()
    {
        QFETCH(QString, extra);
        QFETCH(QList<qint64>, expected);
        QByteArray bytes = trace({processTrack(100, 10, "app"), threadTrack(1, 10, 11, "main", 100)});
        for (int i = 0; i < 5000; ++i) {
            bytes += trace({slice(std::uint64_t(i) * 10, SliceBegin, 1, "s"), slice(std::uint64_t(i) * 10 + 5, SliceEnd, 1)});
            if (i == 1000 && extra == "open")
                bytes += trace({childTrack(200, 100, "async"), slice(10005, SliceBegin, 200, "forever")});
            if (i == 1000 && extra == "waits")
                bytes += trace({slice(10005, Instant, 300, "early")});
            if (i == 3000 && extra == "waits")
                bytes += trace({childTrack(300, 100, "late")});
            if (i == 1000 && extra == "late")
                bytes += trace({slice(5, Instant, 1, "late")});
        }
        std::vector<std::shared_ptr<const Profile>> previews;
        const LoadResult r = loadBytes(bytes, previewing(previews));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(previews.size(), std::size_t(3));
        for (std::size_t k = 0; k < previews.size(); ++k)
            QCOMPARE(qint64(previews[k]->partial()->completeUpTo), expected[qsizetype(k)]);
    }

    // A trace Runlane wrote carries its tasks in notes, made whole only at
    // the end (PerfettoTracks::finishTasks): the previews then hold none and
    // say so (the lanes say they come with the whole profile).
    void notesTasksComeAtTheEnd()
    {
        ProfileBuilder b("test", "tasks");
        TrackInfo info;
        info.kind = TrackKind::Async;
        info.pid = 1;
        const TrackId track = b.addTrack(info);
        const LabelId label = b.label("task");
        for (int k = 0; k < 5000; ++k) {
            const MeasurementId m = b.addMeasurement(track, label, 10 * Time(k), kNone, AsyncMeasurement);
            // Two intervals: a task of one would be written as a plain slice.
            b.addInterval(m, 10 * Time(k), 10 * Time(k) + 3, std::uint32_t(2 * k));
            b.addInterval(m, 10 * Time(k) + 5, 10 * Time(k) + 8, std::uint32_t(2 * k + 1));
            b.finish(m, 10 * Time(k) + 8, FinalState::Completed);
        }
        const std::string bytes = PerfettoTraceWriter::toString(*b.build());
        std::vector<std::shared_ptr<const Profile>> previews;
        const LoadResult r = loadBytes(QByteArray::fromStdString(bytes), previewing(previews));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(asyncTasks(*r.profile).size(), std::size_t(5000));
        QVERIFY(previews.size() >= 2);
        for (const auto& preview : previews) {
            QVERIFY(!preview->partial()->holdsTasks);
            QCOMPARE(preview->partial()->tasksLeftOut, std::uint64_t(0));
            QCOMPARE(asyncTasks(*preview).size(), std::size_t(0));
        }
    }
};

QTEST_GUILESS_MAIN(TestPerfettoTracks)
#include "tst_perfettotracks.moc"
