#include "trackgrouping.h"

#include "parallel.h"

#include <QtTest>

#include <algorithm>
#include <atomic>
#include <random>

using namespace runlane;

namespace {

// Intervals whose measurements lie on tracks in the pattern asked for. An
// interval's `start` is its index, so that a copy says where it came from.
struct Recording {
    std::vector<Measurement> measurements;
    std::vector<Interval> intervals;
};

enum class Layout { Interleaved, Grouped, OneRunTwice, Random };

Recording record(std::size_t n, std::size_t tracks, Layout layout)
{
    Recording r;
    std::mt19937 random(7);
    for (std::size_t i = 0; i < n; ++i) {
        std::size_t track = 0;
        switch (layout) {
        case Layout::Interleaved:
            track = i % tracks;
            break;
        case Layout::Grouped: // tracks in reverse order, the last one empty
            track = tracks - 2 - std::min(tracks - 2, i * (tracks - 1) / std::max<std::size_t>(n, 1));
            break;
        case Layout::OneRunTwice: // grouped, but track 0 comes back at the end
            track = i + 1 == n ? 0 : i * tracks / n;
            break;
        case Layout::Random:
            track = random() % tracks;
            break;
        }
        Measurement m;
        m.track = std::uint32_t(track);
        r.measurements.push_back(m);
        r.intervals.push_back(Interval{Time(i), Time(i) + 1, MeasurementId(i), 0});
    }
    return r;
}

} // namespace

class TestTrackGrouping : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Every size and layout against the obvious one-pass grouping: the
    // same offsets, the same verdict, the same copy, on one slice or many.
    void matchesOnePass_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("tracks");
        QTest::addColumn<int>("layout");
        QTest::addColumn<bool>("grouped");
        QTest::newRow("none") << 0 << 3 << int(Layout::Interleaved) << true;
        QTest::newRow("one interval") << 1 << 3 << int(Layout::Random) << true;
        QTest::newRow("small, interleaved") << 1000 << 4 << int(Layout::Interleaved) << false;
        QTest::newRow("small, grouped") << 1000 << 4 << int(Layout::Grouped) << true;
        QTest::newRow("slices, interleaved") << 5 * int(kParallelSlice) + 17 << 10 << int(Layout::Interleaved) << false;
        QTest::newRow("slices, grouped") << 5 * int(kParallelSlice) + 17 << 10 << int(Layout::Grouped) << true;
        QTest::newRow("slices, a track back at the end") << 5 * int(kParallelSlice) << 10 << int(Layout::OneRunTwice)
                                                          << false;
        QTest::newRow("slices, random") << 3 * int(kParallelSlice) + 1 << 7 << int(Layout::Random) << false;
        // Too many tracks for counts per slice: one slice.
        QTest::newRow("many tracks, random") << 3 * int(kParallelSlice) << 50000 << int(Layout::Random) << false;
        QTest::newRow("many tracks, grouped") << 3 * int(kParallelSlice) << 50000 << int(Layout::Grouped) << true;
    }
    void matchesOnePass()
    {
        QFETCH(int, n);
        QFETCH(int, tracks);
        QFETCH(int, layout);
        QFETCH(bool, grouped);
        const Recording r = record(std::size_t(n), std::size_t(tracks), Layout(layout));

        // The obvious way.
        std::vector<IntervalId> begin(std::size_t(tracks) + 1, 0);
        std::vector<IntervalId> run(std::size_t(tracks), kNone);
        std::size_t runs = 0;
        for (std::size_t i = 0; i < r.intervals.size(); ++i) {
            const TrackId t = r.measurements[r.intervals[i].measurement].track;
            ++begin[t + 1];
            if (i == 0 || t != r.measurements[r.intervals[i - 1].measurement].track) {
                ++runs;
                if (run[t] == kNone)
                    run[t] = IntervalId(i);
            }
        }
        std::size_t withIntervals = 0;
        for (std::size_t t = 0; t < std::size_t(tracks); ++t) {
            withIntervals += begin[t + 1] > 0 ? 1 : 0;
            begin[t + 1] += begin[t];
        }
        QCOMPARE(runs == withIntervals, grouped);
        std::vector<Interval> expected(r.intervals.size());
        std::vector<IntervalId> cursor(begin.begin(), begin.end() - 1);
        for (const Interval& iv : r.intervals)
            expected[cursor[r.measurements[iv.measurement].track]++] = iv;

        const TrackGrouping grouping(r.intervals, r.measurements, std::size_t(tracks));
        QCOMPARE(grouping.grouped(), grouped);
        for (std::size_t t = 0; t <= std::size_t(tracks); ++t)
            QCOMPARE(grouping.begin(t), begin[t]);
        if (grouped) {
            for (std::size_t t = 0; t < std::size_t(tracks); ++t) {
                if (begin[t + 1] > begin[t])
                    QCOMPARE(grouping.run(t), run[t]);
            }
        }
        std::vector<Interval> copy(r.intervals.size());
        std::atomic<std::size_t> reports{0};
        std::atomic<std::size_t> last{0};
        grouping.group(copy.data(), [&](std::size_t done) {
            ++reports;
            std::size_t seen = last.load();
            while (done > seen && !last.compare_exchange_weak(seen, done)) { }
        });
        QVERIFY(std::equal(copy.begin(), copy.end(), expected.begin(), expected.end(),
                           [](const Interval& a, const Interval& b) {
                               return a.start == b.start && a.end == b.end && a.measurement == b.measurement;
                           }));
        // A report after each slice, the last one for all of them.
        const std::size_t slices = n == 0 ? 1 : (std::size_t(n) + kParallelSlice - 1) / kParallelSlice;
        const bool split = slices > 1 && slices * std::size_t(tracks) <= std::size_t(n) / 16;
        QCOMPARE(reports.load(), split ? slices : std::size_t(1));
        QCOMPARE(last.load(), std::size_t(n));
    }
};

QTEST_GUILESS_MAIN(TestTrackGrouping)
#include "tst_trackgrouping.moc"
