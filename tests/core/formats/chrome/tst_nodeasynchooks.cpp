// Node.js async_hooks traces as tasks (NodeAsyncHooks, formats.md (j)): the
// recorded sample checked against a second reading of the file with Qt's
// JSON and plain loops, and small traces for each rule.
#include "measurementmetrics.h"
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

const QString kNodeTrace = QStringLiteral("samples/node/http-async-hooks.trace.json");
const QString kCallback = QStringLiteral("_CALLBACK");

// What the file says, read without the loader: resources by id, and each
// thread interval (X, B/E, callbacks) with its self time.
struct Reference {
    struct Resource {
        QString type;
        double init = -1;
        bool destroyed = false;
        QString execution; // the creator's id, "" for the main script
        QString trigger;
    };
    std::map<QString, Resource> resources; // by id text
    std::map<QString, int> countByType;
    std::map<QString, double> execByType; // µs
    int unfinishedPromises = 0;
};

QString hexId(qint64 id)
{
    return QStringLiteral("0x") + QString::number(id, 16);
}

Reference readReference(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QJsonArray events = QJsonDocument::fromJson(file.readAll()).object().value(QLatin1String("traceEvents")).toArray();
    Reference ref;
    struct Span {
        double start;
        double end;
        QString type; // a callback's resource type, else ""
    };
    std::vector<Span> spans;
    std::map<QString, double> openCallback;
    std::vector<std::pair<double, bool>> be; // B/E on the thread, in file order
    for (const QJsonValue& v : events) {
        const QJsonObject e = v.toObject();
        const QString ph = e.value(QLatin1String("ph")).toString();
        const double ts = e.value(QLatin1String("ts")).toDouble();
        const QString name = e.value(QLatin1String("name")).toString();
        if (ph == QLatin1String("X")) {
            spans.push_back({ts, ts + e.value(QLatin1String("dur")).toDouble(), {}});
            continue;
        }
        if (ph == QLatin1String("B") || ph == QLatin1String("E")) {
            be.push_back({ts, ph == QLatin1String("B")});
            continue;
        }
        if (!e.value(QLatin1String("cat")).toString().split(QLatin1Char(',')).contains(QLatin1String("node.async_hooks")))
            continue;
        const QString id = e.value(QLatin1String("id")).toString();
        if (id == QLatin1String("0xffffffffffffffff"))
            continue;
        if (name.endsWith(kCallback)) {
            if (ph == QLatin1String("b"))
                openCallback[id] = ts;
            else
                spans.push_back({openCallback[id], ts, name.chopped(kCallback.size())});
            continue;
        }
        Reference::Resource& r = ref.resources[id];
        r.type = name;
        if (ph == QLatin1String("b")) {
            r.init = ts;
            const QJsonObject data = e.value(QLatin1String("args")).toObject().value(QLatin1String("data")).toObject();
            const qint64 execution = data.value(QLatin1String("executionAsyncId")).toInteger();
            const qint64 trigger = data.value(QLatin1String("triggerAsyncId")).toInteger();
            r.execution = execution > 1 ? hexId(execution) : QString();
            r.trigger = trigger > 1 ? hexId(trigger) : QString();
        } else {
            r.destroyed = true;
        }
    }
    // B/E nest in file order here (one thread, written in order).
    std::vector<double> open;
    for (const auto& [ts, begin] : be) {
        if (begin) {
            open.push_back(ts);
        } else {
            spans.push_back({open.back(), ts, {}});
            open.pop_back();
        }
    }
    // Self time: a span minus its direct children (outer first when two
    // start together).
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
        return a.start != b.start ? a.start < b.start : a.end > b.end;
    });
    std::vector<std::size_t> stack;
    std::vector<double> self(spans.size());
    for (std::size_t i = 0; i < spans.size(); ++i)
        self[i] = spans[i].end - spans[i].start;
    for (std::size_t i = 0; i < spans.size(); ++i) {
        while (!stack.empty() && spans[stack.back()].end <= spans[i].start)
            stack.pop_back();
        if (!stack.empty())
            self[stack.back()] -= spans[i].end - spans[i].start;
        stack.push_back(i);
    }
    for (std::size_t i = 0; i < spans.size(); ++i) {
        if (!spans[i].type.isEmpty())
            ref.execByType[spans[i].type] += self[i];
    }
    for (const auto& [id, r] : ref.resources) {
        ++ref.countByType[r.type];
        if (r.type == QLatin1String("PROMISE") && !r.destroyed)
            ++ref.unfinishedPromises;
    }
    return ref;
}

// The loaded profile's async tasks on the thread, per label.
std::map<QString, int> taskCounts(const Profile& p)
{
    std::map<QString, int> counts;
    for (MeasurementId m = 0; m < p.measurementCount(); ++m) {
        const Measurement& mm = p.measurement(m);
        if (mm.isAsync() && p.track(mm.track).kind == TrackKind::Thread)
            ++counts[qstr(p.labelName(mm.label))];
    }
    return counts;
}

// The task created at `initUs` with this label.
MeasurementId taskAt(const Profile& p, const QString& label, double initUs)
{
    for (MeasurementId m = 0; m < p.measurementCount(); ++m) {
        const Measurement& mm = p.measurement(m);
        if (mm.isAsync() && qstr(p.labelName(mm.label)) == label && mm.created == Time(initUs * 1000))
            return m;
    }
    return kNone;
}

} // namespace

class TestNodeAsyncHooks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sampleTasksByType_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<int>("count");
        // The counts of the recorded run (init events per type), also
        // checked against the second reading below.
        QTest::newRow("PROMISE") << "PROMISE" << 2983;
        QTest::newRow("TickObject") << "TickObject" << 1699;
        QTest::newRow("Timeout") << "Timeout" << 250;
        QTest::newRow("FSREQPROMISE") << "FSREQPROMISE" << 240;
        QTest::newRow("TCPWRAP") << "TCPWRAP" << 88;
        QTest::newRow("HTTPCLIENTREQUEST") << "HTTPCLIENTREQUEST" << 80;
        QTest::newRow("HTTPINCOMINGMESSAGE") << "HTTPINCOMINGMESSAGE" << 8;
        QTest::newRow("TCPSERVERWRAP") << "TCPSERVERWRAP" << 1;
    }
    void sampleTasksByType()
    {
        QFETCH(QString, type);
        QFETCH(int, count);
        const LoadResult r = ProfileLoader::load(dataPath(kNodeTrace));
        QVERIFY2(r.ok(), r.error.message.c_str());
        const std::map<QString, int> counts = taskCounts(*r.profile);
        QCOMPARE(counts.count(type) ? counts.at(type) : 0, count);
        const Reference ref = readReference(dataPath(kNodeTrace));
        QCOMPARE(ref.countByType.at(type), count);
    }

    void sampleMatchesSecondReading()
    {
        const LoadResult r = ProfileLoader::load(dataPath(kNodeTrace));
        QVERIFY2(r.ok(), r.error.message.c_str());
        const Profile& p = *r.profile;
        const Reference ref = readReference(dataPath(kNodeTrace));
        // Every type, every count: 5526 resources of 13 types.
        const std::map<QString, int> counts = taskCounts(p);
        QCOMPARE(counts, ref.countByType);
        int total = 0;
        for (const auto& [type, n] : counts)
            total += n;
        QCOMPARE(total, 5526);
        QCOMPARE(int(counts.size()), 13);

        // Exec per type: the callbacks' time less what ran inside them.
        const MeasurementMetrics metrics(p);
        std::map<QString, Time> exec;
        int unfinishedPromises = 0;
        for (MeasurementId m = 0; m < p.measurementCount(); ++m) {
            const Measurement& mm = p.measurement(m);
            if (!mm.isAsync() || p.track(mm.track).kind != TrackKind::Thread)
                continue;
            exec[qstr(p.labelName(mm.label))] += metrics.exec(m);
            if (qstr(p.labelName(mm.label)) == QLatin1String("PROMISE") && mm.finalState() == FinalState::Unfinished)
                ++unfinishedPromises;
        }
        QCOMPARE(exec.at(QStringLiteral("Timeout")), Time(ref.execByType.at(QStringLiteral("Timeout")) * 1000));
        QCOMPARE(exec.at(QStringLiteral("TickObject")), Time(ref.execByType.at(QStringLiteral("TickObject")) * 1000));
        QCOMPARE(exec.at(QStringLiteral("Timeout")), Time(368'000));
        QCOMPARE(exec.at(QStringLiteral("TickObject")), Time(34'806'000));
        for (const auto& [type, us] : ref.execByType)
            QCOMPARE(exec.at(type), Time(us * 1000));
        QCOMPARE(unfinishedPromises, ref.unfinishedPromises);
        QCOMPARE(unfinishedPromises, 85);

        // Creators and triggers, resource by resource.
        std::map<double, MeasurementId> byInit;
        int creators = 0;
        int triggers = 0;
        for (const auto& [id, res] : ref.resources) {
            const MeasurementId m = taskAt(p, res.type, res.init);
            QVERIFY2(m != kNone, qPrintable(id));
            const Measurement& mm = p.measurement(m);
            if (res.execution.isEmpty()) {
                QCOMPARE(mm.creator, kNone);
            } else {
                const Reference::Resource& c = ref.resources.at(res.execution);
                QCOMPARE(mm.creator, taskAt(p, c.type, c.init));
                ++creators;
            }
            if (!res.trigger.isEmpty() && res.trigger != res.execution) {
                const Reference::Resource& t = ref.resources.at(res.trigger);
                QCOMPARE(p.triggeredBy(m), taskAt(p, t.type, t.init));
                ++triggers;
            } else {
                QVERIFY2(p.triggeredBy(m) == kNone, qPrintable(id + QLatin1Char(' ') + res.trigger + QLatin1Char(' ') + res.execution));
            }
        }
        QCOMPARE(int(p.triggers().size()), triggers);
        QCOMPARE(creators, 5433);
        QCOMPARE(triggers, 1573);
    }

    // A chosen resource: Timeout 0x9 was created in TickObject 0x8's
    // callback, which was itself created in TickObject 0x5's.
    void sampleChosenCreator()
    {
        const LoadResult r = ProfileLoader::load(dataPath(kNodeTrace));
        QVERIFY(r.ok());
        const Profile& p = *r.profile;
        const MeasurementId timeout = taskAt(p, QStringLiteral("Timeout"), 1420605544);
        QVERIFY(timeout != kNone);
        const MeasurementId tick = p.measurement(timeout).creator;
        QVERIFY(tick != kNone);
        QCOMPARE(qstr(p.labelName(p.measurement(tick).label)), QStringLiteral("TickObject"));
        QCOMPARE(p.measurement(tick).created, Time(1420605117) * 1000);
        const MeasurementId first = p.measurement(tick).creator;
        QCOMPARE(p.measurement(first).created, Time(1420602198) * 1000);
        QCOMPARE(p.measurement(first).creator, kNone); // created by the main script
        // PROMISE 0x6: created by the main script, triggered by PROMISE 0x3.
        const MeasurementId promise = taskAt(p, QStringLiteral("PROMISE"), 1420602319);
        QCOMPARE(p.measurement(promise).creator, kNone);
        QCOMPARE(p.triggeredBy(promise), taskAt(p, QStringLiteral("PROMISE"), 1420599687));
    }

    void sampleWarnings()
    {
        const LoadResult r = ProfileLoader::load(dataPath(kNodeTrace));
        QVERIFY(r.ok());
        const Diagnostics& d = r.profile->diagnostics();
        QCOMPARE(d.warningKinds().at("async resource never destroyed"), 1u);
        QCOMPARE(d.firstMessage("async resource never destroyed"),
                 std::string("166 async resources were never destroyed and stay unfinished (85 PROMISE, 72 TCPWRAP, 9 Timeout)"));
        QCOMPARE(d.firstMessage("async_hooks event without a resource id"),
                 std::string("16 async_hooks events have no resource id (Node writes -1 for a resource already "
                             "reset); they are ignored"));
        QCOMPARE(d.warningCount(), 2u);
    }

    // Small traces, one rule each: the tasks as "label created [intervals] state creator".
    void rules_data()
    {
        QTest::addColumn<QByteArray>("events");
        QTest::addColumn<QStringList>("tasks");
        QTest::addColumn<QStringList>("warnings");
        auto ev = [](const char* ph, const char* name, int ts, const char* id, const char* data = nullptr,
                     int tid = 1) {
            QByteArray e = QByteArray("{\"ph\":\"") + ph + "\",\"cat\":\"node,node.async_hooks\",\"name\":\"" + name
                + "\",\"pid\":1,\"tid\":" + QByteArray::number(tid) + ",\"ts\":" + QByteArray::number(ts)
                + ",\"id\":\"" + id + "\"";
            if (data)
                e += QByteArray(",\"args\":{\"data\":") + data + "}";
            return e + "}";
        };
        auto trace = [](const QList<QByteArray>& events) { return "{\"traceEvents\":[" + events.join(',') + "]}"; };
        const char* root = "{\"executionAsyncId\":1,\"triggerAsyncId\":1}";
        QTest::newRow("callbacks run, paused between, destroyed")
            << trace({ev("b", "Timeout", 10, "0x2", root), ev("b", "Timeout_CALLBACK", 20, "0x2"),
                      ev("e", "Timeout_CALLBACK", 25, "0x2"), ev("b", "Timeout_CALLBACK", 40, "0x2"),
                      ev("e", "Timeout_CALLBACK", 42, "0x2"), ev("e", "Timeout", 50, "0x2")})
            << QStringList{"Timeout 10 [20,25) [40,42) completed@50 root"} << QStringList{};
        QTest::newRow("created in a callback; nested callback")
            << trace({ev("b", "TickObject", 0, "0x5", root), ev("b", "TickObject_CALLBACK", 10, "0x5"),
                      ev("b", "PROMISE", 12, "0x6", "{\"executionAsyncId\":5,\"triggerAsyncId\":5}"),
                      ev("b", "PROMISE_CALLBACK", 14, "0x6"), ev("e", "PROMISE_CALLBACK", 16, "0x6"),
                      ev("e", "TickObject_CALLBACK", 20, "0x5"), ev("e", "TickObject", 30, "0x5"),
                      ev("e", "PROMISE", 31, "0x6")})
            << QStringList{"TickObject 0 [10,20) completed@30 root", "PROMISE 12 [14,16) completed@31 TickObject@0"}
            << QStringList{};
        QTest::newRow("never destroyed; duplicate destroy; id -1")
            << trace({ev("b", "PROMISE", 0, "0x2", root), ev("b", "PROMISE", 1, "0x3", root),
                      ev("b", "TCPWRAP", 2, "0x4", root), ev("e", "TCPWRAP", 5, "0x4"), ev("e", "TCPWRAP", 9, "0x4"),
                      ev("e", "HTTPINCOMINGMESSAGE", 6, "0xffffffffffffffff")})
            << QStringList{"PROMISE 0 unfinished root", "PROMISE 1 unfinished root", "TCPWRAP 2 completed@5 root"}
            << QStringList{"1 async_hooks events have no resource id (Node writes -1 for a resource already reset); "
                           "they are ignored",
                           "2 async resources were never destroyed and stay unfinished (2 PROMISE)"};
        QTest::newRow("created before the trace started: from its first callback")
            << trace({ev("b", "TCPWRAP_CALLBACK", 10, "0x9"), ev("e", "TCPWRAP_CALLBACK", 12, "0x9"),
                      ev("e", "TCPWRAP", 20, "0x9")})
            << QStringList{"TCPWRAP 10 [10,12) completed@20 root"} << QStringList{};
        QTest::newRow("async ids are per thread")
            << trace({ev("b", "Timeout", 0, "0x2", root, 1), ev("b", "Timeout", 1, "0x2", root, 2),
                      ev("b", "PROMISE", 2, "0x3", "{\"executionAsyncId\":2,\"triggerAsyncId\":2}", 2),
                      ev("e", "Timeout", 3, "0x2", nullptr, 1)})
            << QStringList{"Timeout 0 completed@3 root", "Timeout 1 unfinished root", "PROMISE 2 unfinished Timeout@1"}
            << QStringList{"2 async resources were never destroyed and stay unfinished (1 PROMISE, 1 Timeout)"};
        QTest::newRow("a callback that never ends ends with the profile")
            << trace({ev("b", "Timeout", 0, "0x2", root), ev("b", "Timeout_CALLBACK", 5, "0x2"),
                      ev("e", "Timeout_CALLBACK", 7, "0x3")})
            << QStringList{"Timeout 0 [5,7) unfinished root", "Timeout 7 unfinished root"}
            << QStringList{"1 callback ends have no begin; they are ignored",
                           "1 callbacks never end; they end with the profile",
                           "2 async resources were never destroyed and stay unfinished (2 Timeout)"};
    }
    void rules()
    {
        QFETCH(QByteArray, events);
        QFETCH(QStringList, tasks);
        QFETCH(QStringList, warnings);
        const LoadResult r = loadText(events);
        QVERIFY2(r.ok(), r.error.message.c_str());
        const Profile& p = *r.profile;
        QStringList got;
        for (MeasurementId m = 0; m < p.measurementCount(); ++m) {
            const Measurement& mm = p.measurement(m);
            QString text = qstr(p.labelName(mm.label)) + QLatin1Char(' ') + QString::number(mm.created / 1000);
            for (const IntervalId iv : p.intervalsOf(m)) {
                const Interval& i = p.interval(iv);
                text += QStringLiteral(" [%1,%2)").arg(i.start / 1000).arg(i.end / 1000);
            }
            text += mm.finalState() == FinalState::Unfinished ? QStringLiteral(" unfinished")
                                                              : QStringLiteral(" completed@%1").arg(mm.finished / 1000);
            if (mm.creator == kNone) {
                text += QStringLiteral(" root");
            } else {
                const Measurement& c = p.measurement(mm.creator);
                text += QStringLiteral(" %1@%2").arg(qstr(p.labelName(c.label))).arg(c.created / 1000);
            }
            got << text;
        }
        QCOMPARE(got, tasks);
        QStringList messages;
        for (const std::string& m : p.diagnostics().examples())
            messages << qstr(m);
        QCOMPARE(messages, warnings);
    }
};

QTEST_GUILESS_MAIN(TestNodeAsyncHooks)
#include "tst_nodeasynchooks.moc"
