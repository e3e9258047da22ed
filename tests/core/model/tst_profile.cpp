#include "profilebuilder.h"
#include "profileloader.h"

#include "testsupport.h"

#include <QtTest>

#include <map>
#include <string>

// Profile's storage: how it keeps its measurements (a plain call as its
// label and interval, anything else whole) and finds an interval's track.

using namespace runlane;
using runlane::test::addThread;
using runlane::test::qstr;

class TestProfile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Issue 45: a plain call is kept as its label and interval (6 bytes)
    // and rebuilt from the interval; anything its interval cannot say is
    // kept whole. Each row: the measurements by name as measurement()
    // gives them (creator by name, "" for none), and how many are whole.
    void measurementsAreRebuiltExactly_data()
    {
        QTest::addColumn<int>("scenario");
        QTest::addColumn<QStringList>("expected"); // "name created finished creator state flags"
        QTest::addColumn<int>("keptWhole");
        const QString call = QString::number(SingleInterval | Call);
        QTest::newRow("plain calls") << 0
                                     << QStringList{"f 0 100 - completed " + call, "g 10 50 f completed " + call,
                                                    "h 60 70 f completed " + call}
                                     << 0;
        QTest::newRow("open call") << 1
                                   << QStringList{"open 10 90 - unfinished " + call, "late 20 90 open completed " + call}
                                   << 1;
        QTest::newRow("named creator") << 2
                                       << QStringList{"f 0 100 - completed " + call, "g 10 50 - completed " + call,
                                                      "other 200 300 - completed " + call}
                                       << 1;
        QTest::newRow("task of one interval")
            << 3
            << QStringList{"f 0 100 - completed " + call,
                           "task 5 40 f completed " + QString::number(SingleInterval | AsyncMeasurement)}
            << 1;
        QTest::newRow("open call cut at its caller's end")
            << 4
            << QStringList{"f 0 100 - completed " + call, "g 50 100 f ended " + call, "later 200 300 - completed " + call}
            << 1;
        QTest::newRow("failed call") << 5 << QStringList{"f 0 100 - failed " + call} << 1;
    }

    void measurementsAreRebuiltExactly()
    {
        QFETCH(int, scenario);
        QFETCH(QStringList, expected);
        QFETCH(int, keptWhole);
        ProfileBuilder b("test");
        const TrackId t = addThread(b);
        switch (scenario) {
        case 0:
            b.addCall(t, b.label("f"), 0, 100, 0);
            b.addCall(t, b.label("g"), 10, 50, 1);
            b.addCall(t, b.label("h"), 60, 70, 2);
            break;
        case 1:
            b.addCall(t, b.label("open"), 10, ProfileBuilder::kOpen, 0);
            b.addCall(t, b.label("late"), 20, 90, 1);
            break;
        case 2: {
            b.addCall(t, b.label("f"), 0, 100, 0);
            const MeasurementId g = b.addCall(t, b.label("g"), 10, 50, 1);
            b.addCall(t, b.label("other"), 200, 300, 2);
            b.setCreator(g, kNone); // not its caller, f
            break;
        }
        case 3: {
            b.addCall(t, b.label("f"), 0, 100, 0);
            const MeasurementId task = b.addMeasurement(t, b.label("task"), 5, ProfileBuilder::kAutoCreator, AsyncMeasurement);
            b.addInterval(task, 5, 40, 1);
            b.finish(task, 40, FinalState::Completed);
            break;
        }
        case 4:
            b.addCall(t, b.label("f"), 0, 100, 0);
            b.addCall(t, b.label("g"), 50, ProfileBuilder::kOpen, 1);
            b.addCall(t, b.label("later"), 200, 300, 2);
            break;
        case 5: {
            const MeasurementId f = b.addCall(t, b.label("f"), 0, 100, 0);
            b.finish(f, 100, FinalState::Failed);
            break;
        }
        }
        const auto p = b.build();
        QStringList actual;
        for (MeasurementId id = 0; id < p->measurementCount(); ++id) {
            const Measurement m = p->measurement(id);
            QCOMPARE(m, p->measurements()[id]);
            QCOMPARE(m.label, p->labelOf(id));
            QCOMPARE(m.track, t);
            const QString creator = m.creator == kNone ? QStringLiteral("-") : qstr(p->labelName(p->measurement(m.creator).label));
            actual << QStringLiteral("%1 %2 %3 %4 %5 %6")
                          .arg(qstr(p->labelName(m.label)))
                          .arg(m.created)
                          .arg(m.finished)
                          .arg(creator, qstr(finalStateName(m.finalState())))
                          .arg(m.flags);
        }
        QCOMPARE(actual, expected);
        std::size_t whole = 0;
        for (const Profile::MemoryPart& part : p->memoryBreakdown())
            if (std::string_view(part.name) == "measurements kept whole")
                whole = part.bytes;
        // Each with its id beside it (createdBy).
        QCOMPARE(whole, std::size_t(keptWhole) * (sizeof(Measurement) + sizeof(MeasurementId)));
    }

    // trackOf, and the track a plain call is rebuilt with, against a search
    // over the tracks: tracks of every size around trackOf's 4,096-interval
    // blocks, empty ones among them.
    void trackOfAcrossBlocks()
    {
        const std::vector<int> sizes{1, 5000, 3, 0, 9000, 1, 1, 4095, 4097, 0, 2};
        ProfileBuilder b("test");
        std::vector<TrackId> tracks;
        for (std::size_t t = 0; t < sizes.size(); ++t)
            tracks.push_back(addThread(b, 1, std::int64_t(t + 1)));
        std::uint32_t order = 0;
        for (std::size_t t = 0; t < sizes.size(); ++t) {
            const LabelId label = b.label("on " + std::to_string(t));
            for (int i = 0; i < sizes[t]; ++i)
                b.addCall(tracks[t], label, Time(i) * 10, Time(i) * 10 + 5, order++);
        }
        const auto p = b.build();
        QCOMPARE(p->intervalCount(), std::size_t(order));
        QCOMPARE(p->trackCount(), sizes.size());
        std::size_t mismatches = 0;
        for (IntervalId id = 0; id < p->intervalCount(); ++id) {
            TrackId searched = 0;
            while (p->track(searched).end <= id)
                ++searched;
            mismatches += p->trackOf(id) != searched;
        }
        QCOMPARE(mismatches, std::size_t(0));
        for (MeasurementId id = 0; id < p->measurementCount(); ++id) {
            const Measurement m = p->measurement(id);
            const std::string name = "on " + std::to_string(m.track);
            mismatches += p->labelName(m.label) != name || m.track != p->trackOf(p->intervalsOf(id)[0]);
        }
        QCOMPARE(mismatches, std::size_t(0));
    }

    // Issue 45's 32 bytes per interval, for calls: 24 for the interval,
    // 6 for its measurement, the rest a few hundred bytes in all.
    void memoryPerInterval()
    {
        ProfileBuilder b("test");
        const TrackId t = addThread(b);
        const LabelId labels[] = {b.label("a"), b.label("b"), b.label("c")};
        // 100,000 calls: groups of a root with two nested children.
        for (std::uint32_t i = 0; i < 100000; ++i) {
            const Time base = Time(i / 3) * 100;
            const Time s = base + (i % 3 == 0 ? 0 : i % 3 == 1 ? 10 : 50);
            const Time e = i % 3 == 0 ? base + 90 : s + 30;
            b.addCall(t, labels[i % 3], s, e, i);
        }
        const auto p = b.build();
        QCOMPARE(p->intervalCount(), std::size_t(100000));
        std::map<std::string, std::size_t> parts;
        for (const Profile::MemoryPart& part : p->memoryBreakdown())
            parts[part.name] = part.bytes;
        QCOMPARE(parts["intervals"], std::size_t(2400000));
        QCOMPARE(parts["measurements: label"], std::size_t(200000));
        QCOMPARE(parts["measurements: interval"], std::size_t(400000));
        QCOMPARE(parts["measurements kept whole"], std::size_t(0));
        QCOMPARE(parts["track of each 4,096th interval"], std::size_t(25 * 4));
        const double perInterval = double(p->modelMemoryUsage()) / double(p->intervalCount());
        QVERIFY2(perInterval < 30.02, qPrintable(QString::number(perInterval)));
    }

    // Over 65,536 labels a measurement's label takes 4 bytes, and every one
    // still reads back as given.
    void labelsBeyondSixteenBits_data()
    {
        QTest::addColumn<int>("labels");
        QTest::addColumn<int>("bytesPerLabel");
        QTest::newRow("65,536") << 65536 << 2;
        QTest::newRow("65,537") << 65537 << 4;
        QTest::newRow("70,000") << 70000 << 4;
    }

    void labelsBeyondSixteenBits()
    {
        QFETCH(int, labels);
        QFETCH(int, bytesPerLabel);
        ProfileBuilder b("test");
        const TrackId t = addThread(b);
        for (int i = 0; i < labels; ++i)
            b.addCall(t, b.label("f" + std::to_string(i)), Time(i) * 10, Time(i) * 10 + 5, std::uint32_t(i));
        const auto p = b.build();
        QCOMPARE(p->measurementCount(), std::size_t(labels));
        std::size_t wrong = 0;
        for (MeasurementId id = 0; id < p->measurementCount(); ++id) {
            const Measurement m = p->measurement(id);
            wrong += p->labelName(m.label) != "f" + std::to_string(m.created / 10) || p->labelOf(id) != m.label;
        }
        QCOMPARE(wrong, std::size_t(0));
        std::map<std::string, std::size_t> parts;
        for (const Profile::MemoryPart& part : p->memoryBreakdown())
            parts[part.name] = part.bytes;
        QCOMPARE(parts["measurements: label"], std::size_t(labels * bytesPerLabel));
    }

    // createdBy finds what a measurement created without walking every
    // measurement: for every sample profile of every format, it must give
    // what that walk gives, for each measurement that created anything
    // and for others spread over the ids (at most 2,000 of each).
    void createdByMatchesAWalk_data()
    {
        QTest::addColumn<QString>("path");
        QDirIterator it(test::dataPath(QStringLiteral("samples")), QDir::Files, QDirIterator::Subdirectories);
        int rows = 0;
        while (it.hasNext()) {
            const QString path = it.next();
            if (path.endsWith(QStringLiteral(".md")) || !ProfileLoader::detect(path).ok())
                continue;
            QTest::newRow(qPrintable(QDir(test::dataPath(QStringLiteral("samples"))).relativeFilePath(path))) << path;
            ++rows;
        }
        QVERIFY(rows >= 60);
    }
    void createdByMatchesAWalk()
    {
        QFETCH(QString, path);
        const LoadResult loaded = ProfileLoader::load(path);
        if (!loaded.ok())
            QSKIP("not a profile that loads");
        const Profile& p = *loaded.profile;
        std::map<MeasurementId, std::vector<MeasurementId>> walk;
        for (MeasurementId id = 0; id < p.measurementCount(); ++id) {
            const MeasurementId creator = p.measurement(id).creator;
            if (creator != kNone && creator < p.measurementCount())
                walk[creator].push_back(id);
        }
        std::size_t checked = 0;
        for (const auto& [creator, created] : walk) {
            if (checked++ == 2000)
                break;
            QCOMPARE(p.createdBy(creator), created);
        }
        const std::size_t stride = std::max<std::size_t>(1, p.measurementCount() / 2000);
        for (MeasurementId id = 0; id < p.measurementCount(); id += MeasurementId(stride)) {
            const auto found = walk.find(id);
            QCOMPARE(p.createdBy(id), found == walk.end() ? std::vector<MeasurementId>{} : found->second);
        }
        QCOMPARE(p.createdBy(MeasurementId(p.measurementCount())), std::vector<MeasurementId>{});
    }
};

QTEST_GUILESS_MAIN(TestProfile)
#include "tst_profile.moc"
