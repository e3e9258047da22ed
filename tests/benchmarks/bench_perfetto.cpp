// bench_perfetto: the Perfetto reader's throughput against the Chrome JSON
// reader's on the same workload (issue 42: at least as many events per
// second, memory as for JSON). A generated Chrome trace (TraceGenerator) is
// loaded, written as a Perfetto trace by PerfettoTraceWriter, and both
// files are then loaded in turn, `--repeat` times each, alternating, so
// that a busy machine weighs on both alike. Each load runs in a child
// process of its own: its CPU time (user + system, every thread of the
// loader) and peak memory are the child's alone, from wait4. The medians
// give slices per second for each reader.
//
//   bench_perfetto [--events 1220000] [--repeat 3] [--keep DIR]   (about 1 M slices)
//
// Both files hold the same slices: the Perfetto trace has a packet per
// slice begin and end, the Chrome trace an event per slice (X) or two (B/E).

#include "benchsupport.h"
#include "childrun.h"
#include "perfettotracewriter.h"
#include "profileloader.h"
#include "tracegenerator.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace runlane;

namespace {

using bench::inChild;
using bench::median;
using bench::Timing;

bool loadOnce(const std::string& path, Timing& timing)
{
    return inChild(
        [&]() -> long long {
            const LoadResult result = ProfileLoader::load(QString::fromStdString(path));
            if (!result.ok()) {
                std::fprintf(stderr, "bench_perfetto: %s: %s\n", path.c_str(), result.error.toString().c_str());
                return -1;
            }
            return static_cast<long long>(result.profile->intervalCount());
        },
        timing);
}

void report(const char* what, const Timing& t, std::int64_t bytes)
{
    const double wall = median(t.wall);
    const double cpu = median(t.cpu);
    std::printf("%-8s %9zu slices  file %6.1f MiB  wall %6.3f s (%5.2f M slices/s)  cpu %6.3f s (%5.2f M slices/s)"
                "  peak %6.1f MiB\n",
                what, t.intervals, double(bytes) / (1024.0 * 1024.0), wall, double(t.intervals) / wall / 1e6, cpu,
                double(t.intervals) / cpu / 1e6, median(t.peakMiB));
}

} // namespace

int main(int argc, char** argv)
{
    std::uint64_t events = 1'220'000;
    bench::FileOptions options;
    options.repeat = 3;
    if (!bench::parseOptions(argc, argv, options, [&](const std::string& name, const char* value) {
            if (name != "--events")
                return false;
            events = std::strtoull(value, nullptr, 10);
            return true;
        })) {
        std::fprintf(stderr, "Usage: bench_perfetto [--events N] [--repeat K] [--keep DIR]\n");
        return 2;
    }
    QTemporaryDir tmp;
    const QString dir = options.keep.empty() ? tmp.path() : QString::fromStdString(options.keep);
    QDir().mkpath(dir);
    const std::string chrome = (dir + QStringLiteral("/bench.json")).toStdString();
    const std::string perfetto = (dir + QStringLiteral("/bench.pftrace")).toStdString();
    if (!bench::TraceGenerator::writeFile(chrome.c_str(), events)) {
        std::fprintf(stderr, "bench_perfetto: cannot write %s\n", chrome.c_str());
        return 1;
    }
    Timing conversion;
    const bool converted = inChild(
        [&]() -> long long {
            const LoadResult source = ProfileLoader::load(QString::fromStdString(chrome));
            std::string error;
            if (!source.ok()
                || !PerfettoTraceWriter::writeFile(*source.profile, QString::fromStdString(perfetto), error)) {
                std::fprintf(stderr, "bench_perfetto: %s\n",
                             source.ok() ? error.c_str() : source.error.toString().c_str());
                return -1;
            }
            return 0;
        },
        conversion);
    if (!converted)
        return 1;
    Timing chromeTiming;
    Timing perfettoTiming;
    for (int k = 0; k < options.repeat; ++k) {
        if (!loadOnce(chrome, chromeTiming) || !loadOnce(perfetto, perfettoTiming))
            return 1;
    }
    std::printf("%d loads each, alternating, each in a process of its own; medians (CPU: user + system, all "
                "threads)\n",
                options.repeat);
    report("chrome", chromeTiming, QFileInfo(QString::fromStdString(chrome)).size());
    report("perfetto", perfettoTiming, QFileInfo(QString::fromStdString(perfetto)).size());
    std::printf("perfetto / chrome slices per CPU second: %.2f; per wall second: %.2f\n",
                median(chromeTiming.cpu) / median(perfettoTiming.cpu),
                median(chromeTiming.wall) / median(perfettoTiming.wall));
    if (chromeTiming.intervals != perfettoTiming.intervals) {
        std::fprintf(stderr, "bench_perfetto: the Perfetto trace gave %zu slices, the Chrome trace %zu\n",
                     perfettoTiming.intervals, chromeTiming.intervals);
        return 1;
    }
    return 0;
}
