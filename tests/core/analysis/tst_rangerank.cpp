// The rank of a range of async code (semantics.md §5, issue #20): time with
// children follows the creator chain wherever the creators lived, counts
// each measurement once per label, and is never below exec.

#include "measurementmetrics.h"
#include "rankbruteforce.h"
#include "ranktable.h"
#include "testsupport.h"

#include <QFile>
#include <QtTest>

#include <algorithm>
#include <optional>
#include <vector>

using namespace runlane;
using runlane::test::bruteForceRank;
using runlane::test::dataPath;
using runlane::test::loadText;
using runlane::test::qstr;
using runlane::test::rankDifference;

namespace {

// xorshift64: the same workload for a seed on every platform, which the
// standard distributions do not promise.
struct Rng {
    std::uint64_t state;
    explicit Rng(std::uint64_t seed) : state(seed * 0x9E3779B97F4A7C15ull + 1) { }
    std::uint64_t below(std::uint64_t n)
    {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state % n;
    }
};

// The Chronos future event log of one simulated event loop. Futures are
// created by whatever runs (their synchronous first segment nested in their
// creator's), resumed on top of other futures that did not create them
// (foster children: nested in time, not by creation), paused, and finished
// in any order, so creators often finish long before what they created runs
// again. Few procs, so that a proc is often created under itself. Some
// futures are stillborn, some finish without running (primitive), some are
// left unfinished. Futures are short-lived on a long loop: short ranges hold
// few of them, long ones most.
QByteArray asyncWorkload(std::uint64_t seed, int steps)
{
    Rng rng(seed);
    static constexpr const char* procs[] = {"accept", "handle", "read", "parse", "write", "retry"};
    QByteArray log = "{\"chronosFutureEvents\": 1, \"events\": [\n";
    Time t = 0;
    int nextId = 1;
    bool first = true;
    auto event = [&](int id, const char* state, std::optional<std::size_t> proc = std::nullopt) {
        log += first ? " " : ",\n ";
        first = false;
        log += "{\"t\": " + QByteArray::number(qint64(t)) + ", \"id\": " + QByteArray::number(id) + ", \"state\": \""
            + state + "\"";
        if (proc)
            log += QByteArray(", \"proc\": \"") + procs[*proc] + "\", \"file\": \"w.nim\", \"line\": "
                + QByteArray::number(int(*proc) + 1);
        log += "}";
    };
    auto pickProc = [&] { return std::size_t(rng.below(4) == 0 ? rng.below(std::size(procs)) : rng.below(3)); };
    std::vector<int> running; // the loop's running stack, innermost last
    std::vector<int> waiting; // pending or paused
    auto takeWaiting = [&] {
        const std::size_t k = rng.below(waiting.size());
        const int id = waiting[k];
        waiting.erase(waiting.begin() + std::ptrdiff_t(k));
        return id;
    };
    constexpr std::size_t kMaxDepth = 6;
    for (int step = 0; step < steps; ++step) {
        // Often several events at the same time, sometimes a long gap.
        if (rng.below(4) != 0)
            t += 1 + Time(rng.below(rng.below(12) == 0 ? 400 : 20));
        switch (rng.below(12)) {
        case 0:
        case 1:
        case 2: { // create, and usually run at once inside the creator
            const int id = nextId++;
            event(id, "Pending", pickProc());
            if (rng.below(3) != 0 && running.size() < kMaxDepth) {
                event(id, "Running");
                running.push_back(id);
            } else {
                waiting.push_back(id);
            }
            break;
        }
        case 3: // stillborn: its first event is its finish
            if (rng.below(3) == 0)
                event(nextId++, rng.below(2) ? "Completed" : "Failed", pickProc());
            break;
        case 4:
        case 5:
        case 6: // resume, on top of whatever runs
            if (!waiting.empty() && running.size() < kMaxDepth) {
                const int id = takeWaiting();
                event(id, "Running");
                running.push_back(id);
            }
            break;
        case 7:
        case 8: // the innermost one pauses
            if (!running.empty()) {
                event(running.back(), "Paused");
                waiting.push_back(running.back());
                running.pop_back();
            }
            break;
        default: // the innermost one finishes, or one that waits is finished
            if (!running.empty() && rng.below(2) == 0) {
                event(running.back(), rng.below(8) == 0 ? "Failed" : "Completed");
                running.pop_back();
            } else if (!waiting.empty()) {
                event(takeWaiting(), rng.below(4) == 0 ? "Cancelled" : "Completed");
            }
            break;
        }
    }
    // What still runs or waits is left unfinished.
    return log + "\n]}\n";
}

QByteArray fileText(const QString& relative)
{
    QFile file(dataPath(relative));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Rows as "label: calls C, unfinished U, exec E, total T, wall W", by name.
QStringList rowLines(const Profile& p, const RankTable& table)
{
    QStringList lines;
    for (const RankRow& r : table.rows()) {
        lines << QStringLiteral("%1: calls %2, unfinished %3, exec %4, total %5, wall %6")
                     .arg(qstr(p.labelName(r.label)))
                     .arg(r.calls)
                     .arg(r.unfinished)
                     .arg(r.exec)
                     .arg(r.total)
                     .arg(r.wall);
    }
    lines.sort();
    return lines;
}

} // namespace

class TestRangeRank : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The two examples of issue #20, in ranges around and inside them.
    // "padded": eight more futures after the end, which no range holds, so
    // that the range holds few of the profile's measurements (the way a
    // short range of a long profile is ranked).
    void examples_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("padded");
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        QTest::addColumn<QStringList>("expected");
        const QString recursion = QStringLiteral("profiles/chronos-range-recursion.json");
        const QString finished = QStringLiteral("profiles/chronos-range-finished-creator.json");
        for (const bool padded : {false, true}) {
            const char* how = padded ? "padded" : "alone";
            // rec (0-10) creates rec (runs 1-2 inside it, then 100-150):
            // the inner one's 50 ns in the range count once, not zero times.
            QTest::addRow("recursion, creator finished before the range, %s", how)
                << recursion << padded << qint64(50) << qint64(200)
                << QStringList{"rec: calls 1, unfinished 0, exec 50, total 50, wall 100"};
            QTest::addRow("recursion, both in the range, %s", how)
                << recursion << padded << qint64(5) << qint64(120)
                << QStringList{"rec: calls 2, unfinished 0, exec 25, total 25, wall 120"};
            QTest::addRow("recursion, between the runs, %s", how)
                << recursion << padded << qint64(10) << qint64(100)
                << QStringList{"rec: calls 1, unfinished 0, exec 0, total 0, wall 90"};
            // p (0-10) creates c (runs 5-6 inside it, then 100-200): p gets
            // a row of its own for what c does in the range.
            QTest::addRow("creator finished before the range, %s", how)
                << finished << padded << qint64(50) << qint64(300)
                << QStringList{"c: calls 1, unfinished 0, exec 100, total 100, wall 150",
                               "p: calls 0, unfinished 0, exec 0, total 100, wall 0"};
            QTest::addRow("a part of the child's run, %s", how)
                << finished << padded << qint64(150) << qint64(160)
                << QStringList{"c: calls 1, unfinished 0, exec 10, total 10, wall 10",
                               "p: calls 0, unfinished 0, exec 0, total 10, wall 0"};
            QTest::addRow("the child only waits in the range, %s", how)
                << finished << padded << qint64(20) << qint64(90)
                << QStringList{"c: calls 1, unfinished 0, exec 0, total 0, wall 70"};
            QTest::addRow("the child's first segment, %s", how)
                << finished << padded << qint64(5) << qint64(6)
                << QStringList{"c: calls 1, unfinished 0, exec 1, total 1, wall 1",
                               "p: calls 1, unfinished 0, exec 0, total 1, wall 1"};
        }
        // A range that holds the whole profile: the figures of the profile.
        QTest::newRow("recursion, whole profile") << recursion << false << qint64(0) << qint64(200)
                                                  << QStringList{"rec: calls 2, unfinished 0, exec 60, total 60, wall 159"};
        QTest::newRow("creator finished before, whole profile")
            << finished << false << qint64(0) << qint64(300)
            << QStringList{"c: calls 1, unfinished 0, exec 101, total 101, wall 195",
                           "p: calls 1, unfinished 0, exec 9, total 110, wall 10"};
    }

    void examples()
    {
        QFETCH(QString, file);
        QFETCH(bool, padded);
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        QFETCH(QStringList, expected);
        QByteArray text = fileText(file);
        QVERIFY(text.endsWith("]}\n"));
        if (padded) {
            text.chop(3);
            for (int k = 0; k < 8; ++k) {
                const QByteArray id = QByteArray::number(100 + k);
                text += ",\n {\"t\": 400, \"id\": " + id
                    + ", \"state\": \"Pending\", \"proc\": \"pad\", \"file\": \"q.nim\", \"line\": 1}";
                text += ",\n {\"t\": 401, \"id\": " + id + ", \"state\": \"Completed\"}";
            }
            text += "]}\n";
        }
        const LoadResult r = loadText(text);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QVERIFY(r.profile->diagnostics().warningCount() == 0);
        const MeasurementMetrics metrics(*r.profile);
        const RankTable table = RankTable::compute(metrics, TimeRange{from, to});
        QCOMPARE(rowLines(*r.profile, table), expected);
        QCOMPARE(rankDifference(*r.profile, table, bruteForceRank(*r.profile, from, to)), std::string());
    }

    // A chain of futures, each created by the one before it, which then
    // finishes (a future that schedules the next one and completes),
    // alternately ping and pong, each running 8 ns every 10 ns. The last
    // run is pong's doing and, through the whole chain of creators that
    // finished long before, ping's too.
    void creatorChain_data()
    {
        QTest::addColumn<int>("length");
        for (const int length : {2, 10, 1000, 5000})
            QTest::addRow("%d futures", length) << length;
    }

    void creatorChain()
    {
        QFETCH(int, length);
        QByteArray text = "{\"chronosFutureEvents\": 1, \"events\": [\n";
        for (int k = 0; k < length; ++k) {
            const QByteArray id = QByteArray::number(k + 1), at = QByteArray::number(10 * k);
            if (k == 0)
                text += " {\"t\": 0, \"id\": 1, \"state\": \"Pending\", \"proc\": \"ping\", \"file\": \"c.nim\", \"line\": 1},\n";
            text += " {\"t\": " + at + ", \"id\": " + id + ", \"state\": \"Running\"},\n";
            if (k + 1 < length)
                text += " {\"t\": " + QByteArray::number(10 * k + 5) + ", \"id\": " + QByteArray::number(k + 2)
                    + ", \"state\": \"Pending\", \"proc\": \"" + (k % 2 ? "ping" : "pong")
                    + "\", \"file\": \"c.nim\", \"line\": " + (k % 2 ? "1" : "2") + "},\n";
            text += " {\"t\": " + QByteArray::number(10 * k + 8) + ", \"id\": " + id + ", \"state\": \"Completed\"}";
            text += k + 1 < length ? ",\n" : "\n]}\n";
        }
        const LoadResult r = loadText(text);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.measurementCount(), std::size_t(length));
        QVERIFY(p.diagnostics().warningCount() == 0);
        const MeasurementMetrics metrics(p);
        const Time last = 10 * Time(length - 1);
        const RankTable table = RankTable::compute(metrics, TimeRange{last, last + 10});
        QCOMPARE(rowLines(p, table), (QStringList{"ping: calls 0, unfinished 0, exec 0, total 8, wall 0",
                                                  "pong: calls 1, unfinished 0, exec 8, total 8, wall 8"}));
        for (const Time from : {Time(0), last / 2, last - 10, last}) {
            const std::string difference =
                rankDifference(p, RankTable::compute(metrics, TimeRange{from, last + 10}), bruteForceRank(p, from, last + 10));
            QVERIFY2(difference.empty(), ("from " + std::to_string(from) + ": " + difference).c_str());
        }
    }

    // Generated async workloads, each ranked over ranges of every length
    // (short ones hold a few of its futures, long ones most) and over the
    // whole profile: every row must equal the brute force from the
    // definitions, and no total may be below its exec.
    void agreesWithDefinition_data()
    {
        QTest::addColumn<quint64>("seed");
        for (quint64 seed = 1; seed <= 12; ++seed)
            QTest::addRow("seed %llu", seed) << seed;
    }

    void agreesWithDefinition()
    {
        QFETCH(quint64, seed);
        const LoadResult r = loadText(asyncWorkload(seed, 3000));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QVERIFY(p.diagnostics().warningCount() == 0);
        QVERIFY(p.measurementCount() > 500);
        const MeasurementMetrics metrics(p);
        const Time start = p.startTime(), end = p.endTime(), span = end - start;

        const std::string whole = rankDifference(p, RankTable::compute(metrics), bruteForceRank(p, start, end + 1));
        QVERIFY2(whole.empty(), ("whole profile: " + whole).c_str());

        std::vector<TimeRange> ranges = {{start, end + 1}, {start - 10, end + 10}, {start, end},
                                         {start + 1, end + 1}, {end + 5, end + 10}, {start - 10, start}};
        Rng rng(seed + 1000);
        for (const Time length : {Time(1), Time(3), span / 1000, span / 100, span / 20, span / 5, span / 2, span * 9 / 10}) {
            for (int k = 0; k < 4; ++k) {
                const Time from = start + Time(rng.below(std::uint64_t(std::max<Time>(1, span - length))));
                ranges.push_back({from, from + std::max<Time>(1, length)});
            }
        }
        // Ranges from and to the instants things happen at: where
        // creators finish and children run on.
        for (int k = 0; k < 6; ++k) {
            const Measurement& a = p.measurement(MeasurementId(rng.below(p.measurementCount())));
            const Measurement& b = p.measurement(MeasurementId(rng.below(p.measurementCount())));
            ranges.push_back({std::min(a.finished, b.created), std::max(a.finished, b.created) + 1});
        }
        for (const TimeRange& range : ranges) {
            const RankTable table = RankTable::compute(metrics, range);
            const std::string difference = rankDifference(p, table, bruteForceRank(p, range.from, range.to));
            const std::string where = "range " + std::to_string(range.from) + ".." + std::to_string(range.to) + ": ";
            QVERIFY2(difference.empty(), (where + difference).c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestRangeRank)
#include "tst_rangerank.moc"
