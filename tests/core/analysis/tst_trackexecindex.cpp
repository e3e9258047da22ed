#include "execsegments.h"
#include "testsupport.h"
#include "trackexecindex.h"
#include "tracegenerator.h"
#include "usageseries.h"

#include <QtTest>

#include <algorithm>
#include <tuple>

using namespace runlane;
using runlane::test::dataPath;

namespace {

constexpr Time us = 1000;

using Seg = std::tuple<Time, Time, LabelId>;

std::vector<Seg> fromIndex(const TrackExecIndex& index, Time from, Time to)
{
    std::vector<Seg> out;
    index.forEach(from, to, [&](LabelId l, Time s, Time e) { out.emplace_back(s, e, l); });
    return out;
}

// The reference: ExecSegments walked for this range, depth by depth, less
// a sampled thread's "(idle)" (the index serves the usage, where idle is
// not busy).
std::vector<Seg> fromWalk(const Profile& p, TrackId track, Time from, Time to)
{
    std::vector<Seg> out;
    ExecSegments::forEach(p, track, from, to, [&](MeasurementId m, IntervalId, Time s, Time e) {
        if (!p.isIdle(p.measurement(m).label))
            out.emplace_back(s, e, p.measurement(m).label);
    });
    std::sort(out.begin(), out.end());
    return out;
}

std::shared_ptr<const Profile> load(const QString& name)
{
    static QTemporaryDir dir;
    QString path = dataPath(name);
    if (name == QLatin1String("generated")) {
        path = dir.filePath(QStringLiteral("generated.json"));
        if (!QFile::exists(path) && !bench::TraceGenerator::writeFile(path.toLocal8Bit().constData(), 40000))
            return nullptr;
    }
    LoadResult r = ProfileLoader::load(path);
    return r.ok() ? std::move(r.profile) : nullptr;
}

} // namespace

class TestTrackExecIndex : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // f 0-160 calls g 10-100 calls h 30-60: five segments, in time order
    // although they come from three depths.
    void nestedCallsInTimeOrder()
    {
        const auto p = load(QStringLiteral("profiles/fgh-chrome.json"));
        QVERIFY(p);
        const TrackExecIndex index(*p, 0);
        const LabelId f = test::labelNamed(*p, "f");
        const LabelId g = test::labelNamed(*p, "g");
        const LabelId h = test::labelNamed(*p, "h");
        const Time t0 = p->startTime();
        QCOMPARE(index.size(), std::size_t(5));
        const std::vector<Seg> expected{{t0, t0 + 10 * us, f},           {t0 + 10 * us, t0 + 30 * us, g},
                                        {t0 + 30 * us, t0 + 60 * us, h}, {t0 + 60 * us, t0 + 100 * us, g},
                                        {t0 + 100 * us, t0 + 160 * us, f}};
        QVERIFY(fromIndex(index, kTimeMin, kTimeMax) == expected);
        // A range clips: [40, 70) µs is the end of h and the start of g's second segment.
        const std::vector<Seg> clipped{{t0 + 40 * us, t0 + 60 * us, h}, {t0 + 60 * us, t0 + 70 * us, g}};
        QVERIFY(fromIndex(index, t0 + 40 * us, t0 + 70 * us) == clipped);
        QVERIFY(fromIndex(index, t0 + 160 * us, t0 + 200 * us).empty());
    }

    // On every track of real and generated profiles, for ranges across the
    // profile, the index gives exactly the segments the walk gives, and the
    // usage series computed from either agree.
    void agreesWithTheWalk_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("start"); // fraction of the profile's span
        QTest::addColumn<double>("length");
        const QStringList files{QStringLiteral("profiles/chronos-overlap.json"), QStringLiteral("profiles/chronos-foster-child.json"),
                                QStringLiteral("profiles/enso-async.json"), QStringLiteral("samples/chrome-trace/devtools/chrome116-Trace-20230603T221323.json"),
                                QStringLiteral("generated")};
        for (const QString& file : files) {
            for (const auto& [start, length] : {std::pair{0.0, 1.0}, {0.0, 0.3}, {0.37, 0.21}, {0.9, 0.5}, {0.5, 0.0}}) {
                QTest::addRow("%s %.2f+%.2f", qPrintable(file), start, length) << file << start << length;
            }
        }
    }

    void agreesWithTheWalk()
    {
        QFETCH(QString, file);
        QFETCH(double, start);
        QFETCH(double, length);
        const auto p = load(file);
        QVERIFY(p);
        const Time span = p->endTime() - p->startTime();
        const Time from = p->startTime() + Time(double(span) * start);
        const Time to = from + Time(double(span) * length);
        std::size_t segments = 0;
        for (TrackId track = 0; track < p->trackCount(); ++track) {
            const TrackExecIndex index(*p, track);
            const std::vector<Seg> walked = fromWalk(*p, track, from, to);
            std::vector<Seg> indexed = fromIndex(index, from, to);
            QVERIFY(std::is_sorted(indexed.begin(), indexed.end(),
                                   [](const Seg& a, const Seg& b) { return std::get<0>(a) < std::get<0>(b); }));
            std::sort(indexed.begin(), indexed.end());
            QCOMPARE(indexed.size(), walked.size());
            QVERIFY(indexed == walked);
            segments += walked.size();
            if (to <= from)
                continue;
            const Time width = std::max<Time>(1, (to - from) / 97);
            const UsageSeries a = UsageSeries::compute(*p, track, width, 5, TimeRange{from, to});
            const UsageSeries b = UsageSeries::compute(*p, index, width, 5, TimeRange{from, to});
            QCOMPARE(b.binCount(), a.binCount());
            QCOMPARE(b.labels(), a.labels());
            for (std::size_t bin = 0; bin < a.binCount(); ++bin) {
                for (std::size_t k = 0; k < a.seriesCount(); ++k)
                    QCOMPARE(b.share(bin, k), a.share(bin, k));
            }
        }
        if (length > 0 && start < 1)
            QVERIFY(segments > 0); // the rows test something
    }
};

QTEST_MAIN(TestTrackExecIndex)
#include "tst_trackexecindex.moc"
