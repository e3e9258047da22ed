#include "chroprofsnapshotwriter.h"
#include "profileloader.h"
#include "snapshotreader.h"
#include "testsupport.h"

#include <QBuffer>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlane;
using runlane::test::loadText;

namespace {

NamedAggregateRow rowOf(std::string procedure, std::string file, std::int32_t line, Time exec, std::uint64_t calls)
{
    NamedAggregateRow r;
    r.procedure = std::move(procedure);
    r.file = std::move(file);
    r.line = line;
    r.values.exec = exec;
    r.values.calls = calls;
    return r;
}

// Three snapshots with every field set somewhere and a name that needs
// every kind of escape.
std::vector<ScrapedSnapshot> recording()
{
    const std::string odd = "q\"b\\s\x01\t\n caf\xc3\xa9";
    std::vector<ScrapedSnapshot> s(3);
    s[0].time = 1732500000000000000;
    s[0].rows = {rowOf("a", "x.nim", 1, 100, 1)};
    s[1].time = 1732500005000000000;
    s[1].rows = {rowOf("a", "x.nim", 1, 300, 3), rowOf(odd, "dir\\y.nim", 22, 50, 2)};
    s[1].rows[1].values.execMax = 40;
    s[1].rows[1].values.childrenExec = 7;
    s[1].rows[1].values.wall = 900;
    s[1].rows[1].values.stillborn = 4;
    s[1].rows[1].values.zombieEvents = 5;
    s[2].time = 1732500010000000000;
    s[2].rows = {rowOf("a", "x.nim", 1, 600, 6)};
    return s;
}

// The recording's bytes, and the offset after each complete snapshot.
QByteArray written(std::vector<qint64>* ends = nullptr)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    ChroprofSnapshotWriter writer(&buffer);
    if (!writer.begin())
        return {};
    for (const ScrapedSnapshot& s : recording()) {
        if (!writer.write(s))
            return {};
        if (ends)
            ends->push_back(buffer.pos());
    }
    if (!writer.finish())
        return {};
    return buffer.data();
}

} // namespace

class TestChroprofSnapshotWriter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void exactText()
    {
        const QByteArray text = written();
        const QList<QByteArray> lines = text.split('\n');
        QCOMPARE(lines.size(), qsizetype(6));
        QCOMPARE(lines[0], QByteArray(R"({"chroprofSnapshots": 1, "snapshots": [)"));
        QCOMPARE(lines[1], QByteArray(R"({"t": 1732500000000000000, "rows": [{"location": {"procedure": "a", "file": "x.nim", "line": 1}, "execTime": 100, "execTimeMax": 0, "childrenExecTime": 0, "wallClockTime": 0, "callCount": 1, "stillbornCount": 0, "zombieEventCount": 0}]},)"));
        QVERIFY(lines[2].contains("{\"location\": {\"procedure\": \"q\\\"b\\\\s\\u0001\\t\\n caf\xc3\xa9\", "
                                  "\"file\": \"dir\\\\y.nim\", \"line\": 22}, \"execTime\": 50, \"execTimeMax\": 40, "
                                  "\"childrenExecTime\": 7, \"wallClockTime\": 900, \"callCount\": 2, \"stillbornCount\": 4, "
                                  "\"zombieEventCount\": 5}"));
        QCOMPARE(lines[3], QByteArray(R"({"t": 1732500010000000000, "rows": [{"location": {"procedure": "a", "file": "x.nim", "line": 1}, "execTime": 600, "execTimeMax": 0, "childrenExecTime": 0, "wallClockTime": 0, "callCount": 6, "stillbornCount": 0, "zombieEventCount": 0}]})"));
        QCOMPARE(lines[4], QByteArray("]}"));
        QCOMPARE(lines[5], QByteArray());
    }

    // Through the real loader: every value and name as written.
    void roundTrip()
    {
        const LoadResult r = loadText(written());
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.formatName(), std::string_view("Chroprof metric snapshots"));
        QVERIFY(p.snapshotsAreTimed());
        QCOMPARE(p.diagnostics().warningCount(), std::uint64_t(0));
        const std::vector<ScrapedSnapshot> expected = recording();
        QCOMPARE(p.snapshots().size(), expected.size());
        SnapshotReader reader(p.snapshots());
        for (std::size_t k = 0; k < expected.size(); ++k) {
            QCOMPARE(reader.snapshot(k).time(), expected[k].time);
            const std::span<const AggregateRow> got = reader.rows(k);
            QCOMPARE(got.size(), expected[k].rows.size());
            for (std::size_t i = 0; i < got.size(); ++i) {
                const AggregateRow& g = got[i];
                const NamedAggregateRow& e = expected[k].rows[i];
                QCOMPARE(std::string(p.labelName(g.label)), e.procedure);
                QCOMPARE(std::string(p.string(p.label(g.label).file)), e.file);
                QCOMPARE(p.label(g.label).line, e.line);
                QCOMPARE(g.exec, e.values.exec);
                QCOMPARE(g.execMax, e.values.execMax);
                QCOMPARE(g.childrenExec, e.values.childrenExec);
                QCOMPARE(g.wall, e.values.wall);
                QCOMPARE(g.calls, e.values.calls);
                QCOMPARE(g.stillborn, e.values.stillborn);
                QCOMPARE(g.zombieEvents, e.values.zombieEvents);
            }
        }
    }

    // A writer killed at any byte: the snapshots complete before the cut
    // load, with a "truncated file" warning; before the snapshot array
    // has begun, nothing is a recording yet (an error).
    void cutAtEveryByte()
    {
        std::vector<qint64> ends;
        const QByteArray whole = written(&ends);
        const qint64 arrayStart = whole.indexOf('[') + 1;
        QCOMPARE(ends.size(), std::size_t(3));
        int errors = 0;
        int cutInside = 0;
        for (qint64 n = 0; n < whole.size(); ++n) {
            const LoadResult r = loadText(whole.left(n));
            if (n < arrayStart) {
                QVERIFY2(!r.ok(), qPrintable(QStringLiteral("cut at %1 loads").arg(n)));
                ++errors;
                continue;
            }
            QVERIFY2(r.ok(), qPrintable(QStringLiteral("cut at %1: %2").arg(n).arg(QString::fromStdString(r.error.toString()))));
            const std::size_t complete = std::size_t(std::count_if(ends.begin(), ends.end(), [n](qint64 e) { return e <= n; }));
            QCOMPARE(r.profile->snapshots().size(), complete);
            const std::string cut = r.profile->diagnostics().firstMessage("truncated file");
            // The closing "]}\n": only the last line break is not needed.
            if (n < whole.size() - 1) {
                QVERIFY2(!cut.empty(), qPrintable(QStringLiteral("cut at %1 not said").arg(n)));
                ++cutInside;
            }
        }
        QCOMPARE(errors, int(arrayStart));
        QCOMPARE(cutInside, int(whole.size() - 1 - arrayStart));
    }

    // Each snapshot is in the file when write() returns: a QFile's buffer
    // is flushed.
    void flushedToTheFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("recording.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        ChroprofSnapshotWriter writer(&file);
        QVERIFY(writer.begin());
        QVERIFY(writer.write(recording()[0]));
        QVERIFY(writer.write(recording()[1]));
        const LoadResult r = ProfileLoader::load(path);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(r.profile->snapshots().size(), std::size_t(2));
        QCOMPARE(r.profile->diagnostics().firstMessage("truncated file"),
                 std::string("the file ends inside the snapshot array after 2 snapshot(s); the rest is missing"));
        QVERIFY(writer.finish());
        QVERIFY(!writer.finish());
        QCOMPARE(writer.errorString(), QStringLiteral("finish() without begin(), or twice"));
    }

    void closedDeviceFails()
    {
        QBuffer buffer;
        ChroprofSnapshotWriter writer(&buffer);
        QVERIFY(!writer.begin());
        QCOMPARE(writer.errorString(), QStringLiteral("the output is not open for writing"));
    }
};

QTEST_GUILESS_MAIN(TestChroprofSnapshotWriter)
#include "tst_chroprofsnapshotwriter.moc"
