#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
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

} // namespace runlane
