#include "intervalorder.h"

#include "loaderror.h"

#include <QtTest>

#include <algorithm>
#include <random>
#include <atomic>
#include <vector>

using namespace runlane;

namespace {

enum class Shape {
    Recorded, // nested calls as a loader records them: each after the calls it made
    Random, // any starts and ends, a tenth of the starts shared
    SameStart, // every start equal: the order is the ends' and the loader's
    Extremes, // starts at both ends of Time's range
};

// `n` intervals of one track; `parent` holds the loader's order, unique.
std::vector<Interval> intervalsOf(Shape shape, std::size_t n)
{
    std::vector<Interval> out;
    std::mt19937_64 random(11);
    std::uint32_t order = 0;
    // A call tree written depth first, each call once its callees are.
    const auto call = [&](auto&& self, Time start, Time end, int depth) -> void {
        Time at = start + 1;
        while (depth < 6 && out.size() < n && at + 40 < end && random() % 3 != 0) {
            const Time length = 2 + Time(random() % std::uint64_t(std::min<Time>(end - at - 1, 400)));
            self(self, at, at + length, depth + 1);
            at += length + Time(random() % 5);
        }
        if (out.size() < n)
            out.push_back(Interval{start, end, MeasurementId(out.size()), order++});
    };
    Time next = 1'000'000;
    while (out.size() < n) {
        switch (shape) {
        case Shape::Recorded:
            call(call, next, next + 300 + Time(random() % 3000), 0);
            next += 4000;
            break;
        case Shape::Random: {
            const Time start = Time(random() % 1'000'000) * (random() % 10 == 0 ? 0 : 1);
            out.push_back(Interval{start, start + Time(random() % 1000), MeasurementId(out.size()), order++});
            break;
        }
        case Shape::SameStart:
            out.push_back(Interval{42, 42 + Time(random() % 50), MeasurementId(out.size()), order++});
            break;
        case Shape::Extremes: {
            const bool low = random() % 2 == 0;
            const Time start = low ? kTimeMin + Time(random() % 1000) : kTimeMax - 2000 + Time(random() % 1000);
            out.push_back(Interval{start, start + 1 + Time(random() % 500), MeasurementId(out.size()), order++});
            break;
        }
        }
    }
    return out;
}

} // namespace

class TestIntervalOrder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The comparison sort's result exactly, whatever the shape and size:
    // by radix up to kRadixMost intervals, by comparison above.
    void sameAsTheComparisonSort_data()
    {
        QTest::addColumn<int>("shape");
        QTest::addColumn<int>("n");
        const int most = int(IntervalOrder::kRadixMost);
        QTest::newRow("empty") << int(Shape::Random) << 0;
        QTest::newRow("one") << int(Shape::Random) << 1;
        QTest::newRow("recorded") << int(Shape::Recorded) << 5000;
        QTest::newRow("random, ties") << int(Shape::Random) << 5000;
        QTest::newRow("one start") << int(Shape::SameStart) << 3000;
        QTest::newRow("both ends of the range") << int(Shape::Extremes) << 4000;
        QTest::newRow("recorded, the most by radix") << int(Shape::Recorded) << most;
        QTest::newRow("recorded, one more: by comparison") << int(Shape::Recorded) << most + 1;
        QTest::newRow("random, by comparison") << int(Shape::Random) << most + 7;
    }
    void sameAsTheComparisonSort()
    {
        QFETCH(int, shape);
        QFETCH(int, n);
        std::vector<Interval> intervals = intervalsOf(Shape(shape), std::size_t(n));
        QCOMPARE(int(intervals.size()), n);
        std::vector<Interval> expected = intervals;
        std::sort(expected.begin(), expected.end(), IntervalOrder::before);
        const std::atomic<bool> cancel{false};
        IntervalOrder::sort(intervals, &cancel);
        for (std::size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(intervals[i].start, expected[i].start);
            QCOMPARE(intervals[i].end, expected[i].end);
            QCOMPARE(intervals[i].measurement, expected[i].measurement);
            QCOMPARE(intervals[i].parent, expected[i].parent);
        }
    }

    // A cancelled load stops in the sort, either way, and leaves every
    // interval there (in some order).
    void cancelStopsIt_data()
    {
        QTest::addColumn<int>("n");
        QTest::newRow("by radix") << 20000;
        QTest::newRow("by comparison") << int(IntervalOrder::kRadixMost) + 1;
    }
    void cancelStopsIt()
    {
        QFETCH(int, n);
        std::vector<Interval> intervals = intervalsOf(Shape::Recorded, std::size_t(n));
        std::vector<Interval> before = intervals;
        const std::atomic<bool> cancel{true};
        QVERIFY_THROWS_EXCEPTION(LoadCancelled, IntervalOrder::sort(intervals, &cancel));
        const auto byMeasurement = [](const Interval& a, const Interval& b) { return a.measurement < b.measurement; };
        std::sort(intervals.begin(), intervals.end(), byMeasurement);
        std::sort(before.begin(), before.end(), byMeasurement);
        for (std::size_t i = 0; i < before.size(); ++i) {
            QCOMPARE(intervals[i].start, before[i].start);
            QCOMPARE(intervals[i].end, before[i].end);
        }
    }
};

QTEST_GUILESS_MAIN(TestIntervalOrder)
#include "tst_intervalorder.moc"
