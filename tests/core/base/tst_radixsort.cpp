#include "radixsort.h"

#include <QtTest>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

using namespace runlane;

// radixSort orders as a stable sort by key would (equal keys in their given
// order), whichever of its two arrays the result ends in, with one pass per
// digit in which the keys differ: the span of bits that differ among them
// cut into as few digits of at most 12 bits as it takes, of equal widths.
class TestRadixSort : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void asAStableSortWould_data()
    {
        QTest::addColumn<QString>("shape");
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("passes"); // the bytes that differ; -1: not fixed by the shape
        QTest::addColumn<int>("cores");
        const int every = int(kRadixEveryCore);
        // 200,001: more than one part per core (kParallelSlice), parts of
        // unequal sizes.
        for (const int count : {0, 1, 2, 3, 1000, 200'001}) {
            // Below a thousand random keys may happen to share a digit.
            const auto many = [count](int passes) { return count >= 1000 ? passes : -1; };
            // 64 bits: six digits of 11.
            QTest::addRow("random, %d", count) << "random" << count << many(6) << every;
            QTest::addRow("few keys, %d", count) << "few" << count << many(1) << every;
            QTest::addRow("the top byte only, %d", count) << "top" << count << many(1) << every;
            QTest::addRow("all equal, %d", count) << "equal" << count << 0 << every;
            QTest::addRow("sorted, %d", count) << "sorted" << count << -1 << every;
            QTest::addRow("reversed, %d", count) << "reversed" << count << -1 << every;
            // Bits 8-50 differ: four digits of 11 bits, of which only the
            // first and the last hold a differing bit.
            QTest::addRow("bytes 1 and 6, %d", count) << "bytes16" << count << many(2) << every;
            // A load's creation keys: times in the low 36 bits, three
            // digits of 12; 12 bits in one digit, 13 in two.
            QTest::addRow("36 bits, %d", count) << "bits36" << count << many(3) << every;
            QTest::addRow("12 bits, %d", count) << "bits12" << count << many(1) << every;
            QTest::addRow("13 bits, %d", count) << "bits13" << count << many(2) << every;
        }
        // On the caller's thread alone (IntervalOrder, which sorts tracks
        // side by side): the same result from one part.
        QTest::newRow("random, 200001, one core") << "random" << 200'001 << 6 << 1;
        QTest::newRow("36 bits, 200001, one core") << "bits36" << 200'001 << 3 << 1;
        QTest::newRow("few keys, 200001, one core") << "few" << 200'001 << 1 << 1;
    }

    void asAStableSortWould()
    {
        QFETCH(QString, shape);
        QFETCH(int, count);
        QFETCH(int, passes);
        QFETCH(int, cores);
        const std::size_t n = std::size_t(count);
        std::mt19937_64 random(45);
        std::vector<RadixItem> items(n);
        for (std::size_t i = 0; i < n; ++i) {
            std::uint64_t key = 0;
            if (shape == "random")
                key = random();
            else if (shape == "few")
                key = random() % 3 + 1000; // one byte; ties test the stability
            else if (shape == "top")
                key = (random() % 7) << 56;
            else if (shape == "equal")
                key = 0x1234'5678'9abc'def0u;
            else if (shape == "sorted")
                key = i * 1000;
            else if (shape == "reversed")
                key = (n - i) * 1000;
            else if (shape == "bytes16")
                key = (random() % 5) << 8 | (random() % 5) << 48;
            else if (shape == "bits36")
                key = random() >> 28; // 36 bits
            else if (shape == "bits12")
                key = 0x5000'0000 | (random() >> 52) << 4; // bits 4-15
            else if (shape == "bits13")
                key = (random() >> 51) << 20; // bits 20-32
            items[i] = RadixItem::of(key, std::uint32_t(i));
        }
        std::vector<RadixItem> expected = items;
        std::stable_sort(expected.begin(), expected.end(),
                         [](const RadixItem& a, const RadixItem& b) { return a.key() < b.key(); });

        std::vector<RadixItem> buffer(n);
        std::vector<std::pair<std::size_t, std::size_t>> checks;
        const std::span<RadixItem> sorted = radixSort(std::span(items), std::span(buffer), [&](std::size_t done, std::size_t total) {
            checks.emplace_back(done, total);
        }, std::size_t(cores));
        QCOMPARE(sorted.size(), n);
        QVERIFY(sorted.data() == items.data() || sorted.data() == buffer.data());
        for (std::size_t i = 0; i < n; ++i) {
            QCOMPARE(sorted[i].key(), expected[i].key());
            QCOMPARE(sorted[i].id, expected[i].id);
        }
        // Called before each pass and once at the end, counting up.
        QVERIFY(!checks.empty());
        const std::size_t total = checks.back().second;
        QCOMPARE(checks.size(), total + 1);
        for (std::size_t k = 0; k < checks.size(); ++k)
            QCOMPARE(checks[k], std::make_pair(k, total));
        if (passes >= 0)
            QCOMPARE(total, std::size_t(passes));
    }
};

QTEST_GUILESS_MAIN(TestRadixSort)
#include "tst_radixsort.moc"
