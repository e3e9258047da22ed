#include "formatregistry.h"
#include "measurementmetrics.h"
#include "profileloader.h"
#include "schedulingdelays.h"
#include "testsupport.h"
#include "tokiogenerator.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

using namespace runlane;
using runlane::test::loadText;
using runlane::test::TokioGenerator;
using runlane::test::TokioGenEvent;
using runlane::test::TokioGenOptions;

Q_DECLARE_METATYPE(runlane::test::TokioGenOptions)

namespace {

// The figures of a generated recording, computed from its events as
// plainly as possible, apart from the reader: a map of live ids, the set of
// tasks polled at each Spawn, and each poll's delay from the wakes in the
// window since the previous poll's start.
struct Reference {
    struct Task {
        std::size_t site = 0;
        qint64 spawned = 0;
        qint64 closed = -1; // -1: never
        std::vector<std::pair<qint64, qint64>> polls;
        std::vector<qint64> wakes;
        std::vector<qint64> delays;
        int creator = -1;
        bool creatorUnknown = false;
        qint64 enteredAt = -1;
    };
    std::vector<Task> tasks;
    qint64 clones = 0, drops = 0, wakes = 0, selfWakes = 0, byRef = 0, polls = 0, unknownCreators = 0;

    static Reference of(const std::vector<TokioGenEvent>& events)
    {
        Reference r;
        std::map<std::uint64_t, int> live;
        std::vector<int> entered;
        for (const TokioGenEvent& e : events) {
            switch (e.kind) {
            case TokioGenEvent::Spawn: {
                Task t;
                t.site = e.site;
                t.spawned = e.at;
                t.creator = entered.size() == 1 ? entered.front() : -1;
                t.creatorUnknown = entered.size() > 1;
                r.unknownCreators += t.creatorUnknown ? 1 : 0;
                live[e.id] = int(r.tasks.size());
                r.tasks.push_back(t);
                break;
            }
            case TokioGenEvent::Enter:
                r.tasks[live.at(e.id)].enteredAt = e.at;
                entered.push_back(live.at(e.id));
                break;
            case TokioGenEvent::Exit: {
                Task& t = r.tasks[live.at(e.id)];
                t.polls.emplace_back(t.enteredAt, e.at);
                entered.erase(std::find(entered.begin(), entered.end(), live.at(e.id)));
                ++r.polls;
                break;
            }
            case TokioGenEvent::Close:
                r.tasks[live.at(e.id)].closed = e.at;
                live.erase(e.id);
                break;
            case TokioGenEvent::Wake:
            case TokioGenEvent::WakeByRef:
                if (live.count(e.id)) {
                    r.tasks[live.at(e.id)].wakes.push_back(e.at);
                    ++r.wakes;
                    r.selfWakes += e.selfWake ? 1 : 0;
                    r.byRef += e.kind == TokioGenEvent::WakeByRef ? 1 : 0;
                }
                break;
            case TokioGenEvent::Clone:
                ++r.clones;
                break;
            case TokioGenEvent::Drop:
                ++r.drops;
                break;
            }
        }
        // A poll the recording ends in lasts until its last event.
        for (const int t : entered) {
            r.tasks[std::size_t(t)].polls.emplace_back(r.tasks[std::size_t(t)].enteredAt, events.back().at);
            ++r.polls;
        }
        for (Task& t : r.tasks) {
            for (std::size_t i = 0; i < t.polls.size(); ++i) {
                const qint64 from = i == 0 ? std::numeric_limits<qint64>::min() : t.polls[i - 1].first;
                const qint64 start = t.polls[i].first;
                qint64 earliest = std::numeric_limits<qint64>::max();
                for (const qint64 w : t.wakes) {
                    if (w > from && w <= start) {
                        // Woken during the previous poll: ready at its end.
                        const qint64 ready = i > 0 && w < t.polls[i - 1].second ? t.polls[i - 1].second : w;
                        earliest = std::min(earliest, ready);
                    }
                }
                if (earliest != std::numeric_limits<qint64>::max())
                    t.delays.push_back(start - earliest);
            }
        }
        return r;
    }
};

struct Stats {
    qint64 count = 0, sum = 0, max = 0, p90 = 0;
};

// Nearest rank, by sorting.
Stats statsOf(std::vector<qint64> values)
{
    Stats s;
    s.count = qint64(values.size());
    if (values.empty())
        return s;
    std::sort(values.begin(), values.end());
    s.sum = std::accumulate(values.begin(), values.end(), qint64(0));
    s.max = values.back();
    s.p90 = values[std::size_t(std::ceil(0.9 * double(values.size()))) - 1];
    return s;
}

// The same recording with blanks after every ':' and ',' (JSON all the
// same): the reader's exact-layout path takes none of its lines.
std::string spaced(const std::string& text)
{
    std::string out;
    bool inString = false;
    bool escaped = false;
    for (const char c : text) {
        out += c;
        if (inString) {
            inString = escaped || c != '"';
            escaped = !escaped && c == '\\';
        } else if (c == '"') {
            inString = true;
        } else if (c == ':' || c == ',') {
            out += ' ';
        }
    }
    return out;
}

TokioGenOptions options(std::uint64_t seed, int workers, std::uint64_t events, bool cut = false)
{
    TokioGenOptions o;
    o.seed = seed;
    o.workers = workers;
    o.events = events;
    o.cutLastLine = cut;
    return o;
}

} // namespace

class TstTokioReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // tests/data/profiles/README.md works these figures out by hand.
    void handWritten()
    {
        const LoadResult r = ProfileLoader::load(runlane::test::dataPath(QStringLiteral("profiles/tokio-hand.jsonl")));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.measurementCount(), std::size_t(2));
        const MeasurementId main = runlane::test::byName(p, "main loop");
        const MeasurementId conn = runlane::test::byName(p, "src/conn.rs:20");
        QVERIFY(main != kNone && conn != kNone);
        QCOMPARE(p.string(p.label(p.measurement(main).label).file), std::string_view("src/main.rs"));
        QCOMPARE(p.label(p.measurement(main).label).line, 10);
        QCOMPARE(p.measurement(main).creator, kNone);
        QVERIFY((p.measurement(main).flags & CreatorUnknown) == 0);
        QCOMPARE(p.measurement(conn).creator, main);
        QCOMPARE(p.measurement(main).finalState(), FinalState::Unfinished);
        QCOMPARE(p.measurement(conn).finalState(), FinalState::Completed);
        QCOMPARE(p.measurement(conn).finished, Time(6600));
        QCOMPARE(p.intervalsOf(main).size(), std::size_t(3));
        QCOMPARE(p.intervalsOf(conn).size(), std::size_t(2));
        const MeasurementMetrics metrics(p);
        QCOMPARE(metrics.exec(main), Time(1700));
        QCOMPARE(metrics.exec(conn), Time(700));
        QCOMPARE(p.wakes().size(), std::size_t(4));
        QCOMPARE(p.wakesOf(conn).size(), std::size_t(2));
        QVERIFY(p.wakesOf(main)[0].isSelfWake());
        QVERIFY(p.wakesOf(conn)[0].isByRef());
        const SchedulingDelays delays(p);
        QCOMPARE(SchedulingDelays::delaysOf(p, main), (std::vector<Time>{500, 400}));
        QCOMPARE(SchedulingDelays::delaysOf(p, conn), (std::vector<Time>{1000}));
        QCOMPARE(delays.ofTask(main).sum, Time(900));
        QCOMPARE(delays.ofTask(main).max, Time(500));
        QCOMPARE(delays.ofTask(main).p90, Time(500));
        QCOMPARE(delays.ofLabel(p.measurement(conn).label).sum, Time(1000));
        const Diagnostics& d = p.diagnostics();
        QCOMPARE(d.warningCount(), std::uint64_t(2));
        QCOMPARE(d.firstMessage("truncated file"), std::string("the file ends inside line 21 (event #19), which is left out"));
        QCOMPARE(d.firstMessage("unfinished tasks"),
                 std::string("1 of 2 tasks have no Close: unfinished at the end of the recording"));
        QCOMPARE(d.skippedEvents().at("waker Clone"), std::uint64_t(1));
        QCOMPARE(d.skippedEvents().at("waker Drop"), std::uint64_t(1));
        QCOMPARE(p.track(0).depthCount(), 1);
    }

    // Two polls at once on a multi-threaded runtime: two rows, nothing
    // nested nor warned, exec whole; a spawn while both run has no creator.
    void overlappingPolls()
    {
        auto t = [](int ns) { return "{\"secs_since_epoch\":0,\"nanos_since_epoch\":" + QByteArray::number(ns) + "}"; };
        const QByteArray text = "{\"v\":1}\n"
                                "{\"Spawn\":{\"id\":1,\"at\":" + t(0) + ",\"fields\":[]}}\n"
                                "{\"Spawn\":{\"id\":2,\"at\":" + t(1) + ",\"fields\":[]}}\n"
                                "{\"Enter\":{\"id\":1,\"at\":" + t(10) + "}}\n"
                                "{\"Enter\":{\"id\":2,\"at\":" + t(20) + "}}\n"
                                "{\"Spawn\":{\"id\":3,\"at\":" + t(25) + ",\"fields\":[]}}\n"
                                "{\"Exit\":{\"id\":1,\"at\":" + t(30) + "}}\n"
                                "{\"Spawn\":{\"id\":4,\"at\":" + t(35) + ",\"fields\":[]}}\n"
                                "{\"Exit\":{\"id\":2,\"at\":" + t(50) + "}}\n";
        const LoadResult r = loadText(text);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        // Only these two: no "overlapping intervals".
        QCOMPARE(p.diagnostics().warningCount(), std::uint64_t(2));
        QCOMPARE(p.diagnostics().firstMessage("unfinished tasks"),
                 std::string("4 of 4 tasks have no Close: unfinished at the end of the recording"));
        QCOMPARE(p.diagnostics().firstMessage("creator unknown"),
                 std::string("1 tasks were spawned while several tasks were being polled: creator unknown (multi-threaded runtime)"));
        QCOMPARE(p.track(0).depthCount(), 2);
        const MeasurementMetrics metrics(p);
        QCOMPARE(metrics.exec(0), Time(20));
        QCOMPARE(metrics.exec(1), Time(30));
        QCOMPARE(metrics.busy(0), Time(50));
        QCOMPARE(p.measurement(2).creator, kNone);
        QVERIFY(p.measurement(2).flags & CreatorUnknown);
        QCOMPARE(p.measurement(3).creator, MeasurementId(1));
        QCOMPARE(p.labelName(p.measurement(0).label), std::string_view("(unnamed task)"));
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        QTest::addColumn<qint64>("line");
        QTest::addColumn<qint64>("column");
        QTest::addColumn<qint64>("event");
        const QByteArray at = "\"at\":{\"secs_since_epoch\":1,\"nanos_since_epoch\":5}";
        const QByteArray enter = "{\"Enter\":{\"id\":1," + at + "}}\n";
        QTest::newRow("version") << QByteArray("{\"v\":2}\n" + enter)
                                 << "unsupported tokio-console recording version 2 (this Runlane reads version 1)"
                                 << qint64(1) << qint64(1) << qint64(-1);
        QTest::newRow("id not a number") << QByteArray("{\"v\":1}\n" + enter + "{\"Exit\":{\"id\":x}}\n" + enter)
                                         << "expected an integer id, found 'x'" << qint64(3) << qint64(15) << qint64(1);
        QTest::newRow("no time") << QByteArray("{\"v\":1}\n" + enter + "{\"Exit\":{\"id\":1}}\n")
                                 << "Exit event without 'at'" << qint64(3) << qint64(17) << qint64(1);
        QTest::newRow("waker op") << QByteArray("{\"v\":1}\n{\"Waker\":{\"id\":1,\"op\":\"Poke\"," + at + "}}\n")
                                  << "unknown waker op \"Poke\" (expected Wake, WakeByRef, Clone or Drop)" << qint64(2)
                                  << qint64(23) << qint64(0);
        QTest::newRow("garbage after") << QByteArray("{\"v\":1}\n" + enter.chopped(1) + " x\n")
                                       << "expected the end of the line, found 'x'" << qint64(2) << qint64(70)
                                       << qint64(0);
        // Cut short, but not the last line: the file was not cut there.
        QTest::newRow("cut inside") << QByteArray("{\"v\":1}\n" + enter.left(30) + "\n" + enter)
                                    << "expected the end of the string, found the end of the line" << qint64(2) << qint64(31)
                                    << qint64(0);
        QTest::newRow("not an object") << QByteArray("{\"v\":1}\n[1]\n") << "expected an event object ({\"Spawn\": ...}, {\"Enter\": ...}, ...), found '['"
                                       << qint64(2) << qint64(1) << qint64(0);
        QTest::newRow("time out of range")
            << QByteArray("{\"v\":1}\n{\"Enter\":{\"id\":1,\"at\":{\"secs_since_epoch\":99999999999,\"nanos_since_epoch\":0}}}\n")
            << "a time out of range (99999999999 s, 0 ns)" << qint64(2) << qint64(23) << qint64(0);
    }

    void errors()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        QFETCH(qint64, line);
        QFETCH(qint64, column);
        QFETCH(qint64, event);
        const LoadResult r = loadText(text);
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error.message), message);
        QCOMPARE(qint64(r.error.line), line);
        QCOMPARE(qint64(r.error.column), column);
        QCOMPARE(qint64(r.error.eventIndex), event);
    }

    void generated_data()
    {
        QTest::addColumn<TokioGenOptions>("options");
        // Exact figures of each recording: tasks, polls, wakes, self-wakes,
        // waker clones, unfinished tasks, tasks of unknown creator, and the
        // sum, max and p90 (ns) of all the scheduling delays. "8, cut" ends
        // inside a poll, which lasts until the last event.
        QTest::addColumn<QList<qint64>>("expected");
        QTest::newRow("current-thread") << options(1, 1, 400) << QList<qint64>{25, 100, 93, 31, 33, 7, 0, 12263395, 642429, 390870};
        QTest::newRow("multi-thread 4, spaced") << options(2, 4, 3000) << QList<qint64>{123, 782, 763, 194, 225, 16, 97, 46975616, 384189, 173670};
        QTest::newRow("multi-thread 4") << options(2, 4, 3000) << QList<qint64>{123, 782, 763, 194, 225, 16, 97, 46975616, 384189, 173670};
        QTest::newRow("multi-thread 8, cut") << options(3, 8, 3000, true) << QList<qint64>{141, 782, 717, 190, 240, 26, 128, 16162366, 177066, 58876};
        QTest::newRow("current-thread, cut") << options(4, 1, 1500, true) << QList<qint64>{70, 379, 398, 89, 113, 21, 0, 169102950, 2253135, 1148819};
    }

    void generated()
    {
        QFETCH(TokioGenOptions, options);
        QFETCH(QList<qint64>, expected);
        std::vector<TokioGenEvent> events;
        std::string text = TokioGenerator::recording(options, &events);
        if (QByteArray(QTest::currentDataTag()).endsWith("spaced"))
            text = spaced(text);
        const LoadResult r = loadText(QByteArray::fromStdString(text));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        const Reference ref = Reference::of(events);

        QCOMPARE(p.formatName(), std::string_view("tokio-console recording"));
        QCOMPARE(p.trackCount(), std::size_t(1));
        QCOMPARE(p.string(p.track(0).name), std::string_view("tokio runtime"));
        QCOMPARE(p.measurementCount(), ref.tasks.size());
        QCOMPARE(qint64(p.intervalCount()), ref.polls);
        QCOMPARE(qint64(p.wakes().size()), ref.wakes);
        const auto& kinds = p.diagnostics().warningKinds();
        const auto& skipped = p.diagnostics().skippedEvents();
        const qint64 unfinished = std::count_if(ref.tasks.begin(), ref.tasks.end(), [](const auto& t) { return t.closed < 0; });
        QCOMPARE(qint64(kinds.count("unfinished tasks")), unfinished > 0 ? 1 : 0);
        QCOMPARE(qint64(kinds.count("truncated file")), options.cutLastLine ? 1 : 0);
        QCOMPARE(qint64(kinds.count("task state")), 0);
        QCOMPARE(qint64(skipped.count("waker Clone") ? skipped.at("waker Clone") : 0), ref.clones);
        QCOMPARE(qint64(skipped.count("waker Drop") ? skipped.at("waker Drop") : 0), ref.drops);
        // No poll nests in another, whatever overlaps: rows as workers.
        QVERIFY(p.track(0).depthCount() <= options.workers);
        if (options.workers == 1)
            QCOMPARE(p.track(0).depthCount(), 1);

        // Tasks in spawn order are measurements in creation order.
        std::vector<MeasurementId> order(p.measurementCount());
        std::iota(order.begin(), order.end(), 0);
        std::sort(order.begin(), order.end(), [&p](MeasurementId a, MeasurementId b) {
            return p.measurement(a).created < p.measurement(b).created;
        });
        std::vector<int> indexOf(order.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            indexOf[order[i]] = int(i);
        const MeasurementMetrics metrics(p);
        const SchedulingDelays delays(p);
        std::map<std::string, std::vector<qint64>> byLabel;
        std::vector<qint64> all;
        qint64 selfWakes = 0, byRef = 0;
        for (std::size_t i = 0; i < order.size(); ++i) {
            const MeasurementId id = order[i];
            const Measurement& m = p.measurement(id);
            const Reference::Task& t = ref.tasks[i];
            const QByteArray where = "task #" + QByteArray::number(qulonglong(i));
            QCOMPARE(m.created, t.spawned);
            QVERIFY2(m.isAsync(), where);
            QCOMPARE(p.labelName(m.label), std::string_view(TokioGenerator::sites()[t.site].expectedLabel));
            QCOMPARE(m.finalState(), t.closed >= 0 ? FinalState::Completed : FinalState::Unfinished);
            if (t.closed >= 0)
                QCOMPARE(m.finished, t.closed);
            QCOMPARE(p.intervalsOf(id).size(), t.polls.size());
            qint64 exec = 0;
            for (const auto& [enter, exit] : t.polls)
                exec += exit - enter;
            QCOMPARE(metrics.exec(id), exec);
            QCOMPARE(m.creator == kNone ? -1 : indexOf[m.creator], t.creator);
            QCOMPARE((m.flags & CreatorUnknown) != 0, t.creatorUnknown);
            for (const Wake& w : p.wakesOf(id)) {
                selfWakes += w.isSelfWake() ? 1 : 0;
                byRef += w.isByRef() ? 1 : 0;
            }
            const Stats expect = statsOf(t.delays);
            const DelayStats& got = delays.ofTask(id);
            QCOMPARE(qint64(got.count), expect.count);
            QCOMPARE(got.sum, expect.sum);
            QCOMPARE(got.max, expect.max);
            QCOMPARE(got.p90, expect.p90);
            byLabel[TokioGenerator::sites()[t.site].expectedLabel].insert(byLabel[TokioGenerator::sites()[t.site].expectedLabel].end(), t.delays.begin(), t.delays.end());
            all.insert(all.end(), t.delays.begin(), t.delays.end());
        }
        QCOMPARE(selfWakes, ref.selfWakes);
        QCOMPARE(byRef, ref.byRef);
        for (const auto& [label, values] : byLabel) {
            const LabelId id = runlane::test::labelNamed(p, label);
            const Stats expect = statsOf(values);
            QCOMPARE(qint64(delays.ofLabel(id).count), expect.count);
            QCOMPARE(delays.ofLabel(id).sum, expect.sum);
            QCOMPARE(delays.ofLabel(id).max, expect.max);
            QCOMPARE(delays.ofLabel(id).p90, expect.p90);
        }

        const Stats total = statsOf(all);
        const QList<qint64> figures{qint64(ref.tasks.size()), ref.polls, ref.wakes, ref.selfWakes, ref.clones, unfinished,
                                    ref.unknownCreators, total.sum, total.max, total.p90};
        if (expected.isEmpty())
            qInfo() << QTest::currentDataTag() << figures;
        else
            QCOMPARE(figures, expected);
    }
};

QTEST_GUILESS_MAIN(TstTokioReader)
#include "tst_tokioreader.moc"
