#include "buildprogress.h"

#include <QtTest>

#include <string>
#include <thread>
#include <utility>
#include <vector>

using namespace runlane;

namespace {

struct Told {
    int step;
    int steps;
    std::string what;
};

} // namespace

class TestBuildProgress : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Steps count on from the ones reported before; a step's parts come
    // under its number, after its name.
    void stepsAndParts()
    {
        std::vector<Told> told;
        BuildProgress progress([&](int step, int steps, const char* what) { told.push_back({step, steps, what}); }, 1, 4);
        progress.begin("ordering");
        progress.within("half way");
        progress.within("done");
        progress.begin("storing");
        const std::vector<Told> expected{
            {2, 4, "ordering"}, {2, 4, "ordering: half way"}, {2, 4, "ordering: done"}, {3, 4, "storing"}};
        QCOMPARE(told.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(told[i].what, expected[i].what);
            QCOMPARE(told[i].step, expected[i].step);
            QCOMPARE(told[i].steps, expected[i].steps);
        }
    }

    void nullReport()
    {
        BuildProgress progress(nullptr, 0, 2);
        progress.begin("a");
        progress.within("b");
        BuildProgress::Counter counter(progress, 3, "things");
        counter.done();
        counter.finish();
    }

    // Items done on the counter's thread are told as they are, counting
    // those done elsewhere; items done on another thread are not told
    // there; finish() tells the whole once, unless the last told was it.
    void counter_data()
    {
        QTest::addColumn<int>("total");
        QTest::addColumn<QString>("doneBy"); // per item: 'h' here, 'o' on another thread
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("all here") << 3 << "hhh" << QStringList{"1 of 3 items", "2 of 3 items", "3 of 3 items"};
        QTest::newRow("the last elsewhere") << 3 << "hho" << QStringList{"1 of 3 items", "2 of 3 items", "3 of 3 items"};
        QTest::newRow("the first elsewhere") << 3 << "ohh" << QStringList{"2 of 3 items", "3 of 3 items"};
        QTest::newRow("all elsewhere") << 4 << "oooo" << QStringList{"4 of 4 items"};
        QTest::newRow("alternating") << 4 << "ohoh" << QStringList{"2 of 4 items", "4 of 4 items"};
        QTest::newRow("one item") << 1 << "h" << QStringList{};
        QTest::newRow("none") << 0 << "" << QStringList{};
    }
    void counter()
    {
        QFETCH(int, total);
        QFETCH(QString, doneBy);
        QFETCH(QStringList, expected);
        QStringList told;
        BuildProgress progress(
            [&](int step, int, const char* what) {
                QCOMPARE(step, 1);
                told << QString::fromUtf8(what);
            },
            0, 1);
        progress.begin("working");
        told.clear();
        BuildProgress::Counter counter(progress, std::size_t(total), "items");
        for (const QChar by : doneBy) {
            if (by == QLatin1Char('h'))
                counter.done();
            else
                std::thread([&counter] { counter.done(); }).join();
        }
        counter.finish();
        QStringList parts;
        for (const QString& t : told) {
            QVERIFY2(t.startsWith(QStringLiteral("working: ")), qPrintable(t));
            parts << t.mid(9);
        }
        QCOMPARE(parts, expected);
    }
};

QTEST_GUILESS_MAIN(TestBuildProgress)
#include "tst_buildprogress.moc"
