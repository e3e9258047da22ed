#include "ensogenerator.h"
#include "frameseries.h"
#include "testsupport.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace runlane;
using runlane::test::dataPath;
using runlane::test::loadText;

namespace {

constexpr Time us = 1000;
constexpr Time ms = 1'000'000;

// The figures a summary gives, as one list to compare: frames, min, max
// and average fps, p50/p90/p99 frame time, janky, severely janky, good,
// medium, bad.
using Figures = QList<double>;

Figures figures(const FrameSeries::Summary& s)
{
    return {double(s.frames), s.minFps, s.maxFps, s.averageFps, s.p50, s.p90, s.p99, double(s.janky),
            double(s.severeJanky), double(s.good), double(s.medium), double(s.bad)};
}

// The same figures from what a generator wrote, by the definitions and
// not through FrameSeries: nearest rank is the ceil(q n)-th smallest.
Figures expectedFigures(const std::vector<test::EnsoGenFrame>& frames)
{
    if (frames.empty())
        return Figures(12, 0.0);
    std::vector<double> times;
    double sum = 0, lo = frames[0].fps, hi = frames[0].fps;
    double janky = 0, severe = 0, good = 0, medium = 0, bad = 0;
    for (const test::EnsoGenFrame& f : frames) {
        times.push_back(f.frameTime);
        sum += f.fps;
        lo = std::min(lo, f.fps);
        hi = std::max(hi, f.fps);
        janky += f.frameTime > 16.7;
        severe += f.frameTime > 33.3;
        (f.fps > 55 ? good : f.fps > 25 ? medium : bad) += 1;
    }
    std::sort(times.begin(), times.end());
    auto rank = [&](double q) { return times[std::size_t(std::ceil(q * double(times.size()))) - 1]; };
    return {double(frames.size()), lo, hi, sum / double(frames.size()), rank(0.5), rank(0.9), rank(0.99),
            janky, severe, good, medium, bad};
}

} // namespace

class TestFrameSeries : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void quality_data()
    {
        QTest::addColumn<double>("fps");
        QTest::addColumn<int>("quality");
        QTest::newRow("60") << 60.0 << int(FrameSeries::Quality::Good);
        QTest::newRow("55.001") << 55.001 << int(FrameSeries::Quality::Good);
        QTest::newRow("55") << 55.0 << int(FrameSeries::Quality::Medium);
        QTest::newRow("25.001") << 25.001 << int(FrameSeries::Quality::Medium);
        QTest::newRow("25") << 25.0 << int(FrameSeries::Quality::Bad);
        QTest::newRow("0") << 0.0 << int(FrameSeries::Quality::Bad);
    }
    void quality()
    {
        QFETCH(double, fps);
        QFETCH(int, quality);
        QCOMPARE(int(FrameSeries::quality(fps)), quality);
    }

    // Hand-written profiles of each source; the range in ms from the
    // profile's start (to -1: its end).
    void sources_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("source");
        QTest::addColumn<qint64>("pid");
        QTest::addColumn<int>("frames");
        QTest::addColumn<double>("from");
        QTest::addColumn<double>("to");
        QTest::addColumn<Figures>("expected");
        // DrawFrame wins over BeginFrame, and process 1 (4 + 1 events) over
        // process 2 (2); 1,930 ms without a frame are idle, not a frame.
        const QByteArray draw = JSON({"traceEvents":[
            {"name":"BeginFrame","ph":"I","s":"t","pid":1,"tid":1,"ts":0},
            {"name":"DrawFrame","ph":"I","s":"t","pid":1,"tid":1,"ts":0},
            {"name":"DrawFrame","ph":"I","s":"t","pid":1,"tid":1,"ts":10000},
            {"name":"DrawFrame","ph":"I","s":"t","pid":1,"tid":1,"ts":30000},
            {"name":"DrawFrame","ph":"X","pid":1,"tid":1,"ts":70000,"dur":5},
            {"name":"DrawFrame","ph":"I","s":"t","pid":1,"tid":1,"ts":2000000},
            {"name":"DrawFrame","ph":"I","s":"t","pid":1,"tid":1,"ts":2016000},
            {"name":"DrawFrame","ph":"I","s":"t","pid":2,"tid":2,"ts":5000},
            {"name":"DrawFrame","ph":"I","s":"t","pid":2,"tid":2,"ts":6000}]});
        // Frames of 10, 20, 40 and 16 ms: 100, 50, 25 and 62.5 fps.
        QTest::newRow("DrawFrame") << draw << "DrawFrame" << qint64(1) << 4 << 0.0 << -1.0
                                   << Figures{4, 25, 100, 59.375, 16, 40, 40, 2, 1, 2, 1, 1};
        QTest::newRow("DrawFrame, a range") << draw << "DrawFrame" << qint64(1) << 4 << 10.0 << 2000.0
                                            << Figures{2, 25, 50, 37.5, 20, 40, 40, 2, 1, 0, 1, 1};
        QTest::newRow("DrawFrame, an empty range") << draw << "DrawFrame" << qint64(1) << 4 << 71.0 << 1999.0
                                                   << Figures(12, 0.0);
        QTest::newRow("PipelineReporter") << JSON({"traceEvents":[
            {"name":"BeginMainThreadFrame","ph":"I","s":"t","pid":3,"tid":1,"ts":0},
            {"name":"PipelineReporter","ph":"b","cat":"cc","id2":{"local":"0x1"},"pid":3,"tid":1,"ts":0},
            {"name":"PipelineReporter","ph":"e","cat":"cc","id2":{"local":"0x1"},"pid":3,"tid":1,"ts":30000},
            {"name":"PipelineReporter","ph":"b","cat":"cc","id2":{"local":"0x2"},"pid":3,"tid":1,"ts":20000},
            {"name":"PipelineReporter","ph":"e","cat":"cc","id2":{"local":"0x2"},"pid":3,"tid":1,"ts":40000},
            {"name":"PipelineReporter","ph":"b","cat":"cc","id2":{"local":"0x3"},"pid":3,"tid":1,"ts":70000},
            {"name":"PipelineReporter","ph":"e","cat":"cc","id2":{"local":"0x3"},"pid":3,"tid":1,"ts":80000}]})
            << "PipelineReporter" << qint64(3) << 2 << 0.0 << -1.0
            << Figures{2, 20, 50, 35, 20, 50, 50, 2, 1, 0, 1, 1};
        QTest::newRow("BeginFrame") << JSON({"traceEvents":[
            {"name":"BeginFrame","ph":"I","s":"t","pid":4,"tid":1,"ts":0},
            {"name":"BeginFrame","ph":"I","s":"t","pid":4,"tid":1,"ts":0},
            {"name":"BeginFrame","ph":"I","s":"t","pid":4,"tid":1,"ts":16000}]})
            << "BeginFrame" << qint64(4) << 1 << 0.0 << -1.0 << Figures{1, 62.5, 62.5, 62.5, 16, 16, 16, 0, 0, 1, 0, 0};
        // Each point of the counter is a frame of 1000 / fps ms; 0 fps is none.
        QTest::newRow("fps counter") << JSON({"traceEvents":[
            {"name":"fps","ph":"C","pid":5,"tid":1,"ts":0,"args":{"value":40}},
            {"name":"fps","ph":"C","pid":5,"tid":1,"ts":1000,"args":{"value":20}},
            {"name":"fps","ph":"C","pid":5,"tid":1,"ts":2000,"args":{"value":0}}]})
            << "fps counter" << qint64(5) << 2 << 0.0 << -1.0 << Figures{2, 20, 40, 30, 25, 50, 50, 2, 1, 0, 1, 1};
        // Enso: the fields as written; a mark without frame_time is skipped.
        QTest::newRow("RenderStats") << QByteArray(R"([{"X":{"t":0,"d":{"$Process":"Ide"}}},)"
                                                   R"({"X":{"t":0,"d":{"$TimeOffset":1000}}},)"
                                                   R"({"X":{"t":0,"d":{"RenderStats":{"frame_time":4.5,"fps":60.25}}}},)"
                                                   R"({"X":{"t":16000,"d":{"RenderStats":{"frame_time":20.5,"fps":62.5}}}},)"
                                                   R"({"X":{"t":32000,"d":{"RenderStats":{"fps":62.5}}}},)"
                                                   R"({"X":{"t":50000,"d":{"RenderStats":{"frame_time":40.25,"fps":29.5}}}},)"
                                                   R"({"X":{"t":70000,"d":{"RenderStats":{"frame_time":1,"fps":25}}}}])")
            << "RenderStats" << qint64(0) << 4 << 0.0 << 60.0
            << Figures{3, 29.5, 62.5, (60.25 + 62.5 + 29.5) / 3, 20.5, 40.25, 40.25, 2, 1, 2, 1, 0};
    }
    void sources()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, source);
        QFETCH(qint64, pid);
        QFETCH(int, frames);
        QFETCH(double, from);
        QFETCH(double, to);
        QFETCH(Figures, expected);
        const LoadResult r = loadText(json);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        const FrameSeries series = FrameSeries::of(p);
        QCOMPARE(QString::fromLatin1(FrameSeries::sourceName(series.source())), source);
        QCOMPARE(series.pid(), pid);
        QCOMPARE(int(series.frames().size()), frames);
        const Time a = p.startTime() + Time(from * double(ms));
        const Time b = to < 0 ? p.endTime() + 1 : p.startTime() + Time(to * double(ms));
        QCOMPARE(figures(series.summary(a, b)), expected);
    }

    void renderStatsBlocks()
    {
        const LoadResult r = loadText(R"([{"X":{"t":0,"d":{"$Process":"Ide"}}},{"X":{"t":0,"d":{"$TimeOffset":1000}}},)"
                                      R"({"X":{"t":200,"d":{"RenderStats":{"frame_time":4.5,"fps":60.25}}}}])");
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const FrameSeries series = FrameSeries::of(*r.profile);
        QCOMPARE(series.frames().size(), std::size_t(1));
        QCOMPARE(series.frames()[0].start, 1200 * us);
        QCOMPARE(series.frames()[0].end, 1200 * us + 4500 * us);
        QCOMPARE(series.skipped(), std::uint64_t(0));
    }

    void noFrames()
    {
        const LoadResult r = loadText(JSON({"traceEvents":[{"name":"a","ph":"X","pid":1,"tid":1,"ts":0,"dur":5}]}));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const FrameSeries series = FrameSeries::of(*r.profile);
        QCOMPARE(series.source(), FrameSeries::Source::None);
        QVERIFY(series.empty());
        QCOMPARE(figures(series.summary(0, 1'000'000)), Figures(12, 0.0));
        QCOMPARE(series.overlapping(0, 1'000'000), (std::pair<std::size_t, std::size_t>(0, 0)));
    }

    // Real Chrome traces (tests/data): the frame times worked out from the
    // files' DrawFrame events apart from Runlane (the busiest process's,
    // the gaps between its events under a second, in ms).
    void chromeSamples_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qint64>("pid");
        QTest::addColumn<QList<double>>("frameTimes");
        QTest::newRow("chrome69") << "samples/chrome-trace/devtools/chrome69-simple.json" << qint64(85110)
                                  << QList<double>{26.367, 12.053, 20.001};
        QTest::newRow("chrome85") << "samples/chrome-trace/devtools-samples/chrome85-esbuild.json" << qint64(312)
                                  << QList<double>{33.557, 29.076, 32.593, 33.859, 18.358, 15.01, 16.993, 16.194,
                                                   16.468, 16.647};
        QTest::newRow("chrome116") << "samples/chrome-trace/devtools/chrome116-Trace-20230603T221323.json" << qint64(6488)
                                   << QList<double>{7.045, 35.299, 15.464, 17.237, 15.609, 17.906, 17.739, 15.08,
                                                    17.575, 16.432, 17.789, 16.223, 16.632, 14.54};
    }
    void chromeSamples()
    {
        QFETCH(QString, file);
        QFETCH(qint64, pid);
        QFETCH(QList<double>, frameTimes);
        const LoadResult r = ProfileLoader::load(dataPath(file));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const FrameSeries series = FrameSeries::of(*r.profile);
        QCOMPARE(series.source(), FrameSeries::Source::DrawFrame);
        QCOMPARE(series.pid(), pid);
        QList<double> read;
        for (const FrameSeries::Frame& f : series.frames()) {
            read.push_back(std::round(f.frameTime * 1000) / 1000);
            QCOMPARE(f.fps, 1000 / f.frameTime);
        }
        QCOMPARE(read, frameTimes);
    }

    // Every figure against what the generator wrote: the whole profile and
    // a range inside it.
    void generated_data()
    {
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<int>("tasks");
        QTest::newRow("seed 1") << quint64(1) << 120;
        QTest::newRow("seed 7") << quint64(7) << 200;
    }
    void generated()
    {
        QFETCH(quint64, seed);
        QFETCH(int, tasks);
        test::EnsoGenTruth truth;
        const LoadResult r = loadText(QByteArray::fromStdString(test::EnsoGenerator::profile(seed, tasks, &truth)));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        const FrameSeries series = FrameSeries::of(p);
        QCOMPARE(series.source(), FrameSeries::Source::RenderStats);
        QCOMPARE(series.frames().size(), truth.frames.size());
        QVERIFY(truth.frames.size() >= 20);
        for (std::size_t k = 0; k < truth.frames.size(); ++k) {
            QCOMPARE(series.frames()[k].start, Time(truth.frames[k].at) * us);
            QCOMPARE(series.frames()[k].fps, truth.frames[k].fps);
            QCOMPARE(series.frames()[k].frameTime, truth.frames[k].frameTime);
        }
        const Figures whole = expectedFigures(truth.frames);
        QCOMPARE(figures(series.summary(p.startTime(), p.endTime() + 1)), whole);
        // Both kinds of janky frames are there, good frames and bad (those
        // after a slow one: 20 fps).
        QVERIFY(whole[7] > whole[8] && whole[8] > 0);
        QVERIFY(whole[9] > 0 && whole[11] > 0);
        // The middle third, from the frames that start in it.
        const Time a = p.startTime() + p.duration() / 3;
        const Time b = p.startTime() + 2 * p.duration() / 3;
        std::vector<test::EnsoGenFrame> inside;
        for (const test::EnsoGenFrame& f : truth.frames) {
            if (Time(f.at) * us >= a && Time(f.at) * us < b)
                inside.push_back(f);
        }
        QVERIFY(!inside.empty() && inside.size() < truth.frames.size());
        QCOMPARE(figures(series.summary(a, b)), expectedFigures(inside));
        // The frames a window shows, by binary search, as by looking at each.
        for (int k = 0; k < 50; ++k) {
            const Time from = p.startTime() + p.duration() * k / 50;
            const Time to = from + p.duration() / 23;
            std::size_t first = series.frames().size(), last = 0;
            for (std::size_t i = 0; i < series.frames().size(); ++i) {
                if (series.frames()[i].end >= from && series.frames()[i].start < to) {
                    first = std::min(first, i);
                    last = i + 1;
                }
            }
            if (first > last)
                first = last = series.overlapping(from, to).first;
            QCOMPARE(series.overlapping(from, to), (std::pair<std::size_t, std::size_t>(first, last)));
        }
    }
};

QTEST_GUILESS_MAIN(TestFrameSeries)
#include "tst_frameseries.moc"
