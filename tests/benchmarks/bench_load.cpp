// bench_load: how fast a generated Chrome trace becomes a Profile, and how
// much memory that takes. Prints one line per figure; see docs/performance.md.
//
//   bench_load --events 1000000 [--repeat 3] [--keep trace.json]
//   bench_load --file trace.json [--repeat 3]
//   bench_load --events 1000000 --gzip yes   (the generated trace gzip-compressed)
//   bench_load --events 1000000 --samples yes   (with DevTools CPU profile samples)
//   bench_load --file trace.pftrace --raw trace.json   (the raw pass over another file)
//   [--reference no] [--cancel no]   (skip the reference path's load, the cancel points)
//   [--tokenizer yes]   (a third child per round: the Chrome fast reader alone)
//   [--parts yes]   (the build's steps split into their named parts)
//   [--warm MIB]   (before each child, MIB of memory touched and given back)
//   [--pause S]   (before each child, S seconds of sleep: every child cold)
//
// First, `--repeat` rounds of two child processes each, alternating: the
// simdjson raw pass over the file (rawpass.h: what a simple program spends
// only reading and walking every event, the yardstick of issue 45) and
// Runlane's load of it; their medians of wall and CPU time (user + system),
// the load's ratio to the raw pass, and the load's peak RSS (VmHWM of its
// process) against the file's size; and where the load's time goes: the
// read, then each step of the build as LoadControl::building names it,
// wall and CPU (medians over the load children). Then, in this process,
// where the bytes of the loaded profile go (Profile::memoryBreakdown).
//
// With --parts yes the time table splits each step into the parts its
// reports name ("numbering in creation order: sorting"), their counts and
// percentages left out, so that a step's time is the sum of its rows.
//
// With --tokenizer yes each round has a third child: ChromeFastReader over
// the file with a sink that takes no event (its producer reads, scans and
// parses on both threads, as in a load, but nothing is built). It splits
// the load's lead over the raw pass into the tokenizer's part and the
// rest's (what the sink and the build add), which the load's own clock
// cannot: its "reading the file" step includes the sink.
//
// With --warm each child (raw pass, fast reader, load) starts right after
// this process touched that much fresh memory and gave it back. On a
// virtual machine that reports free pages to its host (virtio-balloon's
// free page reporting), memory freed more than about 2 s before is
// backed by the host again on its first touch: 92 MB took 89-148 ms to
// first touch after a pause of 2-10 s, 9-32 ms right after another
// process freed as much (2026-12-06). A child then meets pages freed a
// moment ago, and the rounds compare the programs' own work rather than
// what the host did meanwhile. Without it, the figures are those of a
// process started cold, as a user's is after a pause.
//
// With --pause each child starts that many seconds after the one before
// ended (before --warm's touch, if both are given): then every child,
// the raw pass's as much as the load's, meets memory the host took back,
// as a user's first open after a pause does. Back to back, one child may
// meet pages the last freed a moment ago and the next not, so the ratio of
// the best raw pass to the best load compares two different hosts.
//
// For a gzip-compressed file the throughput is of the decompressed text
// (what the file holds), as for a plain one.
//
// Then loads the file once more on the reference (nlohmann) path and checks
// that the rank is identical (--reference no skips it), and measures how
// soon a cancelled load stops.

#include "benchsupport.h"
#include "chromefastreader.h"
#include "childrun.h"
#include "diagnostics.h"
#include "gzipdevice.h"
#include "measurementmetrics.h"
#include "profileloader.h"
#include "rankformatter.h"
#include "ranktable.h"
#include "rawpass.h"
#include "tracegenerator.h"
#include "usageseries.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>

#include <sys/mman.h>
#include <sys/resource.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

using namespace runlane;

namespace {

// The size of a file's text: decompressed, for a gzip-compressed one.
std::int64_t textSize(const std::string& path)
{
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    if (!GzipDevice::isGzip(file.peek(2)))
        return file.size();
    GzipDevice gzip(file);
    std::vector<char> buffer(1 << 20);
    std::int64_t total = 0;
    for (qint64 n; (n = gzip.read(buffer.data(), qint64(buffer.size()))) > 0;)
        total += n;
    return total;
}

bool gzipFile(const std::string& from, const std::string& to)
{
    std::FILE* in = std::fopen(from.c_str(), "rb");
    gzFile out = gzopen(to.c_str(), "wb6");
    bool ok = in && out;
    std::vector<char> buffer(1 << 20);
    while (ok) {
        const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), in);
        if (n == 0)
            break;
        ok = gzwrite(out, buffer.data(), unsigned(n)) == int(n);
    }
    if (in)
        std::fclose(in);
    if (out)
        ok = gzclose(out) == Z_OK && ok;
    return ok;
}

int usage()
{
    std::fprintf(stderr, "Usage: bench_load (--events N [--keep FILE] [--gzip yes] | --file FILE) [--repeat K] "
                         "[--reference yes|no] [--cancel yes|no] [--samples yes] [--raw FILE] [--tokenizer yes] "
                         "[--parts yes] [--warm MIB] [--pause SECONDS]\n");
    return 2;
}

// Where one load's time went, as its child process saw it: the read, up to
// the build's first step, then each step of the build (LoadControl::building
// names them as they begin), the last until the load returned. Plain data,
// so that it comes back through a pipe.
struct StepClock {
    static constexpr int kMax = 64;
    struct Step {
        int number = 0;
        double began = 0; // seconds since the load began
        double cpu = 0; // CPU seconds of the process (all its threads) by then
        double rssMiB = 0; // resident then
        double peakMiB = 0; // the process's peak resident by then
        char name[64] = {};
    };
    Step steps[kMax];
    int count = 0;
    double end = 0;
    double endCpu = 0;
    double endPeakMiB = 0;
    double startCpu = 0;
    double startRssMiB = 0;
};


double processCpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) / 1e9;
}

// A build report's text without what tells how far it is: "nesting the
// calls: allocating memory: 45 %" is "nesting the calls: allocating
// memory", "nesting the calls: 3 of 10 tracks laid out" is "nesting the
// calls: tracks laid out" (a part named by a count is the time from its
// first report to the next part's).
std::string partName(const char* what)
{
    std::string name;
    std::string_view rest(what);
    while (!rest.empty()) {
        const std::size_t cut = rest.find(": ");
        std::string_view part = rest.substr(0, cut);
        rest = cut == std::string_view::npos ? std::string_view() : rest.substr(cut + 2);
        if (part.empty() || (part.front() >= '0' && part.front() <= '9')) {
            // "3 of 10 tracks laid out": what follows the counts, if anything.
            while (!part.empty() && ((part.front() >= '0' && part.front() <= '9') || part.front() == ' '
                                     || part.starts_with("of ") || part.front() == '%'))
                part.remove_prefix(part.starts_with("of ") ? 3 : 1);
            if (part.empty())
                continue;
        }
        name += (name.empty() ? "" : ": ") + std::string(part);
    }
    return name;
}

// Medians over the load children of each part of StepClock, wall and CPU
// (all threads: twice the wall where both cores worked throughout), in the
// order the parts came, the read first.
void timeTable(const std::vector<StepClock>& clocks)
{
    std::vector<std::string> names{"reading the file"};
    std::vector<std::vector<double>> walls(1);
    std::vector<std::vector<double>> cpus(1);
    // Memory: resident when a row's part begins, and how much the peak
    // grew while it ran (in a row that comes back, the first time's).
    std::vector<std::vector<double>> rss(1);
    std::vector<std::vector<double>> grown(1);
    std::vector<double> totalWalls;
    std::vector<double> totalCpus;
    std::vector<const StepClock*> seen(1, nullptr); // the load a row's last value is of
    for (const StepClock& clock : clocks) {
        walls[0].push_back(clock.count > 0 ? clock.steps[0].began : clock.end);
        cpus[0].push_back((clock.count > 0 ? clock.steps[0].cpu : clock.endCpu) - clock.startCpu);
        rss[0].push_back(clock.startRssMiB);
        grown[0].push_back((clock.count > 0 ? clock.steps[0].peakMiB : clock.endPeakMiB) - clock.startRssMiB);
        for (int i = 0; i < clock.count; ++i) {
            const std::string name = clock.steps[i].name;
            const bool last = i + 1 == clock.count;
            const auto at = std::find(names.begin(), names.end(), name);
            const std::size_t row = std::size_t(at - names.begin());
            if (at == names.end()) {
                names.push_back(name);
                walls.emplace_back();
                cpus.emplace_back();
                rss.emplace_back();
                grown.emplace_back();
                seen.push_back(nullptr);
            }
            const double wall = (last ? clock.end : clock.steps[i + 1].began) - clock.steps[i].began;
            const double cpu = (last ? clock.endCpu : clock.steps[i + 1].cpu) - clock.steps[i].cpu;
            const double peakGrew = (last ? clock.endPeakMiB : clock.steps[i + 1].peakMiB) - clock.steps[i].peakMiB;
            // A part that comes back within one load (a step's own name
            // after its parts) adds to its row for that load.
            if (seen[row] == &clock) {
                walls[row].back() += wall;
                cpus[row].back() += cpu;
            } else {
                walls[row].push_back(wall);
                cpus[row].push_back(cpu);
                rss[row].push_back(clock.steps[i].rssMiB);
                grown[row].push_back(peakGrew);
                seen[row] = &clock;
            }
        }
        totalWalls.push_back(clock.end);
        totalCpus.push_back(clock.endCpu - clock.startCpu);
    }
    std::printf("where the time goes:  %-34s %8s %8s %9s %9s  (medians of %zu loads, each timed in its child; "
                "memory: resident as the part begins, MiB, and how much the process's peak grew during it)\n",
                "part", "wall s", "CPU s", "RSS", "peak +", clocks.size());
    for (std::size_t row = 0; row < names.size(); ++row)
        std::printf("                      %-34s %8.3f %8.3f %9.1f %9.1f\n", names[row].c_str(),
                    bench::median(walls[row]), bench::median(cpus[row]), bench::median(rss[row]),
                    bench::median(grown[row]));
    std::printf("                      %-34s %8.3f %8.3f\n", "the whole load", bench::median(totalWalls),
                bench::median(totalCpus));
}

// The Chrome fast reader alone over `file` (see the top): the events it
// handed over, or -1 if it did not read the file to its end.
long long tokenizeOnly(const std::string& file)
{
    QFile raw(QString::fromStdString(file));
    if (!raw.open(QIODevice::ReadOnly))
        return -1;
    std::unique_ptr<GzipDevice> gzip;
    if (GzipDevice::isGzip(raw.peek(2)))
        gzip = std::make_unique<GzipDevice>(raw);
    QIODevice& text = gzip ? static_cast<QIODevice&>(*gzip) : raw;
    LoadControl control;
    Diagnostics diagnostics;
    std::uint64_t handed = 0;
    ChromeFastReader reader(text, control, diagnostics, [&handed](const ChromeEvent&, std::uint64_t) { ++handed; });
    if (reader.read() != ChromeFastReader::Outcome::Read)
        return -1;
    return static_cast<long long>(handed);
}

// Touches `mib` MiB of fresh memory (in huge pages where the system gives
// them, as the loads' big arrays are) and gives it back: see --warm.
void warmFreshMemory(std::size_t mib)
{
    if (mib == 0)
        return;
    const std::size_t bytes = mib << 20;
    void* block = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (block == MAP_FAILED)
        return;
    madvise(block, bytes, MADV_HUGEPAGE);
    std::memset(block, 1, bytes);
    munmap(block, bytes);
}

// What happens before each child starts: see --pause and --warm.
struct ChildStart {
    double pauseSeconds = 0;
    std::size_t warmMiB = 0;

    void operator()() const
    {
        if (pauseSeconds > 0)
            std::this_thread::sleep_for(std::chrono::duration<double>(pauseSeconds));
        warmFreshMemory(warmMiB);
    }
};

// The raw pass and the load in child processes, alternating (see the top),
// and the tokenizer alone if asked. False if any failed.
bool againstRawPass(const std::string& file, const std::string& raw, int repeat, double fileMiB, bool tokenizer,
                    bool parts, const ChildStart& beforeChild)
{
    bench::Timing rawTiming;
    bench::Timing tokenizerTiming;
    bench::Timing loadTiming;
    std::vector<double> reads;
    std::vector<double> parses;
    std::vector<StepClock> clocks;
    bench::RawPass last;
    for (int k = 0; k < repeat; ++k) {
        beforeChild();
        const bool rawOk = bench::inChildWithData(
            [&](bench::RawPass& pass) -> long long {
                pass = bench::rawPass(raw);
                return pass.ok ? static_cast<long long>(pass.events) : -1;
            },
            rawTiming, last);
        if (!rawOk) {
            std::fprintf(stderr, "bench_load: the raw pass failed on %s\n", raw.c_str());
            return false;
        }
        reads.push_back(last.readSeconds);
        parses.push_back(last.parseSeconds);
        if (tokenizer) {
            beforeChild();
            if (!bench::inChild([&file]() -> long long { return tokenizeOnly(file); }, tokenizerTiming)) {
                std::fprintf(stderr, "bench_load: the fast reader did not read %s to its end\n", file.c_str());
                return false;
            }
        }
        auto clock = std::make_unique<StepClock>();
        beforeChild();
        const bool loadOk = bench::inChildWithData(
            [&](StepClock& c) -> long long {
                c.startCpu = processCpuSeconds();
                c.startRssMiB = bench::residentMiB().now;
                const auto start = std::chrono::steady_clock::now();
                const auto since = [start] {
                    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                };
                LoadControl control;
                control.building = [&c, &since, parts](int step, int, const char* what) {
                    // A step's first report is its name; the later ones
                    // tell how far it is, or (kept with --parts) which
                    // part of it begins.
                    const std::string name = parts ? partName(what) : std::string(what);
                    if (c.count == StepClock::kMax
                        || (c.count > 0 && c.steps[c.count - 1].number == step
                            && (!parts || name == c.steps[c.count - 1].name)))
                        return;
                    StepClock::Step& s = c.steps[c.count++];
                    s.number = step;
                    s.began = since();
                    s.cpu = processCpuSeconds();
                    const bench::Resident resident = bench::residentMiB();
                    s.rssMiB = resident.now;
                    s.peakMiB = resident.peak;
                    std::snprintf(s.name, sizeof s.name, "%s", name.c_str());
                };
                const LoadResult result = ProfileLoader::load(QString::fromStdString(file), control);
                c.end = since();
                c.endCpu = processCpuSeconds();
                c.endPeakMiB = bench::residentMiB().peak;
                if (!result.ok())
                    std::fprintf(stderr, "bench_load: %s\n", result.error.toString().c_str());
                return result.ok() ? static_cast<long long>(result.profile->intervalCount()) : -1;
            },
            loadTiming, *clock);
        if (!loadOk) {
            std::fprintf(stderr, "bench_load: the load failed in its child process\n");
            return false;
        }
        clocks.push_back(*clock);
    }
    const double rawWall = bench::median(rawTiming.wall);
    const double rawCpu = bench::median(rawTiming.cpu);
    const double loadWall = bench::median(loadTiming.wall);
    const double loadCpu = bench::median(loadTiming.cpu);
    if (beforeChild.pauseSeconds > 0)
        std::printf("each child:           started %.1f s after the one before ended\n", beforeChild.pauseSeconds);
    if (beforeChild.warmMiB > 0)
        std::printf("each child:           started right after %zu MiB were touched and given back\n", beforeChild.warmMiB);
    std::printf("simdjson raw pass:    %.3f s wall, %.3f s CPU (median of %d; read or inflate %.3f s, walk %.3f s; "
                "%llu events, %llu keys, %.1f MiB of text; peak RSS %.1f MiB)\n",
                rawWall, rawCpu, repeat,
                bench::median(reads), bench::median(parses), static_cast<unsigned long long>(last.events),
                static_cast<unsigned long long>(last.keys), double(last.textBytes) / (1024.0 * 1024.0),
                bench::median(rawTiming.peakMiB));
    if (tokenizer) {
        const double wall = bench::median(tokenizerTiming.wall);
        const double cpu = bench::median(tokenizerTiming.cpu);
        const double bestWall = *std::min_element(tokenizerTiming.wall.begin(), tokenizerTiming.wall.end());
        std::printf("fast reader alone:    %.3f s wall, %.3f s CPU (median of %d, no events taken; best %.3f s), peak RSS "
                    "%.1f MiB: %.2fx the raw pass's wall, %.2fx its CPU\n",
                    wall, cpu, repeat, bestWall, bench::median(tokenizerTiming.peakMiB), wall / rawWall, cpu / rawCpu);
    }
    std::printf("load (child process): %.3f s wall, %.3f s CPU (median of %d), peak RSS %.1f MiB (%.2f x file)\n",
                loadWall, loadCpu, repeat, bench::median(loadTiming.peakMiB),
                bench::median(loadTiming.peakMiB) / fileMiB);
    std::printf("load / raw pass:      %.2fx wall, %.2fx CPU\n", loadWall / rawWall, loadCpu / rawCpu);
    // The best of each as well: on a virtual machine the raw pass's walls
    // swing by 3 x from one child to the next (its fresh memory is backed
    // by the host, or not), more than the load's, and a median of a few
    // then says more about the host than about either program.
    const auto best = [](const std::vector<double>& values) { return *std::min_element(values.begin(), values.end()); };
    std::printf("best of each:         %.3f s raw pass, %.3f s load: %.2fx wall, %.2fx CPU\n", best(rawTiming.wall),
                best(loadTiming.wall), best(loadTiming.wall) / best(rawTiming.wall),
                best(loadTiming.cpu) / best(rawTiming.cpu));
    std::printf("raw pass walls:      ");
    for (double w : rawTiming.wall)
        std::printf(" %.3f", w);
    std::printf("\nload walls:          ");
    for (double w : loadTiming.wall)
        std::printf(" %.3f", w);
    std::printf("\n");
    timeTable(clocks);
    return true;
}

// Where the loaded profile's bytes go, a row per structure.
void memoryTable(const Profile& p, double fileMiB)
{
    const double intervals = double(std::max<std::size_t>(1, p.intervalCount()));
    std::size_t total = p.stringMemoryUsage();
    std::printf("where the bytes go:   %-24s %12s %10s\n", "structure", "bytes", "B/interval");
    for (const Profile::MemoryPart& part : p.memoryBreakdown()) {
        total += part.bytes;
        std::printf("                      %-24s %12zu %10.2f\n", part.name, part.bytes, double(part.bytes) / intervals);
    }
    std::printf("                      %-24s %12zu %10.2f\n", "strings (pool)", p.stringMemoryUsage(),
                double(p.stringMemoryUsage()) / intervals);
    std::printf("                      %-24s %12zu %10.2f  (%.2f x file)\n", "total", total, double(total) / intervals,
                double(total) / (fileMiB * 1024.0 * 1024.0));
}

} // namespace

int main(int argc, char** argv)
{
    std::uint64_t events = 0;
    std::string file;
    std::string keep;
    int repeat = 1;
    bool compareReference = true;
    bool compress = false;
    bool samples = false;
    bool cancelPoints = true;
    bool tokenizer = false;
    bool parts = false;
    ChildStart beforeChild;
    std::string raw;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (i + 1 >= argc)
            return usage();
        if (arg == "--events")
            events = std::strtoull(argv[++i], nullptr, 10);
        else if (arg == "--file")
            file = argv[++i];
        else if (arg == "--keep")
            keep = argv[++i];
        else if (arg == "--repeat")
            repeat = std::max(1, std::atoi(argv[++i]));
        else if (arg == "--reference")
            compareReference = std::string(argv[++i]) != "no";
        else if (arg == "--gzip")
            compress = std::string(argv[++i]) == "yes";
        else if (arg == "--cancel")
            cancelPoints = std::string(argv[++i]) != "no";
        else if (arg == "--raw")
            raw = argv[++i];
        else if (arg == "--tokenizer")
            tokenizer = std::string(argv[++i]) == "yes";
        else if (arg == "--parts")
            parts = std::string(argv[++i]) == "yes";
        else if (arg == "--warm")
            beforeChild.warmMiB = std::strtoull(argv[++i], nullptr, 10);
        else if (arg == "--pause")
            beforeChild.pauseSeconds = std::max(0.0, std::atof(argv[++i]));
        else if (arg == "--samples")
            samples = std::string(argv[++i]) == "yes";
        else
            return usage();
    }
    if (file.empty() == (events == 0))
        return usage();

    QTemporaryDir dir;
    if (file.empty()) {
        file = keep.empty() ? QDir(dir.path()).filePath(QStringLiteral("trace.json")).toStdString() : keep;
        bench::TraceGenerator::Options options;
        options.events = events;
        options.samples = samples;
        std::FILE* out = std::fopen(file.c_str(), "wb");
        if (!out) {
            std::perror(file.c_str());
            return 1;
        }
        std::setvbuf(out, nullptr, _IOFBF, 1 << 20);
        bench::TraceGenerator::Stats stats;
        const double generate = bench::seconds([&] { stats = bench::TraceGenerator(options).write(out); });
        std::fclose(out);
        std::printf("generated:            %llu events in %.2f s\n", static_cast<unsigned long long>(stats.events),
                    generate);
        if (samples)
            std::printf("with samples:         %llu V8 CPU profile samples (DevTools ProfileChunk events)\n",
                        static_cast<unsigned long long>(stats.samples));
        if (compress) {
            const std::string gz = file + ".gz";
            const double took = bench::seconds([&] { compress = gzipFile(file, gz); });
            if (!compress) {
                std::fprintf(stderr, "bench_load: cannot compress %s\n", file.c_str());
                return 1;
            }
            std::printf("gzip (level 6):       %.2f s\n", took);
            file = gz;
        }
    }
    const double compressedMiB = double(QFileInfo(QString::fromStdString(file)).size()) / (1024.0 * 1024.0);
    const double fileMiB = double(textSize(file)) / (1024.0 * 1024.0);
    if (compressedMiB != fileMiB)
        std::printf("gzip file:            %.1f MiB (%.1f x)\n", compressedMiB, fileMiB / compressedMiB);
    if (!againstRawPass(file, raw.empty() ? file : raw, repeat, fileMiB, tokenizer, parts, beforeChild))
        return 1;
    const double baseline = bench::residentMiB().now;

    std::vector<double> loads;
    std::vector<double> analyses;
    std::vector<double> ranges;
    LoadResult result;
    for (int k = 0; k < repeat; ++k) {
        result = LoadResult();
        loads.push_back(bench::seconds([&] { result = ProfileLoader::load(QString::fromStdString(file)); }));
        if (!result.ok()) {
            std::fprintf(stderr, "bench_load: %s\n", result.error.toString().c_str());
            return 1;
        }
        const Profile& p = *result.profile;
        std::unique_ptr<MeasurementMetrics> metrics;
        analyses.push_back(bench::seconds([&] { metrics = std::make_unique<MeasurementMetrics>(p); }));
        const TimeRange middle{p.startTime() + p.duration() / 3, p.startTime() + 2 * (p.duration() / 3)};
        ranges.push_back(bench::seconds([&] {
            const RankTable rank = RankTable::compute(*metrics, middle);
            const UsageSeries series = UsageSeries::compute(p, 0, UsageSeries::defaultBinWidth(p.duration()), 10);
            if (rank.rows().empty() || series.binCount() == 0)
                std::fprintf(stderr, "bench_load: empty analysis\n");
        }));
    }
    const Profile& p = *result.profile;
    const double load = bench::median(loads);
    std::printf("file:                 %.1f MiB\n", fileMiB);
    std::printf("load (median of %d):  %.3f s\n", repeat, load);
    std::printf("throughput:           %.1f MiB/s\n", fileMiB / load);
    std::printf("intervals:            %zu (%.2f M/s)\n", p.intervalCount(), double(p.intervalCount()) / load / 1e6);
    std::printf("measurements:         %zu\n", p.measurementCount());
    std::printf("tracks:               %zu\n", p.trackCount());
    std::printf("model:                %.1f bytes per interval + %.1f MiB strings\n",
                double(p.modelMemoryUsage()) / double(std::max<std::size_t>(1, p.intervalCount())),
                double(p.stringMemoryUsage()) / (1024.0 * 1024.0));
    std::printf("metrics (exec/total): %.3f s\n", bench::median(analyses));
    std::printf("range rank + usage:   %.3f s\n", bench::median(ranges));
    std::printf("RSS before load:      %.1f MiB\n", baseline);
    std::printf("peak RSS:             %.1f MiB (%.2f x file size)\n", bench::peakRssMiB(), bench::peakRssMiB() / fileMiB);
    memoryTable(p, fileMiB);

    // The fast reader must change nothing: the whole rank and that of the
    // middle third, as `runlane-cli rank --json` prints them, from both.
    auto rankText = [](const Profile& profile) {
        const MeasurementMetrics metrics(profile);
        const TimeRange middle{profile.startTime() + profile.duration() / 3,
                               profile.startTime() + 2 * (profile.duration() / 3)};
        return RankFormatter::json(profile, RankTable::compute(metrics))
            + RankFormatter::json(profile, RankTable::compute(metrics, middle));
    };
    const std::string fastRank = rankText(p);
    const std::size_t fastIntervals = p.intervalCount();
    result = LoadResult();
    if (compareReference) {
        qputenv("RUNLANE_JSON", "reference");
        LoadResult reference;
        const double referenceLoad = bench::seconds([&] { reference = ProfileLoader::load(QString::fromStdString(file)); });
        qunsetenv("RUNLANE_JSON");
        if (!reference.ok()) {
            std::fprintf(stderr, "bench_load: reference path: %s\n", reference.error.toString().c_str());
            return 1;
        }
        const bool same = rankText(*reference.profile) == fastRank && reference.profile->intervalCount() == fastIntervals;
        std::printf("reference path load:  %.3f s (nlohmann SAX)\n", referenceLoad);
        std::printf("rank, fast/reference: %s (%zu bytes of rank JSON)\n", same ? "identical" : "DIFFERENT",
                    fastRank.size());
        if (!same)
            return 1;
    }

    // Cancel: a load on a worker thread is cancelled at points spread over
    // its run; the figure is how long the worker takes to give up (what
    // the Cancel button waits for).
    std::vector<double> latencies;
    double worstAt = 0;
    for (double at = 0.025; cancelPoints && at < 1; at += 0.05) {
        std::atomic<bool> cancel{false};
        LoadControl control;
        control.cancel = &cancel;
        bool cancelled = false;
        std::thread worker([&] { cancelled = ProfileLoader::load(QString::fromStdString(file), control).error.cancelled; });
        std::this_thread::sleep_for(std::chrono::duration<double>(load * at));
        const auto cancelAt = std::chrono::steady_clock::now();
        cancel = true;
        worker.join();
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - cancelAt).count();
        if (!cancelled)
            break; // done before the flag was seen: later points would be too
        if (latencies.empty() || ms > *std::max_element(latencies.begin(), latencies.end()))
            worstAt = at;
        latencies.push_back(ms);
    }
    if (!latencies.empty()) {
        std::printf("cancel latency:       %.1f ms median, %.1f ms max (at %.0f %% of the load), %zu points\n",
                    bench::median(latencies), *std::max_element(latencies.begin(), latencies.end()), worstAt * 100,
                    latencies.size());
    }
    return 0;
}
