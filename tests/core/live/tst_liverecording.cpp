#include "liverecording.h"
#include "measurementmetrics.h"
#include "ranktable.h"
#include "snapshotreader.h"
#include "usageseries.h"

#include <QtTest>

#include <map>
#include <random>

using namespace runlane;

namespace {

NamedAggregateRow row(const char* proc, Time exec, std::uint64_t calls = 1)
{
    NamedAggregateRow r;
    r.procedure = proc;
    r.file = "codex.nim";
    r.line = int(proc[0]);
    r.values.exec = exec;
    r.values.calls = calls;
    r.values.wall = exec * 2;
    r.values.childrenExec = exec / 2;
    return r;
}

ScrapedSnapshot at(Time t, std::vector<NamedAggregateRow> rows)
{
    return ScrapedSnapshot{t, std::move(rows)};
}

const RankRow* rankRow(const RankTable& table, const Profile& p, std::string_view name)
{
    for (const RankRow& r : table.rows()) {
        if (p.labelName(r.label) == name)
            return &r;
    }
    return nullptr;
}

} // namespace

class TestLiveRecording : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void idsAndSharing()
    {
        LiveRecording recording("http://127.0.0.1:1/metrics");
        QVERIFY(recording.profile() == nullptr);
        auto added = recording.add({at(1000, {row("A", 100), row("B", 50)}), at(2000, {row("A", 300), row("B", 50), row("C", 10)})});
        QCOMPARE(added.snapshots, std::size_t(2));
        QCOMPARE(added.resets, std::size_t(0));
        const auto v1 = recording.profile();
        QCOMPARE(v1->labelCount(), std::size_t(3));
        QCOMPARE(v1->labelName(0), std::string_view("A"));
        QCOMPARE(v1->labelName(2), std::string_view("C"));
        QCOMPARE(v1->snapshots().size(), std::size_t(2));
        QVERIFY(v1->snapshotsAreTimed());
        QCOMPARE(v1->startTime(), Time(1000));
        QCOMPARE(v1->endTime(), Time(2000));
        QCOMPARE(v1->sourcePath(), std::string("http://127.0.0.1:1/metrics"));

        // Later, out of order, and a reset of A (300 -> 250); B left the top-k.
        added = recording.add({at(3000, {row("A", 250), row("C", 40)}), at(2500, {row("A", 999)}), at(3000, {row("D", 1)})});
        QCOMPARE(added.snapshots, std::size_t(1));
        QCOMPARE(added.outOfOrder, std::size_t(2));
        QCOMPARE(added.resets, std::size_t(1));
        QCOMPARE(recording.resets(), std::uint64_t(1));
        const auto v2 = recording.profile();
        QCOMPARE(v2->labelCount(), std::size_t(3)); // D's snapshot was dropped before it was interned
        // The versions share the snapshots they have in common.
        QCOMPARE(v2->snapshots().pointers()[0].get(), v1->snapshots().pointers()[0].get());
        QCOMPARE(v2->snapshots().pointers()[1].get(), v1->snapshots().pointers()[1].get());
        // Ids carry over: label 1 is B in both.
        QCOMPARE(v2->labelName(1), std::string_view("B"));

        SnapshotReader reader(recording.snapshots());
        const ScrapedSnapshot back = recording.named(reader.snapshot(2).time(), reader.rows(2));
        QCOMPARE(back.time, Time(3000));
        QCOMPARE(back.rows.size(), std::size_t(2));
        QCOMPARE(back.rows[1].procedure, std::string("C"));
        QCOMPARE(back.rows[1].line, int('C'));
        QCOMPARE(back.rows[1].values.exec, Time(40));
    }

    // A proc at the place another had in the scrape before is the same
    // proc only if its name, file and line all are.
    void procsAtTheSamePlace_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("procedure");
        QTest::addColumn<bool>("same");
        QTest::newRow("same proc") << "codex.nim" << int('B') << "B" << true;
        QTest::newRow("other file") << "other.nim" << int('B') << "B" << false;
        QTest::newRow("other line") << "codex.nim" << 7 << "B" << false;
        QTest::newRow("other name") << "codex.nim" << int('B') << "b" << false;
    }
    void procsAtTheSamePlace()
    {
        QFETCH(QString, file);
        QFETCH(int, line);
        QFETCH(QString, procedure);
        QFETCH(bool, same);
        LiveRecording recording;
        NamedAggregateRow next = row("B", 70);
        next.procedure = procedure.toStdString();
        next.file = file.toStdString();
        next.line = line;
        recording.add({at(1000, {row("A", 100), row("B", 50)}), at(2000, {row("A", 200), next})});
        const auto p = recording.profile();
        QCOMPARE(p->labelCount(), std::size_t(same ? 2 : 3));
        SnapshotReader reader(p->snapshots());
        const std::span<const AggregateRow> last = reader.rows(1);
        QCOMPARE(last[1].label, LabelId(same ? 1 : 2));
        QCOMPARE(p->labelName(last[1].label), std::string_view(next.procedure));
        QCOMPARE(std::string(p->string(p->label(last[1].label).file)), next.file);
        QCOMPARE(p->label(last[1].label).line, line);
        QCOMPARE(last[1].exec, Time(70));
    }

    // Over many blocks of stored snapshots, with procs leaving the top-k
    // and coming back: each proc's rank row is its last row received,
    // after every snapshot (the newest read from the recording's decoded
    // rows, the others from older blocks).
    void rankIsEachProcsLastRow()
    {
        std::mt19937_64 rng(7);
        LiveRecording recording;
        std::map<std::string, std::pair<Time, std::uint64_t>> last; // exec, calls
        for (int k = 1; k <= 150; ++k) {
            std::vector<NamedAggregateRow> rows;
            for (const char* name : {"A", "B", "C", "D", "E", "F"}) {
                if (rng() % 3 == 0 && !(k == 150 && name[0] == 'A'))
                    continue; // not in this snapshot's top-k
                rows.push_back(row(name, Time(k) * 100 + Time(name[0]), std::uint64_t(k)));
                last[name] = {rows.back().values.exec, rows.back().values.calls};
            }
            recording.add({at(Time(k) * 1000, std::move(rows))});
            if (k % 7 != 0 && k != 150)
                continue;
            const auto p = recording.profile();
            QVERIFY(p->snapshots().newestRows() != nullptr);
            const MeasurementMetrics metrics(*p);
            const RankTable rank = RankTable::compute(metrics);
            QCOMPARE(rank.rows().size(), last.size());
            for (const auto& [name, values] : last) {
                const RankRow* r = rankRow(rank, *p, name);
                QVERIFY2(r, name.c_str());
                QCOMPARE(r->exec, values.first);
                QCOMPARE(r->calls, values.second);
            }
        }
    }

    void rankAndUsage()
    {
        LiveRecording recording;
        recording.add({at(1000, {row("A", 100), row("B", 50)}), at(2000, {row("A", 300), row("B", 50), row("C", 10)}),
                       at(3000, {row("A", 250, 7), row("C", 40, 3)})});
        const auto p = recording.profile();
        // The rank: each proc's last values (B keeps its last, it is not zero).
        const MeasurementMetrics metrics(*p);
        const RankTable rank = RankTable::compute(metrics);
        QCOMPARE(rank.rows().size(), std::size_t(3));
        QCOMPARE(rankRow(rank, *p, "A")->exec, Time(250));
        QCOMPARE(rankRow(rank, *p, "A")->calls, std::uint64_t(7));
        QCOMPARE(rankRow(rank, *p, "A")->total, Time(375));
        QCOMPARE(rankRow(rank, *p, "B")->exec, Time(50));
        QCOMPARE(rankRow(rank, *p, "C")->exec, Time(40));
        QCOMPARE(rank.rows()[0].label, LabelId(0)); // A, by exec

        // Usage: A grew 200 over (1000, 2000]; its drop at 3000 is a reset
        // (no value); C grew 30 over (2000, 3000]; C's first value has none.
        const UsageSeries all = UsageSeries::compute(*p, 0, 1000, 5, TimeRange{1000, 3000});
        QCOMPARE(all.binCount(), std::size_t(2));
        QCOMPARE(all.busy(0), 0.2);
        QCOMPARE(all.busy(1), 0.03);
        // A range in the middle: each step spread evenly over its time.
        const UsageSeries middle = UsageSeries::compute(*p, 0, 1000, 5, TimeRange{1500, 2500});
        QCOMPARE(middle.binCount(), std::size_t(1));
        QCOMPARE(middle.labels().size(), std::size_t(2));
        QCOMPARE(middle.share(0, 0), 0.1); // A, 100 of its 200
        QCOMPARE(middle.share(0, 1), 0.015); // C, 15 of its 30
        // A range after the last step starts: found by looking back.
        const UsageSeries end = UsageSeries::compute(*p, 0, 500, 5, TimeRange{2500, 3000});
        QCOMPARE(end.busy(0), 0.03);
    }

    void churnLooksBackAsFarAsNeeded()
    {
        // B is away from 2000 to 4000: its step back spans the whole time.
        LiveRecording recording;
        recording.add({at(1000, {row("A", 0), row("B", 0)}), at(2000, {row("A", 100)}), at(3000, {row("A", 200)}),
                       at(5000, {row("A", 300), row("B", 400)})});
        const auto p = recording.profile();
        const UsageSeries u = UsageSeries::compute(*p, 0, 1000, 5, TimeRange{4000, 5000});
        QCOMPARE(u.binCount(), std::size_t(1));
        // A: 100 over (3000, 5000] -> 50 in the bin; B: 400 over (1000, 5000] -> 100.
        QCOMPARE(u.busy(0), 0.15);
        QCOMPARE(u.labels().front(), LabelId(1));
    }

    void windowedUsageEqualsWholeScan_data()
    {
        QTest::addColumn<int>("seed");
        for (int seed = 1; seed <= 8; ++seed)
            QTest::addRow("seed %d", seed) << seed;
    }

    // The usage of any range from snapshots with churn (procs leaving and
    // coming back) and resets equals a scan of every step, clipped.
    void windowedUsageEqualsWholeScan()
    {
        QFETCH(int, seed);
        std::mt19937 rng{std::uint32_t(seed)};
        const char* names[] = {"a", "b", "c", "d", "e", "f"};
        std::vector<Time> exec(6, 0);
        std::vector<ScrapedSnapshot> snapshots;
        Time t = 1000;
        for (int i = 0; i < 60; ++i) {
            t += 1 + Time(rng() % 500);
            ScrapedSnapshot s;
            s.time = t;
            for (int k = 0; k < 6; ++k) {
                if (rng() % 4 == 0)
                    continue; // away from the top-k
                exec[std::size_t(k)] = rng() % 25 == 0 ? Time(rng() % 50) : exec[std::size_t(k)] + Time(rng() % 300);
                s.rows.push_back(row(names[k], exec[std::size_t(k)]));
            }
            snapshots.push_back(std::move(s));
        }
        LiveRecording recording;
        recording.add(snapshots);
        const auto p = recording.profile();
        for (int r = 0; r < 20; ++r) {
            const Time from = 1000 + Time(rng() % std::uint64_t(t - 1000));
            const Time to = from + 1 + Time(rng() % std::uint64_t(t - from + 200));
            const Time width = 1 + Time(rng() % 400);
            const UsageSeries u = UsageSeries::compute(*p, 0, width, 10, TimeRange{from, to});
            // Every step of every label, clipped to each bin's part inside
            // the range and the recording, which its shares are of.
            std::vector<double> busy(u.binCount(), 0.0);
            const Time end = std::min(to, p->endTime());
            std::vector<std::pair<Time, Time>> last(p->labelCount(), {kTimeMin, 0});
            SnapshotReader reader(p->snapshots());
            for (std::size_t i = 0; i < reader.size(); ++i) {
                const Snapshot& s = reader.snapshot(i);
                for (const AggregateRow& a : reader.rows(i)) {
                    const auto [t0, e0] = last[a.label];
                    if (t0 != kTimeMin && a.exec >= e0 && t0 < to && s.time() > from) {
                        for (std::size_t b = 0; b < busy.size(); ++b) {
                            // The last bin may pass `to` and the recording's end: only its part before them counts.
                            const Time partEnd = std::min(from + Time(b + 1) * width, end);
                            const Time lo = std::max(t0, from + Time(b) * width);
                            const Time hi = std::min(s.time(), partEnd);
                            if (hi > lo)
                                busy[b] += double(a.exec - e0) * double(hi - lo) / double(s.time() - t0)
                                    / double(partEnd - (from + Time(b) * width));
                        }
                    }
                    last[a.label] = {s.time(), a.exec};
                }
            }
            for (std::size_t b = 0; b < busy.size(); ++b)
                QVERIFY2(std::abs(u.busy(b) - busy[b]) < 1e-9,
                         qPrintable(QStringLiteral("range %1..%2 bin %3: %4 vs %5").arg(from).arg(to).arg(b).arg(u.busy(b)).arg(busy[b])));
            // The top 3 and "other", from one scan of the steps, against
            // the two passes of the same labels given: the same series,
            // and "other" up to the order of its sums.
            const UsageSeries top = UsageSeries::compute(*p, 0, width, 3, TimeRange{from, to});
            const UsageSeries given = UsageSeries::compute(*p, 0, width, top.labels(), TimeRange{from, to});
            QCOMPARE(top.seriesCount(), given.seriesCount());
            QVERIFY(top.labels().size() <= 3);
            for (std::size_t b = 0; b < top.binCount(); ++b) {
                for (std::size_t k = 0; k < top.labels().size(); ++k)
                    QCOMPARE(top.share(b, k), given.share(b, k));
                const std::size_t other = top.labels().size();
                QVERIFY(std::abs(top.share(b, other) - given.share(b, other)) < 1e-12);
                QVERIFY(std::abs(top.busy(b) - busy[b]) < 1e-9);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestLiveRecording)
#include "tst_liverecording.moc"
