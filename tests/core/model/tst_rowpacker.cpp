#include "rowpacker.h"

#include <QtTest>

#include <random>

using namespace runlane;

namespace {

// First fit the obvious way: scan rows from the bottom for `height` free ones.
class NaivePacker
{
public:
    std::uint32_t place(Time start, Time end, std::uint32_t height)
    {
        std::size_t base = 0;
        for (;; ++base) {
            bool fits = true;
            for (std::size_t r = base; r < base + height && r < m_freeAt.size(); ++r)
                fits = fits && m_freeAt[r] <= start;
            if (fits)
                break;
        }
        if (m_freeAt.size() < base + height)
            m_freeAt.resize(base + height, kTimeMin);
        for (std::size_t r = base; r < base + height; ++r)
            m_freeAt[r] = end;
        return std::uint32_t(base);
    }

private:
    std::vector<Time> m_freeAt;
};

} // namespace

class TestRowPacker : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void handExample()
    {
        RowPacker p;
        QCOMPARE(p.place(0, 10, 1), 0u);
        QCOMPARE(p.place(1, 5, 2), 1u); // rows 1-2
        QCOMPARE(p.place(2, 3, 1), 3u);
        QCOMPARE(p.place(5, 8, 1), 1u); // row 1 is free again at 5
        QCOMPARE(p.place(5, 6, 2), 2u); // rows 2-3: row 3 freed at 3
        QCOMPARE(p.place(10, 11, 3), 0u); // all free by 10 (rows 1-3 by 8)
        QCOMPARE(p.place(10, 10, 1), 3u);
        QCOMPARE(p.place(10, 12, 1), 3u); // a zero-length group frees its row at once
    }

    // Random groups (heights 1-4, many alive at once, rows freed and
    // reused, the tree growing past its first size): the same rows as the
    // obvious first fit, group by group.
    void sameAsNaiveFirstFit_data()
    {
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("groups");
        QTest::addColumn<int>("maxLength");
        QTest::newRow("short tasks") << 1 << 20000 << 50;
        QTest::newRow("long tasks") << 2 << 5000 << 20000;
        QTest::newRow("mixed") << 3 << 20000 << 3000;
    }

    void sameAsNaiveFirstFit()
    {
        QFETCH(int, seed);
        QFETCH(int, groups);
        QFETCH(int, maxLength);
        std::mt19937 rng{std::uint32_t(seed)};
        RowPacker fast;
        NaivePacker naive;
        Time start = 0;
        std::uint32_t highest = 0;
        for (int g = 0; g < groups; ++g) {
            start += Time(rng() % 3);
            const Time end = start + Time(rng() % std::uint32_t(maxLength));
            const std::uint32_t height = 1 + rng() % 4;
            const std::uint32_t expected = naive.place(start, end, height);
            QCOMPARE(fast.place(start, end, height), expected);
            highest = std::max(highest, expected + height);
        }
        QVERIFY(highest > 64); // past the tree's first size
    }
};

QTEST_GUILESS_MAIN(TestRowPacker)
#include "tst_rowpacker.moc"
