#include "core/formats/pprof/profileencoder.h"
#include "formatregistry.h"
#include "measurementmetrics.h"
#include "ranktable.h"
#include "testsupport.h"
#include "valueformat.h"

#include <QtTest>

#include <algorithm>
#include <map>
#include <set>

using namespace runlane;
using runlane::test::readAll;
using runlane::test::dataPath;
using runlane::test::ProfileEncoder;
using runlane::test::ProtoEncoder;
using runlane::test::qstr;

namespace {

// Writes `bytes` to a temporary cpu.pb and loads it (detected, not forced).
LoadResult load(const QByteArray& bytes, const QString& variant = {})
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cpu.pb"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        return {};
    file.close();
    LoadControl control;
    control.variant = variant.toStdString();
    return ProfileLoader::load(path, control);
}

// "name self/total" per label, by self time then name.
QStringList rank(const Profile& p)
{
    const RankTable t = RankTable::compute(MeasurementMetrics(p));
    std::vector<RankRow> rows = t.rows();
    std::sort(rows.begin(), rows.end(), [&p](const RankRow& a, const RankRow& b) {
        return a.exec != b.exec ? a.exec > b.exec : p.labelName(a.label) < p.labelName(b.label);
    });
    QStringList out;
    for (const RankRow& r : rows)
        out << QStringLiteral("%1 %2/%3")
                   .arg(qstr(p.labelName(r.label)), QString::fromStdString(ValueFormat::plain(r.exec, p.unit())),
                        QString::fromStdString(ValueFormat::plain(r.total, p.unit())));
    return out;
}

QStringList trackNames(const Profile& p)
{
    QStringList out;
    for (TrackId t = 0; t < p.trackCount(); ++t)
        out << qstr(p.string(p.track(t).name));
    return out;
}

QStringList variants(const Profile& p)
{
    QStringList out;
    for (const std::string& v : p.variants())
        out << QString::fromStdString(v);
    return out;
}

// A second reading of a pprof file, as plain as can be, for expectations
// that do not come from the reader under test: the samples, each function's
// self and total value in one sample type (total counting a function once
// per sample, however often it recurs), and the distinct call paths.
struct Expected {
    int samples = 0;
    std::int64_t sum = 0;
    std::map<std::string, std::int64_t> self;
    std::map<std::string, std::int64_t> total;
    std::set<std::vector<std::string>> paths; // every prefix of every stack, root first

    static std::uint64_t varint(const QByteArray& b, qsizetype& i)
    {
        std::uint64_t v = 0;
        for (int shift = 0; i < b.size(); shift += 7) {
            const auto c = static_cast<unsigned char>(b[i++]);
            v |= std::uint64_t(c & 0x7f) << shift;
            if (!(c & 0x80))
                break;
        }
        return v;
    }
    struct Field {
        int number = 0;
        bool len = false;
        std::uint64_t value = 0;
        QByteArray payload;
    };
    // No fixed-size fields in profile.proto: varints and payloads only.
    static std::vector<Field> fields(const QByteArray& b)
    {
        std::vector<Field> out;
        for (qsizetype i = 0; i < b.size();) {
            Field f;
            const std::uint64_t tag = varint(b, i);
            f.number = int(tag >> 3);
            f.len = (tag & 7) == 2;
            f.value = varint(b, i);
            if (f.len) {
                f.payload = b.mid(i, qsizetype(f.value));
                i += qsizetype(f.value);
            }
            out.push_back(f);
        }
        return out;
    }
    static std::vector<std::uint64_t> ints(const QByteArray& message, int field)
    {
        std::vector<std::uint64_t> out;
        for (const Field& f : fields(message)) {
            if (f.number != field)
                continue;
            if (!f.len) {
                out.push_back(f.value);
            } else {
                for (qsizetype i = 0; i < f.payload.size();)
                    out.push_back(varint(f.payload, i));
            }
        }
        return out;
    }
    static std::uint64_t one(const QByteArray& message, int field)
    {
        const auto all = ints(message, field);
        return all.empty() ? 0 : all.front();
    }

    Expected(const QByteArray& profile, std::size_t valueIndex)
    {
        std::vector<std::string> strings;
        std::map<std::uint64_t, std::uint64_t> nameOf; // function id -> string index
        std::map<std::uint64_t, std::vector<std::uint64_t>> functionsAt; // location -> functions, leaf first
        std::vector<QByteArray> sampleMessages;
        for (const Field& f : fields(profile)) {
            const QByteArray& m = f.payload;
            if (f.number == 6)
                strings.push_back(m.toStdString());
            else if (f.number == 5)
                nameOf[one(m, 1)] = one(m, 2);
            else if (f.number == 2)
                sampleMessages.push_back(m);
            else if (f.number == 4) {
                for (const Field& line : fields(m)) {
                    if (line.number == 4)
                        functionsAt[one(m, 1)].push_back(one(line.payload, 1));
                }
            }
        }
        for (const QByteArray& s : sampleMessages) {
            ++samples;
            const std::int64_t value = std::int64_t(ints(s, 2).at(valueIndex));
            if (value == 0)
                continue;
            sum += value;
            std::vector<std::string> stack; // leaf first
            for (const std::uint64_t location : ints(s, 1)) {
                for (const std::uint64_t function : functionsAt[location])
                    stack.push_back(strings.at(nameOf.at(function)));
            }
            self[stack.front()] += value;
            for (const std::string& name : std::set<std::string>(stack.begin(), stack.end()))
                total[name] += value;
            std::vector<std::string> path;
            for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
                path.push_back(*it);
                paths.insert(path);
            }
        }
    }

    // The `n` largest self values: "name self/total", as rank() writes them.
    QStringList top(int n) const
    {
        std::vector<std::pair<std::string, std::int64_t>> rows(self.begin(), self.end());
        std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
            return a.second != b.second ? a.second > b.second : a.first < b.first;
        });
        QStringList out;
        rows.resize(std::min(rows.size(), std::size_t(n)));
        for (const auto& [name, value] : rows)
            out << QStringLiteral("%1 %2/%3").arg(QString::fromStdString(name)).arg(value).arg(total.at(name));
        return out;
    }
};

// A CPU profile of three functions: main calls work (twice inlined into it
// at one location) and idle; two sample types as Go writes them.
ProfileEncoder cpuProfile(bool packed = true)
{
    ProfileEncoder p;
    p.sampleType("samples", "count").sampleType("cpu", "nanoseconds");
    p.function(1, "main", "main.go", 10).function(2, "work", "work.go", 20).function(3, "idle", "main.go", 30);
    p.location(1, {{1, 12}}).location(2, {{2, 21}}).location(3, {{3, 31}});
    p.sample({2, 1}, {3, 30}, {}, packed).sample({3, 1}, {1, 10}, {}, packed).sample({1}, {2, 20}, {}, packed);
    return p;
}

QString errorOf(const LoadResult& r)
{
    return QString::fromStdString(r.error.message);
}

} // namespace

class TestPprofLoader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The real files: exact counts, and the rank's top three against the
    // plain reading above (and against numbers checked by hand).
    void samples_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("samples");
        QTest::addColumn<QStringList>("variants");
        QTest::addColumn<int>("chosen");
        QTest::addColumn<QString>("variant"); // requested
        QTest::addColumn<QStringList>("tracks");
        QTest::addColumn<QStringList>("top");
        QTest::addColumn<int>("intervals");
        QTest::addColumn<qint64>("duration");
        const QStringList goCpu{"samples (count)", "cpu (nanoseconds)"};
        QTest::newRow("pprof report sample, cpu")
            << "pprof-report-sample.cpu.pb" << 76 << goCpu << 1 << "" << QStringList{"pprof-report-sample.cpu.pb"}
            << QStringList{"runtime.mapiternext 1280000000/1370000000", "main.busyLoop 150000000/1760000000",
                           "math.Abs 110000000/110000000"}
            << 17 << qint64(1760000000);
        QTest::newRow("pprof report sample, samples")
            << "pprof-report-sample.cpu.pb" << 76 << goCpu << 0 << "samples" << QStringList{"pprof-report-sample.cpu.pb"}
            << QStringList{"runtime.mapiternext 128/137", "main.busyLoop 15/176", "math.Abs 11/11"} << 17 << qint64(176000);
        QTest::newRow("speedscope simple, cpu")
            << "speedscope-simple.prof.pb" << 9 << goCpu << 1 << "cpu (nanoseconds)" << QStringList{"speedscope-simple.prof.pb"}
            << QStringList{"main.alpha 480000000/480000000", "main.beta 390000000/390000000", "main.gamma 270000000/270000000"}
            << 27 << qint64(1500000000);
    }

    void samples()
    {
        QFETCH(QString, file);
        QFETCH(int, samples);
        QFETCH(QStringList, variants);
        QFETCH(int, chosen);
        QFETCH(QString, variant);
        QFETCH(QStringList, tracks);
        QFETCH(QStringList, top);
        QFETCH(int, intervals);
        QFETCH(qint64, duration);
        const QString path = dataPath("samples/pprof/" + file);
        const QByteArray bytes = readAll(path);
        const Expected expected(bytes, std::size_t(chosen));
        QCOMPARE(expected.samples, samples);

        const auto detected = FormatRegistry::detect(std::string_view(bytes.constData(), std::size_t(bytes.size())), true);
        QVERIFY(detected.format);
        QCOMPARE(detected.format->id(), std::string_view("pprof"));

        LoadControl control;
        control.variant = variant.toStdString();
        const LoadResult r = ProfileLoader::load(path, control);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.formatName(), std::string_view("pprof"));
        QVERIFY(p.prefersAggregatedView());
        QCOMPARE(::variants(p), variants);
        QCOMPARE(int(p.variant()), chosen);
        QCOMPARE(p.unit(), chosen == 1 ? ValueUnit::Nanoseconds : ValueUnit::Samples);
        QCOMPARE(trackNames(p), tracks);
        const QStringList ranked = rank(p);
        QCOMPARE(ranked.mid(0, 3), expected.top(3));
        QCOMPARE(ranked.mid(0, 3), top);
        // One interval per call path; the samples end to end span their sum.
        QCOMPARE(int(p.intervalCount()), int(expected.paths.size()));
        QCOMPARE(int(p.intervalCount()), intervals);
        const Time scale = chosen == 1 ? 1 : kTicksPerUnit;
        QCOMPARE(p.duration(), Time(expected.sum) * scale);
        QCOMPARE(p.duration(), Time(duration));
        QCOMPARE(int(p.diagnostics().warningCount()), 0);
    }

    // Inlined frames: math.Abs was inlined into main.busyLoop at location
    // 30 of the pprof sample, so it is a child of busyLoop there.
    void inlinedFramesOfARealFile()
    {
        const LoadResult r = ProfileLoader::load(dataPath("samples/pprof/pprof-report-sample.cpu.pb"));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        const MeasurementId abs = runlane::test::byName(p, "math.Abs");
        QVERIFY(abs != kNone);
        const IntervalId iv = p.intervalsOf(abs).front();
        QCOMPARE(p.labelName(p.measurement(p.interval(p.interval(iv).parent).measurement).label),
                 std::string_view("main.busyLoop"));
        QCOMPARE(p.interval(iv).end - p.interval(iv).start, Time(110000000));
        // Labels are (function, file, first line): Go did not write first
        // lines then, so the line is unknown.
        const Label l = p.label(p.measurement(abs).label);
        QCOMPARE(p.string(l.file), std::string_view("/usr/lib/google-golang/src/math/abs.go"));
        QCOMPARE(l.line, 0);
    }

    // Repeated fields may be packed or not; the profile is the same.
    void packedAndUnpackedLocationIds()
    {
        const QStringList expected{"work 30/30", "main 20/60", "idle 10/10"};
        for (const bool packed : {true, false}) {
            const LoadResult r = load(cpuProfile(packed).bytes());
            QVERIFY2(r.ok(), r.error.toString().c_str());
            QCOMPARE(rank(*r.profile), expected);
            QCOMPARE(r.profile->unit(), ValueUnit::Nanoseconds);
            QCOMPARE(int(r.profile->intervalCount()), 3);
        }
    }

    // Location lines: the first is the innermost inlined function, the
    // last the caller it was inlined into.
    void inlinedLines()
    {
        ProfileEncoder p;
        p.sampleType("cpu", "nanoseconds");
        p.function(1, "main", "main.go", 1).function(2, "outer", "lib.go", 5).function(3, "inner", "lib.go", 9);
        p.location(1, {{1, 3}}).location(2, {{3, 10}, {2, 6}});
        p.sample({2, 1}, {7});
        const LoadResult r = load(p.bytes());
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& prof = *r.profile;
        QCOMPARE(rank(prof), (QStringList{"inner 7/7", "main 0/7", "outer 0/7"}));
        QCOMPARE(prof.track(0).depthCount(), 3);
        QCOMPARE(prof.labelText(prof.measurement(runlane::test::byName(prof, "outer")).label), std::string("outer (lib.go:5)"));
        QCOMPARE(prof.depthOf(prof.intervalsOf(runlane::test::byName(prof, "inner")).front()), 2);
    }

    // Without line information, the address and the mapping's file.
    void addressFrames()
    {
        ProfileEncoder p;
        p.sampleType("cpu", "nanoseconds");
        p.mapping(1, "/usr/lib/libfoo.so").function(1, "main");
        p.location(1, {}, 1, 0x4011a6).location(2, {{1, 0}}).location(3, {}, 0, 0x10);
        p.sample({1, 2}, {5}).sample({3, 2}, {1});
        const LoadResult r = load(p.bytes());
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(rank(*r.profile), (QStringList{"0x4011a6 (libfoo.so) 5/5", "0x10 1/1", "main 0/6"}));
    }

    // pprof-rs labels samples with their thread: one track per thread,
    // named after it; unlabelled samples on a track named after the file.
    void threadLabels()
    {
        ProfileEncoder p = cpuProfile();
        p.sample({2, 1}, {1, 4}, {{"thread", "tokio-worker"}, {"thread_id", "7"}});
        p.sample({3, 1}, {1, 6}, {{"thread", "main"}});
        p.sample({2, 1}, {1, 5}, {{"thread", "tokio-worker"}});
        p.sample({2, 1}, {1, 0}, {{"thread", "idle-thread"}}); // nothing of cpu: no track
        const LoadResult r = load(p.bytes());
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& prof = *r.profile;
        QCOMPARE(trackNames(prof), (QStringList{"cpu.pb", "tokio-worker", "main"}));
        QCOMPARE(prof.track(1).kind, TrackKind::Thread);
        QCOMPARE(qstr(prof.string(prof.track(1).threadName)), QStringLiteral("tokio-worker"));
        QCOMPARE(rank(prof), (QStringList{"work 39/39", "main 20/75", "idle 16/16"}));
        // Each thread alone: its samples end to end.
        QCOMPARE(prof.interval(prof.track(1).begin).end, Time(9));
        QCOMPARE(prof.interval(prof.track(2).begin).end, Time(6));
        QCOMPARE(prof.duration(), Time(60));
    }

    void oneTrackWithoutThreadLabels()
    {
        const LoadResult r = load(cpuProfile().bytes());
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(trackNames(*r.profile), QStringList{"cpu.pb"});
    }

    void variantSelection_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("variant");
        QTest::addColumn<int>("chosen");
        QTest::addColumn<QStringList>("rank");
        QTest::addColumn<int>("unit");
        const QByteArray cpu = cpuProfile().bytes();
        QTest::newRow("default: the time type") << cpu << "" << 1 << QStringList{"work 30/30", "main 20/60", "idle 10/10"}
                                                << int(ValueUnit::Nanoseconds);
        QTest::newRow("by name") << cpu << "samples (count)" << 0 << QStringList{"work 3/3", "main 2/6", "idle 1/1"}
                                 << int(ValueUnit::Samples);
        QTest::newRow("by type alone") << cpu << "samples" << 0 << QStringList{"work 3/3", "main 2/6", "idle 1/1"}
                                       << int(ValueUnit::Samples);
        ProfileEncoder heap;
        heap.sampleType("alloc_objects", "count").sampleType("alloc_space", "bytes").defaultSampleType("alloc_space");
        heap.function(1, "alloc").location(1, {{1, 0}}).sample({1}, {2, 4096});
        QTest::newRow("default_sample_type") << heap.bytes() << "" << 1 << QStringList{"alloc 4096/4096"} << int(ValueUnit::Bytes);
        ProfileEncoder counts;
        counts.sampleType("contentions", "count").sampleType("delay", "microseconds");
        counts.function(1, "lock").location(1, {{1, 0}}).sample({1}, {3, 250});
        QTest::newRow("microseconds are time") << counts.bytes() << "" << 1 << QStringList{"lock 250000/250000"}
                                               << int(ValueUnit::Nanoseconds);
        ProfileEncoder plain;
        plain.sampleType("objects", "count").sampleType("goroutines", "count");
        plain.function(1, "f").location(1, {{1, 0}}).sample({1}, {2, 5});
        QTest::newRow("else the first") << plain.bytes() << "" << 0 << QStringList{"f 2/2"} << int(ValueUnit::Samples);
        ProfileEncoder wall;
        wall.sampleType("wall", "seconds").function(1, "sleep").location(1, {{1, 0}}).sample({1}, {2});
        QTest::newRow("seconds") << wall.bytes() << "" << 0 << QStringList{"sleep 2000000000/2000000000"}
                                 << int(ValueUnit::Nanoseconds);
    }

    void variantSelection()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, variant);
        QFETCH(int, chosen);
        QFETCH(QStringList, rank);
        QFETCH(int, unit);
        const LoadResult r = load(bytes, variant);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(int(r.profile->variant()), chosen);
        QCOMPARE(::rank(*r.profile), rank);
        QCOMPARE(int(r.profile->unit()), unit);
    }

    void unknownVariant()
    {
        const LoadResult r = load(cpuProfile().bytes(), QStringLiteral("alloc_space"));
        QVERIFY(!r.ok());
        QCOMPARE(errorOf(r), QStringLiteral("no sample type 'alloc_space' in this profile; it has samples (count), cpu (nanoseconds)"));
        QCOMPARE(r.error.byteOffset, std::int64_t(0));
        // The caller's mistake, with what the file has (runlane-cli's usage error).
        QVERIFY(r.error.unknownVariant);
        QCOMPARE(r.error.variants, (std::vector<std::string>{"samples (count)", "cpu (nanoseconds)"}));
    }

    // A sample of 0 in the loaded type is for another type: no frames.
    void zeroValuesSkipped()
    {
        ProfileEncoder p = cpuProfile();
        p.function(4, "gc").location(4, {{4, 0}}).sample({4, 1}, {1, 0});
        LoadResult r = load(p.bytes());
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(rank(*r.profile), (QStringList{"work 30/30", "main 20/60", "idle 10/10"}));
        QCOMPARE(runlane::test::byName(*r.profile, "gc"), kNone);
        r = load(p.bytes(), QStringLiteral("samples"));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(rank(*r.profile), (QStringList{"work 3/3", "main 2/7", "gc 1/1", "idle 1/1"}));
    }

    void negativeValuesWarned()
    {
        ProfileEncoder p = cpuProfile();
        p.sample({1}, {1, -5});
        const LoadResult r = load(p.bytes());
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(rank(*r.profile), (QStringList{"work 30/30", "main 20/60", "idle 10/10"}));
        QCOMPARE(r.profile->diagnostics().warningKinds().at("negative value"), std::uint64_t(1));
        QCOMPARE(QString::fromStdString(r.profile->diagnostics().examples().at(0)),
                 QStringLiteral("sample #3 has the negative value -5; skipped"));
    }

    // Broken files fail with what and where; none crashes.
    void corrupted_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("error");
        QTest::addColumn<qint64>("offset");
        const QByteArray good = cpuProfile().bytes();
        QTest::newRow("length past the end") << good + QByteArray("\x12\x40\x0a", 3)
                                             << "field 2: length 64 runs past the end (1 byte left)" << qint64(good.size());
        QTest::newRow("truncated varint") << good + QByteArray("\x48\xff\xff", 3) << "field 9: truncated varint (2 bytes left)"
                                          << qint64(good.size());
        QTest::newRow("wrong wire type for a sample") << good + ProtoEncoder().varint(2, 1).data()
                                                      << "Profile.sample (field 2): wire type varint, expected length-delimited"
                                                      << qint64(good.size());
        QTest::newRow("wrong wire type inside a location")
            << good + ProtoEncoder().message(4, ProtoEncoder().varint(1, 9).bytes(2, "x")).data()
            << "Location.mapping_id (field 2): wire type length-delimited, expected varint" << qint64(good.size() + 4);
        ProfileEncoder missing = cpuProfile();
        missing.sample({9, 1}, {1, 1});
        const QByteArray missingBytes = missing.bytes();
        QTest::newRow("a location id that does not exist")
            << missingBytes << "a sample names location id 9, which does not exist"
            << qint64(missingBytes.indexOf("\x12\x08\x0a\x02\x09\x01"));
        ProfileEncoder badString;
        badString.sampleType("cpu", "nanoseconds");
        badString.body().message(5, ProtoEncoder().varint(1, 1).int64(2, 99));
        badString.location(1, {{1, 0}}).sample({1}, {1});
        QTest::newRow("a string index out of range")
            << badString.bytes() << "function id 1 name: string index 99 is out of range (the string table has 3 strings)"
            << qint64(6);
        ProfileEncoder noFunction;
        noFunction.sampleType("cpu", "nanoseconds").location(1, {{5, 0}}).sample({1}, {1});
        QTest::newRow("a function id that does not exist")
            << noFunction.bytes() << "location id 1 names function id 5, which does not exist" << qint64(6);
        ProfileEncoder values;
        values.sampleType("samples", "count").sampleType("cpu", "nanoseconds").function(1, "f").location(1, {{1, 0}});
        values.sample({1}, {1});
        QTest::newRow("fewer values than sample types")
            << values.bytes() << "sample #0 has 1 values for 2 sample types" << qint64(values.bytes().indexOf("\x12\x06"));
        ProfileEncoder twice;
        twice.sampleType("cpu", "nanoseconds").function(1, "f").function(1, "g");
        QTest::newRow("an id defined twice") << twice.bytes() << "a function id 1 is defined twice" << qint64(16);
        const QByteArray sample = readAll(dataPath("samples/pprof/speedscope-simple.prof.pb"));
        QTest::newRow("a file cut in half") << sample.left(sample.size() / 2)
                                            << "field 6: length 59 runs past the end (14 bytes left)" << qint64(943);
    }

    void corrupted()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, error);
        QFETCH(qint64, offset);
        // Forced: some of these are no longer a profile's prefix to the probe.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken.pb"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        file.close();
        const LoadResult r = ProfileLoader::load(path, {}, FormatRegistry::find("pprof"));
        QVERIFY(!r.ok());
        QCOMPARE(errorOf(r), error);
        QCOMPARE(r.error.byteOffset, std::int64_t(offset));
    }

    // Detected by content, whatever the name; text and JSON are not pprof.
    void probe_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("complete");
        QTest::addColumn<bool>("mine");
        const QByteArray cpu = cpuProfile().bytes();
        QTest::newRow("whole") << cpu << true << true;
        QTest::newRow("cut, as a prefix") << cpu.left(20) << false << true;
        QTest::newRow("cut, as a whole file") << cpu.left(20) << true << false;
        QTest::newRow("string table not starting with \"\"")
            << ProtoEncoder().raw(cpu.left(cpu.indexOf("\x32\x00", 0))).bytes(6, "x").data() << true << false;
        QTest::newRow("a sample type and the string table") << ProtoEncoder().message(1, ProtoEncoder().varint(1, 1)).bytes(6, "").data() << true << true;
        QTest::newRow("a string table alone") << ProtoEncoder().bytes(6, "").bytes(6, "a").data() << true << false;
        QTest::newRow("unknown field") << cpu + ProtoEncoder().varint(40, 1).data() << true << false;
        QTest::newRow("json") << QByteArray("{\"traceEvents\": []}") << true << false;
        QTest::newRow("folded") << QByteArray("main;work 30\nmain;idle 10\n") << true << false;
        QTest::newRow("gzip") << QByteArray("\x1f\x8b\x08\x00\x00\x00\x00\x00", 8) << true << false;
    }

    void probe()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(bool, complete);
        QFETCH(bool, mine);
        const FormatPrefix prefix(std::string_view(bytes.constData(), std::size_t(bytes.size())), complete);
        const auto probe = FormatRegistry::find("pprof")->probe(prefix);
        QCOMPARE(probe.verdict == InputFormat::Probe::Verdict::Mine, mine);
    }
};

QTEST_GUILESS_MAIN(TestPprofLoader)
#include "tst_pprofloader.moc"
