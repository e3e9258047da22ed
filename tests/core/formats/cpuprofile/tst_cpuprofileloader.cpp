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
// last the median of the positive gaps, never past endTime), self time to
// the leaf, total time once per sample to every distinct frame on the stack.
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
    for (std::size_t i = 0; i + 1 < p.samples.size(); ++i) {
        if (p.samples[i + 1].first > p.samples[i].first)
            gaps.push_back(p.samples[i + 1].first - p.samples[i].first);
    }
    std::sort(gaps.begin(), gaps.end());
    const std::size_t n = gaps.size();
    const qint64 median = n == 0 ? 0 : n % 2 == 1 ? gaps[n / 2] : gaps[n / 2 - 1] + (gaps[n / 2] - gaps[n / 2 - 1]) / 2;
    for (std::size_t i = 0; i < p.samples.size(); ++i) {
        const qint64 t = p.samples[i].first;
        qint64 weight = median;
        if (i + 1 < p.samples.size())
            weight = p.samples[i + 1].first - t;
        else if (p.end >= 0)
            weight = std::clamp<qint64>(p.end - t, 0, median);
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

// One profile, a(2) -> b(3) under V8's (root), as a `.cpuprofile`, as a
// trace with Profile and ProfileChunk events (parent links, the samples in
// two chunks, endTime in the last) or as a trace with one CpuProfile event
// (children links); startTime 1000 µs, `end` -1 for no endTime.
QByteArray v8Text(const QString& form, const QList<int>& deltas, const QList<int>& samples, qint64 end)
{
    const bool children = form == "CpuProfile";
    QJsonArray nodes;
    const char* names[] = {"(root)", "a", "b"};
    for (int id = 1; id <= 3; ++id) {
        QJsonObject node{{"id", id}, {"callFrame", QJsonObject{{"functionName", names[id - 1]}, {"url", ""}, {"lineNumber", -1}}}};
        if (children && id < 3)
            node["children"] = QJsonArray{id + 1};
        else if (!children && id > 1)
            node["parent"] = id - 1;
        nodes.append(node);
    }
    const auto array = [](const QList<int>& values) {
        QJsonArray a;
        for (const int v : values)
            a.append(v);
        return a;
    };
    QJsonObject profile{{"nodes", nodes}, {"samples", array(samples)}, {"timeDeltas", array(deltas)}, {"startTime", 1000}};
    if (end >= 0)
        profile["endTime"] = end;
    if (form == "cpuprofile")
        return QJsonDocument(profile).toJson(QJsonDocument::Compact);
    const QJsonObject task{{"ph", "X"}, {"name", "RunTask"}, {"pid", 1}, {"tid", 1}, {"ts", 1000}, {"dur", 10}};
    if (form == "CpuProfile") {
        const QJsonObject e{{"ph", "I"}, {"name", "CpuProfile"}, {"pid", 1}, {"tid", 1}, {"ts", 9000},
                            {"args", QJsonObject{{"data", QJsonObject{{"cpuProfile", profile}}}}}};
        return QJsonDocument(QJsonArray{task, e}).toJson(QJsonDocument::Compact);
    }
    const QJsonObject start{{"ph", "P"}, {"name", "Profile"}, {"pid", 1}, {"tid", 1}, {"ts", 1000}, {"id", "0x1"},
                            {"args", QJsonObject{{"data", QJsonObject{{"startTime", 1000}}}}}};
    QJsonArray events{task, start};
    const qsizetype half = samples.size() / 2;
    for (const bool first : {true, false}) {
        QJsonObject cpu{{"samples", array(first ? samples.mid(0, half) : samples.mid(half))}};
        if (first)
            cpu["nodes"] = nodes;
        QJsonObject data{{"cpuProfile", cpu}, {"timeDeltas", array(first ? deltas.mid(0, half) : deltas.mid(half))}};
        if (!first && end >= 0)
            data["endTime"] = end;
        events.append(QJsonObject{{"ph", "P"}, {"name", "ProfileChunk"}, {"pid", 1}, {"tid", 1}, {"ts", 1000}, {"id", "0x1"},
                                  {"args", QJsonObject{{"data", data}}}});
    }
    return QJsonDocument(events).toJson(QJsonDocument::Compact);
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

    // How long the last sample lasts, which no delta says (docs/formats.md,
    // "V8 CPU profile"): the profile's median interval (of its positive
    // sample-to-sample gaps), never past endTime; an endTime more than 10
    // intervals after it is warned about. The same profile as a
    // .cpuprofile, as ProfileChunk events and as one CpuProfile event
    // (Chrome <= 66): a(2) -> b(3), samples at 1.5, 2.5, 3.5 and 7.5 ms
    // from deltas 500, 1000, 1000, 4000 µs (gaps 1, 1, 4 ms: median 1 ms,
    // mean 2 ms), the first three in a, the last in b. So b's total is the
    // last sample's length, and a's is 6 ms more.
    void lastSample_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<qint64>("last"); // b's total, ns
        QTest::addColumn<qint64>("a"); // a's total, ns
        QTest::addColumn<QString>("warning"); // "" for none
        const QList<int> deltas{500, 1000, 1000, 4000};
        const QList<int> samples{2, 2, 2, 3};
        const QString far = QStringLiteral("CPU profile ends long after its last sample");
        for (const QString form : {"cpuprofile", "ProfileChunk", "CpuProfile"}) {
            const QString whose = form == "cpuprofile" ? QString() : QStringLiteral("the CPU profile of pid 1, tid 1: ");
            const auto row = [&](const char* name, const QList<int>& d, const QList<int>& s, qint64 end, qint64 last, qint64 a,
                                 const QString& warning) {
                QTest::newRow(qPrintable(form + ", " + name))
                    << v8Text(form, d, s, end) << last << a << (warning.isEmpty() ? QString() : whose + warning);
            };
            // endTime 1.5 ms after the last sample: the median, 1 ms (it got 1.5 ms before).
            row("endTime close", deltas, samples, 9000, 1000000, 7000000, {});
            // endTime 50 ms after: 1 ms and a warning (it got 50 ms before).
            row("endTime far", deltas, samples, 57500, 1000000, 7000000,
                "the profile's endTime lies 50.000 ms after the last sample (50 intervals); "
                "the last sample was given the median interval, 1.000 ms");
            // Exactly 10 intervals is no warning; 1 µs more is.
            row("10 intervals", deltas, samples, 17500, 1000000, 7000000, {});
            row("just over 10 intervals", deltas, samples, 17501, 1000000, 7000000,
                "the profile's endTime lies 10.001 ms after the last sample (10 intervals); "
                "the last sample was given the median interval, 1.000 ms");
            // endTime 0.3 ms after, less than the median: 0.3 ms.
            row("endTime within the median", deltas, samples, 7800, 300000, 6300000, {});
            // endTime before the last sample: it lasts 0.
            row("endTime before the last sample", deltas, samples, 7000, 0, 6000000, {});
            // An endTime near the end of what a time holds: no overflow.
            row("endTime at the end of time", deltas, samples, 9000000000000000, 1000000, 7000000,
                "the profile's endTime lies 8999999999992.500 ms after the last sample (8999999999993 intervals); "
                "the last sample was given the median interval, 1.000 ms");
            // No endTime: the median.
            row("no endTime", deltas, samples, -1, 1000000, 7000000, {});
            // Two samples at one time are no interval: of gaps 0, 0, 1, 3 ms
            // the median is that of 1 and 3, 2 ms (it got 1 ms before, the
            // upper middle of all four).
            row("zero gaps left out", {500, 0, 0, 1000, 3000}, {2, 2, 2, 2, 3}, -1, 2000000, 6000000, {});
            // A lone sample has no interval: it lasts 0, as in speedscope
            // (it got the 7.5 ms to endTime before).
            row("one sample", {500}, {3}, 9000, 0, 0, {});
        }
    }
    void lastSample()
    {
        QFETCH(QByteArray, text);
        QFETCH(qint64, last);
        QFETCH(qint64, a);
        QFETCH(QString, warning);
        const LoadResult r = loadText(text);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        const RankTable rank = RankTable::compute(MeasurementMetrics(p));
        std::map<QString, qint64> totals;
        for (const RankRow& row : rank.rows())
            totals[runlane::test::qstr(p.labelName(row.label))] = qint64(row.total);
        QCOMPARE(totals["b"], last);
        QCOMPARE(totals["a"], a);
        const Diagnostics& d = p.diagnostics();
        const std::string kind = "CPU profile ends long after its last sample";
        QCOMPARE(d.warningKinds().count(kind), std::size_t(warning.isEmpty() ? 0 : 1));
        QCOMPARE(QString::fromStdString(d.firstMessage(kind)), warning);
    }

    // A real DevTools recording (firefox-test.chrome-unchunked.json, one
    // CpuProfile event): 20 samples over 1.23 s, then endTime 6.035466 s
    // after the last one. The last sample, in hookedCallback, used to take
    // all of that (hookedCallback 6234.079 ms in all); it now lasts the
    // median of the 19 gaps, 7.118 ms, and the load warns: 6234.079 -
    // 6035.466 + 7.118 = 205.731 ms.
    void realProfileEndingLate()
    {
        const LoadResult r =
            ProfileLoader::load(dataPath("samples/chrome-trace/devtools-samples/firefox-test.chrome-unchunked.json"));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        const RankTable rank = RankTable::compute(MeasurementMetrics(p));
        qint64 total = -1;
        for (const RankRow& row : rank.rows()) {
            if (p.labelName(row.label) == "hookedCallback")
                total = qint64(row.total);
        }
        QCOMPARE(total, qint64(205731000));
        QCOMPARE(p.diagnostics().firstMessage("CPU profile ends long after its last sample"),
                 std::string("the CPU profile of pid 19485, tid 19517: the profile's endTime lies 6035.466 ms after the last "
                             "sample (848 intervals); the last sample was given the median interval, 7.118 ms"));
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
