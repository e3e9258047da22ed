#include "execsegments.h"
#include "testsupport.h"
#include "trackexecindex.h"
#include "tracegenerator.h"
#include "usageseries.h"

#include <QtTest>

#include <algorithm>
#include <map>
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
        std::size_t summed = 0;
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
            // Every reader's track nests, so the usage below comes from the
            // sums, but for async ones: their tasks may overlap, and then
            // the usage walks the segments.
            if (p->track(track).kind != TrackKind::Async)
                QVERIFY2(index.summed(), qPrintable(QString::number(track)));
            if (index.summed()) {
                ++summed;
                // The sums: the track's and each label's exec in the range.
                Time busy = 0;
                std::map<LabelId, Time> perLabel;
                for (const auto& [s, e, l] : walked) {
                    busy += e - s;
                    perLabel[l] += e - s;
                }
                QCOMPARE(index.busy(from, to), busy);
                for (const LabelId l : index.labels())
                    QCOMPARE(index.exec(l, from, to), perLabel.count(l) ? perLabel[l] : Time(0));
                // A sweep over rising times with a cursor answers as searches do.
                std::size_t busyCursor = 0;
                std::vector<std::size_t> cursors(index.labels().size(), 0);
                for (int step = -1; step <= 41; ++step) {
                    const Time t = from + (to - from) * step / 40;
                    QCOMPARE(index.busyBefore(t, &busyCursor), index.busyBefore(t));
                    for (std::size_t k = 0; k < index.labels().size(); ++k)
                        QCOMPARE(index.execBefore(index.labels()[k], t, &cursors[k]), index.execBefore(index.labels()[k], t));
                }
            }
            if (to <= from)
                continue;
            // Bins from the range and on a grid from the profile's start
            // (as the chart has them), narrow and wide: the same shares,
            // exactly (whole nanoseconds either way).
            for (const auto& [bins, grid] : {std::pair{97, false}, {200, true}, {3, true}}) {
                const Time width = std::max<Time>(1, (to - from) / bins);
                const std::optional<Time> origin = grid ? std::optional<Time>(p->startTime()) : std::nullopt;
                const UsageSeries a = UsageSeries::compute(*p, track, width, 5, TimeRange{from, to}, {}, origin);
                const UsageSeries b = UsageSeries::compute(*p, index, width, 5, TimeRange{from, to}, {}, origin);
                QCOMPARE(b.start(), a.start());
                QCOMPARE(b.binCount(), a.binCount());
                QCOMPARE(b.labels(), a.labels());
                for (std::size_t bin = 0; bin < a.binCount(); ++bin) {
                    QVERIFY(b.busy(bin) == a.busy(bin));
                    for (std::size_t k = 0; k < a.seriesCount(); ++k)
                        QVERIFY2(b.share(bin, k) == a.share(bin, k),
                                 qPrintable(QStringLiteral("track %1 bin %2 series %3: %4, not %5")
                                                .arg(track).arg(bin).arg(k).arg(b.share(bin, k), 0, 'g', 17)
                                                .arg(a.share(bin, k), 0, 'g', 17)));
                }
                for (std::size_t k = 0; k < a.seriesCount(); ++k)
                    QVERIFY(b.meanShare(k) == a.meanShare(k));
            }
        }
        if (length > 0 && start < 1)
            QVERIFY(segments > 0); // the rows test something
        QVERIFY(summed > 0);
    }
};

QTEST_MAIN(TestTrackExecIndex)
#include "tst_trackexecindex.moc"
