#include "testsupport.h"
#include "usageformatter.h"
#include "usageseries.h"

#include <QtTest>

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
        QCOMPARE(bin(s, 1), (QList<double>{0.125, 0})); // the other 0.2 s
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
