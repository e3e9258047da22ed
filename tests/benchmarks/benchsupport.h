#pragma once

// What the load benchmarks share: the clock, the memory, and a file
// loaded K times with the median and every run's time.

#include "profileloader.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace runlane::bench {

inline double peakRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0; // KiB on Linux
}

// The process's resident and peak resident memory (VmRSS and VmHWM of
// /proc/self/status), MiB.
struct Resident {
    double now = 0;
    double peak = 0;
};
inline Resident residentMiB()
{
    Resident r;
    std::FILE* status = std::fopen("/proc/self/status", "r");
    if (!status)
        return r;
    char line[256];
    while (std::fgets(line, sizeof line, status)) {
        unsigned long kib = 0;
        if (std::sscanf(line, "VmRSS: %lu kB", &kib) == 1)
            r.now = double(kib) / 1024.0;
        else if (std::sscanf(line, "VmHWM: %lu kB", &kib) == 1)
            r.peak = double(kib) / 1024.0;
    }
    std::fclose(status);
    return r;
}

template<typename Fn>
double seconds(Fn&& fn)
{
    const auto start = std::chrono::steady_clock::now();
    fn();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The options every load benchmark takes: a file to load instead of a
// generated one, where to keep the generated one, how many loads.
struct FileOptions {
    std::string file;
    std::string keep;
    int repeat = 1;
};

// "--name value" pairs: the FileOptions', then `own(name, value)` for the
// benchmark's own, which returns false for a name it does not know. False
// for an unknown name or a name without its value.
template<typename Own>
bool parseOptions(int argc, char** argv, FileOptions& common, Own own)
{
    for (int i = 1; i < argc; i += 2) {
        if (i + 1 >= argc)
            return false;
        const std::string arg = argv[i];
        const char* value = argv[i + 1];
        if (arg == "--file")
            common.file = value;
        else if (arg == "--keep")
            common.keep = value;
        else if (arg == "--repeat")
            common.repeat = std::max(1, std::atoi(value));
        else if (!own(arg, value))
            return false;
    }
    return true;
}

struct LoadRuns {
    LoadResult result; // of the last run
    double median = 0; // seconds
    std::string runs; // every run, in order: "1.02 s, 0.98 s"
};

// Loads `file` `repeat` times; false (the error printed, after `program`)
// if a load fails.
inline bool loadRepeatedly(const std::string& file, int repeat, const char* program, LoadRuns& out)
{
    std::vector<double> loads;
    for (int k = 0; k < repeat; ++k) {
        out.result = LoadResult();
        loads.push_back(seconds([&] { out.result = ProfileLoader::load(QString::fromStdString(file)); }));
        if (!out.result.ok()) {
            std::fprintf(stderr, "%s: %s\n", program, out.result.error.toString().c_str());
            return false;
        }
    }
    // Every run, in order, so that a figure in docs/performance.md can say how they spread.
    for (const double l : loads) {
        char text[32];
        std::snprintf(text, sizeof text, "%s%.2f s", out.runs.empty() ? "" : ", ", l);
        out.runs += text;
    }
    std::sort(loads.begin(), loads.end());
    out.median = loads[loads.size() / 2];
    return true;
}

} // namespace runlane::bench
