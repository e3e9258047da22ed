#include "chrometracewriter.h"
#include "core/formats/roundtriptext.h"
#include "rankformatter.h"
#include "testsupport.h"

#include <QDirIterator>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlane;
using runlane::test::dataPath;
using runlane::test::flowTexts;
using runlane::test::rankText;
using runlane::test::loadText;

class TestChromeTraceWriter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Load, write as Chrome JSON, load again: the same rank, every column.
    void roundTripKeepsTheRank_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString& dir : {QStringLiteral("samples"), QStringLiteral("profiles")}) {
            QDirIterator it(dataPath(dir), {"*.json", "*.txt", "*.jsonl"}, QDir::Files, QDirIterator::Subdirectories);
            QStringList files;
            while (it.hasNext())
                files << QDir(dataPath("")).relativeFilePath(it.next());
            files.sort();
            for (const QString& f : files)
                QTest::newRow(qPrintable(f)) << f;
        }
    }

    void roundTripKeepsTheRank()
    {
        QFETCH(QString, file);
        const LoadResult first = ProfileLoader::load(dataPath(file));
        QVERIFY2(first.ok(), first.error.toString().c_str());
        if (!first.profile->snapshots().empty())
            QSKIP("pre-aggregated metrics have no timeline to write (see snapshotsBecomeCounters)");
        const std::string json = ChromeTraceWriter::toString(*first.profile);
        const LoadResult second = loadText(QByteArray::fromStdString(json));
        QVERIFY2(second.ok(), second.error.toString().c_str());
        QCOMPARE(second.profile->formatName(), std::string_view("Chrome Trace Event Format"));
        QCOMPARE(rankText(*second.profile), rankText(*first.profile));
        QCOMPARE(second.profile->intervalCount(), first.profile->intervalCount());
        QCOMPARE(second.profile->duration(), first.profile->duration());
        QCOMPARE(second.profile->marks().size(), first.profile->marks().size());
        // Wakes (tokio's, Chronos' inferred) and the delays they give.
        QCOMPARE(second.profile->wakes().size(), first.profile->wakes().size());
        for (std::size_t k = 0; k < first.profile->wakes().size(); ++k) {
            QCOMPARE(second.profile->wakes()[k].time, first.profile->wakes()[k].time);
            QCOMPARE(second.profile->wakes()[k].flags, first.profile->wakes()[k].flags);
        }
        QCOMPARE(second.profile->measurementCount(), first.profile->measurementCount());
        for (const Track& t : first.profile->tracks())
            QVERIFY(!t.workerPool || std::any_of(second.profile->tracks().begin(), second.profile->tracks().end(),
                                                 [](const Track& u) { return u.workerPool; }));
        QCOMPARE(flowTexts(*second.profile), flowTexts(*first.profile));
        QCOMPARE(second.profile->unboundFlowEnds(), std::uint64_t(0));
        QCOMPARE(second.profile->counters().size(), first.profile->counters().size());
        for (std::size_t i = 0; i < first.profile->counters().size(); ++i) {
            QCOMPARE(second.profile->string(second.profile->counters()[i].name),
                     first.profile->string(first.profile->counters()[i].name));
            QCOMPARE(second.profile->counters()[i].values, first.profile->counters()[i].values);
        }
    }

    void syncCallsAreCompleteEvents()
    {
        const LoadResult r = ProfileLoader::load(dataPath("profiles/fgh-chrome.json"));
        QVERIFY(r.ok());
        const QString json = QString::fromStdString(ChromeTraceWriter::toString(*r.profile));
        QVERIFY2(json.contains(QStringLiteral(
                     R"({"ph":"X","name":"g","pid":1,"tid":1,"ts":10,"dur":90,"args":{"file":"app.rs","line":2}})")),
                 qPrintable(json));
        QVERIFY(json.startsWith(QStringLiteral("{\"traceEvents\":[")));
        QVERIFY(json.contains(QStringLiteral("\"displayTimeUnit\":\"ns\"")));
    }

    // Flows are written as `s` and `f` bound to their enclosing slices, at
    // an instant where their slice is the innermost: here the parent's
    // first instant after its child.
    void flowsBecomeFlowEvents()
    {
        const LoadResult r = loadText(JSON([{"ph": "X", "name": "Parent", "pid": 1, "tid": 1, "ts": 0, "dur": 10,
                                             "bind_id": 1, "flow_out": true},
                                            {"ph": "X", "name": "Child", "pid": 1, "tid": 1, "ts": 0, "dur": 4},
                                            {"ph": "X", "name": "Sink", "pid": 2, "tid": 2, "ts": 2, "dur": 5,
                                             "bind_id": 1, "flow_in": true}]));
        QVERIFY(r.ok());
        QCOMPARE(r.profile->flows().size(), std::size_t(1));
        const QString json = QString::fromStdString(ChromeTraceWriter::toString(*r.profile));
        QVERIFY2(json.contains(QStringLiteral(R"({"ph":"s","name":"","pid":1,"tid":1,"ts":4,"cat":"runlane.flow","id":0})")),
                 qPrintable(json));
        QVERIFY2(json.contains(QStringLiteral(
                     R"({"ph":"f","name":"","pid":2,"tid":2,"ts":4,"cat":"runlane.flow","id":0,"bp":"e"})")),
                 qPrintable(json));
        const LoadResult back = loadText(json.toUtf8());
        QVERIFY(back.ok());
        QCOMPARE(flowTexts(*back.profile), QStringList{"Parent@0/0>Sink@2000/0 "});
    }

    void subMicrosecondTimesAreExact()
    {
        const LoadResult r = loadText(JSON([{"ph" : "X", "name" : "a", "ts" : 1650900741301300.123, "dur" : 0.5}]));
        QVERIFY(r.ok());
        const QString json = QString::fromStdString(ChromeTraceWriter::toString(*r.profile));
        QVERIFY2(json.contains(QStringLiteral("\"ts\":1650900741301300.123,\"dur\":0.5")), qPrintable(json));
    }

    void tasksBecomeAsyncSlices()
    {
        const LoadResult r = ProfileLoader::load(dataPath("profiles/enso-async.json"));
        QVERIFY(r.ok());
        const QString json = QString::fromStdString(ChromeTraceWriter::toString(*r.profile));
        // `load` waited from 5 to 10 µs (pending), ran 10-20 and 50-80, ended;
        // its creation names its creator, the task `main` (id 0).
        QVERIFY(json.contains(QStringLiteral(R"({"ph":"n","name":"load","pid":0,"tid":0,"ts":1650900741301305,"cat":"runlane.task","id":1,"args":{"file":"net.rs","line":10,"state":"pending","creator":0}})")));
        QVERIFY(json.contains(QStringLiteral(R"({"ph":"b","name":"load","pid":0,"tid":0,"ts":1650900741301310,"cat":"runlane.task","id":1,)")));
        QVERIFY(json.contains(QStringLiteral(R"({"ph":"e","name":"load","pid":0,"tid":0,"ts":1650900741301380,"cat":"runlane.task","id":1,)")));
        QVERIFY(json.contains(QStringLiteral(R"("ts":1650900741301380,"cat":"runlane.task","id":1,"args":{"file":"net.rs","line":10,"state":"ended"}})")));
        // The second `load` is still running: a 'b' and no 'e'.
        QVERIFY(json.contains(QStringLiteral(R"({"ph":"b","name":"load","pid":0,"tid":0,"ts":1650900741301410,"cat":"runlane.task")")));
        QVERIFY(!json.contains(QStringLiteral(R"({"ph":"e","name":"load","pid":0,"tid":0,"ts":1650900741301430)")));
    }

    void snapshotsBecomeCounters()
    {
        const LoadResult r = ProfileLoader::load(dataPath("profiles/chroprof-snapshots.json"));
        QVERIFY(r.ok());
        const LoadResult back = loadText(QByteArray::fromStdString(ChromeTraceWriter::toString(*r.profile)));
        QVERIFY2(back.ok(), back.error.toString().c_str());
        const Profile& p = *back.profile;
        // One series per proc and metric; b is in 4 of the 5 snapshots.
        QCOMPARE(p.counters().size(), std::size_t(8));
        for (const CounterSeries& c : p.counters()) {
            if (p.string(c.name) == "b (x.nim:2)" && p.string(c.key) == "exec_ns") {
                QCOMPARE(c.values, (std::vector<double>{0, 100, 400, 450}));
                QCOMPARE(c.times, (std::vector<Time>{0, 1000, 3000, 4000}));
            }
        }
        QCOMPARE(p.duration(), Time(4000));
    }

    void writeFileIsAtomic()
    {
        const LoadResult r = ProfileLoader::load(dataPath("profiles/fgh-chrome.json"));
        QVERIFY(r.ok());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("out.json"));
        std::string error;
        QVERIFY(ChromeTraceWriter::writeFile(*r.profile, path, error));
        QCOMPARE(ProfileLoader::load(path).profile->intervalCount(), std::size_t(3));
        QVERIFY(!ChromeTraceWriter::writeFile(*r.profile, dir.filePath(QStringLiteral("missing/out.json")), error));
        QVERIFY2(QString::fromStdString(error).startsWith(QStringLiteral("cannot write ")), error.c_str());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"out.json"});
    }
};

QTEST_GUILESS_MAIN(TestChromeTraceWriter)
#include "tst_chrometracewriter.moc"
