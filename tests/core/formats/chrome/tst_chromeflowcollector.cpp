#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>
#include <map>
#include <tuple>

using namespace runlane;
using runlane::test::dataPath;
using runlane::test::loadText;
using runlane::test::qstr;

namespace {

// "from@µs>to@µs" per flow, by the names and start times of the slices it
// connects, sorted.
QStringList flowTexts(const Profile& p)
{
    auto end = [&p](IntervalId id) {
        const Interval& iv = p.interval(id);
        return QStringLiteral("%1@%2").arg(qstr(p.labelName(p.measurement(iv.measurement).label))).arg(iv.start / 1000);
    };
    QStringList out;
    for (const Flow& f : p.flows())
        out << end(f.from) + QLatin1Char('>') + end(f.to);
    out.sort();
    return out;
}

// A second reading of a trace's flows, with Qt's JSON and linear scans,
// written from formats.md rather than from the loader: what the loader's
// counts are checked against on the real files.
struct ReferenceFlows {
    int events = 0; // s, t and f events, and events with a bind_id
    int flows = 0;
    int unbound = 0;
};

ReferenceFlows referenceFlows(const QString& path)
{
    struct Slice {
        double start;
        double end;
    };
    struct Point {
        QString key;
        double ts;
        int order;
        char role; // 's', 't', 'f'
        int slice; // index into slices, -1 if none
    };
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll());
    const QJsonArray events = doc.isArray() ? doc.array() : doc.object().value(QLatin1String("traceEvents")).toArray();
    auto threadOf = [](const QJsonObject& e) {
        const qint64 pid = e.value(QLatin1String("pid")).toInteger();
        return std::make_pair(pid, e.contains(QLatin1String("tid")) ? e.value(QLatin1String("tid")).toInteger() : pid);
    };
    auto hexId = [](const QJsonValue& v) {
        if (v.isString()) {
            QString text = v.toString();
            if (text.startsWith(QLatin1String("0x"), Qt::CaseInsensitive))
                text = text.mid(2);
            bool ok = false;
            const qulonglong n = text.toULongLong(&ok, 16);
            return ok ? QString::number(n) : QLatin1Char('\'') + v.toString();
        }
        return QString::number(v.toInteger());
    };
    // Slices per thread; B/E matched on a stack in time order.
    std::vector<Slice> slices;
    std::map<std::pair<qint64, qint64>, std::vector<int>> byThread;
    std::map<std::pair<qint64, qint64>, std::vector<std::pair<double, int>>> beginEnds; // (ts, event index)
    std::map<int, int> sliceOfEvent;
    for (int i = 0; i < events.size(); ++i) {
        const QJsonObject e = events[i].toObject();
        const QString ph = e.value(QLatin1String("ph")).toString();
        const double ts = e.value(QLatin1String("ts")).toDouble();
        if (ph == QLatin1String("X")) {
            sliceOfEvent[i] = int(slices.size());
            byThread[threadOf(e)].push_back(int(slices.size()));
            slices.push_back(Slice{ts, ts + e.value(QLatin1String("dur")).toDouble()});
        } else if (ph == QLatin1String("B") || ph == QLatin1String("E")) {
            beginEnds[threadOf(e)].emplace_back(ts, i);
        }
    }
    for (auto& [thread, list] : beginEnds) {
        std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        std::vector<int> stack;
        for (const auto& [ts, i] : list) {
            if (events[i].toObject().value(QLatin1String("ph")).toString() == QLatin1String("B")) {
                stack.push_back(i);
            } else if (!stack.empty()) {
                const int b = stack.back();
                stack.pop_back();
                sliceOfEvent[b] = int(slices.size());
                byThread[thread].push_back(int(slices.size()));
                slices.push_back(Slice{events[b].toObject().value(QLatin1String("ts")).toDouble(), ts});
            }
        }
        // A B never closed lasts to the end of the profile.
        for (const int b : stack) {
            sliceOfEvent[b] = int(slices.size());
            byThread[thread].push_back(int(slices.size()));
            slices.push_back(Slice{events[b].toObject().value(QLatin1String("ts")).toDouble(), 1e300});
        }
    }
    auto enclosing = [&](const std::pair<qint64, qint64>& thread, double t) {
        int best = -1;
        for (const int s : byThread[thread]) {
            const Slice& x = slices[std::size_t(s)];
            if (!(x.start <= t && (t < x.end || x.start == x.end)))
                continue;
            // Innermost: the latest start, then the earliest end.
            if (best < 0 || std::tie(x.start, slices[std::size_t(best)].end) > std::tie(slices[std::size_t(best)].start, x.end))
                best = s;
        }
        return best;
    };
    auto next = [&](const std::pair<qint64, qint64>& thread, double t) {
        int best = -1;
        for (const int s : byThread[thread]) {
            const Slice& x = slices[std::size_t(s)];
            if (x.start < t)
                continue;
            // The earliest start, then the outermost.
            if (best < 0 || std::tie(x.start, slices[std::size_t(best)].end) < std::tie(slices[std::size_t(best)].start, x.end))
                best = s;
        }
        return best;
    };
    std::vector<Point> points;
    ReferenceFlows result;
    for (int i = 0; i < events.size(); ++i) {
        const QJsonObject e = events[i].toObject();
        const QString ph = e.value(QLatin1String("ph")).toString();
        const double ts = e.value(QLatin1String("ts")).toDouble();
        const bool v1 = ph == QLatin1String("s") || ph == QLatin1String("t") || ph == QLatin1String("f");
        result.events += v1 || e.contains(QLatin1String("bind_id")) ? 1 : 0;
        if (v1) {
            const QString key = e.value(QLatin1String("cat")).toString() + QLatin1Char('|')
                + e.value(QLatin1String("name")).toString() + QLatin1Char('|') + hexId(e.value(QLatin1String("id")));
            const bool next_ = ph == QLatin1String("f") && e.value(QLatin1String("bp")).toString() != QLatin1String("e");
            points.push_back(Point{key, ts, i, char(ph[0].toLatin1()),
                                   next_ ? next(threadOf(e), ts) : enclosing(threadOf(e), ts)});
        } else if (e.contains(QLatin1String("bind_id")) && sliceOfEvent.count(i)) {
            const bool in = e.value(QLatin1String("flow_in")).toBool();
            const bool out = e.value(QLatin1String("flow_out")).toBool();
            if (in || out)
                points.push_back(Point{QLatin1String("v2|") + hexId(e.value(QLatin1String("bind_id"))), ts, i,
                                       in && out ? 't' : out ? 's' : 'f', sliceOfEvent[i]});
        }
    }
    std::stable_sort(points.begin(), points.end(),
                     [](const Point& a, const Point& b) { return std::tie(a.key, a.ts, a.order) < std::tie(b.key, b.ts, b.order); });
    for (std::size_t k = 0; k < points.size();) {
        const QString key = points[k].key;
        int open = -1;
        bool openBound = false;
        for (; k < points.size() && points[k].key == key; ++k) {
            const Point& p = points[k];
            if (p.slice < 0) {
                ++result.unbound;
                continue;
            }
            if (p.role == 's') {
                result.unbound += open >= 0 && !openBound ? 1 : 0;
                open = p.slice;
                openBound = false;
            } else if (p.role == 't') {
                result.flows += open >= 0 ? 1 : 0;
                openBound = open >= 0;
                open = p.slice;
            } else if (open >= 0) {
                ++result.flows;
                openBound = true;
            } else {
                ++result.unbound;
            }
        }
        result.unbound += open >= 0 && !openBound ? 1 : 0;
    }
    return result;
}

} // namespace

class TestChromeFlowCollector : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Small traces, one rule each: the flows by the slices they connect.
    void binding_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("flows");
        QTest::addColumn<int>("unbound");

        QTest::newRow("s t f chain: s, t enclosing, f the next slice")
            << JSON([{"ph": "X", "name": "A", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
                     {"ph": "s", "name": "flow", "cat": "c", "id": 1, "pid": 1, "tid": 1, "ts": 5},
                     {"ph": "X", "name": "B", "pid": 1, "tid": 2, "ts": 20, "dur": 10},
                     {"ph": "t", "name": "flow", "cat": "c", "id": 1, "pid": 1, "tid": 2, "ts": 25},
                     {"ph": "X", "name": "C", "pid": 1, "tid": 3, "ts": 40, "dur": 10},
                     {"ph": "f", "name": "flow", "cat": "c", "id": 1, "pid": 1, "tid": 3, "ts": 35}])
            << QStringList{"A@0>B@20", "B@20>C@40"} << 0;
        QTest::newRow("f: the next slice, or with bp e the enclosing one")
            << JSON([{"ph": "X", "name": "A", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
                     {"ph": "s", "name": "n", "id": 1, "pid": 1, "tid": 1, "ts": 5},
                     {"ph": "s", "name": "e", "id": 1, "pid": 1, "tid": 1, "ts": 6},
                     {"ph": "X", "name": "P", "pid": 1, "tid": 2, "ts": 10, "dur": 90},
                     {"ph": "X", "name": "Q", "pid": 1, "tid": 2, "ts": 50, "dur": 10},
                     {"ph": "f", "name": "n", "id": 1, "pid": 1, "tid": 2, "ts": 40},
                     {"ph": "f", "name": "e", "id": 1, "pid": 1, "tid": 2, "ts": 40, "bp": "e"}])
            << QStringList{"A@0>P@10", "A@0>Q@50"} << 0;
        QTest::newRow("s and enclosing f: the innermost slice, a tie of starts the later one")
            << JSON([{"ph": "X", "name": "Outer", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
                     {"ph": "X", "name": "Inner", "pid": 1, "tid": 1, "ts": 0, "dur": 50},
                     {"ph": "s", "id": "a", "pid": 1, "tid": 1, "ts": 0},
                     {"ph": "f", "id": "a", "pid": 1, "tid": 1, "ts": 60, "bp": "e"}])
            << QStringList{"Inner@0>Outer@0"} << 0;
        QTest::newRow("v2: flow_out, flow_in and both (pass-through)")
            << JSON([{"ph": "X", "name": "A", "pid": 1, "tid": 1, "ts": 0, "dur": 10, "bind_id": 7, "flow_out": true},
                     {"ph": "X", "name": "B", "pid": 1, "tid": 2, "ts": 20, "dur": 10, "bind_id": 7, "flow_in": true,
                      "flow_out": true},
                     {"ph": "X", "name": "C", "pid": 1, "tid": 3, "ts": 40, "dur": 10, "bind_id": 7, "flow_in": true}])
            << QStringList{"A@0>B@20", "B@20>C@40"} << 0;
        QTest::newRow("v2: one source, two sinks (Perfetto's connected flows)")
            << JSON([{"ph": "X", "name": "A", "pid": 1, "tid": 1, "ts": 0, "dur": 10, "bind_id": "0x3", "flow_out": true},
                     {"ph": "X", "name": "B", "pid": 1, "tid": 2, "ts": 20, "dur": 10, "bind_id": "0x3", "flow_in": true},
                     {"ph": "X", "name": "C", "pid": 1, "tid": 3, "ts": 15, "dur": 10, "bind_id": "0x3", "flow_in": true}])
            << QStringList{"A@0>B@20", "A@0>C@15"} << 0;
        QTest::newRow("v2 on B/E and on an async b; an n has no slice")
            << JSON([{"ph": "B", "name": "Begun", "pid": 1, "tid": 1, "ts": 0, "bind_id": 1, "flow_out": true},
                     {"ph": "E", "pid": 1, "tid": 1, "ts": 10},
                     {"ph": "b", "name": "Task", "cat": "x", "id": 5, "pid": 1, "tid": 1, "ts": 20, "bind_id": 1,
                      "flow_in": true},
                     {"ph": "e", "name": "Task", "cat": "x", "id": 5, "pid": 1, "tid": 1, "ts": 30},
                     {"ph": "n", "name": "Step", "cat": "x", "id": 5, "pid": 1, "tid": 1, "ts": 25, "bind_id": 1,
                      "flow_in": true}])
            << QStringList{"Begun@0>Task@20"} << 1;
        QTest::newRow("string ids are hexadecimal: \"0x1f\", \"1F\" and 31 are one id")
            << JSON([{"ph": "X", "name": "A", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
                     {"ph": "s", "name": "f", "id": "0x1f", "pid": 1, "tid": 1, "ts": 1},
                     {"ph": "X", "name": "B", "pid": 1, "tid": 2, "ts": 20, "dur": 10},
                     {"ph": "t", "name": "f", "id": 31, "pid": 1, "tid": 2, "ts": 21},
                     {"ph": "X", "name": "C", "pid": 1, "tid": 3, "ts": 40, "dur": 10},
                     {"ph": "f", "name": "f", "id": "1F", "pid": 1, "tid": 3, "ts": 41, "bp": "e"}])
            << QStringList{"A@0>B@20", "B@20>C@40"} << 0;
        QTest::newRow("cat and name scope the id")
            << JSON([{"ph": "X", "name": "A", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
                     {"ph": "s", "name": "n", "cat": "a", "id": 1, "pid": 1, "tid": 1, "ts": 1},
                     {"ph": "X", "name": "B", "pid": 1, "tid": 2, "ts": 20, "dur": 10},
                     {"ph": "f", "name": "n", "cat": "b", "id": 1, "pid": 1, "tid": 2, "ts": 21, "bp": "e"},
                     {"ph": "f", "name": "m", "cat": "a", "id": 1, "pid": 1, "tid": 2, "ts": 22, "bp": "e"},
                     {"ph": "f", "name": "n", "cat": "a", "id": 1, "pid": 1, "tid": 2, "ts": 23, "bp": "e"}])
            << QStringList{"A@0>B@20"} << 2;
        QTest::newRow("id2: local ids per process, global ids across them")
            << JSON([{"ph": "X", "name": "A", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
                     {"ph": "s", "name": "l", "id2": {"local": 5}, "pid": 1, "tid": 1, "ts": 1},
                     {"ph": "s", "name": "g", "id2": {"global": 5}, "pid": 1, "tid": 1, "ts": 2},
                     {"ph": "X", "name": "Other", "pid": 2, "tid": 1, "ts": 20, "dur": 10},
                     {"ph": "f", "name": "l", "id2": {"local": 5}, "pid": 2, "tid": 1, "ts": 21, "bp": "e"},
                     {"ph": "f", "name": "g", "id2": {"global": 5}, "pid": 2, "tid": 1, "ts": 22, "bp": "e"},
                     {"ph": "X", "name": "Same", "pid": 1, "tid": 3, "ts": 40, "dur": 10},
                     {"ph": "f", "name": "l", "id2": {"local": 5}, "pid": 1, "tid": 3, "ts": 41, "bp": "e"}])
            << QStringList{"A@0>Other@20", "A@0>Same@40"} << 1;
        QTest::newRow("unmatched: an end without start, a start without end, a lone step")
            << JSON([{"ph": "X", "name": "A", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
                     {"ph": "f", "id": 9, "pid": 1, "tid": 1, "ts": 1, "bp": "e"},
                     {"ph": "s", "id": 8, "pid": 1, "tid": 1, "ts": 2},
                     {"ph": "t", "id": 10, "pid": 1, "tid": 1, "ts": 3}])
            << QStringList{} << 3;
        QTest::newRow("flow events on no slice")
            << JSON([{"ph": "X", "name": "A", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
                     {"ph": "s", "id": 1, "pid": 1, "tid": 1, "ts": 50},
                     {"ph": "f", "id": 1, "pid": 1, "tid": 1, "ts": 60, "bp": "e"},
                     {"ph": "s", "id": 2, "pid": 1, "tid": 1, "ts": 5},
                     {"ph": "f", "id": 2, "pid": 1, "tid": 1, "ts": 70}])
            << QStringList{} << 4;
        QTest::newRow("cross-process, events out of time order")
            << JSON([{"ph": "f", "id": 1, "pid": 2, "tid": 9, "ts": 25, "bp": "e"},
                     {"ph": "X", "name": "Callee", "pid": 2, "tid": 9, "ts": 20, "dur": 10},
                     {"ph": "X", "name": "Caller", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
                     {"ph": "s", "id": 1, "pid": 1, "tid": 1, "ts": 5}])
            << QStringList{"Caller@0>Callee@20"} << 0;
    }
    void binding()
    {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, flows);
        QFETCH(int, unbound);
        const LoadResult r = loadText(json);
        QVERIFY2(r.ok(), r.error.message.c_str());
        const Profile& p = *r.profile;
        QCOMPARE(flowTexts(p), flows);
        QCOMPARE(p.unboundFlowEnds(), std::uint64_t(unbound));
        // Unbound ends are warnings, each under its reason.
        std::uint64_t warned = 0;
        for (const auto& [kind, count] : p.diagnostics().warningKinds())
            warned += kind.starts_with("flow ") ? count : 0;
        QCOMPARE(warned, std::uint64_t(unbound));
        // Every flow is found from both of its ends.
        for (std::size_t k = 0; k < p.flows().size(); ++k) {
            const Flow& f = p.flows()[k];
            const auto out = p.flowsOutOf(f.from);
            QVERIFY(std::any_of(out.begin(), out.end(), [&f](const Flow& g) { return g.to == f.to; }));
            const auto in = p.flowsInto(f.to);
            QVERIFY(std::find(in.begin(), in.end(), std::uint32_t(k)) != in.end());
        }
    }

    void noFlowPhaseSkipped()
    {
        const LoadResult r = loadText(JSON([{"ph": "X", "name": "A", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
                                            {"ph": "s", "id": 1, "pid": 1, "tid": 1, "ts": 2},
                                            {"ph": "t", "id": 1, "pid": 1, "tid": 1, "ts": 3},
                                            {"ph": "f", "id": 1, "pid": 1, "tid": 1, "ts": 4, "bp": "e"}]));
        QVERIFY(r.ok());
        QCOMPARE(r.profile->diagnostics().skippedCount(), std::uint64_t(0));
        QCOMPARE(r.profile->flows().size(), std::size_t(2)); // A to itself, twice
    }

    // Real traces (tests/data/samples, SOURCES.md): the loader's flows
    // against the reference reading above, and the figures themselves.
    void samples_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("events"); // flow events (s, t, f) or slices with a bind_id
        QTest::addColumn<int>("flows");
        QTest::addColumn<int>("unbound");
        QTest::addColumn<QStringList>("list"); // for the small ones: every flow

        const QString c = QStringLiteral("samples/chrome-trace/");
        QTest::newRow("catapult flow_simple") << c + "catapult/flow_simple.json" << 5 << 3 << 0
                                              << QStringList{"OtherSlice@3200>SomeSlice@3331",
                                                             "SenderA@3002>OtherSlice@3200", "SenderB@0>Blergh@1001"};
        QTest::newRow("perfetto v1") << c + "perfetto/flow_events_json_v1.json" << 5 << 3 << 0
                                     << QStringList{"OtherSlice@3200>SomeSlice@3331", "SenderA@3002>OtherSlice@3200",
                                                    "SenderB@0>Blergh@1002"};
        QTest::newRow("perfetto v2") << c + "perfetto/flow_events_json_v2.json" << 6 << 4 << 0
                                     << QStringList{"OtherSlice@3200>SomeOtherSlice@3333",
                                                    "OtherSlice@3200>SomeSlice@3331", "SenderA@3002>OtherSlice@3200",
                                                    "SenderB@0>Blergh@1001"};
        QTest::newRow("perfetto connected flows")
            << c + "perfetto/connected_flow_data.json" << 11 << 7 << 0
            << QStringList{"Flow0_Slice0@420>Flow0_Slice1@720",    "Flow1_Slice0@400>Flow1_Slice1a@1300",
                           "Flow1_Slice0@400>Flow1_Slice1b@1100",  "Flow2_Slice0@1351>Flow2_Slice1@2002",
                           "Flow2_Slice1@2002>Flow2_Slice2@2400",  "Flow2_Slice2@2400>Flow2_Slice3b@3333",
                           "Flow2_Slice2a@2450>Flow2_Slice3a@3031"};
        QTest::newRow("catapult flow") << c + "catapult/flow.json" << 1752 << 858 << 456 << QStringList{};
        QTest::newRow("catapult multiple_input_latency")
            << c + "catapult/multiple_input_latency.json" << 3961 << 906 << 2154 << QStringList{};
        QTest::newRow("devtools chrome116") << c + "devtools/chrome116-Trace-20230603T221323.json" << 26 << 13 << 0
                                            << QStringList{};
        QTest::newRow("devtools chrome85 esbuild (v2)")
            << c + "devtools-samples/chrome85-esbuild.json" << 16 << 8 << 3 << QStringList{};
    }
    void samples()
    {
        QFETCH(QString, file);
        QFETCH(int, events);
        QFETCH(int, flows);
        QFETCH(int, unbound);
        QFETCH(QStringList, list);
        const LoadResult r = ProfileLoader::load(dataPath(file));
        QVERIFY2(r.ok(), r.error.message.c_str());
        const Profile& p = *r.profile;
        const ReferenceFlows reference = referenceFlows(dataPath(file));
        QCOMPARE(reference.events, events);
        QCOMPARE(int(p.flows().size()), reference.flows);
        QCOMPARE(int(p.unboundFlowEnds()), reference.unbound);
        QCOMPARE(int(p.flows().size()), flows);
        QCOMPARE(int(p.unboundFlowEnds()), unbound);
        if (!list.isEmpty())
            QCOMPARE(flowTexts(p), list);
        for (const auto& [what, count] : p.diagnostics().skippedEvents())
            QVERIFY2(what != "phase 's'" && what != "phase 't'" && what != "phase 'f'", what.c_str());
    }
};

QTEST_GUILESS_MAIN(TestChromeFlowCollector)
#include "tst_chromeflowcollector.moc"
