#include "buildprogress.h"

#include <QtTest>

#include <chrono>
#include <cstdint>
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

// What each report says after "step: "; a report without it is kept
// whole, for the comparison to show.
QStringList partsOf(const QStringList& told, const QString& step)
{
    const QString prefix = step + QStringLiteral(": ");
    QStringList parts;
    for (const QString& t : told)
        parts << (t.startsWith(prefix) ? t.mid(prefix.size()) : t);
    return parts;
}

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

    // A format without a finishing pass never begins step 1: reaching it
    // keeps the next step's number; reaching a step already passed changes
    // nothing.
    void reach()
    {
        std::vector<Told> told;
        BuildProgress progress([&](int step, int steps, const char* what) { told.push_back({step, steps, what}); }, 0, 4);
        progress.reach(1);
        progress.begin("ordering");
        progress.reach(1);
        progress.begin("storing");
        QCOMPARE(told.size(), std::size_t(2));
        QCOMPARE(told[0].step, 2);
        QCOMPARE(told[1].step, 3);
        QCOMPARE(told[1].steps, 4);
    }

    // A part before any step began (a cut load's finishing pass) is no
    // news: it has no step to belong to.
    void partBeforeAnyStep()
    {
        std::vector<Told> told;
        BuildProgress progress([&](int step, int steps, const char* what) { told.push_back({step, steps, what}); }, 0, 3);
        progress.within("early");
        BuildProgress::Share share(progress, "matching", std::chrono::milliseconds(0));
        share.at(5, 10);
        QCOMPARE(told.size(), std::size_t(0));
        progress.begin("finishing");
        progress.within("late");
        QCOMPARE(told.size(), std::size_t(2));
        QCOMPARE(told[1].what, std::string("finishing: late"));
        QCOMPARE(told[1].step, 1);
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
        QCOMPARE(partsOf(told, QStringLiteral("working")), expected);
    }

    // A share tells its part as it begins, then each whole percent that
    // moved, on its own thread only, never 100 % (an estimated total may
    // run over), and nothing for a total of zero.
    void share_data()
    {
        QTest::addColumn<QString>("calls"); // "h3/10": at(3, 10) here, "o…" on another thread
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("grows") << "h1/10 h2/10 h5/10" << QStringList{"sorting", "sorting: 10 %", "sorting: 20 %", "sorting: 50 %"};
        QTest::newRow("the same percent once") << "h1/1000 h5/1000 h10/1000 h19/1000 h20/1000"
                                               << QStringList{"sorting", "sorting: 1 %", "sorting: 2 %"};
        QTest::newRow("an estimate run over") << "h9/10 h10/10 h15/10" << QStringList{"sorting", "sorting: 90 %", "sorting: 99 %"};
        QTest::newRow("never back") << "h5/10 h3/10" << QStringList{"sorting", "sorting: 50 %"};
        QTest::newRow("elsewhere not told") << "o5/10 h6/10 o8/10" << QStringList{"sorting", "sorting: 60 %"};
        QTest::newRow("a total of zero") << "h0/0 h5/0" << QStringList{"sorting"};
        // Exact: just short of 1 % of 2^40 is 0 %.
        QTest::newRow("a big total") << "h10995116277/1099511627776 h10995116278/1099511627776"
                                     << QStringList{"sorting", "sorting: 1 %"};
    }
    void share()
    {
        QFETCH(QString, calls);
        QFETCH(QStringList, expected);
        QStringList told;
        BuildProgress progress([&](int, int, const char* what) { told << QString::fromUtf8(what); }, 0, 1);
        progress.begin("ordering");
        told.clear();
        BuildProgress::Share share(progress, "sorting", std::chrono::milliseconds(0));
        for (const QString& call : calls.split(QLatin1Char(' '))) {
            const QStringList numbers = call.mid(1).split(QLatin1Char('/'));
            const std::uint64_t done = numbers[0].toULongLong();
            const std::uint64_t total = numbers[1].toULongLong();
            if (call.startsWith(QLatin1Char('h')))
                share.at(done, total);
            else
                std::thread([&share, done, total] { share.at(done, total); }).join();
        }
        QCOMPARE(partsOf(told, QStringLiteral("ordering")), expected);
    }

    // Reports come no closer together than asked: a part of a few
    // milliseconds tells nothing but its name.
    void shareWaits()
    {
        QStringList told;
        BuildProgress progress([&](int, int, const char* what) { told << QString::fromUtf8(what); }, 0, 1);
        progress.begin("moving");
        BuildProgress::Share share(progress, "pass", std::chrono::hours(1));
        for (std::uint64_t done = 0; done <= 10; ++done)
            share.at(done, 10);
        QCOMPARE(told, (QStringList{"moving", "moving: pass"}));
    }
};

QTEST_GUILESS_MAIN(TestBuildProgress)
#include "tst_buildprogress.moc"
