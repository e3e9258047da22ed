// The JS function that created each Node async resource, from a V8 CPU
// profile added to its trace (CreatingFunctions): small traces for each rule,
// and the recorded sample's figures.
#include "testsupport.h"

#include <QTemporaryDir>
#include <QtTest>

#include <map>

using namespace runlane;
using runlane::test::dataPath;
using runlane::test::qstr;
using runlane::test::writeTemp;

namespace {

// Samples (µs, V8's clock, the trace's): 1000 and 1010 in main > emit >
// the tracing hook, 1020 idle, 1030 and 1040 in tick > the hook; the
// profile ends at 1050.
const QByteArray kProfile = JSON({"nodes": [
    {"id": 1, "callFrame": {"functionName": "(root)", "url": "", "lineNumber": -1}, "children": [2, 5, 6]},
    {"id": 2, "callFrame": {"functionName": "main", "url": "file:///app.js", "lineNumber": 4}, "children": [3]},
    {"id": 3, "callFrame": {"functionName": "emit", "url": "node:events", "lineNumber": 9}, "children": [4]},
    {"id": 4, "callFrame": {"functionName": "init", "url": "node:internal/trace_events_async_hooks", "lineNumber": 43}},
    {"id": 5, "callFrame": {"functionName": "(idle)", "url": "", "lineNumber": -1}},
    {"id": 6, "callFrame": {"functionName": "tick", "url": "node:internal/process/task_queues", "lineNumber": 70}, "children": [7]},
    {"id": 7, "callFrame": {"functionName": "init", "url": "node:internal/trace_events_async_hooks", "lineNumber": 43}}],
    "startTime": 1000, "endTime": 1050, "samples": [4, 4, 5, 7, 7], "timeDeltas": [0, 10, 10, 10, 10]});

QByteArray resource(const char* type, int ts, int id)
{
    return QByteArray("{\"ph\":\"b\",\"cat\":\"node,node.async_hooks\",\"name\":\"") + type
        + "\",\"pid\":1,\"tid\":1,\"ts\":" + QByteArray::number(ts) + ",\"id\":\"0x" + QByteArray::number(id, 16)
        + "\",\"args\":{\"data\":{\"executionAsyncId\":1,\"triggerAsyncId\":1}}}";
}

QByteArray trace(const QList<QByteArray>& events)
{
    return "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"run\",\"pid\":1,\"tid\":1,\"ts\":800,\"dur\":900},"
        + events.join(',') + "]}";
}

// The tasks' labels as "label created-at-µs", in creation order.
QStringList taskLabels(const Profile& p)
{
    QStringList out;
    for (const Measurement& m : p.measurements()) {
        if (m.isAsync())
            out << QStringLiteral("%1 %2").arg(qstr(p.labelText(m.label))).arg(m.created / 1000);
    }
    return out;
}

LoadResult loadAdding(const QString& trace, const QString& profile)
{
    LoadControl control;
    if (!profile.isEmpty())
        control.additions.push_back(ProfileAddition{profile.toStdString(), ProfileAddition::Thread{1, 1}});
    return ProfileLoader::load(trace, control);
}

} // namespace

class TestCreatingFunctions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rules_data()
    {
        QTest::addColumn<QList<QByteArray>>("events");
        QTest::addColumn<QStringList>("labels");
        QTest::newRow("the program's function under internals")
            << QList<QByteArray>{resource("Timeout", 1005, 2)} << QStringList{"Timeout · main (file:///app.js:5) 1005"};
        QTest::newRow("two resources of one kind and function share a label")
            << QList<QByteArray>{resource("Timeout", 1005, 2), resource("Timeout", 1012, 3)}
            << QStringList{"Timeout · main (file:///app.js:5) 1005", "Timeout · main (file:///app.js:5) 1012"};
        QTest::newRow("only Node's internals: the innermost but the hook")
            << QList<QByteArray>{resource("PROMISE", 1035, 2)}
            << QStringList{"PROMISE · tick (node:internal/process/task_queues:71) 1035"};
        QTest::newRow("idle: no function") << QList<QByteArray>{resource("TickObject", 1025, 2)}
                                           << QStringList{"TickObject 1025"};
        QTest::newRow("before and after the profile: no function")
            << QList<QByteArray>{resource("Timeout", 900, 2), resource("Timeout", 1500, 3)}
            << QStringList{"Timeout 900", "Timeout 1500"};
        QTest::newRow("a sample holds until the next one")
            << QList<QByteArray>{resource("Timeout", 1019, 2), resource("Timeout", 1020, 3)}
            << QStringList{"Timeout · main (file:///app.js:5) 1019", "Timeout 1020"};
    }
    void rules()
    {
        QFETCH(QList<QByteArray>, events);
        QFETCH(QStringList, labels);
        QTemporaryDir dir;
        const QString profile = writeTemp(dir, kProfile, QStringLiteral("app.cpuprofile"));
        const QString path = writeTemp(dir, trace(events));
        const LoadResult r = loadAdding(path, profile);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(taskLabels(*r.profile), labels);

        // Without the profile, the kinds alone.
        const LoadResult alone = loadAdding(path, QString());
        QVERIFY2(alone.ok(), alone.error.toString().c_str());
        for (const QString& label : taskLabels(*alone.profile))
            QVERIFY2(!label.contains(QStringLiteral(" · ")), qPrintable(label));
    }

    // The recorded run (5,604 tasks, 5,526 of them async resources): its
    // CPU profile names the function that created 4,320 of the resources, e.g. 461
    // promises in the program's handleRequest, 49 in its main; 892 promises
    // were created while only V8's pseudo-frames or the tracing hooks were
    // sampled.
    void sample_data()
    {
        QTest::addColumn<QString>("label");
        QTest::addColumn<int>("count");
        QTest::newRow("handleRequest's promises") << "PROMISE · handleRequest (file:///home/dev/app/http-async-hooks.js:7)" << 461;
        QTest::newRow("main's promises") << "PROMISE · main (file:///home/dev/app/http-async-hooks.js:18)" << 49;
        QTest::newRow("promises of no known function") << "PROMISE" << 892;
    }
    void sample()
    {
        QFETCH(QString, label);
        QFETCH(int, count);
        LoadControl control;
        control.additions.push_back(ProfileAddition{dataPath(QStringLiteral("samples/node/http-async-hooks.cpuprofile")).toStdString(), {}});
        const LoadResult r = ProfileLoader::load(dataPath(QStringLiteral("samples/node/http-async-hooks.trace.json")), control);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        std::map<QString, int> counts;
        int named = 0;
        int tasks = 0;
        for (const Measurement& m : r.profile->measurements()) {
            if (!m.isAsync())
                continue;
            ++tasks;
            const QString text = qstr(r.profile->labelText(m.label));
            ++counts[text];
            named += text.contains(QStringLiteral(" · ")) ? 1 : 0;
        }
        QCOMPARE(counts[label], count);
        QCOMPARE(tasks, 5604);
        QCOMPARE(named, 4320);
    }
};

QTEST_GUILESS_MAIN(TestCreatingFunctions)
#include "tst_creatingfunctions.moc"
