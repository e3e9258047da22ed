// bench_criticalpath: how fast the critical path is (semantics.md §9) on a
// large Chronos-like profile. Builds a profile of N future events (Pending,
// Running, Paused, Completed) of seeded event loops straight through
// ProfileBuilder, as the Chronos reader would from the log, then prints
// one line per figure: the time to build the CriticalPath index, one task's
// path over random finished tasks (p50/p99/max), and a label's aggregate
// (CriticalPathSummary::compute) over its first K tasks, then what the
// highlighted path costs a frame of the real icicle and task lanes (with
// and without it) as a user zooms out from its first segment to the whole
// profile; see docs/performance.md ("Critical path").
//
//   bench_criticalpath [--events 5000000] [--loops 4] [--paths 1000] [--aggregate 100000]
//                      [--label handleRequest] [--seed 1] [--frames 3] [--file PROFILE]
//
// With --file the figures are of that profile instead (the label's
// aggregate only if it has the label).

#include "benchsupport.h"
#include "criticalpath.h"
#include "criticalpathstate.h"
#include "criticalpathsummary.h"
#include "icicleview.h"
#include "loadedprofile.h"
#include "profilebuilder.h"
#include "profiledocument.h"
#include "tasklaneview.h"
#include "timeaxis.h"

#include <QApplication>
#include <QImage>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <queue>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

using namespace runlane;

namespace {

struct Options {
    std::uint64_t events = 5'000'000;
    int loops = 4;
    int paths = 1000;
    std::size_t aggregate = 100'000;
    std::uint32_t seed = 1;
    std::string label = "handleRequest";
    std::string file; // a profile to load instead of the generated one
    int frames = 3; // passes over the zoom steps, per step the median
};

int usage()
{
    std::fprintf(stderr, "Usage: bench_criticalpath [--events N] [--loops N] [--paths N] [--aggregate N] [--label NAME]\n"
                         "                          [--seed N] [--frames N] [--file PROFILE]\n");
    return 2;
}

// One Chronos event loop per track, driven as a server's loop: requests
// (handleRequest) arrive and wait in the ready queue; a running future
// calls async procs (their first run synchronous, nested in it), starts
// timers (sleepAsync: never run, complete later), spawns futures onto the
// queue, awaits its latest unfinished child (pauses until it completes,
// then is ready again, in FIFO order) and completes. When nothing is ready
// the loop waits for the next timer. What is left at the end stays
// unfinished. Times are µs as ns ticks.
class ChronosLikeLoops
{
public:
    ChronosLikeLoops(ProfileBuilder& builder, std::uint32_t seed) : m_b(builder), m_rng(seed)
    {
        const char* names[] = {"handleRequest", "sleepAsync", "query", "readBody", "parse", "write", "flush"};
        for (const char* n : names)
            m_labels.push_back(m_b.label(n, "server.nim", int(m_labels.size()) * 10 + 1));
    }

    std::uint64_t loop(TrackId track, std::uint64_t events)
    {
        struct State {
            MeasurementId awaitedBy = kNone;
            bool finished = false;
        };
        std::vector<State> state; // by measurement, this loop's only
        std::vector<MeasurementId> ids;
        std::vector<Open> stack;
        std::deque<MeasurementId> ready;
        std::priority_queue<std::pair<Time, MeasurementId>, std::vector<std::pair<Time, MeasurementId>>,
                            std::greater<>>
            timers;
        std::unordered_map<MeasurementId, std::size_t> local;
        std::unordered_map<MeasurementId, std::vector<MeasurementId>> children;
        std::uint64_t written = 0;
        Time t = 0;
        // Requests arrive every kRequestEvery µs on average: the loop is
        // busy about three quarters of the time (printed), so queues form
        // and drain as on a loaded server, not grow without end.
        Time nextRequest = 0;
        auto pick = [this](std::size_t n) { return std::size_t(m_rng() % n); };
        auto create = [&](LabelId label, MeasurementId creator) {
            const MeasurementId m = m_b.addMeasurement(track, label, t, creator, AsyncMeasurement);
            local[m] = state.size();
            state.push_back({});
            if (creator != kNone)
                children[creator].push_back(m);
            ++written;
            return m;
        };
        auto complete = [&](MeasurementId m) {
            m_b.finish(m, t, FinalState::Completed);
            State& s = state[local[m]];
            s.finished = true;
            if (s.awaitedBy != kNone)
                ready.push_back(s.awaitedBy); // the child's end wakes its parent
            children.erase(m);
            ++written;
        };
        auto close = [&] {
            const Open o = stack.back();
            stack.pop_back();
            m_b.addInterval(o.m, o.start, t, o.order);
            if (stack.empty())
                m_busy += t - o.start;
            return o.m;
        };
        auto run = [&](MeasurementId m) {
            stack.push_back({m, t, m_order++});
            ++written;
        };
        auto timer = [&](MeasurementId creator) {
            const MeasurementId m = create(m_labels[1], creator);
            timers.push({t + 1000 * Time(1 + pick(2000)), m});
            return m;
        };
        while (written < events) {
            if (stack.empty()) {
                // Each turn the loop completes the timers due, a request
                // arrives now and then, and it runs what is ready, or
                // waits for the next timer.
                while (!timers.empty() && timers.top().first <= t) {
                    const MeasurementId m = timers.top().second;
                    timers.pop();
                    complete(m);
                }
                while (nextRequest <= t) {
                    ready.push_back(create(m_labels[0], kNone));
                    nextRequest += 1000 * Time(1 + pick(2 * kRequestEvery));
                }
                if (!ready.empty()) {
                    t += 1000;
                    run(ready.front());
                    ready.pop_front();
                } else {
                    t = timers.empty() ? nextRequest : std::min(nextRequest, timers.top().first);
                }
                continue;
            }
            t += 1000 * Time(1 + pick(20));
            const MeasurementId top = stack.back().m;
            const std::size_t action = pick(100);
            if (action < 35) {
                const std::size_t kind = pick(10);
                if (kind < 5 && stack.size() < 10) {
                    run(create(m_labels[2 + pick(5)], top)); // an async proc's synchronous first run
                } else if (kind < 8) {
                    timer(top);
                } else {
                    ready.push_back(create(m_labels[2 + pick(5)], top)); // asyncSpawn
                }
            } else if (action < 65) {
                // await: the latest unfinished child, else a new timer.
                MeasurementId awaited = kNone;
                auto& mine = children[top];
                while (!mine.empty() && awaited == kNone) {
                    if (!state[local[mine.back()]].finished && state[local[mine.back()]].awaitedBy == kNone
                        && std::none_of(stack.begin(), stack.end(), [&](const Open& o) { return o.m == mine.back(); }))
                        awaited = mine.back();
                    else
                        mine.pop_back();
                }
                if (awaited == kNone)
                    awaited = timer(top);
                state[local[awaited]].awaitedBy = top;
                close();
                ++written;
            } else {
                close();
                complete(top);
            }
        }
        m_span += t;
        return written;
    }

    // The share of the loops' time they ran something.
    double busy() const { return m_span > 0 ? double(m_busy) / double(m_span) : 0.0; }

private:
    static constexpr std::size_t kRequestEvery = 120;
    struct Open {
        MeasurementId m;
        Time start;
        std::uint32_t order;
    };
    ProfileBuilder& m_b;
    std::mt19937 m_rng;
    std::vector<LabelId> m_labels;
    std::uint32_t m_order = 0;
    Time m_busy = 0;
    Time m_span = 0;
};

double ms(std::chrono::steady_clock::duration d)
{
    return std::chrono::duration<double, std::milli>(d).count();
}

// A label's aggregate (CriticalPathSummary::compute) over its first
// `aggregate` tasks in creation order.
void aggregateFigure(const Profile& p, const CriticalPath& path, LabelId label, std::size_t aggregate)
{
    using Clock = std::chrono::steady_clock;
    std::vector<MeasurementId> tasks = CriticalPathSummary::tasksOf(p, std::span(&label, 1));
    if (tasks.size() > aggregate)
        tasks.resize(aggregate);
    const std::size_t count = tasks.size();
    const auto start = Clock::now();
    // CPU time too: on a shared machine the wall clock also counts waiting
    // for a core.
    const std::clock_t cpu = std::clock();
    const auto summary = CriticalPathSummary::compute(path, tasks, false);
    std::printf("aggregate of '%s' over %zu tasks: %.0f ms (CPU %.0f ms; Σ lives %.3f s, %zu call-tree nodes)\n",
                std::string(p.labelName(label)).c_str(), count, ms(Clock::now() - start),
                1000.0 * double(std::clock() - cpu) / CLOCKS_PER_SEC, double(summary.wall()) / 1e9,
                summary.tree().size());
    // What the aggregate walked: its cost is per segment.
    std::size_t segments = 0;
    const std::clock_t walkCpu = std::clock();
    for (const MeasurementId m : tasks)
        segments += path.of(m).size();
    std::printf("  its paths: %zu segments, %.1f on average; the walks alone take CPU %.0f ms\n", segments,
                double(segments) / double(std::max<std::size_t>(1, count)),
                1000.0 * double(std::clock() - walkCpu) / CLOCKS_PER_SEC);
}

// What showing `task`'s path costs a frame (issue 41): the real icicle and
// task lanes as the window shows them, rendered at each step of the zoom
// a user makes from the path's first segment out to the whole profile (two
// wheel notches a step, anchored at that segment), without the path and
// with it; per step the median of `passes`. Prints the median and
// the worst step of each, and the whole profile's frame.
void paintFigure(const std::shared_ptr<const Profile>& profile, MeasurementId task, int passes)
{
    const auto prepareStart = std::chrono::steady_clock::now();
    const LoadedProfile loaded = LoadedProfile::prepare(profile, QStringLiteral("bench"));
    TimeAxis axis;
    ProfileDocument document(&axis);
    IcicleView icicle(&document);
    TaskLaneView lanes(&document);
    // The icicle tall enough for every loop's rows: the path is in view
    // wherever its segments run.
    icicle.resize(1400, 900);
    lanes.resize(1400, 400);
    document.setProfile(loaded);
    icicle.show();
    lanes.show();
    CriticalPathState& path = *document.criticalPath();
    if (!path.show(task) || path.segments().empty())
        return;
    const CriticalPath::Segment first = path.segments().front();
    // Both views scrolled to the task, as the panel's first row brings it.
    lanes.scrollToTask(task);
    if (const auto ids = profile->intervalsOf(task); !ids.empty())
        icicle.revealSpan(ids.front());
    const std::size_t segmentCount = path.segments().size();
    const Time length = std::max<Time>(first.duration(), TimeAxis::kMinimumSpan);
    std::vector<std::pair<Time, Time>> steps{{first.start - length / 4, first.end + length / 4}};
    axis.setVisibleRange(steps.back().first, steps.back().second);
    const Time anchor = first.start + first.duration() / 2;
    while (axis.visibleStart() > axis.boundsStart() || axis.visibleEnd() < axis.boundsEnd()) {
        axis.zoomAt(anchor, 1.25 * 1.25);
        steps.emplace_back(axis.visibleStart(), axis.visibleEnd());
    }
    std::printf("paint: views ready in %.0f ms; the path of task %u (%zu segments), %zu zoom steps from its first "
                "segment to the whole profile; icicle 1400x900 + lanes 1400x400\n",
                ms(std::chrono::steady_clock::now() - prepareStart), task, segmentCount, steps.size());
    QImage icicleImage(icicle.size(), QImage::Format_ARGB32_Premultiplied);
    QImage lanesImage(lanes.size(), QImage::Format_ARGB32_Premultiplied);
    // One frame of both views at each step, without the path and with it
    // in turn (a busy machine slows both alike): per step the median of
    // the passes.
    std::vector<std::vector<double>> times[2]; // [shown][step][pass]
    for (auto& t : times)
        t.resize(steps.size());
    for (int pass = 0; pass < passes; ++pass) {
        for (std::size_t i = 0; i < steps.size(); ++i) {
            axis.setVisibleRange(steps[i].first, steps[i].second, TimeAxis::History::Skip);
            for (const bool shown : {false, true}) {
                if (shown)
                    path.show(task);
                else
                    path.clear();
                const auto start = std::chrono::steady_clock::now();
                icicle.render(&icicleImage);
                lanes.render(&lanesImage);
                times[shown][i].push_back(ms(std::chrono::steady_clock::now() - start));
            }
        }
    }
    auto medians = [](std::vector<std::vector<double>> byStep) {
        std::vector<double> out;
        for (std::vector<double>& t : byStep) {
            std::sort(t.begin(), t.end());
            out.push_back(t[t.size() / 2]);
        }
        return out;
    };
    auto report = [&](const char* what, std::vector<double> medians) {
        const auto worst = std::max_element(medians.begin(), medians.end());
        const std::size_t at = std::size_t(worst - medians.begin());
        const double whole = medians.back();
        std::sort(medians.begin(), medians.end());
        std::printf("  %-16s a frame: median %.1f ms, max %.1f ms (step %zu, %.3f ms shown), the whole profile %.1f ms\n",
                    what, medians[medians.size() / 2], *std::max_element(medians.begin(), medians.end()), at + 1,
                    double(steps[at].second - steps[at].first) / 1e6, whole);
    };
    const std::vector<double> with = medians(times[1]);
    const std::vector<double> without = medians(times[0]);
    report("with the path:", with);
    report("without it:", without);
    // What the path adds to a frame, step by step.
    std::vector<double> added;
    for (std::size_t i = 0; i < steps.size(); ++i)
        added.push_back(with[i] - without[i]);
    report("the path adds:", added);
}

} // namespace

int main(int argc, char** argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        if (i + 1 >= argc)
            return usage();
        const char* v = argv[++i];
        const char* key = argv[i - 1];
        if (!std::strcmp(key, "--events"))
            o.events = std::strtoull(v, nullptr, 10);
        else if (!std::strcmp(key, "--loops"))
            o.loops = std::max(1, std::atoi(v));
        else if (!std::strcmp(key, "--paths"))
            o.paths = std::max(1, std::atoi(v));
        else if (!std::strcmp(key, "--aggregate"))
            o.aggregate = std::strtoull(v, nullptr, 10);
        else if (!std::strcmp(key, "--label"))
            o.label = v;
        else if (!std::strcmp(key, "--seed"))
            o.seed = std::uint32_t(std::strtoul(v, nullptr, 10));
        else if (!std::strcmp(key, "--file"))
            o.file = v;
        else if (!std::strcmp(key, "--frames"))
            o.frames = std::max(1, std::atoi(v));
        else
            return usage();
    }

    // The paint figure renders real views; no window is needed.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);

    using Clock = std::chrono::steady_clock;
    auto start = Clock::now();
    std::shared_ptr<const Profile> profile;
    if (!o.file.empty()) {
        // A file instead (the real window's generated Chrome trace, say):
        // its longest path for the paint figure.
        const LoadResult loaded = ProfileLoader::load(QString::fromStdString(o.file));
        if (!loaded.ok()) {
            std::fprintf(stderr, "bench_criticalpath: %s\n", loaded.error.toString().c_str());
            return 1;
        }
        profile = loaded.profile;
        std::printf("profile: %s, %zu measurements, %zu intervals, loaded in %.0f ms\n", o.file.c_str(),
                    profile->measurementCount(), profile->intervalCount(), ms(Clock::now() - start));
    } else {
        ProfileBuilder builder("Chronos future event log");
        builder.setWakeSource(WakeSource::Children);
        std::uint64_t events = 0;
        double busy = 0;
        {
            ChronosLikeLoops loops(builder, o.seed);
            for (int l = 0; l < o.loops; ++l) {
                TrackInfo info;
                info.tid = l + 1;
                events += loops.loop(builder.addTrack(info), o.events / std::uint64_t(o.loops));
            }
            busy = loops.busy();
        }
        profile = builder.build();
        std::printf("profile: %llu events, %zu measurements, %zu intervals, %d loops (busy %.0f%% of the time), "
                    "built in %.0f ms\n",
                    static_cast<unsigned long long>(events), profile->measurementCount(), profile->intervalCount(),
                    o.loops, 100.0 * busy, ms(Clock::now() - start));
    }
    const Profile& p = *profile;

    start = Clock::now();
    const CriticalPath path(p, CriticalPath::sourceOf(p));
    std::printf("CriticalPath index built in %.1f ms\n", ms(Clock::now() - start));

    std::vector<MeasurementId> finished;
    for (MeasurementId m = 0; m < p.measurementCount(); ++m)
        if (p.measurement(m).finalState() != FinalState::Unfinished && !p.measurement(m).isBornFinished())
            finished.push_back(m);
    // Random tasks (the target), then the longest-lived ones (the worst
    // case: the longest paths).
    auto measure = [&path](const char* what, const std::vector<MeasurementId>& tasks) {
        std::vector<double> times;
        std::size_t segments = 0;
        std::size_t maxSegments = 0;
        for (const MeasurementId m : tasks) {
            const auto start = Clock::now();
            const auto s = path.of(m);
            times.push_back(ms(Clock::now() - start));
            segments += s.size();
            maxSegments = std::max(maxSegments, s.size());
        }
        if (times.empty())
            return;
        std::sort(times.begin(), times.end());
        auto at = [&times](double q) { return times[std::min(times.size() - 1, std::size_t(q * double(times.size())))]; };
        std::printf("one task's path over %zu %s: p50 %.3f ms, p99 %.3f ms, max %.3f ms "
                    "(%.1f segments on average, at most %zu)\n",
                    times.size(), what, at(0.5), at(0.99), times.back(), double(segments) / double(times.size()),
                    maxSegments);
    };
    std::mt19937 rng(o.seed);
    std::vector<MeasurementId> sample;
    for (int i = 0; i < o.paths && !finished.empty(); ++i)
        sample.push_back(finished[rng() % finished.size()]);
    measure("random finished tasks", sample);
    const std::vector<MeasurementId> longest = CriticalPathSummary::slowest(p, finished, std::size_t(o.paths));
    measure("longest-lived tasks", longest);

    LabelId label = 0;
    while (label < p.labelCount() && p.labelName(label) != o.label)
        ++label;
    if (label < p.labelCount()) {
        aggregateFigure(p, path, label, o.aggregate);
    } else if (o.file.empty()) {
        std::fprintf(stderr, "no label '%s'\n", o.label.c_str());
        return 1;
    } else {
        std::printf("no label '%s' in %s: no aggregate\n", o.label.c_str(), o.file.c_str());
    }

    // The longest path among the longest-lived tasks: the most to draw.
    MeasurementId longestPath = kNone;
    std::size_t mostSegments = 0;
    for (const MeasurementId m : longest) {
        if (const std::size_t n = path.of(m).size(); n > mostSegments) {
            mostSegments = n;
            longestPath = m;
        }
    }
    if (longestPath != kNone)
        paintFigure(profile, longestPath, o.frames);
    std::printf("peak RSS %.0f MiB\n", bench::peakRssMiB());
    return 0;
}
