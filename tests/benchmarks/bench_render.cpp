// bench_render: how long one frame of the icicle plot and of the task lanes
// takes, on a profile of millions of intervals, at every zoom level from
// the whole profile down to a few microseconds. Frames are painted into a
// QImage of the window's size (no display needed), which is what a repaint
// costs the GUI thread. Prints one line per zoom level; see
// docs/performance.md.
//
//   bench_render [--intervals 5000000] [--tasks 200000] [--frames 5] [--size 1920x1080]
//   bench_render --file trace.json [--frames 5] [--size 1920x1080]   (a profile loaded from a file instead)

#include "icicleview.h"
#include "loadedprofile.h"
#include "profilebuilder.h"
#include "profileloader.h"
#include "profiledocument.h"
#include "ranktable.h"
#include "tasklaneview.h"
#include "timeaxis.h"
#include "trackexecindex.h"
#include "usageseries.h"

#include <QApplication>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace runlane;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// xorshift: the same profile every run.
struct Rng {
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    std::uint64_t next()
    {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    }
    std::int64_t range(std::int64_t lo, std::int64_t hi) { return lo + std::int64_t(next() % std::uint64_t(hi - lo + 1)); }
};

// Call trees on 8 threads, up to 24 deep, 2,000 names, durations spanning
// nanoseconds to seconds; plus async tasks that pause and resume on a loop
// track. Built directly (no JSON) so that the benchmark measures painting.
class Generator
{
public:
    Generator(std::size_t intervals, std::size_t tasks) : m_target(intervals), m_tasks(tasks) { }

    std::shared_ptr<const Profile> build()
    {
        ProfileBuilder builder("generated");
        for (int n = 0; n < 2000; ++n)
            m_labels.push_back(builder.label("fn_" + std::to_string(n), "gen.cpp", n));
        const std::size_t perThread = m_target / kThreads;
        for (int t = 0; t < kThreads; ++t) {
            TrackInfo info;
            info.pid = 1;
            info.tid = t + 1;
            const TrackId track = builder.addTrack(info);
            std::size_t made = 0;
            Time at = 0;
            while (made < perThread) {
                // A top-level call of 1 µs to 50 ms with a tree of up to
                // 5,000 calls under it.
                const Time length = m_rng.range(1'000, 50'000'000);
                const std::size_t budget = std::min<std::size_t>(perThread - made, std::size_t(m_rng.range(1, 5'000)));
                made += call(builder, track, 0, at, at + length, budget);
                at += length + m_rng.range(0, 200'000);
            }
            m_end = std::max(m_end, at);
        }
        TrackInfo loop;
        loop.kind = TrackKind::Async;
        loop.pid = 2;
        loop.tid = 1;
        const TrackId asyncTrack = builder.addTrack(loop);
        for (std::size_t i = 0; i < m_tasks; ++i) {
            const Time created = m_rng.range(0, std::max<Time>(1, m_end - 10'000'000));
            const MeasurementId task = builder.addMeasurement(asyncTrack, label(), created, kNone,
                                                              AsyncMeasurement);
            Time at = created + m_rng.range(0, 1'000'000);
            const int slices = int(m_rng.range(1, 6));
            for (int s = 0; s < slices; ++s) {
                const Time run = m_rng.range(1'000, 500'000);
                builder.addInterval(task, at, at + run, std::uint32_t(m_order++));
                at += run + m_rng.range(1'000, 2'000'000);
            }
            builder.finish(task, at, i % 50 == 0 ? FinalState::Failed : FinalState::Completed);
        }
        return builder.build();
    }

private:
    static constexpr int kThreads = 8;

    LabelId label()
    {
        // Skewed: a few names are very common.
        const std::uint64_t r = m_rng.next() % 1000;
        return m_labels[r < 500 ? r % 20 : r < 900 ? r % 300 : m_rng.next() % m_labels.size()];
    }

    // Adds a call on [start, end) and children under it; returns how many
    // intervals it added, at most `budget`.
    std::size_t call(ProfileBuilder& builder, TrackId track, int depth, Time start, Time end, std::size_t budget)
    {
        builder.addCall(track, label(), start, end, std::uint32_t(m_order++));
        std::size_t made = 1;
        if (depth >= 23 || end - start < 20)
            return made;
        Time at = start + m_rng.range(0, (end - start) / 8);
        const int children = int(m_rng.range(0, depth < 3 ? 12 : 4));
        for (int c = 0; c < children && made < budget && at < end - 2; ++c) {
            const Time left = end - at;
            const Time length = std::max<Time>(1, m_rng.range(1, std::max<Time>(1, left / std::max(1, children - c))));
            made += call(builder, track, depth + 1, at, at + length, budget - made);
            at += length + m_rng.range(0, std::max<Time>(1, left / 50));
        }
        return made;
    }

    std::size_t m_target;
    std::size_t m_tasks;
    Rng m_rng;
    std::vector<LabelId> m_labels;
    std::uint64_t m_order = 0;
    Time m_end = 0;
};

struct Figures {
    double min = 0;
    double median = 0;
    double max = 0;
};

template<typename Paint>
Figures time(int frames, Paint paint)
{
    std::vector<double> ms;
    for (int f = 0; f < frames; ++f) {
        const auto start = Clock::now();
        paint();
        ms.push_back(msSince(start));
    }
    std::sort(ms.begin(), ms.end());
    return Figures{ms.front(), ms[ms.size() / 2], ms.back()};
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::size_t intervals = 5'000'000;
    std::size_t tasks = 200'000;
    int frames = 5;
    int width = 1920;
    int height = 1080;
    QString file;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--intervals"))
            intervals = std::strtoull(argv[i + 1], nullptr, 10);
        else if (!std::strcmp(argv[i], "--tasks"))
            tasks = std::strtoull(argv[i + 1], nullptr, 10);
        else if (!std::strcmp(argv[i], "--file"))
            file = QString::fromLocal8Bit(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--frames"))
            frames = std::max(1, std::atoi(argv[i + 1]));
        else if (!std::strcmp(argv[i], "--size") && std::sscanf(argv[i + 1], "%dx%d", &width, &height) != 2)
            return 2;
    }

    auto start = Clock::now();
    std::shared_ptr<const Profile> profile;
    if (file.isEmpty()) {
        profile = Generator(intervals, tasks).build();
    } else {
        LoadResult loaded = ProfileLoader::load(file);
        if (!loaded.ok()) {
            std::fprintf(stderr, "bench_render: %s\n", loaded.error.toString().c_str());
            return 1;
        }
        profile = std::move(loaded.profile);
    }
    std::printf("profile: %zu intervals, %zu measurements, %zu tracks, built in %.0f ms\n", profile->intervalCount(),
                profile->measurementCount(), profile->trackCount(), msSince(start));
    start = Clock::now();
    const LoadedProfile loaded = LoadedProfile::prepare(profile, QStringLiteral("generated"));
    std::printf("prepare (metrics, overview): %.0f ms\n", msSince(start));

    TimeAxis axis;
    ProfileDocument document(&axis);
    IcicleView icicle(&document);
    TaskLaneView lanes(&document);
    const QSize icicleSize(width, height * 6 / 10);
    const QSize lanesSize(width, height - icicleSize.height());
    icicle.resize(icicleSize);
    lanes.resize(lanesSize);
    start = Clock::now();
    document.setProfile(loaded);
    std::printf("show (views rebuilt): %.0f ms\n", msSince(start));

    QImage icicleImage(icicleSize, QImage::Format_ARGB32_Premultiplied);
    QImage lanesImage(lanesSize, QImage::Format_ARGB32_Premultiplied);
    // Written once before any frame is timed: a window's backing store
    // lives as long as the window, and the first write to a fresh image
    // (the kernel zeroing its 8 MB) was up to 25 ms of the first frame.
    icicleImage.fill(Qt::white);
    lanesImage.fill(Qt::white);
    const Time from = axis.boundsStart();
    const Time span = axis.boundsEnd() - from;
    std::printf("span %.3f s; frame times at %dx%d, %d frames per zoom level (ms: min / median / max)\n",
                double(span) / 1e9, width, height, frames);
    std::printf("%-12s %8s %10s %24s %24s %10s %10s\n", "visible", "tasks", "zoom (ms)", "icicle", "task lanes",
                "usage", "range rank");
    double worst = 0;
    // The zoom itself, to 1/`zoom` of the profile centred at 37 % of it
    // (not at an edge, not at a round number): the views react to the new
    // range (the lanes list the tasks alive in it). Its milliseconds.
    const auto zoomTo = [&](double zoom) {
        const Time visible = Time(double(span) / zoom);
        const Time centre = from + Time(double(span) * 0.37);
        const auto zoomStart = Clock::now();
        axis.setVisibleRange(centre - visible / 2, centre + visible / 2, TimeAxis::History::Skip);
        return msSince(zoomStart);
    };
    for (double zoom = 1; span / zoom >= 1'000; zoom *= 10) {
        const double zoomMs = zoomTo(zoom);
        const Figures plot = time(frames, [&] {
            QPainter painter(&icicleImage);
            icicle.paintContent(painter, icicleSize, 0);
        });
        const Figures lane = time(frames, [&] {
            QPainter painter(&lanesImage);
            lanes.paintContent(painter, lanesSize, 0);
        });
        worst = std::max({worst, plot.max, lane.max, zoomMs + plot.median + lane.median});
        // What the usage chart and the rank panel recompute off the GUI
        // thread for this range: the busiest thread's series at one bin
        // per 3 px, and the rank clipped to the range.
        const TimeRange range{axis.visibleStart(), axis.visibleEnd()};
        const Time bin = std::max<Time>(1, (range.to - range.from) * 3 / width);
        auto usageStart = Clock::now();
        const UsageSeries usage = UsageSeries::compute(*profile, 0, bin, 8, range);
        const double usageMs = msSince(usageStart);
        auto rankStart = Clock::now();
        const RankTable rank = RankTable::compute(*loaded.metrics, range);
        const double rankMs = msSince(rankStart);
        char label[32];
        std::snprintf(label, sizeof label, "1/%.0f", zoom);
        std::printf("%-12s %8zu %10.2f %8.2f / %5.2f / %5.2f %8.2f / %5.2f / %5.2f %10.1f %10.1f\n", label,
                    lanes.taskCount(), zoomMs, plot.min, plot.median, plot.max, lane.min, lane.median, lane.max, usageMs,
                    rankMs);
        if (usage.binCount() == 0 || rank.rows().empty())
            return 1; // a benchmark of nothing
    }
    std::printf("worst frame (zoom + icicle + lanes): %.2f ms\n", worst);

    // The same zooms with the first async task selected, as a user who
    // clicked a task and zooms around it: the lanes then show its creator
    // and what it created, found when it is selected, not at each zoom.
    MeasurementId firstTask = kNone;
    for (MeasurementId id = 0; id < profile->measurementCount() && firstTask == kNone; ++id) {
        if (profile->measurement(id).isAsync())
            firstTask = id;
    }
    if (firstTask != kNone) {
        // The click itself: the lanes find the task's relations.
        const auto selectStart = Clock::now();
        axis.selectItem(kNone, firstTask);
        std::printf("select the first task (the lanes mark what it created): %.2f ms\n", msSince(selectStart));
        std::vector<double> zooms;
        for (double zoom = 1; span / zoom >= 1'000; zoom *= 10)
            zooms.push_back(zoomTo(zoom));
        std::sort(zooms.begin(), zooms.end());
        std::printf("zoom, a task selected (%zu measurements after it): %.2f / %.2f / %.2f ms (min / median / max of %zu)\n",
                    profile->measurementCount() - firstTask - 1, zooms.front(), zooms[zooms.size() / 2], zooms.back(),
                    zooms.size());
        axis.selectItem(kNone, kNone);
    }

    // A selection rather than a zoom: the rank panel and the usage chart
    // recompute for it. Whole profile first (the rank shown after loading),
    // then ranges centred in it, the long ones being the expensive ones.
    // The usage chart bins from a track's exec index, built once per
    // track (on a worker, at the first recompute), then summed per range.
    const auto indexStart = Clock::now();
    const TrackExecIndex index(*profile, 0);
    std::printf("usage index of track 0 (%zu segments, summed: %s): built in %.0f ms\n", index.size(),
                index.summed() ? "yes" : "no", msSince(indexStart));
    std::printf("selected range      range rank (ms: min / median / max)     usage (ms: min / median / max)"
                "     usage from the index (ms: min / median / max)\n");
    for (const double fraction : {1.0, 0.9, 0.5, 0.1, 0.01}) {
        const Time length = Time(double(span) * fraction);
        const Time first = from + (span - length) / 2;
        const TimeRange range{first, first + length + (fraction == 1.0 ? 1 : 0)};
        const Time bin = std::max<Time>(1, length * 3 / width);
        const Figures rank = time(3, [&] {
            if (RankTable::compute(*loaded.metrics, range).rows().empty())
                std::exit(1);
        });
        const Figures usage = time(3, [&] {
            if (UsageSeries::compute(*profile, 0, bin, 8, range).binCount() == 0)
                std::exit(1);
        });
        const Figures indexed = time(3, [&] {
            if (UsageSeries::compute(*profile, index, bin, 8, range).binCount() == 0)
                std::exit(1);
        });
        std::printf("%5.0f %% of the span   %8.1f / %6.1f / %6.1f            %8.1f / %6.1f / %6.1f            %8.2f / %6.2f / %6.2f\n",
                    fraction * 100, rank.min, rank.median, rank.max, usage.min, usage.median, usage.max, indexed.min,
                    indexed.median, indexed.max);
    }
    return 0;
}
