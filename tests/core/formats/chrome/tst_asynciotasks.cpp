// Python asyncio tasks in viztracer --log_async traces (AsyncioTasks,
// OutermostTasks): the public sample checked against a second reading of the
// file with Qt's JSON and plain loops, and small traces for each rule.
#include "chrometracewriter.h"
#include "measurementmetrics.h"
#include "taskpacking.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>
#include <map>

using namespace runlane;
using runlane::test::dataPath;
using runlane::test::loadText;
using runlane::test::qstr;

namespace {

const QString kSample = QStringLiteral("samples/viztracer/async_simple.json");

// Per pseudo-thread of the file, read without the loader: its outermost
// X events (the steps), their summed length and their self time.
struct ReferenceTask {
    int steps = 0;
    Time running = 0;
    Time exec = 0;
};

std::map<QString, ReferenceTask> readReference(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QJsonArray events = QJsonDocument::fromJson(file.readAll()).object().value(QLatin1String("traceEvents")).toArray();
    std::map<qint64, QString> names;
    struct Span {
        Time start;
        Time end;
    };
    std::map<qint64, std::vector<Span>> spans;
    for (const QJsonValue& v : events) {
        const QJsonObject e = v.toObject();
        const qint64 tid = e.value(QLatin1String("tid")).toInteger();
        if (e.value(QLatin1String("ph")).toString() == QLatin1String("M"))
            names[tid] = e.value(QLatin1String("args")).toObject().value(QLatin1String("name")).toString();
        if (e.value(QLatin1String("ph")).toString() != QLatin1String("X"))
            continue;
        const Time start = std::llround(e.value(QLatin1String("ts")).toDouble() * 1000);
        spans[tid].push_back({start, start + std::llround(e.value(QLatin1String("dur")).toDouble() * 1000)});
    }
    std::map<QString, ReferenceTask> tasks;
    for (auto& [tid, list] : spans) {
        if (!names[tid].startsWith(QLatin1String("Task-")))
            continue;
        std::sort(list.begin(), list.end(), [](const Span& a, const Span& b) {
            return a.start != b.start ? a.start < b.start : a.end > b.end;
        });
        ReferenceTask& task = tasks[names[tid]];
        // Outermost spans and, for each, the time its direct children took.
        std::vector<const Span*> stack;
        for (const Span& s : list) {
            while (!stack.empty() && !(s.start >= stack.back()->start && s.end <= stack.back()->end))
                stack.pop_back();
            if (stack.empty()) {
                ++task.steps;
                task.running += s.end - s.start;
                task.exec += s.end - s.start;
            } else if (stack.size() == 1) {
                task.exec -= s.end - s.start;
            }
            stack.push_back(&s);
        }
    }
    return tasks;
}

// The n-th task (1-based) in creation order: asyncio numbers its tasks
// Task-1, Task-2, ... as it creates them.
MeasurementId nthTask(const Profile& p, int n)
{
    std::vector<MeasurementId> tasks;
    for (MeasurementId m = 0; m < p.measurementCount(); ++m) {
        if (p.measurement(m).isAsync())
            tasks.push_back(m);
    }
    std::stable_sort(tasks.begin(), tasks.end(),
                     [&p](MeasurementId a, MeasurementId b) { return p.measurement(a).created < p.measurement(b).created; });
    return n >= 1 && std::size_t(n) <= tasks.size() ? tasks[std::size_t(n) - 1] : kNone;
}

QByteArray slice(const char* ph, qint64 tid, double ts, double dur, const char* name)
{
    return QStringLiteral("{\"ph\":\"%1\",\"pid\":1,\"tid\":%2,\"ts\":%3,\"dur\":%4,\"name\":\"%5\"}")
        .arg(QLatin1String(ph))
        .arg(tid)
        .arg(ts)
        .arg(dur)
        .arg(QLatin1String(name))
        .toUtf8();
}

QByteArray threadName(qint64 tid, const char* name)
{
    return QStringLiteral("{\"ph\":\"M\",\"pid\":1,\"tid\":%1,\"name\":\"thread_name\",\"args\":{\"name\":\"%2\"}}")
        .arg(tid)
        .arg(QLatin1String(name))
        .toUtf8();
}

QByteArray trace(const QList<QByteArray>& events, bool viztracer)
{
    return "{\"traceEvents\":[" + events.join(',') + "]"
        + (viztracer ? ",\"viztracer_metadata\":{\"overflow\":false,\"version\":\"1.1.1\"}" : "") + "}";
}

} // namespace

class TestAsyncioTasks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sampleTasks_data()
    {
        QTest::addColumn<QString>("track");
        QTest::addColumn<QString>("label");
        QTest::addColumn<int>("steps");
        QTest::addColumn<qint64>("running");
        QTest::addColumn<qint64>("exec");
        QTest::addColumn<qint64>("created"); // ns after the profile's start
        QTest::addColumn<QString>("creator"); // the start of its label
        const QString io = QStringLiteral("io_task (/home/gaogaotiantian/programs/viztracer/example/src/async_simple.py:4)");
        const QString main = QStringLiteral("main (/home/gaogaotiantian/programs/viztracer/example/src/async_simple.py:8)");
        // asyncio.run(main()) in the module makes Task-1; main's
        // asyncio.create_task calls make Task-2..4; asyncio.run's shutdown
        // makes Task-5 and Task-6: each created as its create_task starts,
        // by that call (what ran innermost then).
        const QString create = QStringLiteral("BaseEventLoop.create_task (/usr/lib/python3.12/asyncio/base_events.py:451)");
        QTest::newRow("Task-1") << "Task-1" << main << 2 << qint64(18'920) << qint64(6'423) << qint64(141'602) << create;
        QTest::newRow("Task-2") << "Task-2" << io << 2 << qint64(185'955) << qint64(7'855) << qint64(202'308) << create;
        QTest::newRow("Task-3") << "Task-3" << io << 2 << qint64(27'408) << qint64(3'841) << qint64(208'417) << create;
        QTest::newRow("Task-4") << "Task-4" << io << 2 << qint64(14'432) << qint64(1'718) << qint64(211'453) << create;
        QTest::newRow("Task-5") << "Task-5"
                                << "BaseEventLoop.shutdown_asyncgens (/usr/lib/python3.12/asyncio/base_events.py:561)" << 1
                                << qint64(11'002) << qint64(3'548) << qint64(11'450'580) << create;
        QTest::newRow("Task-6") << "Task-6"
                                << "BaseEventLoop.shutdown_default_executor (/usr/lib/python3.12/asyncio/base_events.py:586)"
                                << 1 << qint64(1'654) << qint64(1'654) << qint64(11'790'575) << create;
    }
    void sampleTasks()
    {
        QFETCH(QString, track);
        QFETCH(QString, label);
        QFETCH(int, steps);
        QFETCH(qint64, running);
        QFETCH(qint64, exec);
        QFETCH(qint64, created);
        QFETCH(QString, creator);
        const LoadResult r = ProfileLoader::load(dataPath(kSample));
        QVERIFY2(r.ok(), r.error.message.c_str());
        const Profile& p = *r.profile;
        const MeasurementId task = nthTask(p, track.mid(5).toInt());
        QVERIFY(task != kNone);
        const Measurement& m = p.measurement(task);
        QCOMPARE(qstr(p.labelName(m.label)), label);
        QCOMPARE(int(p.intervalsOf(task).size()), steps);
        // Back on the loop's thread, each step under the Context.run that ran it.
        QCOMPARE(qstr(p.string(p.track(m.track).name)), QStringLiteral("MainProcess / MainThread"));
        Time sum = 0;
        for (IntervalId i : p.intervalsOf(task)) {
            QVERIFY(p.interval(i).parent != kNone);
            QCOMPARE(p.labelName(p.measurement(p.interval(p.interval(i).parent).measurement).label),
                     std::string_view("_contextvars.Context.run"));
            sum += p.interval(i).end - p.interval(i).start;
        }
        QCOMPARE(sum, Time(running));
        const MeasurementMetrics metrics(p);
        QCOMPARE(metrics.exec(task), Time(exec));
        QCOMPARE(m.created - p.startTime(), Time(created));
        QCOMPARE(m.finished, p.interval(p.intervalsOf(task).back()).end);
        QCOMPARE(m.finalState(), FinalState::Ended);
        QVERIFY(m.creator != kNone);
        QCOMPARE(qstr(p.labelName(p.measurement(m.creator).label)), creator);
        QCOMPARE(p.measurement(m.creator).created, m.created);
        // Task-2..4 by create_task calls made in main's first step (under
        // Task-1), the others by asyncio.run's, outside any task.
        MeasurementId up = m.creator;
        while (up != kNone && !p.measurement(up).isAsync())
            up = p.measurement(up).creator;
        QCOMPARE(up, track == QLatin1String("Task-2") || track == QLatin1String("Task-3") || track == QLatin1String("Task-4")
                         ? nthTask(p, 1)
                         : kNone);

        // The same from the file read again without the loader.
        const std::map<QString, ReferenceTask> ref = readReference(dataPath(kSample));
        QCOMPARE(ref.at(track).steps, steps);
        QCOMPARE(ref.at(track).running, Time(running));
        QCOMPARE(ref.at(track).exec, Time(exec));
    }

    void sampleTracksAndCounts()
    {
        const LoadResult r = ProfileLoader::load(dataPath(kSample));
        QVERIFY2(r.ok(), r.error.message.c_str());
        const Profile& p = *r.profile;
        QStringList tracks;
        for (const Track& t : p.tracks())
            tracks << qstr(p.string(t.name));
        // The tasks' pseudo-threads went back into the thread that ran them.
        QCOMPARE(tracks, QStringList({"MainProcess / MainThread"}));
        QCOMPARE(qstr(p.string(p.track(0).laneGroup)), QStringLiteral("MainProcess / MainThread: asyncio tasks"));
        int tasks = 0;
        for (const Measurement& m : p.measurements())
            tasks += m.isAsync() ? 1 : 0;
        QCOMPARE(tasks, 6);
        QCOMPARE(int(readReference(dataPath(kSample)).size()), 6);
        // 656 X events: the 4 second steps of Task-1..4 joined their tasks.
        QCOMPARE(int(p.intervalCount()), 656);
        QCOMPARE(int(p.measurementCount()), 652);
        QCOMPARE(p.diagnostics().warningCount(), 0u);
        // Context.run's exec no longer holds the steps it ran: 81,969 ns,
        // what nesting every X event of the file on one timeline gives
        // (341,000 ns with the steps on tracks of their own).
        const MeasurementMetrics metrics(p);
        Time contextRun = 0;
        for (MeasurementId m = 0; m < p.measurementCount(); ++m) {
            if (p.labelName(p.measurement(m).label) == "_contextvars.Context.run")
                contextRun += metrics.exec(m);
        }
        QCOMPARE(contextRun, Time(81'969));
    }

    // The task lanes list the six tasks under one heading, packed by label.
    void lanesListTasksUnderOneHeading()
    {
        const LoadResult r = ProfileLoader::load(dataPath(kSample));
        QVERIFY2(r.ok(), r.error.message.c_str());
        const Profile& p = *r.profile;
        const TaskPacking packing(p);
        QStringList rows;
        for (const TaskPacking::Row& row : packing.rows())
            rows << QStringLiteral("%1 | %2 #%3: %4")
                        .arg(qstr(p.string(p.track(row.track).laneGroup)), qstr(p.labelName(row.label)).section(QLatin1Char(' '), 0, 0))
                        .arg(row.indexInGroup)
                        .arg(row.end - row.begin);
        const QString heading = QStringLiteral("MainProcess / MainThread: asyncio tasks | ");
        // io_task's three overlap (most tasks first), then by first creation.
        QCOMPARE(rows, QStringList({heading + "io_task #0: 1", heading + "io_task #1: 1", heading + "io_task #2: 1",
                                    heading + "main #0: 1", heading + "BaseEventLoop.shutdown_asyncgens #0: 1",
                                    heading + "BaseEventLoop.shutdown_default_executor #0: 1"}));
        QCOMPARE(TaskPacking::laneTracks(p), std::vector<TrackId>{0});
    }

    // convert --to chrome writes the tasks as tasks on their thread, and a
    // creator on another thread (a task no thread held) by its thread
    // (args.creator_tid): read back, every task has the same steps,
    // creation and creator.
    void convertKeepsTasksAndCreators_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("count");
        QTest::addColumn<bool>("creatorTid");
        QTest::newRow("the sample") << runlane::test::readAll(dataPath(kSample)) << 6 << false;
        QTest::newRow("a task no thread holds")
            << trace({threadName(1, "MainThread"), threadName(7, "Task-1"),
                      slice("X", 1, 10, 1, "BaseEventLoop.create_task (/lib/asyncio/base_events.py:451)"),
                      slice("X", 7, 20, 5, "main (app.py:8)"), slice("X", 7, 40, 5, "main (app.py:8)")},
                     true)
            << 1 << true;
    }
    void convertKeepsTasksAndCreators()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, count);
        QFETCH(bool, creatorTid);
        const LoadResult first = loadText(text);
        QVERIFY2(first.ok(), first.error.message.c_str());
        const std::string json = ChromeTraceWriter::toString(*first.profile);
        QCOMPARE(json.find("\"creator_tid\":") != std::string::npos, creatorTid);
        const LoadResult second = loadText(QByteArray::fromStdString(json));
        QVERIFY2(second.ok(), second.error.message.c_str());
        auto tasks = [](const Profile& p) {
            QStringList out;
            for (const Measurement& m : p.measurements()) {
                if (!m.isAsync())
                    continue;
                const Measurement& c = p.measurement(m.creator);
                out << QStringLiteral("%1 %2 %3 by %4@%5")
                           .arg(qstr(p.labelName(m.label)))
                           .arg(m.created - p.startTime())
                           .arg(m.finished - p.startTime())
                           .arg(qstr(p.labelName(c.label)))
                           .arg(c.created - p.startTime());
            }
            return out;
        };
        QCOMPARE(tasks(*second.profile), tasks(*first.profile));
        QCOMPARE(tasks(*first.profile).size(), count);
    }

    // Which tracks are tasks, labels, creators, on small traces.
    void rules_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QStringList>("tasks"); // "track: label, steps, creator" per task
        const QByteArray mainThread = threadName(1, "MainThread");
        const QByteArray create = slice("X", 1, 10, 1, "BaseEventLoop.create_task (/lib/asyncio/base_events.py:451)");
        const QByteArray run = slice("X", 1, 0, 100, "run (/lib/asyncio/runners.py:160)");
        const QByteArray module = slice("X", 1, 0, 100, "<module> (app.py:1)");
        const QByteArray step1 = slice("X", 7, 20, 5, "main (app.py:8)");
        const QByteArray step2 = slice("X", 7, 40, 5, "main (app.py:8)");
        const QByteArray inner = slice("X", 7, 21, 2, "helper (app.py:3)");

        QTest::newRow("not viztracer: threads stay threads")
            << trace({mainThread, threadName(7, "Task-1"), step1, step2}, false) << QStringList();
        QTest::newRow("a task named by its program stays a thread")
            << trace({mainThread, threadName(7, "fetcher"), step1, step2}, true) << QStringList();
        QTest::newRow("Task-N without digits is a thread")
            << trace({mainThread, threadName(7, "Task-x"), step1}, true) << QStringList();
        QTest::newRow("steps, created by the create_task call")
            << trace({mainThread, threadName(7, "Task-1"), module, run, create, step1, inner, step2}, true)
            << QStringList{"pid 1 / MainThread: main (app.py:8), 2, BaseEventLoop.create_task "
                           "(/lib/asyncio/base_events.py:451) at 10000"};
        QTest::newRow("no create_task: creator unknown, created at the first step")
            << trace({mainThread, threadName(7, "Task-1"), step1, inner, step2}, true)
            << QStringList{"pid 1 / asyncio tasks / Task-1: main (app.py:8), 2, unknown at 20000"};
        QTest::newRow("create_task after the first step: not matched")
            << trace({mainThread, threadName(7, "Task-1"), slice("X", 1, 30, 1, "BaseEventLoop.create_task"), step1},
                     true)
            << QStringList{"pid 1 / asyncio tasks / Task-1: main (app.py:8), 1, unknown at 20000"};
        QTest::newRow("steps of different labels: the task's name")
            << trace({mainThread, threadName(7, "Task-1"), step1, slice("X", 7, 40, 5, "other (app.py:2)")}, true)
            << QStringList{"pid 1 / asyncio tasks / Task-1: Task-1, 2, unknown at 20000"};
        QTest::newRow("two tasks, two create_task calls, in order of first run")
            << trace({mainThread, threadName(7, "Task-2"), threadName(9, "Task-1"), module, create,
                      slice("X", 1, 12, 1, "BaseEventLoop.create_task (/lib/asyncio/base_events.py:451)"),
                      slice("X", 9, 15, 2, "first (app.py:20)"), step1},
                     true)
            << QStringList{"pid 1 / MainThread: first (app.py:20), 1, BaseEventLoop.create_task "
                           "(/lib/asyncio/base_events.py:451) at 10000",
                           "pid 1 / MainThread: main (app.py:8), 1, BaseEventLoop.create_task "
                           "(/lib/asyncio/base_events.py:451) at 12000"};
    }
    void rules()
    {
        QFETCH(QByteArray, text);
        QFETCH(QStringList, tasks);
        const LoadResult r = loadText(text);
        QVERIFY2(r.ok(), r.error.message.c_str());
        const Profile& p = *r.profile;
        QStringList got;
        for (MeasurementId id = 0; id < p.measurementCount(); ++id) {
            const Measurement& m = p.measurement(id);
            if (!m.isAsync())
                continue;
            const QString creator = m.creator != kNone ? qstr(p.labelName(p.measurement(m.creator).label))
                : (m.flags & CreatorUnknown)          ? QStringLiteral("unknown")
                                                       : QStringLiteral("none");
            got << QStringLiteral("%1: %2, %3, %4 at %5")
                       .arg(qstr(p.string(p.track(m.track).name)), qstr(p.labelName(m.label)))
                       .arg(p.intervalsOf(id).size())
                       .arg(creator)
                       .arg(m.created);
        }
        QCOMPARE(got, tasks);
    }
};

QTEST_GUILESS_MAIN(TestAsyncioTasks)
#include "tst_asynciotasks.moc"
