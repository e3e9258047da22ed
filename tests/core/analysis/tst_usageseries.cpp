#include "execsegments.h"
#include "testsupport.h"
#include "trackexecindex.h"
#include "usageformatter.h"
#include "usageseries.h"

#include <QtTest>

#include <cmath>
#include <stdexcept>

using namespace runlane;
using runlane::test::dataPath;
using runlane::test::loadText;

namespace {

constexpr Time us = 1000;

QStringList seriesNames(const Profile& p, const UsageSeries& s)
{
    QStringList names;
    for (const LabelId l : s.labels())
        names << QString::fromStdString(std::string(p.labelName(l)));
    return names;
}

// All shares of one bin, rounded to 1e-9, "other" last.
QList<double> bin(const UsageSeries& s, std::size_t b)
{
    QList<double> shares;
    for (std::size_t k = 0; k < s.seriesCount(); ++k)
        shares << std::round(s.share(b, k) * 1e9) / 1e9;
    return shares;
}

} // namespace

class TestUsageSeries : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // f 0-160 calls g 10-100 calls h 30-60. Exec segments: f [0,10) [100,160),
    // g [10,30) [60,100), h [30,60).
    void nestedCalls()
    {
        const LoadResult r = ProfileLoader::load(dataPath("profiles/fgh-chrome.json"));
        QVERIFY(r.ok());
        const Profile& p = *r.profile;
        const UsageSeries s = UsageSeries::compute(p, 0, 40 * us, 10);
        QCOMPARE(s.binCount(), std::size_t(4));
        QCOMPARE(seriesNames(p, s), (QStringList{"f", "g", "h"}));
        QCOMPARE(bin(s, 0), (QList<double>{0.25, 0.5, 0.25, 0}));
        QCOMPARE(bin(s, 1), (QList<double>{0, 0.5, 0.5, 0}));
        QCOMPARE(bin(s, 2), (QList<double>{0.5, 0.5, 0, 0}));
        QCOMPARE(bin(s, 3), (QList<double>{1, 0, 0, 0}));
        for (std::size_t b = 0; b < 4; ++b)
            QCOMPARE(s.busy(b), 1.0);
    }

    // Chosen labels instead of the top k (compare mode's overlay): in the
    // order given, the rest as "other".
    void chosenLabels()
    {
        const LoadResult r = ProfileLoader::load(dataPath("profiles/fgh-chrome.json"));
        QVERIFY(r.ok());
        const Profile& p = *r.profile;
        const LabelId f = p.measurement(test::byName(p, "f")).label;
        const LabelId h = p.measurement(test::byName(p, "h")).label;
        const UsageSeries s = UsageSeries::compute(p, 0, 40 * us, std::vector<LabelId>{h, f});
        QCOMPARE(seriesNames(p, s), (QStringList{"h", "f"}));
        QCOMPARE(bin(s, 0), (QList<double>{0.25, 0.25, 0.5}));
        QCOMPARE(bin(s, 1), (QList<double>{0.5, 0, 0.5}));
        QCOMPARE(bin(s, 2), (QList<double>{0, 0.5, 0.5}));
        QCOMPARE(bin(s, 3), (QList<double>{0, 1, 0}));
        QCOMPARE(UsageSeries::busiestTrack(p, {h}), TrackId(0));
        QCOMPARE(UsageSeries::busiestTrack(p, {}), kNone);
    }

    // Labels said to be likely among the top k (the chart's previous
    // series) let the spans be read once; they change no share: the
    // series' own exactly (summed in the same order), "other" but for
    // rounding, whatever the labels given.
    void likelyLabelsChangeNoShare_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("topK");
        QTest::addColumn<QString>("likely");
        for (const char* file : {"profiles/fgh-chrome.json", "profiles/chronos-overlap.json",
                                 "profiles/chroprof-snapshots.json", "profiles/prometheus-query-range.json"}) {
            for (const int k : {1, 2, 8}) {
                for (const char* likely : {"the top k", "more, reversed", "none of them", "half", "unknown ids"})
                    QTest::addRow("%s, top %d, %s", file, k, likely) << QString::fromLatin1(file) << k << QString::fromLatin1(likely);
            }
        }
    }
    void likelyLabelsChangeNoShare()
    {
        QFETCH(QString, file);
        QFETCH(int, topK);
        QFETCH(QString, likely);
        const LoadResult r = ProfileLoader::load(dataPath(file));
        QVERIFY(r.ok());
        const Profile& p = *r.profile;
        const Time width = std::max<Time>(1, (p.endTime() - p.startTime()) / 7);
        const UsageSeries plain = UsageSeries::compute(p, 0, width, std::size_t(topK));
        QVERIFY(plain.binCount() > 0);
        const std::vector<LabelId>& top = plain.labels();
        std::vector<LabelId> given;
        if (likely == "the top k") {
            given = top;
        } else if (likely == "more, reversed") {
            for (LabelId l = LabelId(p.labelCount()); l-- > 0;)
                given.push_back(l);
        } else if (likely == "none of them") {
            for (LabelId l = 0; l < p.labelCount(); ++l) {
                if (std::find(top.begin(), top.end(), l) == top.end())
                    given.push_back(l);
            }
        } else if (likely == "half") {
            given.assign(top.begin(), top.begin() + std::ptrdiff_t(top.size() / 2));
            for (LabelId l = 0; l < p.labelCount() && given.size() < top.size() + 2; ++l) {
                if (std::find(top.begin(), top.end(), l) == top.end())
                    given.push_back(l);
            }
        } else {
            given = {LabelId(p.labelCount()), LabelId(p.labelCount() + 7), top.empty() ? 0 : top.front()};
        }
        const UsageSeries hinted = UsageSeries::compute(p, 0, width, std::size_t(topK), std::nullopt, given);
        QCOMPARE(hinted.labels(), plain.labels());
        QCOMPARE(hinted.binCount(), plain.binCount());
        QCOMPARE(hinted.start(), plain.start());
        for (std::size_t k = 0; k < top.size(); ++k)
            QVERIFY(hinted.meanShare(k) == plain.meanShare(k));
        for (std::size_t b = 0; b < plain.binCount(); ++b) {
            for (std::size_t k = 0; k < top.size(); ++k)
                QVERIFY2(hinted.share(b, k) == plain.share(b, k), qPrintable(QStringLiteral("bin %1, series %2").arg(b).arg(k)));
            const double other = plain.share(b, top.size());
            QVERIFY2(std::abs(hinted.share(b, top.size()) - other) <= 1e-12 * std::max(1.0, other),
                     qPrintable(QStringLiteral("bin %1: other %2 against %3").arg(b).arg(hinted.share(b, top.size())).arg(other)));
            QVERIFY(std::abs(hinted.busy(b) - plain.busy(b)) <= 1e-12 * std::max(1.0, plain.busy(b)));
        }
    }

    void topKAndOther()
    {
        const LoadResult r = ProfileLoader::load(dataPath("profiles/fgh-chrome.json"));
        QVERIFY(r.ok());
        const UsageSeries s = UsageSeries::compute(*r.profile, 0, 40 * us, 1);
        QCOMPARE(seriesNames(*r.profile, s), QStringList{"f"});
        QCOMPARE(bin(s, 0), (QList<double>{0.25, 0.75}));
        QCOMPARE(bin(s, 1), (QList<double>{0, 1}));
    }

    void idleTimeAndPartialLastBin()
    {
        // Busy 0-30 and 50-60 of a 100 µs profile, bins of 30 µs.
        const LoadResult r = loadText(JSON([
            {"ph" : "X", "name" : "a", "ts" : 0, "dur" : 30},
            {"ph" : "X", "name" : "b", "ts" : 50, "dur" : 10},
            {"ph" : "i", "name" : "end", "ts" : 100}
        ]));
        QVERIFY(r.ok());
        const UsageSeries s = UsageSeries::compute(*r.profile, 0, 30 * us, 5);
        QCOMPARE(s.binCount(), std::size_t(4));
        QCOMPARE(bin(s, 0), (QList<double>{1, 0, 0}));
        QCOMPARE(bin(s, 1), (QList<double>{0, 0.333333333, 0}));
        QCOMPARE(bin(s, 2), (QList<double>{0, 0, 0}));
        QCOMPARE(bin(s, 3), (QList<double>{0, 0, 0}));
        QCOMPARE(s.busy(1), 1.0 / 3.0);
        // The last bin counts its 10 µs inside the profile.
        QCOMPARE(s.binPart(3).from, 90 * us);
        QCOMPARE(s.binPart(3).to, 100 * us);
        QCOMPARE(s.counted().from, 0 * us);
        QCOMPARE(s.counted().to, 100 * us);
    }

    // Issue 39, item 3: a bin partly outside the profile (or the range)
    // counts only its part inside, and its share is of that part; the mean
    // of a series is its exec in the range / the range's time inside the
    // profile, whatever the bins. "a" runs [0, 30) µs, "b" [50, 60) and
    // "c" [96, 100) of a profile of [0, 100) µs.
    void meanIsTheSameForEveryBinWidth_data()
    {
        QTest::addColumn<Time>("width");
        QTest::addColumn<Time>("from");
        QTest::addColumn<Time>("to");
        QTest::addColumn<bool>("grid"); // bins on a grid from the profile's start
        QTest::addColumn<double>("a");
        QTest::addColumn<double>("b");
        QTest::addColumn<double>("c");
        QTest::addColumn<double>("lastShareOfC"); // in the last bin
        for (const Time width : {Time(1), Time(3), Time(7), Time(30), Time(64), Time(100), Time(150)}) {
            // Every bin's part ends at 100 µs at the latest: c's 4 µs are
            // of the last bin's part from its start to 100 µs.
            const Time lastStart = (100 - 1) / width * width;
            const double last = double(100 - std::max<Time>(lastStart, 96)) / double(100 - lastStart);
            QTest::addRow("whole profile, %lld µs bins", qlonglong(width))
                << width * us << Time(0) << 100 * us << false << 0.3 << 0.1 << 0.04 << last;
            // Wider than the profile: only [0, 100) µs is counted.
            QTest::addRow("[-50, 250) µs on the grid, %lld µs bins", qlonglong(width))
                << width * us << -50 * us << 250 * us << true << 0.3 << 0.1 << 0.04 << 0.0;
            // [20, 90) µs: 10 µs of a and 10 of b in 70 µs.
            QTest::addRow("[20, 90) µs, %lld µs bins", qlonglong(width))
                << width * us << 20 * us << 90 * us << false << 1.0 / 7 << 1.0 / 7 << 0.0 << 0.0;
            QTest::addRow("[20, 90) µs on the grid, %lld µs bins", qlonglong(width))
                << width * us << 20 * us << 90 * us << true << 1.0 / 7 << 1.0 / 7 << 0.0 << 0.0;
            // [55, 120) µs: 5 of b and 4 of c in the 45 µs inside.
            QTest::addRow("[55, 120) µs on the grid, %lld µs bins", qlonglong(width))
                << width * us << 55 * us << 120 * us << true << 0.0 << 5.0 / 45 << 4.0 / 45 << 0.0;
        }
    }
    void meanIsTheSameForEveryBinWidth()
    {
        QFETCH(Time, width);
        QFETCH(Time, from);
        QFETCH(Time, to);
        QFETCH(bool, grid);
        QFETCH(double, a);
        QFETCH(double, b);
        QFETCH(double, c);
        QFETCH(double, lastShareOfC);
        const LoadResult r = loadText(JSON([
            {"ph" : "X", "name" : "a", "ts" : 0, "dur" : 30},
            {"ph" : "X", "name" : "b", "ts" : 50, "dur" : 10},
            {"ph" : "X", "name" : "c", "ts" : 96, "dur" : 4}
        ]));
        QVERIFY(r.ok());
        const Profile& p = *r.profile;
        QCOMPARE(p.startTime(), Time(0));
        QCOMPARE(p.endTime(), 100 * us);
        const std::optional<Time> origin = grid ? std::optional<Time>(p.startTime()) : std::nullopt;
        const UsageSeries s = UsageSeries::compute(p, 0, width, 10, TimeRange{from, to}, {}, origin);
        const TrackExecIndex index(p, 0);
        const UsageSeries indexed = UsageSeries::compute(p, index, width, 10, TimeRange{from, to}, {}, origin);
        const LabelId chosen[] = {test::labelNamed(p, "a"), test::labelNamed(p, "b"), test::labelNamed(p, "c")};
        const UsageSeries given = UsageSeries::compute(p, 0, width, std::vector<LabelId>(std::begin(chosen), std::end(chosen)),
                                                       TimeRange{from, to});
        // The first bin starts on the grid (at or before the range), or at the range.
        const Time first = grid ? (from >= 0 ? from / width * width : -((-from + width - 1) / width) * width) : from;
        QCOMPARE(s.start(), first);
        QCOMPARE(s.counted().from, std::max<Time>(from, 0));
        QCOMPARE(s.counted().to, std::min(to, 100 * us));
        const double expected[] = {a, b, c};
        for (const UsageSeries* u : {&s, &indexed, &given}) {
            for (int k = 0; k < 3; ++k) {
                const LabelId label = chosen[k];
                const auto at = std::find(u->labels().begin(), u->labels().end(), label);
                const double mean = at == u->labels().end() ? 0.0 : u->meanShare(std::size_t(at - u->labels().begin()));
                // Exactly: whole nanoseconds summed, divided once.
                QVERIFY2(mean == expected[k], qPrintable(QStringLiteral("%1: %2, not %3").arg(k).arg(mean, 0, 'g', 17)
                                                             .arg(expected[k], 0, 'g', 17)));
            }
            QVERIFY(u->meanShare(u->seriesCount() - 1) == 0.0); // other
        }
        // Each bin's share is of its part: the means weighted by the parts.
        double weighted = 0;
        for (std::size_t bin = 0; bin < s.binCount(); ++bin) {
            const TimeRange part = s.binPart(bin);
            QVERIFY(part.from >= s.counted().from && part.to <= s.counted().to && part.to >= part.from);
            weighted += s.busy(bin) * double(part.to - part.from);
        }
        QVERIFY(std::abs(weighted / double(s.counted().to - s.counted().from) - (a + b + c)) < 1e-12);
        if (lastShareOfC > 0) {
            const auto at = std::find(s.labels().begin(), s.labels().end(), chosen[2]);
            QVERIFY(at != s.labels().end());
            QVERIFY(std::abs(s.share(s.binCount() - 1, std::size_t(at - s.labels().begin())) - lastShareOfC) < 1e-15);
        }
    }

    // The demo (issue 39): taskHandler's mean share of the whole profile
    // is its exec on the loop / the profile's 30.0 s, for any bins (it read
    // 18.7 % in auto bins and 18.2 % in 1 s bins).
    void demoMeanIsTheSameForEveryBinWidth_data()
    {
        QTest::addColumn<Time>("width");
        for (const Time width : {Time(1'000'000'000), Time(150'000'000), Time(100'000'000), Time(50'000'000),
                                 Time(7'000'000), Time(2'000'000), Time(333'333'333), Time(7'000'000'000)})
            QTest::addRow("%lld ns bins", qlonglong(width)) << width;
    }
    void demoMeanIsTheSameForEveryBinWidth()
    {
        QFETCH(Time, width);
        static const LoadResult r = ProfileLoader::load(QStringLiteral(RUNLANE_DEMO_PROFILE));
        QVERIFY(r.ok());
        const Profile& p = *r.profile;
        const LabelId handler = test::labelNamed(p, "taskHandler");
        QVERIFY(handler != kNone);
        const TrackId track = UsageSeries::busiestTrack(p, {handler});
        QVERIFY(track != kNone);
        // Its exec on that track, from the segments themselves.
        Time exec = 0;
        ExecSegments::forEach(p, track, p.startTime(), p.endTime(), [&](MeasurementId m, IntervalId, Time s, Time e) {
            if (p.measurement(m).label == handler)
                exec += e - s;
        });
        QCOMPARE(std::round(double(exec) / 1e7) / 100, 5.63); // s
        QCOMPARE(std::round(double(p.duration()) / 1e8) / 10, 30.0); // s
        const double expected = double(exec) / double(p.duration());
        QCOMPARE(std::round(expected * 1000) / 10, 18.8); // %
        const UsageSeries s = UsageSeries::compute(p, track, width, 8);
        const auto at = std::find(s.labels().begin(), s.labels().end(), handler);
        QVERIFY(at != s.labels().end());
        const double mean = s.meanShare(std::size_t(at - s.labels().begin()));
        QVERIFY2(mean == expected, qPrintable(QStringLiteral("%1, not %2").arg(mean, 0, 'g', 17).arg(expected, 0, 'g', 17)));
    }

    // Metric snapshots at the end of the time scale: the last bin ends
    // past the largest time, and counts what lies before it (found by the
    // fuzzer as an overflow of the bin's end).
    void lastBinPastTheLargestTime()
    {
        const std::string t0 = std::to_string(kTimeMax - 3'000'000'000);
        const std::string t1 = std::to_string(kTimeMax - 1'000'000'000);
        const std::string row = R"({"location": {"procedure": "p", "file": "f.nim", "line": 1}, "execTime": )";
        const LoadResult r = loadText(QByteArray::fromStdString(R"({"chroprofSnapshots": 1, "snapshots": [{"t": )" + t0
                                                                 + R"(, "rows": [)" + row + R"(0}]}, {"t": )" + t1
                                                                 + R"(, "rows": [)" + row + "1000000000}]}]}"));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const UsageSeries s = UsageSeries::compute(*r.profile, 0, 1'600'000'000, 5);
        QCOMPARE(s.binCount(), std::size_t(2));
        QCOMPARE(bin(s, 0), (QList<double>{0.5, 0})); // 0.8 s of its 1 s of exec over 2 s, in 1.6 s
        // The other 0.2 s, in the 0.4 s of the bin inside the profile.
        QCOMPARE(bin(s, 1), (QList<double>{0.5, 0}));
        QCOMPARE(s.binPart(1).from, kTimeMax - 3'000'000'000 + 1'600'000'000);
        QCOMPARE(s.binPart(1).to, kTimeMax - 1'000'000'000);
        QVERIFY(s.meanShare(0) == 0.5);
    }

    void range()
    {
        const LoadResult r = ProfileLoader::load(dataPath("profiles/fgh-chrome.json"));
        QVERIFY(r.ok());
        const UsageSeries s = UsageSeries::compute(*r.profile, 0, 40 * us, 10, TimeRange{20 * us, 100 * us});
        QCOMPARE(s.start(), 20 * us);
        QCOMPARE(s.binCount(), std::size_t(2));
        // Only labels with exec inside the range get a series: g, h (f is 0).
        QCOMPARE(seriesNames(*r.profile, s), (QStringList{"g", "h"}));
        QCOMPARE(bin(s, 0), (QList<double>{0.25, 0.75, 0}));
        QCOMPARE(bin(s, 1), (QList<double>{1, 0, 0}));
    }

    void asyncLoopAddsUpToBusy()
    {
        const LoadResult r = ProfileLoader::load(dataPath("profiles/enso-async.json"));
        QVERIFY(r.ok());
        const Profile& p = *r.profile;
        // Ide: busy [0,100) and [110,130) µs of the 130 µs profile.
        const UsageSeries s = UsageSeries::compute(p, 0, 10 * us, 10);
        QCOMPARE(s.binCount(), std::size_t(13));
        QCOMPARE(seriesNames(p, s), (QStringList{"main", "load", "parse"}));
        double total = 0;
        for (std::size_t b = 0; b < s.binCount(); ++b) {
            QVERIFY(s.busy(b) <= 1.0 + 1e-12);
            total += s.busy(b);
        }
        QCOMPARE(total, 12.0);
        QCOMPARE(bin(s, 5), (QList<double>{0, 0.5, 0.5, 0})); // load 50-55, parse 55-60
        QCOMPARE(bin(s, 10), (QList<double>{0, 0, 0, 0}));
    }

    void badBins()
    {
        const LoadResult r = loadText(JSON([{"ph" : "X", "name" : "long", "ts" : 0, "dur" : 10000000}]));
        QVERIFY(r.ok());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, UsageSeries::compute(*r.profile, 0, 0, 10));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, UsageSeries::compute(*r.profile, 0, -5, 10));
        // 10 s in 1 ns bins would be ten billion bins.
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, UsageSeries::compute(*r.profile, 0, 1, 10));
        QCOMPARE(UsageSeries::compute(*r.profile, 0, 10 * us, 10).binCount(), UsageSeries::kMaxBins);
    }

    void defaultBinWidth()
    {
        QCOMPARE(UsageSeries::defaultBinWidth(200 * us), 1 * us);
        QCOMPARE(UsageSeries::defaultBinWidth(10), Time(1));
    }

    void csv()
    {
        const LoadResult r = ProfileLoader::load(dataPath("profiles/fgh-chrome.json"));
        QVERIFY(r.ok());
        const UsageSeries s = UsageSeries::compute(*r.profile, 0, 80 * us, 2);
        const QString text = QString::fromStdString(UsageFormatter::csv(*r.profile, {s}));
        QCOMPARE(text, QStringLiteral("track,bin_start_ns,bin_end_ns,series,share\n"
                                      "\"pid 1 / tid 1\",0,80000,\"f (app.rs:1)\",0.125000\n"
                                      "\"pid 1 / tid 1\",0,80000,\"g (app.rs:2)\",0.500000\n"
                                      "\"pid 1 / tid 1\",0,80000,\"(other)\",0.375000\n"
                                      "\"pid 1 / tid 1\",80000,160000,\"f (app.rs:1)\",0.750000\n"
                                      "\"pid 1 / tid 1\",80000,160000,\"g (app.rs:2)\",0.250000\n"
                                      "\"pid 1 / tid 1\",80000,160000,\"(other)\",0.000000\n"));
    }
};

QTEST_GUILESS_MAIN(TestUsageSeries)
#include "tst_usageseries.moc"
