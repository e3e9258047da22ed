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
#include "perfettotracewriter.h"
#include "profileloader.h"
#include "tracegenerator.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace runlane;

namespace {

struct Timing {
    std::vector<double> wall;
    std::vector<double> cpu;
    std::vector<double> peakMiB;
    std::size_t intervals = 0;
};

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

// Runs `work` in a child process; its CPU seconds and peak RSS from wait4,
// and the number it returns (< 0: failed) through a pipe. Children keep the
// parent free of the loader's threads, which a fork would not take along.
template<typename Work>
bool inChild(Work work, Timing& timing)
{
    int fds[2];
    if (pipe(fds) != 0)
        return false;
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        const long long result = work();
        const bool written = write(fds[1], &result, sizeof result) == ssize_t(sizeof result);
        _exit(written && result >= 0 ? 0 : 1);
    }
    close(fds[1]);
    long long result = -1;
    if (pid < 0 || read(fds[0], &result, sizeof result) != ssize_t(sizeof result))
        result = -1;
    close(fds[0]);
    int status = 0;
    rusage usage{};
    if (pid > 0)
        wait4(pid, &status, 0, &usage);
    timing.wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    timing.cpu.push_back(double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                         + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6);
    timing.peakMiB.push_back(double(usage.ru_maxrss) / 1024.0);
    if (result < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return false;
    timing.intervals = std::size_t(result);
    return true;
}

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
