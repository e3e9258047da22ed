#include "textarena.h"

#include <QtTest>

#include <string>
#include <vector>

using namespace runlane;

namespace {

// A text of `size` bytes that differs from its neighbours: a copy put in
// the wrong place, or overwritten later, shows.
std::string textOf(std::size_t size, int seed)
{
    std::string text(size, ' ');
    for (std::size_t i = 0; i < size; ++i)
        text[i] = char('a' + (seed * 7 + int(i)) % 26);
    return text;
}

} // namespace

class TestTextArena : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Texts of these sizes, kept in turn: every view still shows its text
    // once all are kept, and the blocks held are exactly what they need.
    void viewsLast_data()
    {
        constexpr int kBlock = int(TextArena::kBlockSize);
        QTest::addColumn<QList<int>>("sizes");
        QTest::addColumn<int>("capacity");
        QTest::newRow("nothing") << QList<int>{} << 0;
        QTest::newRow("empty texts take no block") << QList<int>{0, 0} << 0;
        QTest::newRow("one short") << QList<int>{5} << kBlock;
        QTest::newRow("a block exactly") << QList<int>{kBlock / 4, kBlock / 4, kBlock / 4, kBlock / 4} << kBlock;
        QTest::newRow("one byte over a block") << QList<int>{kBlock / 4, kBlock / 4, kBlock / 4, kBlock / 4, 1}
                                               << 2 * kBlock;
        QTest::newRow("large on its own") << QList<int>{10, kBlock / 4 + 1, 20} << kBlock + kBlock / 4 + 1;
        QTest::newRow("larger than a block") << QList<int>{3 * kBlock} << 3 * kBlock;
        QList<int> many;
        for (int i = 0; i < 3000; ++i)
            many << 1 + i % 23; // 3000 texts, 35,935 bytes: 3 blocks
        QTest::newRow("many short") << many << 3 * kBlock;
    }
    void viewsLast()
    {
        QFETCH(QList<int>, sizes);
        QFETCH(int, capacity);
        TextArena arena;
        std::vector<std::string> texts;
        std::vector<std::string_view> views;
        for (int i = 0; i < sizes.size(); ++i) {
            texts.push_back(textOf(std::size_t(sizes[i]), i));
            views.push_back(arena.keep(texts.back()));
            // A copy, not the text given.
            QVERIFY(views.back().empty() || views.back().data() != texts.back().data());
        }
        for (std::size_t i = 0; i < texts.size(); ++i)
            QCOMPARE(views[i], std::string_view(texts[i]));
        QCOMPARE(arena.capacity(), std::size_t(capacity));
    }

    // After clear() the blocks of the usual size are filled again from the
    // first, and the large ones are gone.
    void clearReusesBlocks()
    {
        constexpr std::size_t kBlock = TextArena::kBlockSize;
        TextArena arena;
        const std::string shortText = textOf(kBlock / 4, 1);
        const std::string large = textOf(kBlock, 2);
        const std::string_view first = arena.keep(shortText);
        for (int i = 0; i < 4; ++i)
            arena.keep(shortText); // the fifth starts a second block
        arena.keep(large);
        QCOMPARE(arena.capacity(), 3 * kBlock);
        arena.clear();
        QCOMPARE(arena.capacity(), 2 * kBlock);
        const std::string other = textOf(10, 3);
        const std::string_view again = arena.keep(other);
        // As pointers: QCOMPARE reads two char pointers as C strings.
        QCOMPARE(static_cast<const void*>(again.data()), static_cast<const void*>(first.data()));
        QCOMPARE(again, std::string_view(other));
        for (int i = 0; i < 4; ++i)
            arena.keep(shortText);
        QCOMPARE(arena.capacity(), 2 * kBlock); // the second block reused, none added
    }
};

QTEST_APPLESS_MAIN(TestTextArena)
#include "tst_textarena.moc"
