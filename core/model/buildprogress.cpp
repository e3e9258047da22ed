#include "buildprogress.h"

#include <utility>

namespace runlane {

BuildProgress::BuildProgress(Report report, int done, int steps) : m_report(std::move(report)), m_step(done), m_steps(steps)
{
}

void BuildProgress::begin(const char* what)
{
    ++m_step;
    m_what = what;
    if (m_report)
        m_report(m_step, m_steps, what);
}

void BuildProgress::within(const std::string& reached)
{
    if (m_report)
        m_report(m_step, m_steps, (std::string(m_what) + ": " + reached).c_str());
}

BuildProgress::Counter::Counter(BuildProgress& progress, std::size_t total, std::string what)
    : m_progress(progress), m_total(total), m_what(std::move(what)), m_thread(std::this_thread::get_id())
{
}

void BuildProgress::Counter::done()
{
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

} // namespace runlane
