#include "measurementmetrics.h"
#include "ranktable.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <map>
#include <set>

using namespace runlane;
using runlane::test::dataPath;
using runlane::test::loadText;

namespace {

// An independent reading of V8 CPU profiles (formats.md (f)), the plain
// way: a DOM, parent links, each sample weighing the time to the next (the
// last until endTime, or the median gap), self time to the leaf, total
// time once per sample to every distinct frame on the stack.
struct Figures {
    std::size_t samples = 0;
    std::map<QString, qint64> self;
    std::map<QString, qint64> total;
};

struct V8Profile {
    std::map<qint64, std::pair<QString, qint64>> nodes; // id -> (key, parent)
    std::vector<std::pair<qint64, qint64>> samples; // (time ns, node)
    qint64 end = -1;
};

QString keyOf(const QJsonObject& frame)
{
    const QString name = frame.value("functionName").toString();
    const QString url = frame.value("url").toString();
    if (name == "(root)" && url.isEmpty())
        return {};
    const qint64 line = frame.value("lineNumber").toInteger(-1);
    return (name.isEmpty() ? QStringLiteral("(anonymous)") : name) + '|' + url + '|' + QString::number(line >= 0 ? line + 1 : 0);
}

void addNodes(V8Profile& p, const QJsonArray& nodes)
{
    for (const QJsonValue& v : nodes) {
        const QJsonObject n = v.toObject();
        const qint64 id = n.value("id").toInteger();
        auto& node = p.nodes[id];
        node.first = keyOf(n.value("callFrame").toObject());
        if (n.contains("parent"))
            node.second = n.value("parent").toInteger();
        else if (!p.nodes.count(id) || node.second == 0)
            node.second = node.second; // set by a parent's children list, if any
        for (const QJsonValue& c : n.value("children").toArray())
            p.nodes[c.toInteger()].second = id;
    }
}

Figures figuresOf(const V8Profile& p)
{
    Figures f;
    f.samples = p.samples.size();
    std::vector<qint64> gaps;
    for (std::size_t i = 0; i + 1 < p.samples.size(); ++i)
        gaps.push_back(p.samples[i + 1].first - p.samples[i].first);
    std::sort(gaps.begin(), gaps.end());
    for (std::size_t i = 0; i < p.samples.size(); ++i) {
        const qint64 t = p.samples[i].first;
        qint64 weight = 0;
        if (i + 1 < p.samples.size())
            weight = p.samples[i + 1].first - t;
        else if (p.end >= 0)
            weight = std::max<qint64>(0, p.end - t);
        else if (!gaps.empty())
            weight = gaps[gaps.size() / 2];
        std::set<QString> onStack;
        bool leaf = true;
        for (qint64 n = p.samples[i].second; p.nodes.count(n); n = p.nodes.at(n).second) {
            const QString key = p.nodes.at(n).first;
            if (key.isEmpty())
                continue;
            if (leaf)
                f.self[key] += weight;
            leaf = false;
            onStack.insert(key);
            if (onStack.size() > 10000)
                break;
        }
        for (const QString& key : onStack)
            f.total[key] += weight;
    }
    return f;
}

Figures fromCpuProfile(const QString& path)
{
    QFile file(path);
    file.open(QIODevice::ReadOnly);
    const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
    V8Profile p;
    if (o.contains("head")) { // the legacy form: a nested tree, absolute timestamps
        std::function<void(const QJsonObject&, qint64)> walk = [&](const QJsonObject& n, qint64 parent) {
            const qint64 id = n.value("id").toInteger();
            p.nodes[id] = {keyOf(n), parent};
            for (const QJsonValue& c : n.value("children").toArray())
                walk(c.toObject(), id);
        };
        walk(o.value("head").toObject(), 0);
        const QJsonArray samples = o.value("samples").toArray();
        const QJsonArray stamps = o.value("timestamps").toArray();
        for (qsizetype i = 0; i < std::min(samples.size(), stamps.size()); ++i)
            p.samples.emplace_back(stamps[i].toInteger() * 1000, samples[i].toInteger());
        return figuresOf(p);
    }
    addNodes(p, o.value("nodes").toArray());
    qint64 t = o.value("startTime").toInteger() * 1000;
    qint64 last = INT64_MIN;
    const QJsonArray samples = o.value("samples").toArray();
    const QJsonArray deltas = o.value("timeDeltas").toArray();
    for (qsizetype i = 0; i < samples.size(); ++i) {
        t += deltas[i].toInteger() * 1000;
        last = std::max(last, t); // a negative delta holds the sample back
        p.samples.emplace_back(last, samples[i].toInteger());
    }
    p.end = o.value("endTime").toInteger() * 1000;
    return figuresOf(p);
}

// The samples of one thread of a DevTools recording: Profile and
// ProfileChunk events with parent links.
Figures fromTrace(const QString& path)
{
    QFile file(path);
    file.open(QIODevice::ReadOnly);
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll());
    const QJsonArray events = doc.isArray() ? doc.array() : doc.object().value("traceEvents").toArray();
    V8Profile p;
    qint64 t = 0;
    qint64 last = INT64_MIN;
    for (const QJsonValue& v : events) {
        const QJsonObject e = v.toObject();
        const QJsonObject data = e.value("args").toObject().value("data").toObject();
        if (e.value("name") == "Profile") {
            t = data.value("startTime").toInteger() * 1000;
        } else if (e.value("name") == "ProfileChunk") {
            const QJsonObject cpu = data.value("cpuProfile").toObject();
            addNodes(p, cpu.value("nodes").toArray());
            const QJsonArray samples = cpu.value("samples").toArray();
            const QJsonArray deltas = data.value("timeDeltas").toArray();
            for (qsizetype i = 0; i < samples.size(); ++i) {
                t += deltas[i].toInteger() * 1000;
                last = std::max(last, t);
                p.samples.emplace_back(last, samples[i].toInteger());
            }
        }
    }
    return figuresOf(p);
}

} // namespace

class TestCpuProfileLoader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Every V8 sample file: the sample count and, for the five labels with
    // the most self time, self and total time as the independent reading
    // above computes them.
    void figures_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("trace");
        QTest::addColumn<int>("samples");
        QTest::addColumn<QString>("top"); // the label with the most self time
        QTest::newRow("chrome65") << "cpuprofile/chrome65-simple.cpuprofile" << false << 29 << "d||14";
        QTest::newRow("node10 (legacy)") << "cpuprofile/node10-example.cpuprofile" << false << 29 << "d||14";
        QTest::newRow("node hello") << "cpuprofile/node-hello.cjs.cpuprofile" << false << 150
                                    << "compileForInternalLoader|node:internal/bootstrap/loaders|316";
        QTest::newRow("node http") << "node/http-async-hooks.cpuprofile" << false << 734
                                   << "update|node:internal/crypto/hash|132";
        QTest::newRow("chrome85 trace") << "chrome-trace/devtools-samples/chrome85-esbuild.json" << true << 0 << "";
    }
    void figures()
    {
        QFETCH(QString, file);
        QFETCH(bool, trace);
        QFETCH(int, samples);
        QFETCH(QString, top);
        const QString path = dataPath("samples/" + file);
        const Figures expected = trace ? fromTrace(path) : fromCpuProfile(path);
        if (!trace)
            QCOMPARE(int(expected.samples), samples);
        const LoadResult r = ProfileLoader::load(path);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        const RankTable rank = RankTable::compute(MeasurementMetrics(p));
        std::map<QString, const RankRow*> rows;
        for (const RankRow& row : rank.rows()) {
            const Label& l = p.label(row.label);
            rows[runlane::test::qstr(p.labelName(row.label)) + '|' + runlane::test::qstr(p.string(l.file)) + '|'
                 + QString::number(l.line)] = &row;
        }
        std::vector<std::pair<qint64, QString>> bySelf;
        for (const auto& [key, self] : expected.self)
            bySelf.emplace_back(self, key);
        std::sort(bySelf.rbegin(), bySelf.rend());
        QVERIFY(bySelf.size() >= 2); // d and (anonymous) in the smallest
        if (!top.isEmpty())
            QCOMPARE(bySelf.front().second, top);
        for (std::size_t i = 0; i < std::min<std::size_t>(5, bySelf.size()); ++i) {
            const QString& key = bySelf[i].second;
            QVERIFY2(rows.count(key), qPrintable(key));
            QCOMPARE(qint64(rows[key]->exec), expected.self.at(key));
            QCOMPARE(qint64(rows[key]->total), expected.total.at(key));
        }
        // Only V8's own pseudo-frames differ in kind: "(idle)" is idle.
        for (LabelId l = 0; l < p.labelCount(); ++l)
            QCOMPARE(p.isIdle(l), p.labelName(l) == "(idle)" && p.label(l).file == kEmptyString);
    }

    // The samples track sits right under the thread that recorded it.
    void samplesTrackFollowsItsThread()
    {
        const LoadResult r = ProfileLoader::load(dataPath("samples/chrome-trace/devtools-samples/chrome85-esbuild.json"));
        QVERIFY(r.ok());
        const Profile& p = *r.profile;
        int found = 0;
        for (TrackId t = 0; t < p.trackCount(); ++t) {
            if (p.track(t).kind != TrackKind::Samples)
                continue;
            ++found;
            QVERIFY(t > 0);
            QCOMPARE(p.track(t - 1).kind, TrackKind::Thread);
            QCOMPARE(p.track(t - 1).tid, p.track(t).tid);
            QCOMPARE(p.track(t - 1).pid, p.track(t).pid);
            QCOMPARE(runlane::test::qstr(p.string(p.track(t).name)), QStringLiteral("Renderer / CrRendererMain (samples)"));
        }
        QCOMPARE(found, 1);
    }

    // Broken V8 input: a clear error for a file, a warning (the trace stays)
    // for a bad profile event inside a trace.
    void errors_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message"); // error, or the warning's kind
        QTest::newRow("no nodes") << JSON({"nodes": [], "samples": [], "timeDeltas": []})
                                  << "a V8 CPU profile needs 'nodes', the call tree; this file has none";
        QTest::newRow("node without id") << JSON({"nodes": [{"callFrame": {}}]}) << "node #0 has no 'id'";
        QTest::newRow("cycle") << JSON({"nodes": [{"id": 1, "parent": 2}, {"id": 2, "parent": 1}], "samples": [1], "timeDeltas": [1]})
                               << "the parent links of the sample tree form a cycle through node 1";
        QTest::newRow("string sample") << JSON({"nodes": [{"id": 1}], "samples": ["x"], "timeDeltas": [1]})
                                       << "expected a number in 'samples', found \"x\"";
        QTest::newRow("twice") << JSON({"nodes": [{"id": 1}, {"id": 1}], "samples": [1], "timeDeltas": [1]})
                               << "node id 1 is given twice";
        QTest::newRow("two parents")
            << JSON({"nodes": [{"id": 1}, {"id": 2, "children": [3]}, {"id": 3, "parent": 1}], "samples": [3], "timeDeltas": [1]})
            << "node 3 has two parents, 2 and 1";
        QTest::newRow("bad chunk in a trace")
            << JSON([{"ph": "X", "name": "RunTask", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
                     {"ph": "P", "name": "ProfileChunk", "pid": 1, "tid": 1, "ts": 1, "id": "0x1", "args": {"data": {"cpuProfile": {"nodes": 5}}}}])
            << "bad CPU profile event";
    }
    void errors()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        const LoadResult r = loadText(text);
        if (!r.ok()) {
            QCOMPARE(QString::fromStdString(r.error.message), message);
            return;
        }
        QCOMPARE(r.profile->intervalCount(), std::size_t(1)); // the RunTask
        QCOMPARE(r.profile->diagnostics().warningKinds().count(message.toStdString()), std::size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestCpuProfileLoader)
#include "tst_cpuprofileloader.moc"
