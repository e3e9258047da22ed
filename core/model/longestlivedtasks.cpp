#include "longestlivedtasks.h"

#include <algorithm>

namespace runlane {

// Its buffers are members and keep their memory from one selection to the
// next: hundreds of thousands of candidates a second, in fresh pages each
// time, cost more in page faults than the selection itself.
std::uint64_t LongestLivedTasks::select(std::size_t budget,
                                        const std::function<std::optional<Life>(std::uint32_t)>& lifeOf,
                                        std::vector<Kept>& kept)
{
    for (const std::uint32_t task : m_running)
        touch(task);
    m_candidates.swap(m_touched);
    m_touched.clear();
    // From here, touch() lists a task again for the next selection.
    ++m_round;

    m_lives.clear();
    for (const std::uint32_t task : m_candidates) {
        const std::optional<Life> life = lifeOf(task);
        if (!life)
            continue;
        if (task >= m_counted.size())
            m_counted.resize(std::size_t(task) + 1, false);
        if (!m_counted[task]) {
            m_counted[task] = true;
            ++m_count;
        }
        m_lives.push_back(Candidate{life->span, task, life->settled});
    }

    m_running.clear();
    kept.clear();
    if (budget == 0)
        return m_count; // and none stays in the running: each is counted once, when touched first
    const auto byTask = [](const Candidate& a, const Candidate& b) { return a.task < b.task; };
    if (m_lives.size() <= budget) {
        std::sort(m_lives.begin(), m_lives.end(), byTask);
        for (const Candidate& c : m_lives) {
            m_running.push_back(c.task);
            kept.push_back(Kept{c.span, c.task});
        }
        return m_count - kept.size();
    }
    // The mark: the budget-th longest settled life (fewer settled: 0).
    // The candidates' order does not matter, and is set again below.
    const auto settledEnd = std::partition(m_lives.begin(), m_lives.end(), [](const Candidate& c) { return c.settled; });
    std::uint64_t mark = 0;
    if (std::size_t(settledEnd - m_lives.begin()) >= budget) {
        const auto at = m_lives.begin() + std::ptrdiff_t(budget - 1);
        std::nth_element(m_lives.begin(), at, settledEnd, [](const Candidate& a, const Candidate& b) { return a.span > b.span; });
        mark = at->span;
    }
    for (const Candidate& c : m_lives) {
        if (!c.settled || c.span >= mark)
            m_running.push_back(c.task);
    }

    // Longest first; equal ones in list order.
    std::nth_element(m_lives.begin(), m_lives.begin() + std::ptrdiff_t(budget), m_lives.end(),
                     [](const Candidate& a, const Candidate& b) { return a.span != b.span ? a.span > b.span : a.task < b.task; });
    std::sort(m_lives.begin(), m_lives.begin() + std::ptrdiff_t(budget), byTask);
    for (std::size_t k = 0; k < budget; ++k)
        kept.push_back(Kept{m_lives[k].span, m_lives[k].task});
    return m_count - kept.size();
}

} // namespace runlane
