#include "chromefastreader.h"
#include "formatregistry.h"
#include "gzipsupport.h"
#include "testsupport.h"
#include "tracegenerator.h"

#include <QBuffer>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

#include <cstdio>
#include <vector>

using namespace runlane;
using runlane::test::dataPath;
using runlane::test::qstr;

namespace {

// Loads a file on the fast path (the default) or the reference path.
LoadResult loadOn(const QString& path, bool reference)
{
    if (reference)
        qputenv("RUNLANE_JSON", "reference");
    else
        qunsetenv("RUNLANE_JSON");
    LoadResult result = ProfileLoader::load(path);
    qunsetenv("RUNLANE_JSON");
    return result;
}

// Everything a profile holds, as text, so that two profiles compare with
// one QCOMPARE and a difference shows where it is.
QStringList describe(const LoadResult& r)
{
    QStringList lines;
    if (!r.ok()) {
        lines << QStringLiteral("error: ") + QString::fromStdString(r.error.toString());
        return lines;
    }
    const Profile& p = *r.profile;
    auto s = [&p](StringId id) { return qstr(p.string(id)); };
    lines << QStringLiteral("span %1..%2 unit %3").arg(p.startTime()).arg(p.endTime()).arg(int(p.unit()));
    for (TrackId t = 0; t < p.trackCount(); ++t) {
        const Track& tr = p.track(t);
        lines << QStringLiteral("track %1 %2 kind %3 pid %4 tid %5 [%6, %7) depths %8")
                     .arg(t).arg(s(tr.name)).arg(int(tr.kind)).arg(tr.pid).arg(tr.tid).arg(tr.begin).arg(tr.end)
                     .arg(tr.depthCount());
    }
    for (LabelId l = 0; l < p.labelCount(); ++l)
        lines << QStringLiteral("label %1 %2 %3:%4").arg(l).arg(s(p.label(l).name), s(p.label(l).file)).arg(p.label(l).line);
    for (MeasurementId m = 0; m < p.measurementCount(); ++m) {
        const Measurement& x = p.measurement(m);
        lines << QStringLiteral("m %1 label %2 track %3 created %4 finished %5 creator %6 state %7 flags %8")
                     .arg(m).arg(x.label).arg(x.track).arg(x.created).arg(x.finished).arg(x.creator)
                     .arg(int(x.finalState())).arg(int(x.flags));
    }
    for (IntervalId i = 0; i < p.intervalCount(); ++i) {
        const Interval& iv = p.interval(i);
        lines << QStringLiteral("i %1 [%2, %3) m %4 parent %5").arg(i).arg(iv.start).arg(iv.end).arg(iv.measurement).arg(iv.parent);
    }
    for (const Mark& mark : p.marks())
        lines << QStringLiteral("mark %1 %2 %3 %4").arg(mark.time).arg(s(mark.name), s(mark.detail)).arg(int(mark.scope));
    for (const CounterSeries& c : p.counters())
        lines << QStringLiteral("counter %1 %2 pid %3 points %4").arg(s(c.name), s(c.key)).arg(c.pid).arg(c.times.size());
    const Diagnostics& d = p.diagnostics();
    lines << QStringLiteral("warnings %1").arg(d.warningCount());
    for (const auto& [kind, count] : d.warningKinds())
        lines << QStringLiteral("warning %1 x %2").arg(qstr(kind)).arg(count);
    for (const std::string& example : d.examples())
        lines << QStringLiteral("example ") + qstr(example);
    for (const auto& [what, count] : d.skippedEvents())
        lines << QStringLiteral("skipped %1 x %2").arg(qstr(what)).arg(count);
    return lines;
}

QString write(QTemporaryDir& dir, const QByteArray& text)
{
    static int n = 0;
    const QString path = dir.filePath(QStringLiteral("trace%1.json").arg(++n));
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write(text);
    return path;
}

// A file in memory that notes, for each read the reader asks of it, where
// in a page the bytes land and where in a page they lie in the file.
class RecordingBuffer : public QBuffer
{
public:
    struct Read {
        std::uintptr_t landsAt; // in its page
        qint64 liesAt; // in its page of the file
        qint64 bytes; // given
    };
    const std::vector<Read>& reads() const { return m_reads; }

protected:
    qint64 readData(char* data, qint64 maxSize) override
    {
        const qint64 at = pos();
        const qint64 n = QBuffer::readData(data, maxSize);
        m_reads.push_back({reinterpret_cast<std::uintptr_t>(data) % 4096, at % 4096, n});
        return n;
    }

private:
    std::vector<Read> m_reads;
};

} // namespace

class TestChromeFastReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Every Chrome trace among the samples: the same profile either way.
    void samplesGiveTheSameProfile_data()
    {
        QTest::addColumn<QString>("path");
        QDirIterator it(dataPath(QStringLiteral("samples")), {QStringLiteral("*.json")}, QDir::Files,
                        QDirIterator::Subdirectories);
        int rows = 0;
        while (it.hasNext()) {
            const QString path = it.next();
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly))
                continue;
            const QByteArray head = file.read(qint64(FormatPrefix::kSize));
            const auto detected = FormatRegistry::detect(std::string_view(head.constData(), std::size_t(head.size())),
                                                         file.atEnd());
            if (!detected.ok() || detected.format->id() != "chrome")
                continue;
            QTest::newRow(qPrintable(QDir(dataPath(QStringLiteral("samples"))).relativeFilePath(path))) << path;
            ++rows;
        }
        QVERIFY(rows >= 25);
    }
    void samplesGiveTheSameProfile()
    {
        QFETCH(QString, path);
        const std::uint64_t before = ChromeFastReader::completedReads();
        const QStringList onFastPath = describe(loadOn(path, false));
        m_fastSamples += ChromeFastReader::completedReads() - before;
        QCOMPARE(onFastPath, describe(loadOn(path, true)));
    }

    // Most samples are well-formed: the fast path must have read them.
    void samplesWereReadOnTheFastPath() { QVERIFY2(m_fastSamples >= 20, qPrintable(QString::number(m_fastSamples))); }

    // Layouts, quirks and errors, written out: identical profiles, warnings
    // and error messages (the fast path hands what it does not take to the
    // reference reader, which must then word it).
    void editedTracesGiveTheSameResult_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("fast"); // read on the fast path, not handed over
        const QByteArray x = JSON({"ph" : "X", "pid" : 1, "tid" : 2, "name" : "a", "ts" : 1.5, "dur" : 2});
        const QByteArray b = JSON({"ph" : "B", "pid" : 1, "tid" : 2, "name" : "b", "ts" : 3});
        const QByteArray e = JSON({"ph" : "E", "pid" : 1, "tid" : 2, "ts" : 7.25});
        QTest::newRow("bare array") << "[" + x + "," + b + "," + e + "]" << true;
        QTest::newRow("object, events first") << "{\"traceEvents\":[" + x + "," + b + "],\"metadata\":{\"a\":[1,2,{}]}}" << true;
        QTest::newRow("object, events last") << "{\"displayTimeUnit\":\"ns\",\"samples\":[1],\"traceEvents\":[" + x + "]}" << true;
        QTest::newRow("stackFrames after") << "{\"traceEvents\":[" + x + "],\"stackFrames\":{\"1\":{\"name\":\"f\"}}}" << true;
        QTest::newRow("byte order mark") << "\xEF\xBB\xBF[" + x + "]" << true;
        QTest::newRow("blanks everywhere") << " \n[\n\t" + x + " ,\r\n " + b + "\n]\n\n" << true;
        QTest::newRow("no closing bracket") << "[" + x + "," + b << true;
        QTest::newRow("comma, then the end") << "[" + x + ",\n" << true;
        QTest::newRow("trailing comma") << "[" + x + ", ]" << true;
        QTest::newRow("cut inside an event") << "[" + x + ",{\"ph\":\"X\",\"na" << true;
        // Two files spliced: a syntax error inside the event the file ends
        // in is an error, not a cut (tests/data/malformed/
        // chrome-calltree-total-overflow.json, cut by the fuzzer).
        QTest::newRow("syntax error, then cut inside the event")
            << "[" + x + ",{\"ph\":\"X\",\"args\":{\"url\":\"file\":1,\"a\":[{\"b\":2" << false;
        QTest::newRow("cut inside a nested string") << "[" + x + ",{\"ph\":\"X\",\"args\":{\"u\":[\"fi" << true;
        QTest::newRow("cut inside a literal") << "[" + x + ",{\"ph\":\"X\",\"args\":{\"u\":fal" << true;
        QTest::newRow("bad literal, then cut") << "[" + x + ",{\"ph\":\"X\",\"args\":{\"u\":fals,\"v\":1" << false;
        // An element that shows it is not an event object before the cut is
        // an error, not a cut event: the reference reader refuses it at its
        // first byte (found by fuzz_chrome: "[[{\" {\" t").
        QTest::newRow("cut inside an array element") << QByteArray("[[{\" {\" t") << false;
        QTest::newRow("cut inside a later array element") << "[" + x + ",[1,{\"a\"" << false;
        QTest::newRow("object cut inside an array element") << "{\"traceEvents\":[" + x + ",[[" << false;
        QTest::newRow("cut right after an array element's bracket") << QByteArray("[[") << false;
        QTest::newRow("trailing data") << "[" + x + "] tail" << true;
        QTest::newRow("escapes in names") << QByteArray("[{\"ph\":\"X\",\"name\":\"a\\\"b\\\\c\\u00e9\\n\",\"ts\":1,\"dur\":1}]") << true;
        QTest::newRow("escaped key") << QByteArray("[{\"p\\u0068\":\"X\",\"name\":\"k\",\"ts\":1,\"dur\":1}]") << true;
        QTest::newRow("strings for numbers") << QByteArray("[{\"ph\":\"X\",\"pid\":\"7\",\"tid\":\"x\",\"name\":3,\"ts\":\"12.5\",\"dur\":\"1e1\"}]") << true;
        QTest::newRow("huge and odd numbers")
            << QByteArray("[{\"ph\":\"X\",\"pid\":18446744073709551615,\"tid\":-0,\"name\":\"n\",\"ts\":1e2,\"dur\":0.0015}]") << true;
        // Integers the fast path reads by itself (up to 18 digits), and
        // those just beyond, which simdjson reads.
        QTest::newRow("integers at the fast read's edges")
            << QByteArray("[{\"ph\":\"X\",\"pid\":999999999999999999,\"tid\":-999999999999999999,\"name\":\"a\",\"ts\":1,\"dur\":1},"
                          "{\"ph\":\"X\",\"pid\":1000000000000000000,\"tid\":-1000000000000000000,\"name\":\"b\",\"ts\":2,\"dur\":1},"
                          "{\"ph\":\"X\",\"pid\":9223372036854775807,\"tid\":-9223372036854775808,\"name\":\"c\",\"ts\":3,\"dur\":1},"
                          "{\"ph\":\"X\",\"pid\":0,\"tid\":9223372036854775808,\"name\":\"d\",\"ts\":4,\"dur\":1},"
                          "{\"ph\":\"X\",\"pid\":1.0,\"tid\":1E2,\"name\":\"e\",\"ts\":5,\"dur\":1},"
                          "{\"ph\":\"C\",\"pid\":1,\"name\":\"q\",\"ts\":6,\"args\":{\"a\":123456789012345678,\"b\":-7,\"c\":0}}]")
            << true;
        QTest::newRow("leading zero in pid") << QByteArray("[{\"ph\":\"X\",\"pid\":01,\"name\":\"a\",\"ts\":1,\"dur\":1}]") << false;
        QTest::newRow("minus zero-one in tid") << QByteArray("[{\"ph\":\"X\",\"tid\":-01,\"name\":\"a\",\"ts\":1,\"dur\":1}]") << false;
        QTest::newRow("lone minus in pid") << QByteArray("[{\"ph\":\"X\",\"pid\":-,\"name\":\"a\",\"ts\":1,\"dur\":1}]") << false;
        QTest::newRow("digits then letters in an arg") << QByteArray("[{\"ph\":\"X\",\"name\":\"a\",\"ts\":1,\"dur\":1,\"args\":{\"n\":12ab}}]") << false;
        QTest::newRow("counters and metadata")
            << QByteArray("[{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"P\"}},"
               "{\"ph\":\"C\",\"pid\":1,\"name\":\"mem\",\"ts\":1,\"args\":{\"a\":1.5,\"b\":2}}]") << true;
        QTest::newRow("non-object element") << "[" + x + ",42]" << false;
        QTest::newRow("missing ph") << QByteArray("[{\"name\":\"a\",\"ts\":1}]") << false;
        QTest::newRow("bad ts type") << QByteArray("[{\"ph\":\"X\",\"ts\":true,\"dur\":1}]") << false;
        QTest::newRow("syntax error") << "[" + x + ",{\"ph\" \"X\"}]" << false;
        QTest::newRow("bad literal in args") << QByteArray("[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"args\":{\"x\":tru}}]") << false;
        QTest::newRow("bad number in ignored field") << QByteArray("[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"tts\":01}]") << false;
        QTest::newRow("invalid UTF-8") << QByteArray("[{\"ph\":\"X\",\"name\":\"\xff\",\"ts\":1,\"dur\":1}]") << false;
        QTest::newRow("traceEvents not an array") << QByteArray("{\"traceEvents\":5}") << false;
        QTest::newRow("no traceEvents") << QByteArray("{\"other\":[]}") << false;
        QTest::newRow("broken metadata") << "{\"traceEvents\":[" + x + "],\"metadata\":{\"a\":}}" << false;
        QTest::newRow("empty array") << QByteArray("[]") << true;
        // An object cut short: what came before the cut, on the fast path.
        const QByteArray object = "{\"otherData\":{\"v\":[1]},\"traceEvents\":[" + x + "," + b;
        QTest::newRow("object cut inside an event") << object + ",{\"ph\":\"X\",\"args\":{\"a\":[{\"na" << true;
        QTest::newRow("object cut after a comma") << object + "," << true;
        QTest::newRow("object cut after the events") << object + "]," << true;
        QTest::newRow("object cut in samples") << object + "],\"samples\":[{\"ts\":1" << true;
        QTest::newRow("object cut in a later literal") << object + "],\"x\":tr" << false;
        // A line break inside a string of a later member, then the end: an
        // error where the reference reader meets it, not a cut (found by
        // fuzz_chrome reading its input both ways).
        QTest::newRow("object, bad string in a later member, then cut")
            << object + "],\"stackFrames\":{\"7\":{\"nam\n[{\"a\":1}" << false;
        QTest::newRow("object cut in a later member's string") << object + "],\"stackFrames\":{\"7\":{\"nam" << true;
        QTest::newRow("object cut before the events") << QByteArray("{\"otherData\":{\"v\":[1") << false;
        // Top-level keys are read by the fast path alone: one that is not
        // UTF-8 is the reference reader's error (found by fuzz_load).
        QTest::newRow("UTF-8 in a top-level key") << "{\"d\xc3\xa9tails\":1,\"traceEvents\":[" + x + "]}" << true;
        QTest::newRow("invalid UTF-8 in a top-level key")
            << "{\"traceEvents\":[" + x + "],\"display\xc3TimeUnit\":\"ns\"}" << false;
        QTest::newRow("object cut in a key after invalid UTF-8") << object + "],\"ab\xff" "cd" << false;
        QTest::newRow("object cut inside a key's UTF-8 character") << object + "],\"ab\xc3" << true;
        QTest::newRow("object with a trailing comma") << "{\"traceEvents\":[" + x + ",]}" << false;
    }
    void editedTracesGiveTheSameResult()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, fast);
        QTemporaryDir dir;
        const QString path = write(dir, text);
        const std::uint64_t before = ChromeFastReader::completedReads();
        const QStringList onFastPath = describe(loadOn(path, false));
        QCOMPARE(ChromeFastReader::completedReads() - before, std::uint64_t(fast ? 1 : 0));
        QCOMPARE(onFastPath, describe(loadOn(path, true)));
    }

    // The events' texts are views (ChromeEvent): an unescaped one into the
    // job's text, one with an escape into the job's own copies, as simdjson
    // unescapes into a buffer the next job reuses. Thousands of events (many
    // jobs, parsed on both threads ahead of the sink), each with escapes in
    // its name, category, thread name, counter key and string pid: each
    // text arrives whole, and as the reference reader reads it.
    void escapedTextsOutlastTheirJob_data()
    {
        QTest::addColumn<int>("events");
        QTest::newRow("one job") << 100;
        QTest::newRow("many jobs") << 6000;
    }
    void escapedTextsOutlastTheirJob()
    {
        QFETCH(int, events);
        QByteArray text = "[{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":\"\\u0037\",\"tid\":1,"
                          "\"args\":{\"name\":\"m\\u00e4in\"}}";
        for (int k = 0; k < events; ++k) {
            const QByteArray n = QByteArray::number(k / 2 % 10);
            if (k % 2 == 0) {
                text += ",\n{\"ph\":\"X\",\"name\":\"f\\u00e9" + n + "\",\"cat\":\"c\\\"" + n
                    + "\",\"pid\":\"\\u0037\",\"tid\":1,\"ts\":" + QByteArray::number(10 * k) + ",\"dur\":5}";
            } else {
                text += ",\n{\"ph\":\"C\",\"name\":\"q\\u00fc\",\"pid\":\"\\u0037\",\"tid\":1,\"ts\":"
                    + QByteArray::number(10 * k) + ",\"args\":{\"k\\u00e9y" + QByteArray::number(k % 3) + "\":"
                    + QByteArray::number(k) + "}}";
            }
        }
        text += "]";
        QTemporaryDir dir;
        const QString path = write(dir, text);
        const std::uint64_t before = ChromeFastReader::completedReads();
        const LoadResult fast = loadOn(path, false);
        QCOMPARE(ChromeFastReader::completedReads() - before, std::uint64_t(1));
        QVERIFY(fast.ok());
        const Profile& p = *fast.profile;
        QStringList labels;
        for (LabelId l = 0; l < p.labelCount(); ++l)
            labels << qstr(p.string(p.label(l).name));
        labels.sort();
        QStringList expected;
        for (int n = 0; n < 10; ++n)
            expected << QStringLiteral("f\u00e9%1").arg(n);
        QCOMPARE(labels, expected);
        QStringList counters;
        for (const CounterSeries& c : p.counters())
            counters << QStringLiteral("%1 %2 pid %3 points %4").arg(qstr(p.string(c.name)), qstr(p.string(c.key))).arg(c.pid).arg(c.times.size());
        counters.sort();
        const int perKey = events / 2 / 3;
        QCOMPARE(counters, (QStringList{QStringLiteral("q\u00fc k\u00e9y0 pid 7 points %1").arg(perKey + (events / 2 % 3 > 1 ? 1 : 0)),
                                        QStringLiteral("q\u00fc k\u00e9y1 pid 7 points %1").arg(perKey + (events / 2 % 3 > 0 ? 1 : 0)),
                                        QStringLiteral("q\u00fc k\u00e9y2 pid 7 points %1").arg(perKey)}));
        QCOMPARE(p.trackCount(), std::size_t(1));
        // The pid, 7, read from "\\u0037".
        QCOMPARE(qstr(p.string(p.track(0).name)), QStringLiteral("pid 7 / m\u00e4in"));
        QCOMPARE(describe(fast), describe(loadOn(path, true)));
    }

    // Every field of every kind of event, missing or of each wrong JSON
    // type: whatever comes of it (a warning, a skipped event, an error),
    // both paths must agree on it exactly.
    void wrongTypesGiveTheSameResult_data()
    {
        QTest::addColumn<QByteArray>("text");
        const QList<QJsonObject> events = {
            QJsonObject{{"ph", "X"}, {"name", "a"}, {"cat", "c"}, {"pid", 1}, {"tid", 2}, {"ts", 10}, {"dur", 5}, {"tdur", 4},
                        {"args", QJsonObject{{"k", 1}}}},
            QJsonObject{{"ph", "B"}, {"name", "b"}, {"pid", 1}, {"tid", 2}, {"ts", 20}},
            QJsonObject{{"ph", "E"}, {"pid", 1}, {"tid", 2}, {"ts", 30}},
            QJsonObject{{"ph", "b"}, {"name", "t"}, {"cat", "c"}, {"id", "0x1"}, {"pid", 1}, {"tid", 2}, {"ts", 40}},
            QJsonObject{{"ph", "e"}, {"name", "t"}, {"cat", "c"}, {"id2", QJsonObject{{"local", "0x1"}}}, {"pid", 1}, {"tid", 2}, {"ts", 50}},
            QJsonObject{{"ph", "M"}, {"name", "thread_name"}, {"pid", 1}, {"tid", 2}, {"args", QJsonObject{{"name", "main"}}}},
            QJsonObject{{"ph", "C"}, {"name", "q"}, {"pid", 1}, {"ts", 60}, {"args", QJsonObject{{"n", 3}}}},
            QJsonObject{{"ph", "i"}, {"name", "m"}, {"pid", 1}, {"tid", 2}, {"ts", 70}, {"s", "t"}},
        };
        const QList<QPair<QString, QJsonValue>> wrong = {
            {"a string", QJsonValue("x")}, {"a number", QJsonValue(7)}, {"a fraction", QJsonValue(-1.5)},
            {"true", QJsonValue(true)}, {"null", QJsonValue()}, {"an array", QJsonArray{1}},
            {"an object", QJsonObject{{"a", 1}}}, {"missing", QJsonValue(QJsonValue::Undefined)}};
        for (qsizetype e = 0; e < events.size(); ++e) {
            for (const QString& key : events[e].keys()) {
                for (const auto& [what, value] : wrong) {
                    if (value.type() == events[e].value(key).type() && value.type() != QJsonValue::Undefined)
                        continue;
                    QJsonArray trace;
                    for (qsizetype k = 0; k < events.size(); ++k) {
                        QJsonObject event = events[k];
                        if (k == e) {
                            if (value.isUndefined())
                                event.remove(key);
                            else
                                event[key] = value;
                        }
                        trace.append(event);
                    }
                    QTest::addRow("%s %s: %s", qPrintable(events[e].value("ph").toString()), qPrintable(key), qPrintable(what))
                        << QJsonDocument(trace).toJson(QJsonDocument::Compact);
                }
            }
        }
    }

    void wrongTypesGiveTheSameResult()
    {
        QFETCH(QByteArray, text);
        QTemporaryDir dir;
        const QString path = write(dir, text);
        const QStringList onFastPath = describe(loadOn(path, false));
        QCOMPARE(onFastPath, describe(loadOn(path, true)));
    }

    // A generated trace large enough to span many read blocks and jobs
    // (nested X and B/E, async tasks, counters, instants, names), and one
    // with DevTools CPU profile samples (args before name, as DevTools
    // writes them) on each process's main thread.
    void generatedTraceGivesTheSameProfile_data()
    {
        QTest::addColumn<bool>("samples");
        QTest::addColumn<int>("sampleTracks");
        QTest::newRow("trace") << false << 0;
        QTest::newRow("with samples") << true << 2;
    }
    void generatedTraceGivesTheSameProfile()
    {
        QFETCH(bool, samples);
        QFETCH(int, sampleTracks);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("generated.json"));
        QVERIFY(bench::TraceGenerator::writeFile(path.toLocal8Bit().constData(), 60000, samples));
        QVERIFY(QFileInfo(path).size() > 3 * (1 << 20));
        const std::uint64_t before = ChromeFastReader::completedReads();
        const LoadResult loaded = loadOn(path, false);
        QVERIFY(loaded.ok());
        QCOMPARE(int(std::count_if(loaded.profile->tracks().begin(), loaded.profile->tracks().end(),
                                   [](const Track& t) { return t.kind == TrackKind::Samples; })),
                 sampleTracks);
        QCOMPARE(loaded.profile->diagnostics().warningCount(), std::uint64_t(0));
        const QStringList fast = describe(loaded);
        QCOMPARE(ChromeFastReader::completedReads() - before, std::uint64_t(1));
        QVERIFY(fast.size() > 100000);
        QCOMPARE(fast, describe(loadOn(path, true)));
    }

    // A trace in the object form cut at every byte: from the '[' of its
    // event array on, it loads what came before the cut with one "truncated
    // file" warning, on the fast path, and the reference path gives the same
    // profile and words; cut before it, both give the same error.
    void objectFormCutAtEveryByte()
    {
        const QByteArray text = "{\"otherData\":{\"version\":\"1.0\",\"n\":[1,2.5]},\"traceEvents\":[\n"
            + JSON({"ph":"X","pid":1,"tid":2,"name":"a","ts":1.5,"dur":20}) + ",\n"
            + JSON({"ph":"X","pid":1,"tid":2,"name":"b\"q","ts":3,"dur":2,"args":{"data":{"l":[1,{"k":null}],"ok":true}}})
            + ",\n" + JSON({"ph":"X","pid":1,"tid":2,"name":"c","ts":6,"dur":1e1}) + "\n],\n"
            + JSON("stackFrames":{"1":{"name":"f","parent":0}},"metadata":{"n":-17,"s":"v"}});
        const qsizetype open = text.indexOf("\"traceEvents\":[") + 15;
        QTemporaryDir dir;
        int lastIntervals = 0;
        for (qsizetype n = 1; n < text.size(); ++n) {
            const QString path = write(dir, text.left(n));
            const std::uint64_t before = ChromeFastReader::completedReads();
            const LoadResult fast = loadOn(path, false);
            const bool read = n >= open;
            QVERIFY2(fast.ok() == read, qPrintable(QString::number(n)));
            QCOMPARE(ChromeFastReader::completedReads() - before, std::uint64_t(read ? 1 : 0));
            QCOMPARE(describe(fast), describe(loadOn(path, true)));
            if (read) {
                const Diagnostics& d = fast.profile->diagnostics();
                QCOMPARE(d.warningCount(), std::uint64_t(1));
                QCOMPARE(d.warningKinds().count("truncated file"), std::size_t(1));
                const int intervals = int(fast.profile->intervalCount());
                QVERIFY(intervals >= lastIntervals);
                lastIntervals = intervals;
            }
        }
        QCOMPARE(lastIntervals, 3);
        const LoadResult whole = loadOn(write(dir, text), false);
        QVERIFY(whole.ok());
        QCOMPARE(whole.profile->intervalCount(), std::size_t(3));
        QCOMPARE(whole.profile->diagnostics().warningCount(), std::uint64_t(0));
    }

    // Cut far into a file of many read blocks and jobs, plain or gzip'd:
    // the same events and notice on both paths, the fast one taking it. A
    // gzip stream that is itself cut short stays the gzip layer's error.
    void bigObjectFormCut_data()
    {
        QTest::addColumn<QByteArray>("file");
        QTest::addColumn<int>("intervals");
        QTest::addColumn<QString>("notice"); // or the error
        QByteArray text = "{\"otherData\":{\"v\":1},\"traceEvents\":[\n";
        qsizetype event20000 = 0;
        for (int i = 0; i < 30000; ++i) {
            if (i == 20000)
                event20000 = text.size();
            text += "{\"ph\":\"X\",\"pid\":1,\"tid\":" + QByteArray::number(1 + i % 3) + ",\"name\":\"n" + QByteArray::number(i % 97)
                + "\",\"ts\":" + QByteArray::number(i * 10) + ",\"dur\":5,\"args\":{\"i\":" + QByteArray::number(i) + "}},\n";
        }
        text.chop(2);
        text += "\n],\"stackFrames\":{\"1\":{\"name\":\"f\"}}}";
        QVERIFY(text.size() > 2 * (1 << 20));
        const QByteArray inEvent = text.left(event20000 + 60);
        const QByteArray inStackFrames = text.left(text.size() - 8);
        const QString inEventNotice = QStringLiteral("the file ends inside event #20000; that event is dropped");
        const QString inStackFramesNotice = QStringLiteral("the file ends after the event array, inside top-level 'stackFrames'");
        QTest::newRow("cut inside event #20000") << inEvent << 20000 << inEventNotice;
        QTest::newRow("cut in stackFrames") << inStackFrames << 30000 << inStackFramesNotice;
        QTest::newRow("gzip, cut inside event #20000") << runlane::test::gzip(inEvent) << 20000 << inEventNotice;
        QTest::newRow("gzip, cut in stackFrames") << runlane::test::gzip(inStackFrames) << 30000 << inStackFramesNotice;
        const QByteArray gzipped = runlane::test::gzip(text);
        const qsizetype half = gzipped.size() / 2;
        QTest::newRow("gzip stream cut") << gzipped.left(half) << -1
                                         << QStringLiteral("read error: the gzip stream is cut short: it ends after %1 compressed "
                                                           "bytes, in the middle of its data (an incomplete download or copy?)")
                                                .arg(half);
    }
    void bigObjectFormCut()
    {
        QFETCH(QByteArray, file);
        QFETCH(int, intervals);
        QFETCH(QString, notice);
        QTemporaryDir dir;
        const QString path = runlane::test::writeTemp(dir, file, QStringLiteral("cut.json.gz"));
        const std::uint64_t before = ChromeFastReader::completedReads();
        const LoadResult fast = loadOn(path, false);
        QCOMPARE(ChromeFastReader::completedReads() - before, std::uint64_t(intervals >= 0 ? 1 : 0));
        if (intervals < 0) {
            QVERIFY(!fast.ok());
            QCOMPARE(QString::fromStdString(fast.error.message), notice);
        } else {
            QVERIFY2(fast.ok(), fast.error.toString().c_str());
            QCOMPARE(fast.profile->intervalCount(), std::size_t(intervals));
            QCOMPARE(fast.profile->diagnostics().warningCount(), std::uint64_t(1));
            QCOMPARE(qstr(fast.profile->diagnostics().firstMessage("truncated file")), notice);
        }
        QCOMPARE(describe(fast), describe(loadOn(path, true)));
    }

    // Each block lands in the buffer at the offset within a page its bytes
    // have in the file (ChromeFastReader's refill: a copy from the page
    // cache that lands a few bytes past its source's offset costs 2.8 x
    // on some CPUs), whatever the bytes of a cut event kept before it.
    void readsLandAtTheirFileOffsets_data()
    {
        QTest::addColumn<int>("nameBytes"); // varies the bytes kept before each block
        QTest::addColumn<int>("events");
        QTest::newRow("short events") << 1 << 60000;
        QTest::newRow("longer events") << 37 << 50000;
        QTest::newRow("events of a few hundred bytes") << 300 << 20000;
    }
    void readsLandAtTheirFileOffsets()
    {
        QFETCH(int, nameBytes);
        QFETCH(int, events);
        QByteArray text = "{\"traceEvents\":[\n";
        for (int i = 0; i < events; ++i) {
            text += "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"name\":\"" + QByteArray(1 + (i * 7) % nameBytes, 'a')
                + "\",\"ts\":" + QByteArray::number(i * 10) + ",\"dur\":5}" + (i + 1 < events ? ",\n" : "\n");
        }
        text += "]}";
        QVERIFY(text.size() > 3 * (1 << 20));
        RecordingBuffer device;
        device.setData(text);
        QVERIFY(device.open(QIODevice::ReadOnly | QIODevice::Unbuffered));
        LoadControl control;
        Diagnostics diagnostics;
        std::uint64_t handed = 0;
        ChromeFastReader reader(device, control, diagnostics, [&handed](const ChromeEvent&, std::uint64_t) { ++handed; });
        QCOMPARE(reader.read(), ChromeFastReader::Outcome::Read);
        QCOMPARE(handed, std::uint64_t(events));
        int blocks = 0;
        for (const RecordingBuffer::Read& read : device.reads()) {
            QCOMPARE(qint64(read.landsAt), read.liesAt);
            blocks += read.bytes > 0 ? 1 : 0;
        }
        QCOMPARE(blocks, int((text.size() + (1 << 20) - 1) / (1 << 20)));
    }

private:
    std::uint64_t m_fastSamples = 0;
};

QTEST_GUILESS_MAIN(TestChromeFastReader)
#include "tst_chromefastreader.moc"
