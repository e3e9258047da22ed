// runlane-cli frames: frame statistics through the real binary
// (RUNLANE_CLI), on a hand-written Enso profile, generated IDE profiles
// (every figure against what the generator wrote) and a profile without
// frames.

#include "app/cli/clirun.h"
#include "ensogenerator.h"
#include "testsupport.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

using runlane::test::cli;
using runlane::test::Run;
using runlane::test::writeTemp;

namespace {

// Frames at 0, 16, 50 and 70 ms from the start (1 ms after the epoch):
// 60.25, 62.5, 29.5 and 20.2 fps, 4.5, 20.5, 40.25 and 1 ms of work; the
// one at 32 ms has no frame_time and is skipped.
const QByteArray kProfile = R"([{"X":{"t":0,"d":{"$Process":"Ide"}}},{"X":{"t":0,"d":{"$TimeOffset":1000}}},
{"X":{"t":0,"d":{"RenderStats":{"frame_time":4.5,"fps":60.25}}}},
{"X":{"t":16000,"d":{"RenderStats":{"frame_time":20.5,"fps":62.5}}}},
{"X":{"t":32000,"d":{"RenderStats":{"fps":62.5}}}},
{"X":{"t":50000,"d":{"RenderStats":{"frame_time":40.25,"fps":29.5}}}},
{"X":{"t":70000,"d":{"RenderStats":{"frame_time":1,"fps":20.2}}}}])";

QString rows(const QStringList& values)
{
    static const char* const names[] = {"frames", "fps min", "fps max", "fps average", "frame time p50 ms",
                                        "frame time p90 ms", "frame time p99 ms", "janky > 16.7 ms", "janky > 33.3 ms",
                                        "good (> 55 fps)", "medium (> 25 fps)", "bad (<= 25 fps)"};
    QString out;
    for (int k = 0; k < values.size(); ++k)
        out += QString::fromLatin1(names[k]).leftJustified(22) + values[k].rightJustified(12) + QLatin1Char('\n');
    return out;
}

// runlane-cli frames on `profile` written to a file, with `args` after it.
Run frames(const QByteArray& profile, const QStringList& args)
{
    QTemporaryDir dir;
    return cli(QStringList{QStringLiteral("frames"), writeTemp(dir, profile, QStringLiteral("ide.json"))} + args);
}

} // namespace

class TestFramesCommand : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void handWritten_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("out");
        QTest::addColumn<QString>("err");
        const QString skipped = QStringLiteral(" (1 RenderStats without frame_time and fps skipped)\n\n");
        QTest::newRow("whole") << QStringList{} << 0
                               << QStringLiteral("Frames from RenderStats of Ide, the whole profile") + skipped
                                      + rows({"4", "20.200", "62.500", "43.112", "4.500", "40.250", "40.250", "2", "1",
                                              "2", "1", "1"})
                               << QString();
        QTest::newRow("range") << QStringList{"--range", "0ms..60ms"} << 0
                               << QStringLiteral("Frames from RenderStats of Ide, those starting 0 to 60 ms from the "
                                                 "profile's start")
                                      + skipped
                                      + rows({"3", "29.500", "62.500", "50.750", "20.500", "40.250", "40.250", "2", "1",
                                              "2", "1", "0"})
                               << QString();
        QTest::newRow("empty range") << QStringList{"--range", "51ms..69ms"} << 0
                                     << QStringLiteral("Frames from RenderStats of Ide, those starting 51 to 69 ms from "
                                                       "the profile's start")
                                            + skipped + rows({"0", "-", "-", "-", "-", "-", "-", "0", "0", "0", "0", "0"})
                                     << QString();
        QTest::newRow("json")
            << QStringList{"--range", "0ms..60ms", "--format", "json"} << 0
            << QStringLiteral("{\"source\":\"RenderStats\",\"process\":\"Ide\",\"from_ms\":0,\"to_ms\":60,\"frames\":3,"
                              "\"skipped\":1,\n\"min_fps\":29.500,\"max_fps\":62.500,\"average_fps\":50.750,\n"
                              "\"frame_time_ms\":{\"p50\":20.500,\"p90\":40.250,\"p99\":40.250},\n"
                              "\"janky\":{\"over_16.7_ms\":2,\"over_33.3_ms\":1},\n"
                              "\"quality\":{\"good\":2,\"medium\":1,\"bad\":0}}\n")
            << QString();
        QTest::newRow("json, whole")
            << QStringList{"--format", "json"} << 0
            << QStringLiteral("{\"source\":\"RenderStats\",\"process\":\"Ide\",\"from_ms\":0,\"to_ms\":70,\"frames\":4,"
                              "\"skipped\":1,\n\"min_fps\":20.200,\"max_fps\":62.500,\"average_fps\":43.112,\n"
                              "\"frame_time_ms\":{\"p50\":4.500,\"p90\":40.250,\"p99\":40.250},\n"
                              "\"janky\":{\"over_16.7_ms\":2,\"over_33.3_ms\":1},\n"
                              "\"quality\":{\"good\":2,\"medium\":1,\"bad\":1}}\n")
            << QString();
        // Usage errors: exit code 2, nothing on stdout.
        QTest::newRow("bad format") << QStringList{"--format", "csv"} << 2 << QString()
                                    << "runlane-cli: unknown --format 'csv' (table, json) (see --help)\n";
        QTest::newRow("bad range") << QStringList{"--range", "5ms"} << 2 << QString()
                                   << "runlane-cli: --range takes A..B, e.g. 10ms..20ms (see --help)\n";
    }
    void handWritten()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, out);
        QFETCH(QString, err);
        const Run run = frames(kProfile, args);
        QCOMPARE(run.err, err);
        QCOMPARE(run.code, code);
        QCOMPARE(run.out, out);
    }

    void noFrames_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("out");
        QTest::newRow("table") << "table"
                               << "No frames: the profile has no Enso RenderStats, no DrawFrame, PipelineReporter, "
                                  "BeginMainThreadFrame or BeginFrame events, and no fps counter.\n";
        QTest::newRow("json") << "json"
                              << "{\"source\":\"none\",\"process\":null,\"from_ms\":0,\"to_ms\":0.005,\"frames\":0,"
                                 "\"skipped\":0,\n\"min_fps\":null,\"max_fps\":null,\"average_fps\":null,\n"
                                 "\"frame_time_ms\":{\"p50\":null,\"p90\":null,\"p99\":null},\n"
                                 "\"janky\":{\"over_16.7_ms\":0,\"over_33.3_ms\":0},\n"
                                 "\"quality\":{\"good\":0,\"medium\":0,\"bad\":0}}\n";
    }
    void noFrames()
    {
        QFETCH(QString, format);
        QFETCH(QString, out);
        const Run run = frames(R"({"traceEvents":[{"name":"a","ph":"X","pid":1,"tid":1,"ts":0,"dur":5}]})",
                               {QStringLiteral("--format"), format});
        QCOMPARE(run.err, QString());
        QCOMPARE(run.code, 0);
        QCOMPARE(run.out, out);
    }

    // Every figure of the JSON against the frames the generator wrote,
    // worked out here from them: the whole profile, and the frames that
    // start in its first half.
    void generated_data()
    {
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<bool>("range");
        QTest::newRow("seed 3") << quint64(3) << false;
        QTest::newRow("seed 3, first half") << quint64(3) << true;
        QTest::newRow("seed 11") << quint64(11) << false;
    }
    void generated()
    {
        QFETCH(quint64, seed);
        QFETCH(bool, range);
        runlane::test::EnsoGenTruth truth;
        QTemporaryDir dir;
        const QByteArray profile = QByteArray::fromStdString(runlane::test::EnsoGenerator::profile(seed, 200, &truth));
        const QString path = writeTemp(dir, profile, QStringLiteral("ide.json"));
        QStringList args{QStringLiteral("frames"), path, QStringLiteral("--format"), QStringLiteral("json")};
        const std::uint64_t half = (truth.spanEnd - truth.spanStart) / 2; // µs
        if (range)
            args += QStringList{QStringLiteral("--range"), QStringLiteral("0us..%1us").arg(half)};
        const Run run = cli(args);
        QCOMPARE(run.code, 0);
        const QJsonObject json = QJsonDocument::fromJson(run.out.toUtf8()).object();
        std::vector<double> times, fps;
        for (const runlane::test::EnsoGenFrame& f : truth.frames) {
            if (!range || f.at < truth.spanStart + half) {
                times.push_back(f.frameTime);
                fps.push_back(f.fps);
            }
        }
        QVERIFY(times.size() >= 10 && times.size() < (range ? truth.frames.size() : 100000));
        std::vector<double> sorted = times;
        std::sort(sorted.begin(), sorted.end());
        auto rank = [&](double q) { return sorted[std::size_t(std::ceil(q * double(sorted.size()))) - 1]; };
        auto count = [&](auto keep) { return double(std::count_if(times.begin(), times.end(), keep)); };
        auto countFps = [&](auto keep) { return double(std::count_if(fps.begin(), fps.end(), keep)); };
        double sum = 0;
        for (double f : fps)
            sum += f;
        auto three = [](double v) { return std::round(v * 1000) / 1000; };
        QCOMPARE(json.value(QStringLiteral("source")).toString(), QStringLiteral("RenderStats"));
        QCOMPARE(json.value(QStringLiteral("process")).toString(), QStringLiteral("Ide"));
        QCOMPARE(json.value(QStringLiteral("frames")).toDouble(), double(times.size()));
        QCOMPARE(json.value(QStringLiteral("min_fps")).toDouble(), three(*std::min_element(fps.begin(), fps.end())));
        QCOMPARE(json.value(QStringLiteral("max_fps")).toDouble(), three(*std::max_element(fps.begin(), fps.end())));
        QCOMPARE(json.value(QStringLiteral("average_fps")).toDouble(), three(sum / double(fps.size())));
        const QJsonObject frameTime = json.value(QStringLiteral("frame_time_ms")).toObject();
        QCOMPARE(frameTime.value(QStringLiteral("p50")).toDouble(), three(rank(0.5)));
        QCOMPARE(frameTime.value(QStringLiteral("p90")).toDouble(), three(rank(0.9)));
        QCOMPARE(frameTime.value(QStringLiteral("p99")).toDouble(), three(rank(0.99)));
        const QJsonObject janky = json.value(QStringLiteral("janky")).toObject();
        QCOMPARE(janky.value(QStringLiteral("over_16.7_ms")).toDouble(), count([](double t) { return t > 16.7; }));
        QCOMPARE(janky.value(QStringLiteral("over_33.3_ms")).toDouble(), count([](double t) { return t > 33.3; }));
        QVERIFY(janky.value(QStringLiteral("over_33.3_ms")).toDouble() > 0);
        const QJsonObject quality = json.value(QStringLiteral("quality")).toObject();
        QCOMPARE(quality.value(QStringLiteral("good")).toDouble(), countFps([](double f) { return f > 55; }));
        QCOMPARE(quality.value(QStringLiteral("medium")).toDouble(), countFps([](double f) { return f > 25 && f <= 55; }));
        QCOMPARE(quality.value(QStringLiteral("bad")).toDouble(), countFps([](double f) { return f <= 25; }));
    }
};

QTEST_GUILESS_MAIN(TestFramesCommand)
#include "tst_framescommand.moc"
