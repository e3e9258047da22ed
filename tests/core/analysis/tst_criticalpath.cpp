#include "chrometracewriter.h"
#include "criticalpath.h"
#include "criticalpathbruteforce.h"
#include "profilebuilder.h"
#include "testsupport.h"

#include <QtTest>

#include <map>
#include <random>

using namespace runlane;
using namespace runlane::test;

using Kind = CriticalPath::Kind;

namespace {

// semantics.md §9's worked example as a Chronos log (ticks as ns): handler
// runs 0–10 and creates query at 5, which runs 5–8 inside it, creates the
// timer sleepAsync at 7 and pauses at 8; handler pauses at 10; the timer
// completes at 11; other runs 12–40; query resumes 40–46 and completes;
// flush runs 46–50; handler resumes 50–52 and completes.
QByteArray workedExample()
{
    return JSON({"chronosFutureEvents" : 1, "loop" : "main", "events" : [
        {"t" : 0, "id" : 1, "state" : "Pending", "proc" : "handler", "file" : "app.nim", "line" : 10},
        {"t" : 0, "id" : 1, "state" : "Running"},
        {"t" : 5, "id" : 2, "state" : "Pending", "proc" : "query", "file" : "app.nim", "line" : 20},
        {"t" : 5, "id" : 2, "state" : "Running"},
        {"t" : 7, "id" : 3, "state" : "Pending", "proc" : "sleepAsync", "file" : "app.nim", "line" : 30},
        {"t" : 8, "id" : 2, "state" : "Paused"},
        {"t" : 10, "id" : 1, "state" : "Paused"},
        {"t" : 11, "id" : 3, "state" : "Completed"},
        {"t" : 12, "id" : 4, "state" : "Pending", "proc" : "other", "file" : "app.nim", "line" : 40},
        {"t" : 12, "id" : 4, "state" : "Running"},
        {"t" : 40, "id" : 4, "state" : "Completed"},
        {"t" : 40, "id" : 2, "state" : "Running"},
        {"t" : 46, "id" : 2, "state" : "Completed"},
        {"t" : 46, "id" : 5, "state" : "Pending", "proc" : "flush", "file" : "app.nim", "line" : 50},
        {"t" : 46, "id" : 5, "state" : "Running"},
        {"t" : 50, "id" : 5, "state" : "Completed"},
        {"t" : 50, "id" : 1, "state" : "Running"},
        {"t" : 52, "id" : 1, "state" : "Completed"}
    ]});
}

std::shared_ptr<const Profile> load(const QByteArray& text)
{
    LoadResult r = loadText(text);
    if (!r.ok())
        qWarning("%s", r.error.toString().c_str());
    return r.profile;
}

QString describe(const Profile& p, const CriticalPath::Segment& s)
{
    const QString named = s.named == kNone ? QStringLiteral("-") : qstr(p.labelName(p.measurement(s.named).label));
    return QStringLiteral("%1-%2 %3 %4 (%5, depth %6)")
        .arg(s.start)
        .arg(s.end)
        .arg(qstr(CriticalPath::kindName(s.kind)), named, qstr(p.labelName(p.measurement(s.pathMeasurement).label)))
        .arg(s.depth);
}

QStringList describeAll(const Profile& p, const std::vector<CriticalPath::Segment>& segments)
{
    QStringList out;
    for (const auto& s : segments)
        out << describe(p, s);
    return out;
}

// A random Chronos loop: futures created (their first run synchronous
// inside whatever runs, or later from the loop), paused, resumed from the
// empty loop, completed, timers that never run; some left unfinished.
QByteArray randomChronos(std::uint32_t seed, int steps)
{
    std::mt19937 rng(seed);
    auto pick = [&rng](int n) { return int(rng() % std::uint32_t(n)); };
    const char* names[] = {"handler", "query", "sleepAsync", "flush", "read", "write", "other"};
    QByteArray events;
    auto add = [&events](std::int64_t t, int id, const char* state, const char* proc = nullptr) {
        if (!events.isEmpty())
            events += ",\n";
        events += QByteArrayLiteral("{\"t\":") + QByteArray::number(t) + ",\"id\":" + QByteArray::number(id)
            + ",\"state\":\"" + state + "\"";
        if (proc)
            events += QByteArrayLiteral(",\"proc\":\"") + proc + "\",\"file\":\"gen.nim\",\"line\":1";
        events += "}";
    };
    std::vector<int> stack, paused, pending;
    int next = 1;
    std::int64_t t = 0;
    for (int i = 0; i < steps; ++i) {
        t += 1 + pick(4);
        const int action = pick(10);
        if (action < 3) {
            const int id = next++;
            add(t, id, "Pending", names[pick(7)]);
            if (pick(3) != 0 && (!stack.empty() || pick(2) == 0)) {
                add(t, id, "Running");
                stack.push_back(id);
            } else {
                pending.push_back(id);
            }
        } else if (action < 5 && !stack.empty()) {
            add(t, stack.back(), "Paused");
            paused.push_back(stack.back());
            stack.pop_back();
        } else if (action < 7 && !stack.empty()) {
            add(t, stack.back(), "Completed");
            stack.pop_back();
        } else if (action < 9 && stack.empty() && !(paused.empty() && pending.empty())) {
            auto& from = (pending.empty() || (!paused.empty() && pick(2) == 0)) ? paused : pending;
            const std::size_t at = std::size_t(pick(int(from.size())));
            add(t, from[at], "Running");
            stack.push_back(from[at]);
            from.erase(from.begin() + std::ptrdiff_t(at));
        } else if (!pending.empty()) {
            // A timer: completes without ever running.
            const std::size_t at = std::size_t(pick(int(pending.size())));
            add(t, pending[at], "Completed");
            pending.erase(pending.begin() + std::ptrdiff_t(at));
        }
    }
    return QByteArrayLiteral("{\"chronosFutureEvents\":1,\"loop\":\"main\",\"events\":[") + events + "]}";
}

} // namespace

class TestCriticalPath : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // §9's example, to the tick: half of handler's 52 ticks were the loop
    // busy with other.
    void workedExample()
    {
        const auto p = load(::workedExample());
        QVERIFY(p);
        QCOMPARE(CriticalPath::sourceOf(*p), CriticalPath::WakeSource::Children);
        const CriticalPath path(*p, CriticalPath::sourceOf(*p));
        const auto segments = path.of(byName(*p, "handler"));
        const QStringList expected = {
            QStringLiteral("0-5 running handler (handler, depth 0)"),
            QStringLiteral("5-8 running query (handler, depth 0)"),
            QStringLiteral("8-10 running handler (handler, depth 0)"),
            QStringLiteral("10-11 waiting sleepAsync (sleepAsync, depth 2)"),
            QStringLiteral("11-12 idle - (query, depth 1)"),
            QStringLiteral("12-40 queued other (query, depth 1)"),
            QStringLiteral("40-46 running query (query, depth 1)"),
            QStringLiteral("46-50 queued flush (handler, depth 0)"),
            QStringLiteral("50-52 running handler (handler, depth 0)"),
        };
        QCOMPARE(describeAll(*p, segments), expected);
    }

    // The wake source is a fact the format's reader sets, not a guess
    // from the format's name or data. A Chrome trace that runlane-cli
    // converted from a tokio recording carries the wakers' operations and
    // keeps their rule; one converted from Chronos, Enso or Node's
    // async_hooks trace has flows (the creators, triggers) only.
    void wakeSourceOfTheFormat_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("converted");
        QTest::addColumn<CriticalPath::WakeSource>("source");
        using S = CriticalPath::WakeSource;
        const struct {
            const char* tag;
            const char* file;
            bool converted;
            S source;
        } rows[] = {
            {"chronos", "profiles/chronos-critical-path.json", false, S::Children},
            {"enso", "profiles/enso-async.json", false, S::Children},
            {"enso fixture", "samples/enso/enso-format-stability-fixture.json", false, S::Children},
            {"tokio", "profiles/tokio-hand.jsonl", false, S::Wakes},
            {"chrome", "profiles/chrome-counters.json", false, S::Flows},
            {"chrome flows", "samples/chrome-trace/catapult/flow.json", false, S::Flows},
            {"viztracer", "samples/viztracer/async_simple.json", false, S::Flows},
            {"node async_hooks", "samples/node/http-async-hooks.trace.json", false, S::Creators},
            {"cpuprofile", "samples/cpuprofile/node-hello.cjs.cpuprofile", false, S::None},
            {"speedscope", "samples/speedscope/0.0.1_simple.speedscope.json", false, S::None},
            {"folded", "samples/folded/simple.txt", false, S::None},
            {"perf", "samples/linux-perf/simple.linux-perf.txt", false, S::None},
            {"pprof", "samples/pprof/pprof-report-sample.cpu.pb", false, S::None},
            {"gecko", "samples/gecko/firefox-gecko-1.json", false, S::None},
            {"chroprof", "profiles/chroprof-rows.json", false, S::None},
            {"prometheus", "profiles/prometheus-query-range.json", false, S::None},
            {"chronos converted", "profiles/chronos-critical-path.json", true, S::Flows},
            {"enso converted", "profiles/enso-async.json", true, S::Flows},
            {"tokio converted", "profiles/tokio-hand.jsonl", true, S::Wakes},
            {"node async_hooks converted", "samples/node/http-async-hooks.trace.json", true, S::Flows},
        };
        for (const auto& r : rows)
            QTest::newRow(r.tag) << QString::fromLatin1(r.file) << r.converted << r.source;
    }
    void wakeSourceOfTheFormat()
    {
        QFETCH(QString, file);
        QFETCH(bool, converted);
        QFETCH(CriticalPath::WakeSource, source);
        LoadResult r = ProfileLoader::load(dataPath(file));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        if (converted) {
            r = loadText(QByteArray::fromStdString(ChromeTraceWriter::toString(*r.profile)));
            QVERIFY2(r.ok(), r.error.toString().c_str());
            QVERIFY(r.profile->formatName().starts_with("Chrome"));
        }
        QCOMPARE(r.profile->wakeSource(), source);
        QCOMPARE(CriticalPath::sourceOf(*r.profile), source);
    }

    // A tokio recording without a single wake still follows tokio's rule
    // (there was nothing to guess it from), and a profile built under a
    // format's name but not by its reader has no wake source.
    void wakeSourceWithoutWakes()
    {
        const auto p = load(QByteArrayLiteral(
            "{\"v\":1}\n"
            "{\"Spawn\":{\"id\":1,\"at\":{\"secs_since_epoch\":0,\"nanos_since_epoch\":1000},\"fields\":["
            "{\"name\":\"kind\",\"value\":\"task\"},{\"name\":\"task.name\",\"value\":\"t\"}]}}\n"
            "{\"Enter\":{\"id\":1,\"at\":{\"secs_since_epoch\":0,\"nanos_since_epoch\":2000}}}\n"
            "{\"Exit\":{\"id\":1,\"at\":{\"secs_since_epoch\":0,\"nanos_since_epoch\":3000}}}\n"
            "{\"Close\":{\"id\":1,\"at\":{\"secs_since_epoch\":0,\"nanos_since_epoch\":4000}}}\n"));
        QVERIFY(p);
        QVERIFY(p->wakes().empty());
        QCOMPARE(p->wakeSource(), CriticalPath::WakeSource::Wakes);

        ProfileBuilder b("Chronos future event log");
        const TrackId track = b.addTrack(TrackInfo{});
        const MeasurementId m = b.addMeasurement(track, b.label("x"), 0, kNone, AsyncMeasurement);
        b.addInterval(m, 0, 1, 0);
        b.finish(m, 2, FinalState::Completed);
        QCOMPARE(CriticalPath::sourceOf(*b.build()), CriticalPath::WakeSource::None);
    }

    // The walk of a waker over part of its life: query over [10, 46).
    void spanOfAWaker()
    {
        const auto p = load(::workedExample());
        const CriticalPath path(*p, CriticalPath::WakeSource::Children);
        const QStringList expected = {
            QStringLiteral("10-11 waiting sleepAsync (sleepAsync, depth 1)"),
            QStringLiteral("11-12 idle - (query, depth 0)"),
            QStringLiteral("12-40 queued other (query, depth 0)"),
            QStringLiteral("40-46 running query (query, depth 0)"),
        };
        QCOMPARE(describeAll(*p, path.over(byName(*p, "query"), 10, 46)), expected);
    }

    // Without a wake source a pause is the task's own waiting.
    void noWakeSource()
    {
        const auto p = load(::workedExample());
        const CriticalPath path(*p, CriticalPath::WakeSource::None);
        const QStringList expected = {
            QStringLiteral("0-5 running handler (handler, depth 0)"),
            QStringLiteral("5-8 running query (handler, depth 0)"),
            QStringLiteral("8-10 running handler (handler, depth 0)"),
            QStringLiteral("10-50 waiting handler (handler, depth 0)"),
            QStringLiteral("50-52 running handler (handler, depth 0)"),
        };
        QCOMPARE(describeAll(*p, path.of(byName(*p, "handler"))), expected);
    }

    // Random Chronos loops: every measurement's path covers its life
    // exactly once, in order, and equals the brute force tick by tick.
    void matchesBruteForce_data()
    {
        QTest::addColumn<std::uint32_t>("seed");
        for (std::uint32_t seed = 1; seed <= 40; ++seed)
            QTest::addRow("seed %u", seed) << seed;
    }
    void matchesBruteForce()
    {
        QFETCH(std::uint32_t, seed);
        const auto p = load(randomChronos(seed, 160));
        QVERIFY(p);
        QVERIFY(p->measurementCount() > 20);
        const CriticalPath path(*p, CriticalPath::sourceOf(*p));
        checkAgainstBruteForce(*p, path, QStringLiteral("seed %1").arg(seed));
    }

    // 100,000 nested wakers, each the child of the one before and all
    // finishing at one instant: no stack overflow, and the wait is named
    // after the last of them, 99,999 wakers deep.
    void deepWakerChain()
    {
        const int n = 100000;
        ProfileBuilder b("Chronos future event log");
        const LabelId label = b.label("link");
        MeasurementId previous = kNone;
        for (int i = 0; i < n; ++i) {
            TrackInfo info;
            info.tid = i;
            const TrackId track = b.addTrack(info);
            const MeasurementId m = b.addMeasurement(track, label, 0, previous, AsyncMeasurement);
            b.addInterval(m, 0, 1, 0);
            b.finish(m, 10, FinalState::Completed);
            previous = m;
        }
        const auto p = b.build();
        const CriticalPath path(*p, CriticalPath::WakeSource::Children);
        MeasurementId root = kNone;
        for (MeasurementId m = 0; m < p->measurementCount(); ++m)
            if (p->measurement(m).creator == kNone)
                root = m;
        QVERIFY(root != kNone);
        const auto segments = path.of(root);
        QCOMPARE(segments.size(), std::size_t(2));
        QCOMPARE(segments[0].kind, Kind::Running);
        QCOMPARE(segments[0].end, 1);
        QCOMPARE(segments[1].kind, Kind::Waiting);
        QCOMPARE(segments[1].start, 1);
        QCOMPARE(segments[1].end, 10);
        QCOMPARE(segments[1].depth, std::uint32_t(n - 1));
        QCOMPARE(p->measurement(segments[1].named).created, 0);
    }

    // Two tasks that claim to have created each other, finishing at one
    // instant: the walk ends, the cycle counts as no waker.
    void wakerCycle()
    {
        ProfileBuilder b("Chronos future event log");
        const TrackId track = b.addTrack(TrackInfo{});
        const MeasurementId x = b.addMeasurement(track, b.label("x"), 0, kNone, AsyncMeasurement);
        b.addInterval(x, 0, 1, 0);
        b.finish(x, 10, FinalState::Completed);
        const MeasurementId y = b.addMeasurement(track, b.label("y"), 2, x, AsyncMeasurement);
        b.addInterval(y, 2, 3, 1);
        b.finish(y, 10, FinalState::Completed);
        b.setCreator(x, y);
        const auto p = b.build();
        const CriticalPath path(*p, CriticalPath::WakeSource::Children);
        const QStringList expected = {
            QStringLiteral("0-1 running x (x, depth 0)"),
            QStringLiteral("1-2 waiting x (x, depth 0)"),
            QStringLiteral("2-3 running y (y, depth 1)"),
            QStringLiteral("3-10 waiting y (y, depth 1)"),
        };
        QCOMPARE(describeAll(*p, path.of(byName(*p, "x"))), expected);
    }
};

QTEST_GUILESS_MAIN(TestCriticalPath)
#include "tst_criticalpath.moc"
