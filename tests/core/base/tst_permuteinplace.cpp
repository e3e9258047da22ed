#include "permuteinplace.h"

#include <QtTest>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace runlane;

// permuteInPlace leaves every array as a copy in the new order would:
// what was at position i is at destination[i].
class TestPermuteInPlace : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void asACopyWould_data()
    {
        QTest::addColumn<QString>("shape");
        QTest::addColumn<int>("count");
        // 300,007: 36 buckets of 8,192 (permuteBucketSize of these arrays) and
        // a part of one, in 5 pieces of the second pass; 2^20 + 3: a second
        // check in the first pass.
        for (const int count : {0, 1, 2, 5, 1000, 8192, 8193, 300'007, (1 << 20) + 3}) {
            for (const char* shape : {"identity", "reversed", "rotated", "pairs swapped", "shuffled"})
                QTest::addRow("%s %d", shape, count) << QString(shape) << count;
        }
    }

    void asACopyWould()
    {
        QFETCH(QString, shape);
        QFETCH(int, count);
        std::vector<std::uint32_t> order(std::size_t(count), 0);
        std::iota(order.begin(), order.end(), 0u);
        if (shape == "reversed")
            std::reverse(order.begin(), order.end());
        else if (shape == "rotated" && count > 0) // one cycle through every position
            std::rotate(order.begin(), order.begin() + 1, order.end());
        else if (shape == "pairs swapped")
            for (std::size_t i = 0; i + 1 < order.size(); i += 2)
                std::swap(order[i], order[i + 1]);
        else if (shape == "shuffled")
            std::shuffle(order.begin(), order.end(), std::mt19937(45));
        // Two arrays of different types, moved together.
        std::vector<std::string> names(static_cast<std::size_t>(count));
        std::vector<std::int64_t> values(static_cast<std::size_t>(count));
        for (int i = 0; i < count; ++i) {
            names[std::size_t(i)] = "n" + std::to_string(i);
            values[std::size_t(i)] = std::int64_t(i) * 7 - 3;
        }
        std::vector<std::string> namesCopy(names.size());
        std::vector<std::int64_t> valuesCopy(values.size());
        std::vector<std::uint32_t> destination(order.size());
        for (std::size_t i = 0; i < order.size(); ++i) {
            namesCopy[i] = names[order[i]];
            valuesCopy[i] = values[order[i]];
            destination[order[i]] = std::uint32_t(i);
        }
        // The second pass checks from every core.
        std::mutex mutex;
        std::vector<std::size_t> dones;
        permuteInPlace(
            std::span<std::uint32_t>(destination),
            [&](std::size_t done) {
                const std::lock_guard lock(mutex);
                dones.push_back(done);
            },
            names, values);
        QVERIFY(names == namesCopy);
        QVERIFY(values == valuesCopy);
        std::vector<std::uint32_t> identity(destination.size());
        std::iota(identity.begin(), identity.end(), 0u);
        QVERIFY(destination == identity);
        // The first pass (only past one bucket) once per 2^20 positions it
        // puts in their buckets (each of the n once), the second once per
        // piece of 65,536, each from its first.
        constexpr std::size_t bytes = sizeof(std::uint32_t) + sizeof(std::string) + sizeof(std::int64_t);
        static_assert(permuteBucketSize(bytes) == 8192 && permutePieceSize(bytes) == 65536);
        // Each tells how far both passes are, out of 2 * count: the
        // first's positions, then count plus the second's.
        std::vector<std::size_t> expected;
        if (count > 8192) {
            for (std::size_t at = 0; at < std::size_t(count); at += 0x100000)
                expected.push_back(at);
        }
        for (std::size_t at = 0; at < std::size_t(count); at += 0x10000)
            expected.push_back(std::size_t(count) + at);
        std::sort(dones.begin(), dones.end()); // the second pass's in any order
        QCOMPARE(dones, expected);
    }
};

QTEST_MAIN(TestPermuteInPlace)
#include "tst_permuteinplace.moc"
