#include "hugepagenew.h"

#include <QtTest>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

using namespace runlane;

// operator new advises huge pages for big blocks, before they are touched:
// the mapping that holds a block's middle says so in /proc/self/smaps
// ("hg" among its VmFlags), whether or not the kernel found huge pages.
class TestHugePageNew : public QObject
{
    Q_OBJECT

    // The VmFlags of the mapping that holds `address`; empty if none does.
    static std::string flagsAt(const void* address)
    {
        const auto at = reinterpret_cast<std::uintptr_t>(address);
        std::ifstream smaps("/proc/self/smaps");
        bool inside = false;
        for (std::string line; std::getline(smaps, line);) {
            std::uintptr_t from = 0;
            std::uintptr_t to = 0;
            char dash = 0;
            std::istringstream range(line);
            // A mapping's first line: "from-to perms offset dev inode path".
            if (range >> std::hex >> from >> dash >> to && dash == '-') {
                inside = from <= at && at < to;
                continue;
            }
            if (inside && line.rfind("VmFlags:", 0) == 0)
                return line.substr(8) + " ";
        }
        return std::string();
    }

private Q_SLOTS:
    void initTestCase()
    {
#if !defined(__linux__)
        QSKIP("huge pages are advised on Linux only");
#endif
        if (!bigAllocationsAdviseHugePages())
            QSKIP("this build uses the sanitizer's operator new");
    }

    void advised_data()
    {
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<bool>("array");
        QTest::addColumn<bool>("advised");
        // The small ones first: a big block, freed, raises glibc's
        // threshold for mapping a block on its own.
        constexpr qint64 kMiB = qint64(1) << 20;
        QTest::addRow("1 MiB") << kMiB << false << false;
        QTest::addRow("4 MiB less a byte") << 4 * kMiB - 1 << false << false;
        QTest::addRow("4 MiB") << 4 * kMiB << false << true;
        QTest::addRow("64 MiB") << 64 * kMiB << false << true;
        // new[] reaches the same operator new through libstdc++.
        QTest::addRow("64 MiB, new[]") << 64 * kMiB << true << true;
        QTest::addRow("1 GiB, never touched") << 1024 * kMiB << false << true;
    }
    void advised()
    {
        QFETCH(qint64, bytes);
        QFETCH(bool, array);
        QFETCH(bool, advised);
        const std::size_t size = std::size_t(bytes);
        char* block = array ? new char[size] : static_cast<char*>(::operator new(size));
        const std::string flags = flagsAt(block + size / 2);
        if (array)
            delete[] block;
        else
            ::operator delete(block);
        QVERIFY2(!flags.empty(), "no mapping holds the block");
        QCOMPARE(flags.find(" hg ") != std::string::npos, advised);
    }
};

QTEST_GUILESS_MAIN(TestHugePageNew)
#include "tst_hugepagenew.moc"
