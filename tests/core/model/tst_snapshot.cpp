#include "snapshot.h"
#include "snapshotlist.h"
#include "snapshotreader.h"

#include <QtTest>

#include <limits>
#include <numeric>
#include <random>

using namespace runlane;

namespace {

using Sequence = std::vector<SnapshotRows>;

AggregateRow row(LabelId label, Time exec, std::uint64_t calls = 0)
{
    AggregateRow r;
    r.label = label;
    r.exec = exec;
    r.calls = calls;
    return r;
}

// Stored one after another, as a recording or a file stores them.
SnapshotList store(const Sequence& sequence)
{
    SnapshotList list;
    const Snapshot* previous = nullptr;
    for (std::size_t i = 0; i < sequence.size(); ++i) {
        auto s = std::make_shared<const Snapshot>(sequence[i].time, sequence[i].rows, previous,
                                                  i > 0 ? sequence[i - 1].rows : std::vector<AggregateRow>());
        previous = s.get();
        list.push_back(std::move(s));
    }
    return list;
}

bool same(const AggregateRow& a, const AggregateRow& b)
{
    return a.label == b.label && a.calls == b.calls && a.stillborn == b.stillborn && a.zombieEvents == b.zombieEvents
        && a.exec == b.exec && a.execMax == b.execMax && a.childrenExec == b.childrenExec && a.wall == b.wall;
}

// Every field of every row different and growing, `procs` procs.
Sequence growing(int procs, int count)
{
    Sequence s(static_cast<std::size_t>(count));
    for (int k = 0; k < count; ++k) {
        s[std::size_t(k)].time = Time(k + 1) * 1000;
        for (int p = 0; p < procs; ++p) {
            AggregateRow r = row(LabelId(p), Time(k) * (p + 1) * 1000, std::uint64_t(k) * 3);
            r.stillborn = std::uint64_t(k / 7);
            r.zombieEvents = std::uint64_t(k / 11);
            r.execMax = 500 + p;
            r.childrenExec = r.exec / 2;
            r.wall = r.exec * 4;
            s[std::size_t(k)].rows.push_back(r);
        }
    }
    return s;
}

// A changing top-k in a changing order, resets and huge values.
Sequence churn(std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    Sequence s(100);
    for (std::size_t k = 0; k < s.size(); ++k) {
        s[k].time = Time(k) * 10;
        std::vector<LabelId> procs(40);
        std::iota(procs.begin(), procs.end(), 0);
        std::shuffle(procs.begin(), procs.end(), rng);
        procs.resize(rng() % 25); // some snapshots are empty
        for (const LabelId p : procs) {
            AggregateRow r;
            r.label = p == 39 ? std::numeric_limits<LabelId>::max() : p;
            r.calls = rng() % 3 == 0 ? std::numeric_limits<std::uint64_t>::max() - rng() % 5 : rng() % 1000;
            r.stillborn = rng() % 2;
            r.zombieEvents = rng();
            r.exec = rng() % 4 == 0 ? std::numeric_limits<Time>::min() + Time(rng() % 9) : Time(rng() % 100000);
            r.execMax = std::numeric_limits<Time>::max();
            r.childrenExec = -Time(rng() % 1000);
            r.wall = Time(rng() >> 1);
            s[k].rows.push_back(r);
        }
    }
    return s;
}

} // namespace

class TestSnapshot : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // What is stored comes back exactly, read in order, alone, from the
    // newest back, and exec-only.
    void roundTrip_data()
    {
        QTest::addColumn<Sequence>("sequence");
        QTest::newRow("one snapshot") << Sequence{{5, {row(3, 10, 1), row(1, 20, 2)}}};
        QTest::newRow("same procs, every field growing") << growing(50, 100);
        QTest::newRow("nothing changes") << Sequence(70, SnapshotRows{0, {row(2, 7), row(0, 9)}});
        QTest::newRow("a reset") << Sequence{{1, {row(0, 500, 5)}}, {2, {row(0, 900, 9)}}, {3, {row(0, 10, 1)}}};
        QTest::newRow("churn, extremes 1") << churn(1);
        QTest::newRow("churn, extremes 2") << churn(2);
        QTest::newRow("empty") << Sequence(40, SnapshotRows{});
    }
    void roundTrip()
    {
        QFETCH(Sequence, sequence);
        const SnapshotList list = store(sequence);
        QCOMPARE(list.size(), sequence.size());
        auto check = [&](SnapshotReader& reader, std::size_t k, bool execOnly) {
            QCOMPARE(reader.snapshot(k).time(), sequence[k].time);
            QCOMPARE(reader.snapshot(k).rowCount(), sequence[k].rows.size());
            if (execOnly) {
                const SnapshotReader::Exec got = reader.exec(k);
                QCOMPARE(got.labels.size(), sequence[k].rows.size());
                QCOMPARE(got.exec.size(), sequence[k].rows.size());
                for (std::size_t i = 0; i < got.labels.size(); ++i) {
                    QCOMPARE(got.labels[i], sequence[k].rows[i].label);
                    QCOMPARE(got.exec[i], sequence[k].rows[i].exec);
                }
                return;
            }
            const std::span<const AggregateRow> got = reader.rows(k);
            QCOMPARE(got.size(), sequence[k].rows.size());
            for (std::size_t i = 0; i < got.size(); ++i)
                QVERIFY2(same(got[i], sequence[k].rows[i]), qPrintable(QStringLiteral("snapshot %1 row %2").arg(k).arg(i)));
        };
        SnapshotReader forward(list);
        for (std::size_t k = 0; k < list.size(); ++k)
            check(forward, k, false);
        SnapshotReader backward(list);
        for (std::size_t k = list.size(); k-- > 0;)
            check(backward, k, false);
        SnapshotReader execOnly(list, SnapshotReader::Columns::Exec);
        for (std::size_t k = 0; k < list.size(); ++k)
            check(execOnly, k, true);
        SnapshotReader execBackward(list, SnapshotReader::Columns::Exec);
        for (std::size_t k = list.size(); k-- > 0;)
            check(execBackward, k, true);
        // Each alone, with a new reader.
        for (std::size_t k = 0; k < list.size(); ++k) {
            SnapshotReader alone(list);
            check(alone, k, false);
        }
        for (std::size_t k = 0; k < list.size(); ++k)
            QCOMPARE(list[k].chainPosition(), std::uint32_t(k % Snapshot::kKeyframeInterval));
    }

    // What a snapshot costs: only the columns that changed, a byte per
    // small change; an unchanged snapshot nothing.
    void storedSize_data()
    {
        QTest::addColumn<Sequence>("sequence");
        QTest::addColumn<std::size_t>("bytes"); // of the last snapshot
        QTest::newRow("keyframe: labels, exec, calls") << Sequence{{1, {row(0, 5, 1), row(3, 200, 1)}}}
                                                        << std::size_t(2 + 1 + 2 + 1 + 1); // labels 0, +3; exec 10, 400; calls 2, 2
        QTest::newRow("exec +1 on three procs") << Sequence{{1, {row(0, 5), row(1, 6), row(2, 7)}},
                                                            {2, {row(0, 6), row(1, 7), row(2, 8)}}}
                                                << std::size_t(3);
        QTest::newRow("unchanged") << Sequence{{1, {row(0, 5), row(1, 6)}}, {2, {row(0, 5), row(1, 6)}}} << std::size_t(0);
        QTest::newRow("a proc leaves") << Sequence{{1, {row(0, 5), row(1, 6)}}, {2, {row(1, 6)}}}
                                       << std::size_t(1 + 1); // label 1; its row before is row 2 (index + 1)
        QTest::newRow("a new proc, large exec") << Sequence{{1, {row(0, 5)}}, {2, {row(0, 5), row(7, 1000000)}}}
                                                << std::size_t(2 + 2 + 1 + 3); // labels 0, 7; rows before 1, none; exec +0, +1,000,000 (zigzag 2,000,000: 3 bytes)
    }
    void storedSize()
    {
        QFETCH(Sequence, sequence);
        QFETCH(std::size_t, bytes);
        const SnapshotList list = store(sequence);
        QCOMPARE(list.back().memoryBytes(), sizeof(Snapshot) + bytes);
    }

    void blocksFromTheNewestBack()
    {
        const SnapshotList list = store(growing(2, 100));
        SnapshotReader reader(list);
        std::vector<std::pair<std::size_t, std::size_t>> blocks;
        reader.forEachBlockBackward(reader.size(), [&](std::size_t first, std::size_t end) {
            blocks.push_back({first, end});
            return true;
        });
        QCOMPARE(blocks, (std::vector<std::pair<std::size_t, std::size_t>>{{96, 100}, {64, 96}, {32, 64}, {0, 32}}));
        blocks.clear();
        reader.forEachBlockBackward(70, [&](std::size_t first, std::size_t end) {
            blocks.push_back({first, end});
            return blocks.size() < 2;
        });
        QCOMPARE(blocks, (std::vector<std::pair<std::size_t, std::size_t>>{{64, 70}, {32, 64}}));
    }

    // A list that keeps its last snapshot's rows decoded hands them out
    // for the last one, and decodes the others as before.
    void newestRowsAreReadAsTheyAre()
    {
        const Sequence sequence = growing(3, 40);
        SnapshotList list = store(sequence);
        auto newest = std::make_shared<const std::vector<AggregateRow>>(sequence.back().rows);
        list.setNewestRows(newest);
        SnapshotReader reader(list);
        QCOMPARE(reader.rows(39).data(), newest->data());
        QVERIFY(same(reader.rows(38)[2], sequence[38].rows[2]));
        QCOMPARE(reader.rows(39).data(), newest->data());
        QVERIFY(same(reader.rows(10)[1], sequence[10].rows[1]));
        list.push_back(std::make_shared<const Snapshot>(Time(99999), sequence.back().rows, &list.back(), sequence.back().rows));
        QVERIFY(list.newestRows() == nullptr); // no longer the last one's
    }

    void previousRowsMustMatch()
    {
        const std::vector<AggregateRow> one{row(0, 1)};
        const Snapshot first(1, one, nullptr, {});
        QVERIFY_THROWS_EXCEPTION(std::logic_error, Snapshot(2, one, &first, {}));
    }
};

QTEST_APPLESS_MAIN(TestSnapshot)
#include "tst_snapshot.moc"
