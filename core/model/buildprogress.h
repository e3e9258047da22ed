#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <thread>

namespace runlane {

// How a profile's build tells where it is (LoadControl::building): each
// step as it begins and, for the steps that take seconds on the biggest
// files, again as they go, under the same step number, the step's name
// followed by ": " and how far it is ("nesting the calls: 3 of 10 tracks
// laid out"), so that the banner has news at least once a second. Every
// report is made on the thread that runs the build, as LoadControl::building
// promises, also from work spread over the cores (Counter).
class BuildProgress
{
public:
    using Report = std::function<void(int step, int steps, const char* what)>;

    // `done` steps were reported before (the format's finishing pass);
    // `steps` counts them all. A null `report` is asked nothing.
    BuildProgress(Report report, int done, int steps);

    // The next step begins.
    void begin(const char* what);
    // The current step again, with how far it is.
    void within(const std::string& reached);

    // Items of the current step done on any core ("K of N tracks laid
    // out", `what` = "tracks laid out"). Told only on the thread that made
    // the counter, as it finishes one of its items, and by finish() once
    // all are (unless that was told already). A count of one item or none
    // is not told at all: the step's own report says as much.
    class Counter
    {
    public:
        Counter(BuildProgress& progress, std::size_t total, std::string what);
        // One more item done, on any thread.
        void done();
        // All done: on the counter's thread, after the work.
        void finish();

    private:
        void tell(std::size_t count);

        BuildProgress& m_progress;
        const std::size_t m_total;
        const std::string m_what;
        const std::thread::id m_thread;
        std::atomic<std::size_t> m_done{0};
        std::size_t m_told = 0; // only on m_thread
    };

private:
    Report m_report;
    int m_step;
    int m_steps;
    const char* m_what = "";
};

} // namespace runlane
