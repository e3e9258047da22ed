#include "aheadpopulator.h"

#include <QtTest>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

using namespace runlane;

// The pages ahead of an array's end are made resident, exactly those
// (from the first whole 2 MiB past the end, up to ahead(used) past it and
// never past the capacity), and release() gives back only what lies past
// the end: what was written stays. Counted page by page with mincore() in
// a fresh mapping of 4 KiB pages.
class TestAheadPopulator : public QObject
{
    Q_OBJECT

    static constexpr std::size_t kMiB = std::size_t(1) << 20;
    static constexpr std::size_t kPage = 4096;
    // At idle priority the thread may wait for seconds while other tests
    // keep the cores busy.
    static constexpr bool kNormalPriority = false;

#if defined(__linux__)
    // Fresh address space, 2 MiB-aligned (as operator new places a big
    // block), in 4 KiB pages so that the counts are exact.
    struct Mapping {
        explicit Mapping(std::size_t bytes) : size(bytes + 2 * kMiB)
        {
            base = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (base == MAP_FAILED) {
                base = nullptr;
                return;
            }
            const auto at = (reinterpret_cast<std::uintptr_t>(base) + 2 * kMiB - 1) & ~(2 * kMiB - 1);
            data = reinterpret_cast<std::byte*>(at);
            madvise(data, bytes, MADV_NOHUGEPAGE);
        }
        ~Mapping()
        {
            if (base)
                munmap(base, size);
        }
        void* base = nullptr;
        std::size_t size = 0;
        std::byte* data = nullptr;
    };

    // Resident 4 KiB pages of [from, to) bytes of the mapping.
    static qint64 resident(const std::byte* data, std::size_t from, std::size_t to)
    {
        std::vector<unsigned char> pages((to - from) / kPage);
        if (pages.empty() || mincore(const_cast<std::byte*>(data + from), to - from, pages.data()) != 0)
            return -1;
        qint64 count = 0;
        for (const unsigned char page : pages)
            count += page & 1;
        return count;
    }
#endif

private Q_SLOTS:
    void initTestCase()
    {
#if !defined(__linux__)
        QSKIP("pages are made resident ahead on Linux only");
#else
        QVERIFY(AheadPopulator::supported());
        Mapping probe(kPage);
        QVERIFY(probe.data);
        if (madvise(probe.data, kPage, 23 /* MADV_POPULATE_WRITE */) != 0 && errno == EINVAL)
            QSKIP("this kernel cannot populate ahead (before Linux 5.14)");
#endif
    }

    void ahead_data()
    {
        QTest::addColumn<qint64>("used");
        QTest::addColumn<qint64>("ahead");
        QTest::newRow("nothing yet: the least") << qint64(0) << qint64(4 * kMiB);
        QTest::newRow("40 MiB: still the least") << qint64(40 * kMiB) << qint64(4 * kMiB);
        QTest::newRow("100 MiB: an eighth, in whole 2 MiB") << qint64(100 * kMiB) << qint64(12 * kMiB);
        QTest::newRow("1 GiB: the most") << qint64(1024 * kMiB) << qint64(64 * kMiB);
    }

    void ahead()
    {
        QFETCH(qint64, used);
        QFETCH(qint64, ahead);
        QCOMPARE(qint64(AheadPopulator::ahead(std::size_t(used))), ahead);
    }

    void populatesAhead_data()
    {
        QTest::addColumn<qint64>("used");
        QTest::addColumn<qint64>("capacity");
        QTest::addColumn<qint64>("from"); // the resident range expected, bytes
        QTest::addColumn<qint64>("to");
        QTest::addColumn<bool>("mirrored");
        const auto m = [](double mib) { return qint64(mib * double(kMiB)); };
        QTest::newRow("empty") << m(0) << m(64) << m(0) << m(4) << false;
        // The huge page the end lies in is the writer's.
        QTest::newRow("3 MiB and 100 bytes") << m(3) + 100 << m(64) << m(4) << m(7) << false;
        QTest::newRow("100 MiB: 12 ahead") << m(100) << m(512) << m(100) << m(112) << false;
        QTest::newRow("near the capacity, its last partial page left") << m(60) << m(62) + 2048 << m(60) << m(62) << false;
        QTest::newRow("full") << m(32) << m(32) << m(32) << m(32) << false;
        QTest::newRow("1 GiB: 64 ahead") << m(1024) << m(2048) << m(1024) << m(1088) << false;
        // A mirror: from its start up to `used`, its last partial page left,
        // nothing ahead.
        QTest::newRow("mirror, nothing") << m(0) << m(64) << m(0) << m(0) << true;
        QTest::newRow("mirror, 3 MiB and 100 bytes") << m(3) + 100 << m(64) << m(0) << m(3) << true;
        QTest::newRow("mirror, 100 MiB") << m(100) << m(512) << m(0) << m(100) << true;
        QTest::newRow("mirror past its capacity: up to it") << m(80) << m(40) << m(0) << m(40) << true;
    }

    void populatesAhead()
    {
#if defined(__linux__)
        QFETCH(qint64, used);
        QFETCH(qint64, capacity);
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        QFETCH(bool, mirrored);
        const std::size_t span = std::size_t(capacity + 8 * qint64(kMiB)) & ~(kPage - 1);
        Mapping mapping(span);
        QVERIFY(mapping.data);
        const qint64 expected = (to - from) / qint64(kPage);
        {
            AheadPopulator populator(1, kNormalPriority);
            if (mirrored)
                populator.mirror(0, mapping.data, std::size_t(used), std::size_t(capacity));
            else
                populator.follow(0, mapping.data, std::size_t(used), std::size_t(capacity));
            QTRY_COMPARE_WITH_TIMEOUT(resident(mapping.data, 0, span), expected, 10000);
        } // stopped: nothing more is asked for
        QCOMPARE(resident(mapping.data, 0, span), expected);
        if (expected > 0)
            QCOMPARE(resident(mapping.data, std::size_t(from), std::size_t(to)), expected);
#endif
    }

    // A mirrored array waits while a followed one has pages to make
    // resident ahead: the writer's pages come first.
    void mirrorAfterFollowed()
    {
#if defined(__linux__)
        // One mapping: the followed array's 512 MiB, then the mirror's 64.
        Mapping mapping(576 * kMiB);
        QVERIFY(mapping.data);
        std::byte* const mirrored = mapping.data + 512 * kMiB;
        AheadPopulator populator(2, kNormalPriority);
        populator.mirror(1, mirrored, 32 * kMiB, 64 * kMiB);
        populator.follow(0, mapping.data, 400 * kMiB, 512 * kMiB); // 50 MiB ahead to make resident
        QTRY_COMPARE_WITH_TIMEOUT(resident(mirrored, 0, 64 * kMiB), qint64(8192), 10000);
        // By the time the mirror is done, everything ahead of the followed
        // array's end was.
        QCOMPARE(resident(mapping.data, 400 * kMiB, 450 * kMiB), qint64(12800));
#endif
    }

    // An array that moved is followed at its new place only.
    void followsAMove()
    {
#if defined(__linux__)
        Mapping first(64 * kMiB);
        Mapping second(64 * kMiB);
        QVERIFY(first.data && second.data);
        AheadPopulator populator(1, kNormalPriority);
        populator.follow(0, first.data, 0, 64 * kMiB);
        QTRY_COMPARE_WITH_TIMEOUT(resident(first.data, 0, 64 * kMiB), qint64(1024), 10000);
        populator.follow(0, second.data, 8 * kMiB, 64 * kMiB);
        QTRY_COMPARE_WITH_TIMEOUT(resident(second.data, 0, 64 * kMiB), qint64(1024), 10000);
        populator.release();
        QCOMPARE(resident(second.data, 8 * kMiB, 12 * kMiB), qint64(0)); // given back
        QCOMPARE(resident(first.data, 0, 64 * kMiB), qint64(1024)); // not ours any more: left alone
#endif
    }

    // release() gives back the pages past the end as last followed, and
    // keeps every byte before it, the partial page at the end included.
    void releaseKeepsWhatWasWritten()
    {
#if defined(__linux__)
        Mapping mapping(64 * kMiB);
        QVERIFY(mapping.data);
        AheadPopulator populator(2, kNormalPriority);
        populator.follow(1, mapping.data, 3 * kMiB + 100, 64 * kMiB);
        QTRY_COMPARE_WITH_TIMEOUT(resident(mapping.data, 0, 64 * kMiB), qint64(768), 10000);
        // The writer goes on into the pages made ready.
        const std::size_t written = 5 * kMiB + 10;
        std::memset(mapping.data + 3 * kMiB, 0x5A, written - 3 * kMiB);
        populator.follow(1, mapping.data, written, 64 * kMiB);
        populator.release();
        // [3, 4) MiB written by hand; [4, 5 MiB + 1 page) holds the written
        // bytes; the rest up to 7 MiB is given back.
        QCOMPARE(resident(mapping.data, 0, 64 * kMiB), qint64(256 + 257));
        for (std::size_t i = 3 * kMiB; i < written; ++i) {
            if (mapping.data[i] != std::byte{0x5A})
                QFAIL(qPrintable(QStringLiteral("byte %1 lost").arg(i)));
        }
        QCOMPARE(mapping.data[written], std::byte{0}); // the rest of its page: untouched zeros
#endif
    }
};

QTEST_GUILESS_MAIN(TestAheadPopulator)
#include "tst_aheadpopulator.moc"
