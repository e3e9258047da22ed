#include "texthash.h"

#include <QRandomGenerator>
#include <QtTest>

#include <set>
#include <string>

using namespace runlane;

namespace {

// The last n bytes as a number, one byte at a time.
std::uint64_t lastBytesOneByOne(std::string_view text, std::size_t n)
{
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < n; ++i)
        value |= std::uint64_t(static_cast<unsigned char>(text[text.size() - n + i])) << (8 * i);
    return value;
}

} // namespace

class TestTextHash : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Every length from 0 to 40, at every offset in a word, every tail
    // length it can have, random bytes (high bits too): the word reads give
    // what reading byte by byte does. And the hash of a text does not
    // depend on the bytes around it (a copy elsewhere hashes the same).
    void lastBytesReadInWords()
    {
        QRandomGenerator rng(45);
        std::string buffer(64, '\0');
        for (int round = 0; round < 200; ++round) {
            for (char& c : buffer)
                c = char(rng.bounded(256));
            for (std::size_t offset = 0; offset < 8; ++offset) {
                for (std::size_t length = 0; length <= 40; ++length) {
                    const std::string_view text(buffer.data() + offset, length);
                    for (std::size_t n = 0; n < 8 && n <= length; ++n)
                        QCOMPARE(lastBytes(text, n), lastBytesOneByOne(text, n));
                    const std::string copy(text);
                    QCOMPARE(hashText(text), hashText(copy));
                }
            }
        }
    }

    // Names that differ in one byte of the tail, or only in length (a
    // trailing zero byte), hash apart.
    void neighboursDiffer()
    {
        std::set<std::uint64_t> hashes;
        const std::string base = "io::poll_18";
        for (std::size_t length = 0; length <= base.size(); ++length) {
            for (int c = 0; c < 256; ++c) {
                std::string text = base.substr(0, length);
                text += char(c);
                hashes.insert(hashText(text));
            }
        }
        QCOMPARE(hashes.size(), std::size_t(256 * (base.size() + 1)));
        QVERIFY(hashText(std::string_view("ab", 2)) != hashText(std::string_view("ab\0", 3)));
        // The length once met the tail's low bits: 1 ^ 'j' == 2 ^ 'i'.
        QVERIFY(hashText(std::string_view("j", 1)) != hashText(std::string_view("i\0", 2)));
    }
};

QTEST_APPLESS_MAIN(TestTextHash)
#include "tst_texthash.moc"
