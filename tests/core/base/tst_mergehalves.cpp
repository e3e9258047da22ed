#include "mergehalves.h"

#include <QtTest>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

using namespace runlane;

// mergeHalvesFromBothEnds orders as one sort of all the keys would, however
// the two sorted halves interleave and wherever the halves meet.
class TestMergeHalves : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void asOneSortWould_data()
    {
        QTest::addColumn<QString>("shape");
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("half"); // -1: count / 2
        for (const int count : {0, 1, 2, 3, 7, 1000, 100'001}) {
            for (const char* shape : {"interleaved", "first half smaller", "second half smaller", "shuffled"})
                QTest::addRow("%s %d", shape, count) << QString(shape) << count << -1;
        }
        // Halves of different sizes: the two ends still meet exactly.
        QTest::newRow("shuffled, a short first half") << "shuffled" << 1000 << 3;
        QTest::newRow("shuffled, an empty first half") << "shuffled" << 1000 << 0;
        QTest::newRow("shuffled, an empty second half") << "shuffled" << 1000 << 1000;
        QTest::newRow("interleaved, a long first half") << "interleaved" << 1001 << 900;
    }

    void asOneSortWould()
    {
        QFETCH(QString, shape);
        QFETCH(int, count);
        QFETCH(int, half);
        const std::size_t n = std::size_t(count);
        const std::size_t h = half < 0 ? n / 2 : std::size_t(half);
        // Unique keys 0..n-1 dealt between the halves as the shape says.
        std::vector<std::int64_t> keys(n);
        std::iota(keys.begin(), keys.end(), 0);
        if (shape == "interleaved") {
            std::vector<std::int64_t> dealt;
            for (std::size_t i = 0; i < n; i += 2)
                dealt.push_back(keys[i]);
            for (std::size_t i = 1; i < n; i += 2)
                dealt.push_back(keys[i]);
            keys = dealt;
        } else if (shape == "second half smaller") {
            std::rotate(keys.begin(), keys.begin() + std::ptrdiff_t(n - h), keys.end());
        } else if (shape == "shuffled") {
            std::shuffle(keys.begin(), keys.end(), std::mt19937(45));
        }
        std::sort(keys.begin(), keys.begin() + std::ptrdiff_t(h));
        std::sort(keys.begin() + std::ptrdiff_t(h), keys.end());
        // Projected, so that what is written is seen to come from its key.
        std::vector<std::int64_t> out(n, -1);
        mergeHalvesFromBothEnds(keys.data(), h, n, std::less<std::int64_t>(), out.data(),
                                [](std::int64_t key) { return key * 3 + 1; });
        std::vector<std::int64_t> expected(n);
        for (std::size_t i = 0; i < n; ++i)
            expected[i] = std::int64_t(i) * 3 + 1;
        QCOMPARE(out, expected);
    }
};

QTEST_GUILESS_MAIN(TestMergeHalves)
#include "tst_mergehalves.moc"
