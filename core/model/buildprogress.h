#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
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

    // Where a long part tells how far it is, it can also be stopped: from
    // now on every report, and every Counter::done and Share::at on any
    // thread, first throws LoadCancelled if `cancel` is set (null: never).
    void stopOn(const std::atomic<bool>* cancel) { m_cancel = cancel; }
    const std::atomic<bool>* cancel() const { return m_cancel; }
    // Throws LoadCancelled if that cancel is set (from any thread): for a
    // long loop between reports.
    void stopIfCancelled() const;

    // The next step begins.
    void begin(const char* what);
    // The steps up to `step` are over, begun or not (a format without a
    // finishing pass never begins the first): the next is step + 1.
    void reach(int step) { m_step = std::max(m_step, step); }
    // The current step again, with how far it is; nothing before a step
    // began (a format's finishing pass after a cut, which is no step).
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

    // How far one long part of the current step is, for work that has no
    // items to count (a sort, a permutation): the part is told as it
    // begins, then as a share of it ("sorting: 40 %"). at() may be called
    // from any thread and as often as the work likes; it is told only on
    // the thread that made the share, when the whole percent moved and at
    // least `every` passed since the last report, so that a part of a few
    // milliseconds tells nothing more. An estimated total may be passed:
    // the share stays below 100 %.
    class Share
    {
    public:
        Share(BuildProgress& progress, std::string part, std::chrono::milliseconds every = std::chrono::milliseconds(100));
        void at(std::uint64_t done, std::uint64_t total);

    private:
        BuildProgress& m_progress;
        const std::string m_part;
        const std::chrono::steady_clock::duration m_every;
        const std::thread::id m_thread;
        std::uint64_t m_told = 0; // the percent told last; only on m_thread
        std::chrono::steady_clock::time_point m_last;
    };

private:
    Report m_report;
    const std::atomic<bool>* m_cancel = nullptr;
    int m_step;
    int m_steps;
    const char* m_what = "";
    bool m_begun = false;
};

} // namespace runlane
