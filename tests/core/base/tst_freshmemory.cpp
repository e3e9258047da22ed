#include "freshmemory.h"

#include <QtTest>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

using namespace runlane;

// assignFresh fills as assign would, and a big array's memory tells how far
// it is filled, piece by piece on every core, ending at its whole size; a
// smaller one is filled in one call and tells nothing.
class TestFreshMemory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void assignsAndTells_data()
    {
        QTest::addColumn<qint64>("count"); // of 8-byte values
        QTest::addColumn<int>("tells");
        constexpr qint64 kMiB = 1 << 17; // values in a MiB
        QTest::newRow("none") << qint64(0) << 0;
        QTest::newRow("1 MiB") << kMiB << 0;
        QTest::newRow("63 MiB: one call") << 63 * kMiB << 0;
        // From two 32 MiB pieces: a piece up to the first 32 MiB boundary
        // (a whole one if the array starts on one), then the rest's.
        QTest::newRow("100 MiB") << 100 * kMiB << -1;
        QTest::newRow("200 MiB and a value") << 200 * kMiB + 1 << -1;
    }

    void assignsAndTells()
    {
        QFETCH(qint64, count);
        QFETCH(int, tells);
        std::mutex mutex;
        std::vector<std::size_t> told;
        std::vector<std::int64_t> values{1, 2, 3};
        assignFresh(values, std::size_t(count), std::int64_t(-7), [&](std::size_t done) {
            const std::lock_guard lock(mutex);
            told.push_back(done);
        });
        QCOMPARE(values.size(), std::size_t(count));
        QVERIFY(std::all_of(values.begin(), values.end(), [](std::int64_t v) { return v == -7; }));
        const std::size_t bytes = std::size_t(count) * sizeof(std::int64_t);
        if (tells >= 0) {
            QCOMPARE(int(told.size()), tells);
            return;
        }
        // One report per piece: the pieces between 32 MiB boundaries the
        // array touches, and the head before the first one (maybe empty).
        constexpr std::size_t kPiece = std::size_t(32) << 20;
        const auto address = reinterpret_cast<std::uintptr_t>(values.data());
        const std::size_t head = ((address + kPiece - 1) & ~(kPiece - 1)) - address;
        const std::size_t pieces = 1 + (bytes - head + kPiece - 1) / kPiece;
        QCOMPARE(told.size(), pieces);
        std::sort(told.begin(), told.end()); // the cores' reports in any order
        QVERIFY(std::adjacent_find(told.begin() + 1, told.end()) == told.end()); // each piece adds
        QCOMPARE(told.back(), bytes);
    }

    // assignReusing fills as assign would whatever the donor holds, and
    // leaves the donor empty: its pages, where they could be moved, now
    // hold the array (tst_hugepagenew checks the move itself).
    void reusesDonor_data()
    {
        QTest::addColumn<qint64>("count"); // of 8-byte values
        QTest::addColumn<qint64>("donorCount"); // of 4-byte values
        constexpr qint64 kMiB = 1 << 17;
        QTest::newRow("donor as big, 48 MiB") << 48 * kMiB << 96 * kMiB;
        QTest::newRow("donor smaller") << 48 * kMiB << 2 * kMiB;
        QTest::newRow("donor bigger") << 8 * kMiB << 160 * kMiB;
        QTest::newRow("200 MiB and a value, donor as big") << 200 * kMiB + 1 << 400 * kMiB + 2;
        QTest::newRow("no donor") << 48 * kMiB << qint64(0);
        QTest::newRow("none") << qint64(0) << 96 * kMiB;
        QTest::newRow("small") << qint64(5) << qint64(10);
    }

    void reusesDonor()
    {
        QFETCH(qint64, count);
        QFETCH(qint64, donorCount);
        std::vector<std::uint32_t> donor(std::size_t(donorCount), 0xdeadbeefu);
        std::vector<std::int64_t> values{1, 2, 3};
        std::size_t last = 0;
        std::mutex mutex;
        assignReusing(values, std::size_t(count), std::int64_t(-7), donor, [&](std::size_t done) {
            const std::lock_guard lock(mutex);
            last = std::max(last, done);
        });
        QCOMPARE(values.size(), std::size_t(count));
        QCOMPARE(std::size_t(std::count(values.begin(), values.end(), std::int64_t(-7))), std::size_t(count));
        QCOMPARE(donor.capacity(), std::size_t(0));
        // What is told counts the moved bytes too: it ends at the whole size.
        QVERIFY(last == 0 || last == std::size_t(count) * sizeof(std::int64_t));
    }
};

QTEST_GUILESS_MAIN(TestFreshMemory)
#include "tst_freshmemory.moc"
