#include "formatregistry.h"
#include "measurementmetrics.h"
#include "ranktable.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QtTest>

#include <cmath>
#include <map>
#include <set>

using namespace runlane;
using runlane::test::dataPath;
using runlane::test::loadText;
using runlane::test::qstr;

namespace {

qint64 ns(double ms)
{
    return qint64(std::llround(ms * 1e6));
}

// A second reading of a Firefox Profiler file, written apart from the
// reader (QJsonDocument, a regular expression for gecko locations): per
// thread with samples its sample count and the time its samples with a
// stack cover, and each function name's self and total time (a name
// counted once per sample). A sample lasts until the next one of its
// thread, the last one the profile's interval.
struct Reference {
    QList<int> samples; // per thread with samples, in file order
    QList<qint64> busy;
    std::map<QString, qint64> self;
    std::map<QString, qint64> total;

    static Reference of(const QString& path)
    {
        QFile file(path);
        file.open(QIODevice::ReadOnly);
        Reference r;
        const QJsonObject top = QJsonDocument::fromJson(file.readAll()).object();
        const QJsonObject profile = top.contains(QStringLiteral("meta")) ? top : top[QStringLiteral("profile")].toObject();
        r.walk(profile, profile[QStringLiteral("shared")].toObject()[QStringLiteral("stringArray")].toArray());
        return r;
    }

    void walk(const QJsonObject& profile, const QJsonArray& shared)
    {
        const double interval = profile[QStringLiteral("meta")].toObject()[QStringLiteral("interval")].toDouble();
        for (const QJsonValue& t : profile[QStringLiteral("threads")].toArray()) {
            const QJsonObject thread = t.isString() ? QJsonDocument::fromJson(t.toString().toUtf8()).object() : t.toObject();
            if (thread.contains(QStringLiteral("threads")))
                walk(thread, shared); // gecko 3: a child process among the threads
            else
                readThread(thread, shared, interval);
        }
        for (const QJsonValue& p : profile[QStringLiteral("processes")].toArray())
            walk(p.isString() ? QJsonDocument::fromJson(p.toString().toUtf8()).object() : p.toObject(), shared);
    }

    // Gecko: {schema, data} -> the column `key` of every row.
    static QJsonArray column(const QJsonObject& table, const QString& key)
    {
        if (!table.contains(QStringLiteral("schema")))
            return table[key].toArray();
        QJsonArray out;
        const QJsonValue index = table[QStringLiteral("schema")].toObject()[key];
        for (const QJsonValue& row : table[QStringLiteral("data")].toArray())
            out.append(index.isUndefined() ? QJsonValue() : row.toArray().at(index.toInt()));
        return out;
    }

    void readThread(const QJsonObject& thread, const QJsonArray& shared, double interval)
    {
        QJsonArray strings = thread[QStringLiteral("stringTable")].toArray();
        if (strings.isEmpty())
            strings = thread[QStringLiteral("stringArray")].toArray();
        if (strings.isEmpty())
            strings = shared;
        const QJsonObject frames = thread[QStringLiteral("frameTable")].toObject();
        const bool gecko = frames.contains(QStringLiteral("schema"));
        QStringList frameNames;
        if (gecko) {
            static const QRegularExpression location(QStringLiteral(R"(^(.*) \((.*?)(:\d+){1,2}\)$)"));
            for (const QJsonValue& l : column(frames, QStringLiteral("location"))) {
                const QString text = strings.at(l.toInt()).toString();
                const auto m = location.match(text);
                frameNames << (m.hasMatch() ? m.captured(1) : text);
            }
        } else {
            const QJsonArray names = thread[QStringLiteral("funcTable")].toObject()[QStringLiteral("name")].toArray();
            for (const QJsonValue& f : frames[QStringLiteral("func")].toArray())
                frameNames << strings.at(names.at(f.toInt()).toInt()).toString();
        }
        const QJsonObject stacks = thread[QStringLiteral("stackTable")].toObject();
        const QJsonArray prefix = column(stacks, QStringLiteral("prefix"));
        const QJsonArray frame = column(stacks, QStringLiteral("frame"));
        const QJsonObject samples = thread[QStringLiteral("samples")].toObject();
        const QJsonArray stack = column(samples, QStringLiteral("stack"));
        QJsonArray time = column(samples, QStringLiteral("time"));
        if (stack.isEmpty())
            return;
        samples_(stack, time, prefix, frame, frameNames, interval);
    }

    void samples_(const QJsonArray& stack, const QJsonArray& time, const QJsonArray& prefix, const QJsonArray& frame,
                  const QStringList& frameNames, double interval)
    {
        qint64 covered = 0;
        for (qsizetype i = 0; i < stack.size(); ++i) {
            const double t = time.at(i).toDouble();
            const qint64 weight = i + 1 < stack.size() ? ns(time.at(i + 1).toDouble()) - ns(t) : ns(t + interval) - ns(t);
            if (stack.at(i).isNull())
                continue;
            covered += weight;
            QStringList names; // leaf first
            for (QJsonValue s = stack.at(i); !s.isNull(); s = prefix.at(s.toInt()))
                names << frameNames.at(frame.at(s.toInt()).toInt());
            self[names.front()] += weight;
            for (const QString& n : std::set<QString>(names.begin(), names.end()))
                total[n] += weight;
        }
        samples << int(stack.size());
        busy << covered;
    }

    // "name self/total" of the `n` largest self times (ties by name).
    QStringList top(int n) const
    {
        std::vector<std::pair<QString, qint64>> rows(self.begin(), self.end());
        std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
            return a.second != b.second ? a.second > b.second : a.first < b.first;
        });
        QStringList out;
        for (int i = 0; i < n && i < int(rows.size()); ++i)
            out << QStringLiteral("%1 %2/%3").arg(rows[i].first).arg(rows[i].second).arg(total.at(rows[i].first));
        return out;
    }
};

// The rank's self/total of these names (labels of one name added up).
QStringList rankOf(const Profile& p, const QStringList& lines)
{
    const RankTable table = RankTable::compute(MeasurementMetrics(p));
    QStringList out;
    for (const QString& line : lines) {
        const QString name = line.section(QLatin1Char(' '), 0, -2);
        qint64 self = 0;
        qint64 total = 0;
        for (const RankRow& r : table.rows()) {
            if (qstr(p.labelName(r.label)) == name) {
                self += r.exec;
                total += r.total;
            }
        }
        out << QStringLiteral("%1 %2/%3").arg(name).arg(self).arg(total);
    }
    return out;
}

QStringList trackNames(const Profile& p, std::optional<TrackKind> kind = std::nullopt)
{
    QStringList out;
    for (TrackId t = 0; t < p.trackCount(); ++t) {
        if (!kind || p.track(t).kind == *kind)
            out << qstr(p.string(p.track(t).name));
    }
    return out;
}

// "label start-end" (ms) of the intervals of a track at depth 0.
QStringList roots(const Profile& p, TrackId t)
{
    QStringList out;
    for (const Interval& i : p.depthSlice(t, 0))
        out << QStringLiteral("%1 %2-%3")
                   .arg(qstr(p.labelName(p.measurement(i.measurement).label)))
                   .arg(double(i.start) / 1e6)
                   .arg(double(i.end) / 1e6);
    return out;
}

} // namespace

class TestGeckoLoader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void samples_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("tracks");
        QTest::addColumn<QList<int>>("samples");
        QTest::addColumn<QStringList>("top");
        // Old versions (gecko 3 and 13, processed 7 and before): three threads
        // of 7 samples each, a child process in gecko 3 as a string.
        const QStringList threeThreads{QStringLiteral("Firefox / GeckoMain (samples)"),
                                       QStringLiteral("Firefox / Compositor (samples)"),
                                       QStringLiteral("Firefox tab / GeckoMain (samples)")};
        const QStringList oldTop{QStringLiteral("0x100000f84 6000000/18000000"), QStringLiteral("0x100001a45 6000000/6000000"),
                                 QStringLiteral("(root) 3000000/21000000")};
        QTest::newRow("gecko-1") << QStringLiteral("firefox-gecko-1.json")
            << threeThreads
            << QList<int>{7, 7, 7}
            << oldTop;
        QTest::newRow("gecko-2") << QStringLiteral("firefox-gecko-2.json")
            << threeThreads
            << QList<int>{7, 7, 7}
            << oldTop;
        QTest::newRow("processed-1") << QStringLiteral("firefox-processed-1.json")
            << QStringList{QStringLiteral("Firefox / GeckoMain (samples)"), QStringLiteral("Firefox / Compositor (samples)"),
                           QStringLiteral("Firefox / Content (samples)")}
            << QList<int>{7, 7, 7}
            << oldTop;
        QTest::newRow("processed-2") << QStringLiteral("firefox-processed-2.json")
            << threeThreads
            << QList<int>{7, 7, 7}
            << QStringList{QStringLiteral("0x100000f84 6000000/18000000"),
                           QStringLiteral("0x100001a45 6000000/7000000"),
                           QStringLiteral("(root) 3000000/21000000")};
        // A Firefox 63 DevTools recording: one content thread under `profile`.
        QTest::newRow("devtools") << QStringLiteral("speedscope-firefox63-simple.json")
            << QStringList{QStringLiteral("Firefox tab / GeckoMain (samples)")}
            << QList<int>{39}
            << QStringList{QStringLiteral("gamma 26983817/26983817"),
                           QStringLiteral("Module 1216853/1216853"),
                           QStringLiteral("getSourceURL 1023151/1023151")};
    }

    // Every sample file: its threads' tracks and sample counts, and the top
    // three functions' self and total time as a second reading computes them.
    void samples()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, tracks);
        QFETCH(QList<int>, samples);
        QFETCH(QStringList, top);
        const QString path = dataPath(QStringLiteral("samples/gecko/") + file);
        const LoadResult r = ProfileLoader::load(path);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(qstr(p.formatName()), file.startsWith(QStringLiteral("speedscope")) ? QStringLiteral("Firefox DevTools recording")
                                                                                   : QStringLiteral("Firefox Profiler"));
        const Reference ref = Reference::of(path);
        QCOMPARE(trackNames(p, TrackKind::Samples), tracks);
        QCOMPARE(ref.samples, samples);
        QCOMPARE(ref.top(3), top);
        QCOMPARE(rankOf(p, ref.top(3)), top);
        // Each thread's samples cover what the second reading says.
        QList<qint64> covered;
        for (TrackId t = 0; t < p.trackCount(); ++t) {
            if (p.track(t).kind != TrackKind::Samples)
                continue;
            qint64 sum = 0;
            for (const Interval& in : p.depthSlice(t, 0))
                sum += in.end - in.start;
            covered << sum;
        }
        QList<qint64> expected = ref.busy;
        std::sort(covered.begin(), covered.end());
        std::sort(expected.begin(), expected.end());
        QCOMPARE(covered, expected);
    }

    // A child process's times move by how much later its meta.startTime
    // is; a location "run (app.js:12:3)" is the function run in app.js.
    void childProcessShift()
    {
        const LoadResult r = loadText(JSON(
            {"meta": {"version": 27, "interval": 1, "startTime": 1000, "product": "Firefox"},
             "threads": [{"name": "GeckoMain", "processType": "default", "pid": 10, "tid": 10,
                          "samples": {"schema": {"stack": 0, "time": 1}, "data": [[0, 0], [1, 1]]},
                          "stackTable": {"schema": {"prefix": 0, "frame": 1}, "data": [[null, 0], [0, 1]]},
                          "frameTable": {"schema": {"location": 0, "line": 1}, "data": [[0], [1, 12]]},
                          "stringTable": ["main", "run (app.js:12:3)"]}],
             "processes": [{"threads": [{"name": "GeckoMain", "processType": "tab", "pid": 20, "tid": 21,
                                         "samples": {"schema": {"stack": 0, "time": 1}, "data": [[0, 2], [0, 4]]},
                                         "stackTable": {"schema": {"prefix": 0, "frame": 1}, "data": [[null, 0]]},
                                         "frameTable": {"schema": {"location": 0}, "data": [[0]]},
                                         "stringTable": ["content"]}],
                            "meta": {"version": 27, "interval": 1, "startTime": 1500.5}}]}));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(trackNames(p), (QStringList{"Firefox / GeckoMain (samples)", "Firefox tab / GeckoMain (samples)"}));
        QCOMPARE(roots(p, 0), QStringList{"main 0-2"});
        QCOMPARE(roots(p, 1), QStringList{"content 502.5-505.5"});
        const Interval& run = p.depthSlice(0, 1).front();
        const Label& label = p.label(p.measurement(run.measurement).label);
        QCOMPARE(qstr(p.labelName(p.measurement(run.measurement).label)), QStringLiteral("run"));
        QCOMPARE(qstr(p.string(label.file)), QStringLiteral("app.js"));
        QCOMPARE(label.line, 12);
        QCOMPARE(p.track(1).pid, 20);
        QCOMPARE(p.track(1).tid, 21);
    }

    // Processed: times as deltas, strings in shared.stringArray (after the
    // threads), a sample with a null stack covers nothing, a frame of the
    // "Idle" category is idle, the last sample lasts meta.interval.
    void processedDeltasNullsSharedStrings()
    {
        const LoadResult r = loadText(JSON(
            {"meta": {"interval": 0.5, "startTime": 0, "preprocessedProfileVersion": 48,
                      "categories": [{"name": "Idle", "color": "transparent"}, {"name": "Other", "color": "grey"}]},
             "threads": [{"name": "Main", "processType": "default", "pid": "7", "tid": 8,
                          "samples": {"length": 4, "stack": [0, null, 1, 1], "timeDeltas": [10, 1, 1, 1], "weightType": "samples"},
                          "stackTable": {"length": 2, "frame": [0, 1], "prefix": [null, 0]},
                          "frameTable": {"length": 2, "func": [0, 1], "line": [null, 7], "category": [1, 0]},
                          "funcTable": {"length": 2, "name": [0, 1], "fileName": [null, 2], "lineNumber": [null, 5]},
                          "markers": {"length": 0, "name": [], "startTime": [], "endTime": [], "phase": [], "category": [], "data": []}}],
             "shared": {"stringArray": ["main", "wait", "lib.c"]}}));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(trackNames(p), QStringList{"Firefox / Main (samples)"});
        QCOMPARE(p.track(0).pid, 7);
        QCOMPARE(roots(p, 0), (QStringList{"main 10-11", "main 12-13.5"}));
        const Interval& wait = p.depthSlice(0, 1).front();
        const LabelId label = p.measurement(wait.measurement).label;
        QCOMPARE(qstr(p.labelName(label)), QStringLiteral("wait"));
        QCOMPARE(p.label(label).line, 7);
        QVERIFY(p.isIdle(label));
        QCOMPARE(int(p.diagnostics().warningCount()), 0);
    }

    // Markers: an instant is a mark; intervals (phase 1, or a start and an
    // end of one name) go to "markers" tracks, a second one for a marker
    // that overlaps without nesting; an end without its start is counted.
    void markers()
    {
        const LoadResult r = loadText(JSON(
            {"meta": {"version": 27, "interval": 1, "startTime": 0},
             "threads": [{"name": "GeckoMain", "processType": "default", "pid": 1, "tid": 1,
                          "samples": {"schema": {"stack": 0, "time": 1}, "data": [[0, 0]]},
                          "stackTable": {"schema": {"prefix": 0, "frame": 1}, "data": [[null, 0]]},
                          "frameTable": {"schema": {"location": 0}, "data": [[0]]},
                          "markers": {"schema": {"name": 0, "startTime": 1, "endTime": 2, "phase": 3, "category": 4, "data": 5},
                                      "data": [[1, 1, null, 0, 0, null], [2, 2, 6, 1, 0, {"type": "Paint"}], [3, 3, 8, 1, 0, null],
                                               [4, 4, null, 2, 0, null], [4, null, 5, 3, 0, null], [5, null, 9, 3, 0, null]]},
                          "stringTable": ["main", "Navigation", "Paint", "Network", "GC", "Orphan"]}]}));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(trackNames(p), (QStringList{"Firefox / GeckoMain markers", "Firefox / GeckoMain markers 2", "Firefox / GeckoMain (samples)"}));
        QCOMPARE(roots(p, 0), QStringList{"Paint 2-6"});
        QCOMPARE(p.track(0).depthCount(), 2);
        QCOMPARE(qstr(p.labelName(p.measurement(p.depthSlice(0, 1).front().measurement).label)), QStringLiteral("GC"));
        QCOMPARE(roots(p, 1), QStringList{"Network 3-8"});
        QCOMPARE(int(p.marks().size()), 1);
        QCOMPARE(qstr(p.string(p.marks().front().name)), QStringLiteral("Navigation"));
        QCOMPARE(p.marks().front().time, 1000000);
        QCOMPARE(qstr(p.diagnostics().firstMessage("unpaired interval markers")),
                 QStringLiteral("thread \"GeckoMain\": 1 interval markers lack their start or end and are left out"));
    }

    // An index out of its table's range is an error that names the thread,
    // the table, the row and the column.
    void indexOutOfRange_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("gecko frame") << JSON(
            {"meta": {"version": 27, "interval": 1},
             "threads": [{"name": "GeckoMain",
                          "samples": {"schema": {"stack": 0, "time": 1}, "data": [[1, 0]]},
                          "stackTable": {"schema": {"prefix": 0, "frame": 1}, "data": [[null, 0], [0, 7]]},
                          "frameTable": {"schema": {"location": 0}, "data": [[0]]},
                          "stringTable": ["main"]}]})
            << QString("thread 0 (\"GeckoMain\"): stackTable row 1: 'frame' 7 is out of range of frameTable (1 entries)");
        QTest::newRow("processed sample stack") << JSON(
            {"meta": {"interval": 1, "preprocessedProfileVersion": 40},
             "threads": [{"name": "Main",
                          "samples": {"length": 2, "stack": [0, 3], "time": [0, 1]},
                          "stackTable": {"length": 1, "frame": [0], "prefix": [null]},
                          "frameTable": {"length": 1, "func": [0]},
                          "funcTable": {"length": 1, "name": [0]},
                          "stringArray": ["main"]}]})
            << QString("thread 0 (\"Main\"): samples row 1: 'stack' 3 is out of range of stackTable (1 entries)");
        QTest::newRow("processed string") << JSON(
            {"meta": {"interval": 1, "preprocessedProfileVersion": 40},
             "threads": [{"name": "Main",
                          "samples": {"length": 1, "stack": [0], "time": [0]},
                          "stackTable": {"length": 1, "frame": [0], "prefix": [null]},
                          "frameTable": {"length": 1, "func": [0]},
                          "funcTable": {"length": 1, "name": [4]},
                          "stringArray": ["main"]}]})
            << QString("thread 0 (\"Main\"): funcTable row 0: 'name' 4 is out of range of the string table (1 entries)");
    }
    void indexOutOfRange()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        const LoadResult r = loadText(text);
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error.message), message);
    }

    // A file cut short is an error, not a crash nor a partial profile.
    void truncated()
    {
        QFile file(dataPath(QStringLiteral("samples/gecko/firefox-processed-2.json")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const LoadResult r = loadText(file.readAll().left(6000));
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error.message),
                 QString("invalid JSON: syntax error while parsing value - invalid literal; last read: '\"unregisterTime\": n'"));
    }
};

QTEST_GUILESS_MAIN(TestGeckoLoader)
#include "tst_geckoloader.moc"
