#include "historyrecorder.h"

#include "historydatabase.h"
#include "historystore.h"

namespace runlane {

HistoryRecorder::HistoryRecorder(std::string location, std::string workload)
    : m_thread([this, location = std::move(location), workload = std::move(workload)] { run(location, workload); })
{
}

HistoryRecorder::~HistoryRecorder()
{
    {
        const std::lock_guard lock(m_mutex);
        m_quit = true;
    }
    m_changed.notify_all();
    m_thread.join();
}

void HistoryRecorder::run(const std::string& location, const std::string& workload)
{
    // The database and the store live and die on this thread.
    HistoryDatabase db;
    bool ok = db.open(location);
    HistoryStore store(db);
    ok = ok && store.readKnownLabels(workload);
    std::unique_lock lock(m_mutex);
    m_state = ok ? State::Open : State::Failed;
    m_error = ok ? std::string() : db.error();
    m_changed.notify_all();
    if (!ok)
        return;
    m_changed.wait(lock, [this] { return m_quit || m_state == State::Writing; });
    if (m_state != State::Writing)
        return;
    const RunSet& set = *m_set;
    std::vector<HistoryRun>& runs = *m_runs;
    lock.unlock(); // the caller waits for Done, touching neither meanwhile
    ok = store.record(set, runs);
    lock.lock();
    m_recorded = ok;
    m_error = ok ? std::string() : store.error();
    m_state = State::Done;
    m_changed.notify_all();
}

void HistoryRecorder::waitWhile(State state, std::unique_lock<std::mutex>& lock)
{
    m_changed.wait(lock, [this, state] { return m_state != state; });
}

bool HistoryRecorder::opened()
{
    std::unique_lock lock(m_mutex);
    waitWhile(State::Opening, lock);
    return m_state != State::Failed;
}

bool HistoryRecorder::record(const RunSet& set, std::vector<HistoryRun>& runs)
{
    std::unique_lock lock(m_mutex);
    waitWhile(State::Opening, lock);
    if (m_state != State::Open) {
        if (m_state == State::Done)
            m_error = "this recorder has recorded already";
        return false;
    }
    m_set = &set;
    m_runs = &runs;
    m_state = State::Writing;
    m_changed.notify_all();
    waitWhile(State::Writing, lock);
    return m_recorded;
}

std::string HistoryRecorder::error()
{
    const std::lock_guard lock(m_mutex);
    return m_error;
}

} // namespace runlane
