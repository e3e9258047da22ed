#pragma once

// A benchmark's load in a child process of its own: its CPU time (user +
// system, every thread of the loader) and peak memory are the child's
// alone, from wait4, and the parent never holds the loader's threads.

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <vector>

namespace runlane::bench {

struct Timing {
    std::vector<double> wall;
    std::vector<double> cpu;
    std::vector<double> peakMiB;
    std::size_t intervals = 0;
};

inline double median(std::vector<double> values)
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

// inChild, and plain data the child fills in `work(data)` back in `data`
// (what the child measured of itself). False if either failed.
template<typename Data, typename Work>
bool inChildWithData(Work work, Timing& timing, Data& data)
{
    int fds[2];
    if (pipe(fds) != 0)
        return false;
    const bool ok = inChild(
        [&]() -> long long {
            const long long result = work(data);
            const bool written = write(fds[1], &data, sizeof data) == ssize_t(sizeof data);
            return written ? result : -1;
        },
        timing);
    close(fds[1]);
    const bool got = read(fds[0], &data, sizeof data) == ssize_t(sizeof data);
    close(fds[0]);
    return ok && got;
}

} // namespace runlane::bench
