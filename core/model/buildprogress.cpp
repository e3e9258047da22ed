#include "buildprogress.h"

#include "loaderror.h"

#include <algorithm>
#include <utility>

namespace runlane {

BuildProgress::BuildProgress(Report report, int done, int steps) : m_report(std::move(report)), m_step(done), m_steps(steps)
{
}

void BuildProgress::stopIfCancelled() const
{
    throwIfCancelled(m_cancel);
}

void BuildProgress::begin(const char* what)
{
    stopIfCancelled();
    ++m_step;
    m_what = what;
    m_begun = true;
    if (m_report)
        m_report(m_step, m_steps, what);
}

void BuildProgress::within(const std::string& reached)
{
    stopIfCancelled();
    if (m_report && m_begun)
        m_report(m_step, m_steps, (std::string(m_what) + ": " + reached).c_str());
}

BuildProgress::Counter::Counter(BuildProgress& progress, std::size_t total, std::string what)
    : m_progress(progress), m_total(total), m_what(std::move(what)), m_thread(std::this_thread::get_id())
{
}

void BuildProgress::Counter::done()
{
    m_progress.stopIfCancelled();
    const std::size_t count = ++m_done;
    if (std::this_thread::get_id() == m_thread)
        tell(count);
}

void BuildProgress::Counter::finish()
{
    if (m_told < m_total)
        tell(m_total);
}

void BuildProgress::Counter::tell(std::size_t count)
{
    if (m_total < 2)
        return;
    m_told = count;
    m_progress.within(std::to_string(count) + " of " + std::to_string(m_total) + " " + m_what);
}

BuildProgress::Share::Share(BuildProgress& progress, std::string part, std::chrono::milliseconds every)
    : m_progress(progress)
    , m_part(std::move(part))
    , m_every(every)
    , m_thread(std::this_thread::get_id())
    , m_last(std::chrono::steady_clock::now())
{
    m_progress.within(m_part);
}

void BuildProgress::Share::at(std::uint64_t done, std::uint64_t total)
{
    m_progress.stopIfCancelled();
    if (std::this_thread::get_id() != m_thread || total == 0)
        return;
    // done * 100 would overflow only past 1.8e17: never a count of work.
    const std::uint64_t percent = std::min<std::uint64_t>(99, done * 100 / total);
    if (percent <= m_told)
        return;
    const auto now = std::chrono::steady_clock::now();
    if (now - m_last < m_every)
        return;
    m_told = percent;
    m_last = now;
    m_progress.within(m_part + ": " + std::to_string(percent) + " %");
}

} // namespace runlane
