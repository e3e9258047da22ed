#include "hugepagenew.h"

#include <QtTest>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

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
        // A smaller block is advised only if it lies in glibc's main heap
        // (heapFollowed); whether it does depends on what the heap holds.
        constexpr qint64 kMiB = qint64(1) << 20;
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

    // A big block starts on a huge page, so that only its tail can be in
    // 4 KiB pages; a smaller one is wherever malloc puts it.
    void bigBlockStartsOnHugePage_data()
    {
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<bool>("aligned");
        constexpr qint64 kMiB = qint64(1) << 20;
        QTest::addRow("4 MiB") << 4 * kMiB << true;
        QTest::addRow("5 MiB and a byte") << 5 * kMiB + 1 << true;
        QTest::addRow("64 MiB") << 64 * kMiB << true;
    }
    void bigBlockStartsOnHugePage()
    {
        QFETCH(qint64, bytes);
        QFETCH(bool, aligned);
        void* block = ::operator new(std::size_t(bytes));
        const auto address = reinterpret_cast<std::uintptr_t>(block);
        ::operator delete(block);
        QCOMPARE(address % (std::uintptr_t(2) << 20) == 0, aligned);
    }

    // Small blocks come from glibc's main heap, which is advised as it
    // grows: blocks allocated one after another until it has grown lie in
    // advised memory.
    void heapFollowed()
    {
#if !defined(__GLIBC__)
        QSKIP("the heap is followed with glibc only");
#endif
        constexpr std::size_t kBlock = 64 << 10; // below glibc's mmap threshold
        constexpr int kBlocks = 1024; // 64 MiB: more than the heap's 32 MiB steps
        std::vector<char*> blocks;
        for (int i = 0; i < kBlocks; ++i)
            blocks.push_back(static_cast<char*>(::operator new(kBlock)));
        const std::string flags = flagsAt(blocks.back() + kBlock / 2);
        for (char* block : blocks)
            ::operator delete(block);
        QVERIFY2(!flags.empty(), "no mapping holds the block");
        QVERIFY2(flags.find(" hg ") != std::string::npos, flags.c_str());
    }

    // Another thread's small blocks come from an arena of its own, which is
    // advised as the thread first allocates from it.
    void threadArenaFollowed()
    {
#if !defined(__GLIBC__)
        QSKIP("arenas are followed with glibc only");
#endif
        std::string flags;
        std::thread thread([&flags] {
            constexpr std::size_t kBlock = 64 << 10;
            std::vector<char*> blocks;
            for (int i = 0; i < 64; ++i)
                blocks.push_back(static_cast<char*>(::operator new(kBlock)));
            flags = flagsAt(blocks.back() + kBlock / 2);
            for (char* block : blocks)
                ::operator delete(block);
        });
        thread.join();
        QVERIFY2(!flags.empty(), "no mapping holds the block");
        QVERIFY2(flags.find(" hg ") != std::string::npos, flags.c_str());
    }

    // movePages hands a big block's whole huge pages to another with their
    // contents, resident, and leaves the rest to the caller; blocks it
    // cannot move (from glibc's heaps, not on a huge page) are left as they
    // were.
    void movesWholeHugePages_data()
    {
        QTest::addColumn<qint64>("blockBytes");
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<qint64>("moved");
        constexpr qint64 kMiB = qint64(1) << 20;
        // Above glibc's highest mmap threshold (32 MiB): mappings of their own.
        QTest::addRow("40 MiB and 100 bytes") << 40 * kMiB + 100 << 40 * kMiB + 100 << 40 * kMiB;
        QTest::addRow("the first 5 MiB of 40") << 40 * kMiB << 5 * kMiB << 4 * kMiB;
        QTest::addRow("less than a huge page") << 40 * kMiB << 2 * kMiB - 1 << qint64(0);
        QTest::addRow("nothing") << 40 * kMiB << qint64(0) << qint64(0);
        // Not on a huge page (below kHugeAllocation): left as they are.
        QTest::addRow("3 MiB blocks") << 3 * kMiB << 3 * kMiB << qint64(0);
        QTest::addRow("64 KiB blocks") << qint64(64) * 1024 << qint64(64) * 1024 << qint64(0);
    }
    void movesWholeHugePages()
    {
#if !defined(__GLIBC__)
        QSKIP("pages are moved with glibc only");
#else
        QFETCH(qint64, blockBytes);
        QFETCH(qint64, bytes);
        QFETCH(qint64, moved);
        const std::size_t size = std::size_t(blockBytes);
        auto* from = static_cast<std::uint32_t*>(::operator new(size));
        auto* to = static_cast<std::uint32_t*>(::operator new(size));
        const std::size_t words = size / sizeof(std::uint32_t);
        for (std::size_t i = 0; i < words; ++i)
            from[i] = std::uint32_t(i * 2654435761u);
        std::memset(to, 0xab, size);
        QCOMPARE(qint64(movePages(to, from, std::size_t(bytes))), moved);
        ::operator delete(from); // its moved range is unmapped with it
        const std::size_t movedWords = std::size_t(moved) / sizeof(std::uint32_t);
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < words; ++i)
            wrong += to[i] != (i < movedWords ? std::uint32_t(i * 2654435761u) : 0xababababu);
        // Resident where moved: nothing faults on the first read or write.
        std::vector<unsigned char> resident(std::size_t(moved) / 4096);
        const bool asked = moved == 0 || mincore(to, std::size_t(moved), resident.data()) == 0;
        ::operator delete(to);
        QCOMPARE(wrong, std::size_t(0));
        QVERIFY(asked);
        QCOMPARE(std::size_t(std::count_if(resident.begin(), resident.end(), [](unsigned char r) { return r & 1; })),
                 resident.size());
#endif
    }

    // A thread that stops advising (the window's GUI thread) gets big
    // blocks that are not advised; another thread's still are. Last: it
    // cannot be undone.
    void stoppedOnOneThread()
    {
        constexpr std::size_t kBig = std::size_t(64) << 20; // above glibc's highest mmap threshold: a mapping of its own
        stopHugePageAdvice();
        char* own = static_cast<char*>(::operator new(kBig));
        const std::string ownFlags = flagsAt(own + kBig / 2);
        ::operator delete(own);
        std::string otherFlags;
        std::thread thread([&otherFlags] {
            char* block = static_cast<char*>(::operator new(kBig));
            otherFlags = flagsAt(block + kBig / 2);
            ::operator delete(block);
        });
        thread.join();
        QVERIFY2(!ownFlags.empty() && !otherFlags.empty(), "no mapping holds a block");
        QVERIFY2(ownFlags.find(" hg ") == std::string::npos, ownFlags.c_str());
        QVERIFY2(otherFlags.find(" hg ") != std::string::npos, otherFlags.c_str());
    }
};

QTEST_GUILESS_MAIN(TestHugePageNew)
#include "tst_hugepagenew.moc"
