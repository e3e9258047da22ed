#include "criticalpath.h"
#include "criticalpathbruteforce.h"
#include "testsupport.h"
#include "tokiogenerator.h"

#include <QtTest>

#include <random>

using namespace runlane;
using namespace runlane::test;

// The critical path on generated workloads of the formats with wakes other
// than Chronos' (tst_criticalpath): Enso (children), tokio (wakes) and
// Chrome (flows). For each seed every measurement's path covers its life
// once, in order, adds up to its wall time, names only what ran on its
// track, and equals the brute force written from semantics.md §9 alone.

namespace {

std::shared_ptr<const Profile> load(const QByteArray& text)
{
    LoadResult r = loadText(text);
    if (!r.ok())
        qWarning("%s", r.error.toString().c_str());
    return r.profile;
}

// A random Enso process: as the Chronos loop of tst_criticalpath
// (measurements created inside whatever runs or from the empty loop,
// paused, resumed, ended, some ended without running, some never), plus
// parents named explicitly ("p"), so that a child wakes a parent it did
// not run inside. Times are µs.
QByteArray randomEnso(std::uint32_t seed, int steps)
{
    std::mt19937 rng(seed);
    auto pick = [&rng](int n) { return int(rng() % std::uint32_t(n)); };
    QByteArray events = R"({"X":{"t":0,"d":{"$Process":"gen"}}})";
    auto add = [&events](const QByteArray& e) { events += ",\n" + e; };
    const char* names[] = {"handler (a.rs:1)", "query (b.rs:2)", "sleep (c.rs:3)", "flush (d.rs:4)", "read (e.rs:5)"};
    for (const char* n : names)
        add(QByteArrayLiteral(R"({"L":{"l":")") + n + "\"}}");
    auto ev = [](const char* kind, int id, std::int64_t t) {
        return QByteArrayLiteral("{\"") + kind + "\":{\"i\":" + QByteArray::number(id) + ",\"t\":" + QByteArray::number(t)
            + "}}";
    };
    std::vector<int> stack, paused, pending, alive;
    int next = 0;
    std::int64_t t = 0;
    for (int i = 0; i < steps; ++i) {
        t += 1 + pick(4);
        const int action = pick(10);
        if (action < 3) {
            const int id = next++;
            QByteArray create = "{\"C\":{\"t\":" + QByteArray::number(t) + ",\"l\":" + QByteArray::number(pick(5));
            if (!alive.empty() && pick(4) == 0)
                create += ",\"p\":" + QByteArray::number(alive[std::size_t(pick(int(alive.size())))]);
            else if (stack.empty() && pick(2) == 0)
                create += ",\"p\":-1";
            add(create + "}}");
            alive.push_back(id);
            if (pick(3) != 0 && (!stack.empty() || pick(2) == 0)) {
                add(ev("S", id, t));
                stack.push_back(id);
            } else {
                pending.push_back(id);
            }
        } else if (action < 5 && !stack.empty()) {
            add(ev("P", stack.back(), t));
            paused.push_back(stack.back());
            stack.pop_back();
        } else if (action < 7 && !stack.empty()) {
            add(ev("E", stack.back(), t));
            std::erase(alive, stack.back());
            stack.pop_back();
        } else if (action < 9 && stack.empty() && !(paused.empty() && pending.empty())) {
            auto& from = (pending.empty() || (!paused.empty() && pick(2) == 0)) ? paused : pending;
            const std::size_t at = std::size_t(pick(int(from.size())));
            add(ev("S", from[at], t));
            stack.push_back(from[at]);
            from.erase(from.begin() + std::ptrdiff_t(at));
        } else if (!pending.empty() || !paused.empty()) {
            // Ends while not running: a timer, or a future dropped.
            auto& from = pending.empty() ? paused : pending;
            const std::size_t at = std::size_t(pick(int(from.size())));
            add(ev("E", from[at], t));
            std::erase(alive, from[at]);
            from.erase(from.begin() + std::ptrdiff_t(at));
        }
    }
    return "[" + events + "]";
}

// A random Chrome trace of one loop: async tasks (b/e by id on process 1's
// async track) whose top-level slices never overlap, with nested slices
// (measurements the task created), an 'n' instant at some tasks' creation
// or after their last slice (a wait before the first run, after the last),
// and flow v2 bindings: a slice with flow_out is a source, a later slice of
// another task with flow_in and the same bind_id its sink. Times are µs.
QByteArray randomChrome(std::uint32_t seed, int steps)
{
    std::mt19937 rng(seed);
    auto pick = [&rng](int n) { return int(rng() % std::uint32_t(n)); };
    const char* names[] = {"handler", "query", "flush", "read", "write"};
    QByteArray events;
    auto add = [&events](char ph, int id, const char* name, std::int64_t t, const QByteArray& extra = {}) {
        if (!events.isEmpty())
            events += ",\n";
        events += QByteArrayLiteral("{\"ph\":\"") + ph + "\",\"cat\":\"task\",\"id\":" + QByteArray::number(id)
            + ",\"name\":\"" + name + "\",\"pid\":1,\"tid\":1,\"ts\":" + QByteArray::number(t) + extra + "}";
    };
    struct Task {
        int id;
        const char* name;
        bool ran = false;
    };
    std::vector<Task> live;
    std::vector<int> sources; // bind ids of slices with flow_out, not yet sunk
    int nextTask = 1;
    int nextBind = 1;
    std::int64_t t = 0;
    for (int i = 0; i < steps; ++i) {
        t += pick(3);
        const int action = pick(10);
        if (action < 3 || live.empty()) {
            live.push_back({nextTask++, names[pick(5)]});
            if (pick(2) == 0)
                add('n', live.back().id, "created", t);
            continue;
        }
        const std::size_t at = std::size_t(pick(int(live.size())));
        Task& task = live[at];
        if (action < 9 || !task.ran) {
            // One slice of the task: maybe the sink of an earlier source,
            // maybe a source, maybe with a nested call.
            QByteArray extra;
            if (!sources.empty() && pick(2) == 0) {
                const std::size_t s = std::size_t(pick(int(sources.size())));
                extra = ",\"bind_id\":" + QByteArray::number(sources[s]) + ",\"flow_in\":true";
                if (pick(3) == 0)
                    sources.erase(sources.begin() + std::ptrdiff_t(s));
            } else if (pick(3) == 0) {
                sources.push_back(nextBind);
                extra = ",\"bind_id\":" + QByteArray::number(nextBind++) + ",\"flow_out\":true";
            }
            add('b', task.id, task.name, t, extra);
            if (pick(3) == 0) {
                t += 1 + pick(3);
                add('b', task.id, "call", t);
                t += 1 + pick(3);
                add('e', task.id, "call", t);
            }
            t += 1 + pick(5);
            add('e', task.id, task.name, t);
            task.ran = true;
        } else {
            // The task ends: at its last slice's end, or later (an 'n').
            if (pick(2) == 0)
                add('n', task.id, "done", t + 1 + pick(5));
            live.erase(live.begin() + std::ptrdiff_t(at));
        }
    }
    return "{\"traceEvents\":[\n" + events + "\n],\"displayTimeUnit\":\"ns\"}";
}

} // namespace

class TestCriticalPathProperties : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void enso_data()
    {
        QTest::addColumn<std::uint32_t>("seed");
        for (std::uint32_t seed = 1; seed <= 30; ++seed)
            QTest::addRow("seed %u", seed) << seed;
    }
    void enso()
    {
        QFETCH(std::uint32_t, seed);
        const auto p = load(randomEnso(seed, 160));
        QVERIFY(p);
        QVERIFY(p->measurementCount() > 20);
        QCOMPARE(p->wakeSource(), CriticalPath::WakeSource::Children);
        std::size_t woken = 0;
        checkAgainstBruteForce(*p, CriticalPath(*p, p->wakeSource()), QStringLiteral("enso seed %1").arg(seed), true,
                               &woken);
        QVERIFY(woken > 0);
    }

    // The current-thread runtime (one worker: polls never overlap), then
    // the multi-threaded one, where the brute force's "innermost running
    // measurement of the track" has no single answer: the rest is checked.
    void tokio_data()
    {
        QTest::addColumn<std::uint32_t>("seed");
        QTest::addColumn<int>("workers");
        for (std::uint32_t seed = 1; seed <= 30; ++seed)
            QTest::addRow("seed %u", seed) << seed << 1;
        for (std::uint32_t seed = 1; seed <= 10; ++seed)
            QTest::addRow("seed %u, 2 workers", seed) << seed << 2;
    }
    void tokio()
    {
        QFETCH(std::uint32_t, seed);
        QFETCH(int, workers);
        TokioGenOptions options;
        options.seed = seed;
        options.workers = workers;
        options.events = 600;
        const auto p = load(QByteArray::fromStdString(TokioGenerator::recording(options)));
        QVERIFY(p);
        QVERIFY(p->measurementCount() > 10);
        QVERIFY(!p->wakes().empty());
        QCOMPARE(p->wakeSource(), CriticalPath::WakeSource::Wakes);
        std::size_t woken = 0;
        checkAgainstBruteForce(*p, CriticalPath(*p, p->wakeSource()), QStringLiteral("tokio seed %1").arg(seed),
                               workers == 1, &woken);
        QVERIFY(woken > 0);
    }

    void chrome_data()
    {
        QTest::addColumn<std::uint32_t>("seed");
        for (std::uint32_t seed = 1; seed <= 30; ++seed)
            QTest::addRow("seed %u", seed) << seed;
    }
    void chrome()
    {
        QFETCH(std::uint32_t, seed);
        const auto p = load(randomChrome(seed, 160));
        QVERIFY(p);
        QVERIFY(p->measurementCount() > 20);
        QVERIFY(p->flows().size() > 5);
        QCOMPARE(p->wakeSource(), CriticalPath::WakeSource::Flows);
        std::size_t woken = 0;
        checkAgainstBruteForce(*p, CriticalPath(*p, p->wakeSource()), QStringLiteral("chrome seed %1").arg(seed), true,
                               &woken);
        QVERIFY(woken > 0);
    }
};

QTEST_GUILESS_MAIN(TestCriticalPathProperties)
#include "tst_criticalpathproperties.moc"
