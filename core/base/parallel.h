#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace runlane {

// Runs fn(i) once for every i in [0, n), spread over the machine's cores
// (this thread included, at most eight), and returns when all are done.
// Items are handed out in order, so put the big ones first. The first
// exception thrown is rethrown here once every thread has stopped.
template<typename Fn>
void parallelFor(std::size_t n, Fn&& fn)
{
    const std::size_t threads = std::min<std::size_t>({n, std::max(1u, std::thread::hardware_concurrency()), 8});
    if (threads <= 1) {
        for (std::size_t i = 0; i < n; ++i)
            fn(i);
        return;
    }
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    std::mutex errorMutex;
    auto work = [&] {
        for (std::size_t i = next++; i < n && !failed.load(); i = next++) {
            try {
                fn(i);
            } catch (...) {
                std::lock_guard lock(errorMutex);
                if (!error)
                    error = std::current_exception();
                failed = true;
            }
        }
    };
    std::vector<std::thread> helpers;
    helpers.reserve(threads - 1);
    for (std::size_t t = 1; t < threads; ++t)
        helpers.emplace_back(work);
    work();
    for (std::thread& helper : helpers)
        helper.join();
    if (error)
        std::rethrow_exception(error);
}

// The items parallelSlices hands out at a time: enough that a slice's
// start is negligible, few enough that both cores stay busy to the end.
inline constexpr std::size_t kParallelSlice = std::size_t(1) << 16;

// Runs fn(from, to) over [0, n) in slices of kParallelSlice items, on every
// core. Returns what each slice returned, in slice order (unless fn returns
// void), so that what a loop over millions of items finds, warnings for
// instance, can be given in the order one thread would have found it.
template<typename Fn>
auto parallelSlices(std::size_t n, Fn&& fn)
{
    const std::size_t parts = (n + kParallelSlice - 1) / kParallelSlice;
    const auto slice = [&](std::size_t s) { return fn(s * kParallelSlice, std::min(n, (s + 1) * kParallelSlice)); };
    using Result = std::invoke_result_t<Fn&, std::size_t, std::size_t>;
    if constexpr (std::is_void_v<Result>) {
        parallelFor(parts, slice);
    } else {
        std::vector<Result> results(parts);
        parallelFor(parts, [&](std::size_t s) { results[s] = slice(s); });
        return results;
    }
}

} // namespace runlane
