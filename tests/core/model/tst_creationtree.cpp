#include "creationtree.h"
#include "testsupport.h"

#include <QtTest>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

using namespace runlane;
using runlane::test::ids;

class TestCreationTree : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Creators by id (-1: a root); a cycle is cut where it closes.
    void depths_data()
    {
        QTest::addColumn<QList<int>>("creators");
        QTest::addColumn<QList<int>>("depths");
        QTest::addColumn<QList<int>>("creatorsAfter");
        QTest::addColumn<int>("cycles");
        QTest::newRow("roots") << QList<int>{-1, -1} << QList<int>{0, 0} << QList<int>{-1, -1} << 0;
        QTest::newRow("tree") << QList<int>{-1, 0, 0, 1, 3} << QList<int>{0, 1, 1, 2, 3} << QList<int>{-1, 0, 0, 1, 3} << 0;
        QTest::newRow("creators after what they create")
            << QList<int>{1, 2, -1, 0} << QList<int>{2, 1, 0, 3} << QList<int>{1, 2, -1, 0} << 0;
        QTest::newRow("creates itself") << QList<int>{0} << QList<int>{0} << QList<int>{-1} << 1;
        QTest::newRow("two create each other") << QList<int>{1, 0} << QList<int>{1, 0} << QList<int>{1, -1} << 1;
        QTest::newRow("a cycle, and a branch off it")
            << QList<int>{-1, 2, 3, 1, 2} << QList<int>{0, 2, 1, 0, 2} << QList<int>{-1, 2, 3, -1, 2} << 1;
        QTest::newRow("two cycles") << QList<int>{1, 0, 3, 2} << QList<int>{1, 0, 1, 0} << QList<int>{1, -1, 3, -1} << 2;
    }

    void depths()
    {
        QFETCH(QList<int>, creators);
        QFETCH(QList<int>, depths);
        QFETCH(QList<int>, creatorsAfter);
        QFETCH(int, cycles);
        std::vector<Measurement> measurements(std::size_t(creators.size()));
        for (qsizetype i = 0; i < creators.size(); ++i)
            measurements[std::size_t(i)].creator = creators[i] < 0 ? kNone : MeasurementId(creators[i]);
        Diagnostics diagnostics;
        QCOMPARE(ids(CreationTree::depths(measurements, diagnostics)), depths);
        std::vector<std::uint32_t> after;
        for (const Measurement& m : measurements)
            after.push_back(m.creator);
        QCOMPARE(ids(after), creatorsAfter);
        QCOMPARE(diagnostics.warningCount(), std::uint64_t(cycles));
        const auto kind = diagnostics.warningKinds().find("creation cycle");
        QCOMPARE(kind == diagnostics.warningKinds().end() ? 0 : int(kind->second), cycles);
    }

    // Many measurements, on every core: creators before or after what they
    // create, chains longer than the first pass walks, and a cycle that
    // others lead into. Each depth is its creator's plus one, found from
    // an order the creators come first in; the cycle is cut where one
    // thread walking in id order closes it.
    void manyOnEveryCore_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("chain"); // the length of each long chain
        QTest::newRow("200,001, chains of 1,000") << 200'001 << 1000;
        QTest::newRow("70,000, chains of 65") << 70'000 << 65;
        QTest::newRow("70,000, chains of 64") << 70'000 << 64;
    }

    void manyOnEveryCore()
    {
        QFETCH(int, count);
        QFETCH(int, chain);
        const std::size_t n = std::size_t(count);
        std::mt19937 random(45);
        // An order in which every creator comes before what it creates.
        std::vector<MeasurementId> order(n - 3);
        std::iota(order.begin(), order.end(), MeasurementId(0));
        std::shuffle(order.begin(), order.end(), random);
        std::vector<Measurement> measurements(n);
        std::vector<std::uint32_t> expected(n, 0);
        for (std::size_t k = 0; k < order.size(); ++k) {
            const MeasurementId id = order[k];
            MeasurementId creator = kNone;
            if (k % std::size_t(chain * 10) >= std::size_t(chain * 9))
                creator = order[k - 1]; // a long chain
            else if (k > 0 && random() % 5 != 0)
                creator = order[random() % k];
            measurements[id].creator = creator;
            expected[id] = creator == kNone ? 0 : expected[creator] + 1;
        }
        // The last three: n - 2 and n - 1 create each other, n - 3 is
        // created by n - 2; and the first id by n - 2 too, so that the walk
        // from it closes the cycle at n - 1.
        const MeasurementId a = MeasurementId(n - 2);
        const MeasurementId b = MeasurementId(n - 1);
        measurements[a].creator = b;
        measurements[b].creator = a;
        measurements[n - 3].creator = a;
        const MeasurementId first = 0;
        measurements[first].creator = a;
        expected[b] = 0;
        expected[a] = 1;
        expected[n - 3] = 2;
        expected[first] = 2;
        // What `first` created lies deeper now: their depths again, in order.
        for (const MeasurementId id : order) {
            const MeasurementId creator = measurements[id].creator;
            if (id != first && creator != kNone)
                expected[id] = expected[creator] + 1;
        }
        std::uint32_t deepest = 0;
        for (const std::uint32_t d : expected)
            deepest = std::max(deepest, d);
        QVERIFY(deepest >= std::uint32_t(chain)); // the long chains are there
        Diagnostics diagnostics;
        const std::vector<std::uint32_t> depths = CreationTree::depths(measurements, diagnostics);
        QCOMPARE(depths, expected);
        QCOMPARE(measurements[b].creator, kNone);
        QCOMPARE(measurements[a].creator, b);
        QCOMPARE(diagnostics.warningCount(), std::uint64_t(1));
    }
};

QTEST_MAIN(TestCreationTree)
#include "tst_creationtree.moc"
