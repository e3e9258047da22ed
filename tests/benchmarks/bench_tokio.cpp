// bench_tokio: how fast a tokio-console recording becomes a Profile. Writes
// a recording of N events from the seeded runtime simulation of
// tokiogenerator.h (4 workers by default: overlapping polls, wakes, waker
// clones) to a temporary file, loads it with ProfileLoader, computes the
// scheduling delays, and prints one line per figure; see
// docs/performance.md.
//
//   bench_tokio [--events 10000000] [--workers 4] [--seed 1] [--keep out.jsonl] [--repeat 1]
//   bench_tokio --file out.jsonl [--repeat 3]

#include "benchsupport.h"
#include "profileloader.h"
#include "schedulingdelays.h"
#include "tokiogenerator.h"

#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace runlane;
using runlane::test::TokioGenerator;

namespace {

using bench::peakRssMiB;

int usage()
{
    std::fprintf(stderr, "Usage: bench_tokio [--events N] [--workers N] [--seed N] [--keep FILE] [--repeat K]\n"
                         "       bench_tokio --file FILE [--repeat K]\n");
    return 2;
}

// The recording, written in large blocks: a write per line would cost
// more than the load it feeds.
bool write(const test::TokioGenOptions& options, const std::string& path, std::uint64_t& events)
{
    std::FILE* out = std::fopen(path.c_str(), "wb");
    if (!out) {
        std::perror(path.c_str());
        return false;
    }
    std::string buffer = "{\"v\":1}\n";
    events = 0;
    TokioGenerator::generate(options, [&](const test::TokioGenEvent& e) {
        TokioGenerator::appendLine(buffer, e);
        buffer += '\n';
        ++events;
        if (buffer.size() >= (1u << 22)) {
            std::fwrite(buffer.data(), 1, buffer.size(), out);
            buffer.clear();
        }
    });
    std::fwrite(buffer.data(), 1, buffer.size(), out);
    return std::fclose(out) == 0;
}

} // namespace

int main(int argc, char** argv)
{
    test::TokioGenOptions options;
    options.events = 10'000'000;
    options.workers = 4;
    options.rootTasks = 64;
    bench::FileOptions common;
    const bool parsed = bench::parseOptions(argc, argv, common, [&](const std::string& arg, const char* value) {
        if (arg == "--events")
            options.events = std::strtoull(value, nullptr, 10);
        else if (arg == "--workers")
            options.workers = std::max(1, std::atoi(value));
        else if (arg == "--seed")
            options.seed = std::strtoull(value, nullptr, 10);
        else
            return false;
        return true;
    });
    if (!parsed)
        return usage();
    std::string& file = common.file;
    const std::string& keep = common.keep;
    const int repeat = common.repeat;
    if (options.events == 0)
        return usage();

    QTemporaryDir dir;
    if (file.empty()) {
        file = keep.empty() ? dir.filePath(QStringLiteral("bench.jsonl")).toStdString() : keep;
        std::uint64_t events = 0;
        bool ok = false;
        const double generate = bench::seconds([&] { ok = write(options, file, events); });
        if (!ok)
            return 1;
        std::printf("generated:     %llu events, %d workers, in %.2f s\n", static_cast<unsigned long long>(events),
                    options.workers, generate);
    }
    const double fileMB = double(QFileInfo(QString::fromStdString(file)).size()) / 1e6;

    bench::LoadRuns loaded;
    if (!bench::loadRepeatedly(file, repeat, "bench_tokio", loaded))
        return 1;
    const double load = loaded.median;
    const std::string& runs = loaded.runs;
    const Profile& p = *loaded.result.profile;
    const double delays = bench::seconds([&] { SchedulingDelays d(p); });
    std::printf("file:          %.1f MB\n", fileMB);
    std::printf("load:          %.2f s (median of %s), %.0f MB/s\n", load, runs.c_str(), fileMB / load);
    std::printf("sched. delays: %.2f s\n", delays);
    std::printf("tasks:         %zu, polls %zu, wakes %zu, rows %d\n", p.measurementCount(), p.intervalCount(),
                p.wakes().size(), p.track(0).depthCount());
    std::printf("peak RSS:      %.0f MiB\n", peakRssMiB());
    return 0;
}
