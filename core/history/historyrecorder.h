#pragma once

#include "historyrun.h"

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace runlane {

class RunSet;

// Records run sets into a history from a thread of its own, which opens
// the database and reads what the workload's last run labelled while the
// caller is still loading the profiles (`history record`): what a record
// adds to the load is then the per-label values and the writing of them,
// not the opening too. A Qt SQL connection is used only by the thread
// that opened it, so every query runs on the recorder's thread.
class HistoryRecorder
{
public:
    // Starts opening `location` (as --db takes it, "" for the default
    // file) and reading `workload`'s labels.
    HistoryRecorder(std::string location, std::string workload);
    ~HistoryRecorder();
    HistoryRecorder(const HistoryRecorder&) = delete;
    HistoryRecorder& operator=(const HistoryRecorder&) = delete;

    // Waits for the opening; false with error() if the history could not
    // be opened or read.
    bool opened();
    // Stores set.runs()[i] as runs[i] (HistoryStore::record: one
    // transaction) and waits for it; false with error() set. Once per
    // recorder.
    bool record(const RunSet& set, std::vector<HistoryRun>& runs);
    // What went wrong, in the database's words.
    std::string error();

private:
    enum class State { Opening, Open, Failed, Writing, Done };
    void run(const std::string& location, const std::string& workload);
    void waitWhile(State state, std::unique_lock<std::mutex>& lock);

    std::mutex m_mutex;
    std::condition_variable m_changed;
    State m_state = State::Opening;
    bool m_quit = false;
    bool m_recorded = false;
    std::string m_error;
    // The job, while Writing.
    const RunSet* m_set = nullptr;
    std::vector<HistoryRun>* m_runs = nullptr;
    std::thread m_thread; // last: started once the rest is made
};

} // namespace runlane
