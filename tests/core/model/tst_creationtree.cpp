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

    // The direction of the first pass: creators by id in a sample.
    void creatorsMostlyAfter_data()
    {
        QTest::addColumn<QList<int>>("creators");
        QTest::addColumn<bool>("after");
        QTest::newRow("none") << QList<int>{} << false;
        QTest::newRow("roots only") << QList<int>{-1, -1, -1} << false;
        QTest::newRow("callers after, as calls end") << QList<int>{2, 2, 3, -1} << true;
        QTest::newRow("callers before, as calls begin") << QList<int>{-1, 0, 1, 1} << false;
        QTest::newRow("as many each way") << QList<int>{1, -1, 1} << false;
        QTest::newRow("one more after") << QList<int>{1, -1, 1, 4, -1} << true;
    }

    void creatorsMostlyAfter()
    {
        QFETCH(QList<int>, creators);
        QFETCH(bool, after);
        std::vector<Measurement> measurements(std::size_t(creators.size()));
        for (qsizetype i = 0; i < creators.size(); ++i)
            measurements[std::size_t(i)].creator = creators[i] < 0 ? kNone : MeasurementId(creators[i]);
        QCOMPARE(CreationTree::creatorsMostlyAfter(measurements), after);
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
        // The order creators come first in: at random, by id (creators
        // before), or from the last id down (creators after, as a loader
        // that adds calls as they end numbers them).
        QTest::addColumn<QString>("order");
        for (const QString order : {"random", "ascending", "descending"}) {
            const QByteArray suffix = (", " + order).toUtf8();
            QTest::newRow("200,001, chains of 1,000" + suffix) << 200'001 << 1000 << order;
            QTest::newRow("70,000, chains of 65" + suffix) << 70'000 << 65 << order;
            QTest::newRow("70,000, chains of 64" + suffix) << 70'000 << 64 << order;
        }
    }

    void manyOnEveryCore()
    {
        QFETCH(int, count);
        QFETCH(int, chain);
        QFETCH(QString, order);
        const std::size_t n = std::size_t(count);
        std::mt19937 random(45);
        // An order in which every creator comes before what it creates.
        std::vector<MeasurementId> creatorsFirst(n - 3);
        std::iota(creatorsFirst.begin(), creatorsFirst.end(), MeasurementId(0));
        if (order == "random")
            std::shuffle(creatorsFirst.begin(), creatorsFirst.end(), random);
        else if (order == "descending")
            std::reverse(creatorsFirst.begin(), creatorsFirst.end());
        std::vector<Measurement> measurements(n);
        std::vector<std::uint32_t> expected(n, 0);
        for (std::size_t k = 0; k < creatorsFirst.size(); ++k) {
            const MeasurementId id = creatorsFirst[k];
            MeasurementId creator = kNone;
            if (k % std::size_t(chain * 10) >= std::size_t(chain * 9))
                creator = creatorsFirst[k - 1]; // a long chain
            else if (k > 0 && random() % 5 != 0)
                creator = creatorsFirst[random() % k];
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
        for (const MeasurementId id : creatorsFirst) {
            const MeasurementId creator = measurements[id].creator;
            if (id != first && creator != kNone)
                expected[id] = expected[creator] + 1;
        }
        std::uint32_t deepest = 0;
        for (const std::uint32_t d : expected)
            deepest = std::max(deepest, d);
        QVERIFY(deepest >= std::uint32_t(chain)); // the long chains are there
        if (order != "random") // the direction the first pass walks in
            QCOMPARE(CreationTree::creatorsMostlyAfter(measurements), order == "descending");
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
