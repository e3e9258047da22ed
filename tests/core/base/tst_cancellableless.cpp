#include "cancellableless.h"

#include <QtTest>

#include <atomic>
#include <functional>
#include <thread>

using namespace runlane;

// CancellableLess compares as its comparison does, looks at the flag and
// ticks once per kComparisonsPerCheck calls on a thread, and throws
// LoadCancelled at the first look after the flag is set.
class TestCancellableLess : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void ticksAndCancels_data()
    {
        QTest::addColumn<int>("calls");
        QTest::addColumn<int>("cancelAfter"); // the flag set after this many calls; -1: never
        QTest::addColumn<int>("ticks");
        QTest::addColumn<bool>("cancelled");
        QTest::newRow("none") << 0 << -1 << 0 << false;
        QTest::newRow("one short of a tick") << 65535 << -1 << 0 << false;
        QTest::newRow("one tick") << 65536 << -1 << 1 << false;
        QTest::newRow("three ticks and some") << 3 * 65536 + 100 << -1 << 3 << false;
        // Cancelled at the next look: no tick at that call, none after.
        QTest::newRow("cancelled before the first look") << 3 * 65536 << 10 << 0 << true;
        QTest::newRow("cancelled between looks") << 3 * 65536 << 65536 + 5 << 1 << true;
        QTest::newRow("cancelled after the last look") << 2 * 65536 + 10 << 2 * 65536 + 1 << 2 << false;
    }

    void ticksAndCancels()
    {
        QFETCH(int, calls);
        QFETCH(int, cancelAfter);
        QFETCH(int, ticks);
        QFETCH(bool, cancelled);
        int ticked = 0;
        bool threw = false;
        bool allRight = true;
        // A thread of its own: the count of calls is per thread.
        std::thread([&] {
            std::atomic<bool> cancel{false};
            const std::function<void()> tick = [&] { ++ticked; };
            const CancellableLess less(&cancel, [](int a, int b) { return a < b; }, &tick);
            try {
                for (int k = 0; k < calls; ++k) {
                    if (k == cancelAfter)
                        cancel = true;
                    allRight = allRight && (k % 2 == 0 ? less(k, k + 1) : !less(k + 1, k));
                }
            } catch (const LoadCancelled&) {
                threw = true;
            }
        }).join();
        QCOMPARE(ticked, ticks);
        QCOMPARE(threw, cancelled);
        QVERIFY(allRight);
    }

    // Without a tick only the flag is looked at.
    void withoutTick()
    {
        bool threw = false;
        std::thread([&] {
            std::atomic<bool> cancel{true};
            const CancellableLess less(&cancel, std::less<int>());
            try {
                for (int k = 0; k < 65536; ++k)
                    less(1, 2);
            } catch (const LoadCancelled&) {
                threw = true;
            }
        }).join();
        QVERIFY(threw);
    }
};

QTEST_GUILESS_MAIN(TestCancellableLess)
#include "tst_cancellableless.moc"
