#include "measurementmetrics.h"
#include "ranktable.h"
#include "testsupport.h"

#include <QtTest>

using namespace runlane;
using runlane::test::dataPath;
using runlane::test::loadText;
using runlane::test::qstr;

namespace {

// "name start..end @depth" for every interval of a track, in ticks from the
// profile start.
QStringList layout(const Profile& p, TrackId t = 0)
{
    QStringList out;
    for (int d = 0; d < p.track(t).depthCount(); ++d) {
        for (const Interval& iv : p.depthSlice(t, d))
            out << QStringLiteral("%1 %2..%3 @%4")
                       .arg(qstr(p.labelName(p.measurement(iv.measurement).label)))
                       .arg(iv.start - p.startTime())
                       .arg(iv.end - p.startTime())
                       .arg(d);
    }
    return out;
}

const QStringList simpleLayout(Time unit)
{
    auto at = [unit](int a, int b) { return QStringLiteral("%1..%2").arg(a * unit).arg(b * unit); };
    return {"a " + at(0, 14) + " @0", "b " + at(0, 14) + " @1", "c " + at(0, 2) + " @2", "d " + at(2, 6) + " @2",
            "c " + at(6, 9) + " @2"};
}

} // namespace

class TestSpeedscopeLoader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void evented_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("pretty") << "samples/speedscope/0.0.1_simple.speedscope.json";
        QTest::newRow("minified") << "samples/speedscope/0.0.1_simple-no-pretty-print.speedscope.json";
    }

    // Unit "none": values are plain numbers, kept in thousandths.
    void evented()
    {
        QFETCH(QString, file);
        const LoadResult r = ProfileLoader::load(dataPath(file));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.formatName(), std::string_view("speedscope"));
        QCOMPARE(p.unit(), ValueUnit::None);
        QVERIFY(!p.prefersAggregatedView());
        QCOMPARE(layout(p), simpleLayout(kTicksPerUnit));
        QCOMPARE(p.string(p.track(0).name), std::string_view("simple.txt"));
    }

    // Samples laid end to end by weight (seconds): the same calls.
    void sampled()
    {
        const LoadResult r = ProfileLoader::load(dataPath("samples/speedscope/0.1.2_simple-sampled.speedscope.json"));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.unit(), ValueUnit::Nanoseconds);
        QVERIFY(p.prefersAggregatedView());
        QCOMPARE(layout(p), simpleLayout(1'000'000'000));
        const RankTable t = RankTable::compute(MeasurementMetrics(p));
        QCOMPARE(p.labelName(t.rows()[0].label), std::string_view("b"));
        QCOMPARE(t.rows()[0].exec, Time(5'000'000'000));
    }

    // Profiles before the shared frames; two profiles, two tracks.
    void framesAfterProfiles()
    {
        const LoadResult r = ProfileLoader::load(dataPath("samples/speedscope/0.6.0_two-sampled.speedscope.json"));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.trackCount(), std::size_t(2));
        QCOMPARE(p.string(p.track(0).name), std::string_view("one"));
        QCOMPARE(p.string(p.track(1).name), std::string_view("two"));
        QCOMPARE(layout(p, 1), simpleLayout(1'000'000'000));
    }

    void invalidFiles()
    {
        LoadResult r = ProfileLoader::load(dataPath("samples/speedscope/invalid_incomplete-trace.json"));
        QVERIFY(r.ok());
        QCOMPARE(layout(*r.profile), QStringList{"A 0..100000 @0"});
        QCOMPARE(r.profile->measurement(0).finalState(), FinalState::Unfinished);
        r = ProfileLoader::load(dataPath("samples/speedscope/invalid_out-of-order-events.json"));
        QVERIFY(r.ok());
        QCOMPARE(layout(*r.profile), (QStringList{"A 0..1000 @0", "B 2000..4000 @0", "A 2000..4000 @1", "A 3000..4000 @2"}));
        QCOMPARE(r.profile->diagnostics().warningKinds().at("frames closed out of order"), std::uint64_t(1));
        QCOMPARE(r.profile->diagnostics().warningKinds().at("close without open"), std::uint64_t(1));
    }

    void unitsAndFrames()
    {
        const LoadResult r = loadText(JSON({
            "$schema" : "https://www.speedscope.app/file-format-schema.json",
            "shared" : {"frames" : [ {"name" : "alloc", "file" : "mem.c", "line" : 12}, {"name" : "copy"} ]},
            "profiles" : [ {
                "type" : "sampled",
                "name" : "heap",
                "unit" : "bytes",
                "startValue" : 0,
                "endValue" : 96,
                "samples" : [ [0], [0, 1], [1] ],
                "weights" : [ 32, 0.5, 63.5 ]
            } ]
        }));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.unit(), ValueUnit::Bytes);
        QCOMPARE(layout(p), (QStringList{"alloc 0..32500 @0", "copy 32500..96000 @0", "copy 32000..32500 @1"}));
        QCOMPARE(p.string(p.label(0).file), std::string_view("mem.c"));
        QCOMPARE(p.label(0).line, 12);
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown frame")
            << JSON({"shared" : {"frames" : [ {"name" : "a"} ]},
                     "profiles" : [ {"type" : "evented", "unit" : "none", "events" : [ {"type" : "O", "frame" : 3, "at" : 0} ]} ]})
            << "profile #0 uses frame 3, but only 1 frames are defined";
        QTest::newRow("unknown unit") << JSON({"shared" : {"frames" : []}, "profiles" : [ {"type" : "evented", "unit" : "parsecs"} ]})
                                      << "unknown unit 'parsecs' of profile #0";
        QTest::newRow("unknown type") << JSON({"shared" : {"frames" : []}, "profiles" : [ {"type" : "dreamed", "unit" : "none"} ]})
                                      << "profile #0 has type 'dreamed'; expected \"evented\" or \"sampled\"";
        QTest::newRow("event without at")
            << JSON({"shared" : {"frames" : [ {"name" : "a"} ]},
                     "profiles" : [ {"type" : "evented", "unit" : "none", "events" : [ {"type" : "O", "frame" : 0} ]} ]})
            << "profile #0, event #0: an event needs \"type\", \"at\" and \"frame\"";
        QTest::newRow("bad event type")
            << JSON({"shared" : {"frames" : []}, "profiles" : [ {"type" : "evented", "events" : [ {"type" : "X"} ]} ]})
            << "profile #0, event #0: 'type' must be \"O\" or \"C\", found X";
        QTest::newRow("no profiles") << JSON({"$schema" : "x", "shared" : {"frames" : []}}) << "the file holds no profiles";
    }

    void errors()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        const LoadResult r = loadText(json);
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error.message), message);
    }
};

QTEST_GUILESS_MAIN(TestSpeedscopeLoader)
#include "tst_speedscopeloader.moc"
