#include "blocklist.h"

#include <QtTest>

#include <cstddef>
#include <cstdint>
#include <vector>

using namespace runlane;

// What goes in comes out in order, in blocks that double from the first
// size up to the largest and then stay there; take() and clear() empty it.
class TestBlockList : public QObject
{
    Q_OBJECT

    struct Item {
        std::uint64_t value;
        std::uint32_t tag;
    };
    // Small blocks, so that a few dozen items cross every kind of boundary.
    using Small = BlockList<Item, 4, 16>;

private Q_SLOTS:
    void keepsOrderInDoublingBlocks_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<std::vector<std::size_t>>("blocks");
        QTest::newRow("empty") << 0 << std::vector<std::size_t>{};
        QTest::newRow("one") << 1 << std::vector<std::size_t>{1};
        QTest::newRow("first block full") << 4 << std::vector<std::size_t>{4};
        QTest::newRow("one past it") << 5 << std::vector<std::size_t>{4, 1};
        QTest::newRow("up to the largest") << 28 << std::vector<std::size_t>{4, 8, 16};
        QTest::newRow("largest repeated") << 61 << std::vector<std::size_t>{4, 8, 16, 16, 16, 1};
    }
    void keepsOrderInDoublingBlocks()
    {
        QFETCH(int, count);
        QFETCH(std::vector<std::size_t>, blocks);
        Small list;
        for (int i = 0; i < count; ++i)
            list.push_back(Item{std::uint64_t(i) * 1000003u, std::uint32_t(i)});
        QCOMPARE(list.size(), std::size_t(count));
        QCOMPARE(list.empty(), count == 0);
        std::vector<std::size_t> sizes;
        list.forEachBlock([&sizes](std::span<const Item> block) { sizes.push_back(block.size()); });
        QCOMPARE(sizes, blocks);
        const std::vector<Item> all = list.take();
        QCOMPARE(all.size(), std::size_t(count));
        for (int i = 0; i < count; ++i) {
            QCOMPARE(all[std::size_t(i)].tag, std::uint32_t(i));
            QCOMPARE(all[std::size_t(i)].value, std::uint64_t(i) * 1000003u);
        }
        // Taken: nothing is left.
        QCOMPARE(list.size(), std::size_t(0));
        int left = 0;
        list.forEachBlock([&left](std::span<const Item>) { ++left; });
        QCOMPARE(left, 0);
    }

    void clearEmptiesAndStartsAgain()
    {
        Small list;
        for (std::uint32_t i = 0; i < 40; ++i)
            list.push_back(Item{i, i});
        list.clear();
        QCOMPARE(list.size(), std::size_t(0));
        QVERIFY(list.empty());
        int blocks = 0;
        list.forEachBlock([&blocks](std::span<const Item>) { ++blocks; });
        QCOMPARE(blocks, 0);
        // From the first block size again.
        for (std::uint32_t i = 0; i < 6; ++i)
            list.push_back(Item{i, 100 + i});
        std::vector<std::size_t> sizes;
        list.forEachBlock([&sizes](std::span<const Item> block) { sizes.push_back(block.size()); });
        QCOMPARE(sizes, (std::vector<std::size_t>{4, 2}));
        const std::vector<Item> all = list.take();
        QCOMPARE(all.size(), std::size_t(6));
        QCOMPARE(all.back().tag, 105u);
    }
};

QTEST_APPLESS_MAIN(TestBlockList)
#include "tst_blocklist.moc"
