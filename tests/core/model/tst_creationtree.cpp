#include "creationtree.h"
#include "testsupport.h"

#include <QtTest>

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
};

QTEST_MAIN(TestCreationTree)
#include "tst_creationtree.moc"
