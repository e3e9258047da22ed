#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace runlane {

// Which of a loading file's tasks its previews show: the `budget`
// longest-lived so far, equal ones the first in the format's list
// (PreviewSettings::taskBudget). Kept from one preview to the next, so
// that a preview looks at the tasks touched since the last one and at
// those still in the running, not at every task read: a file of millions
// of tasks would otherwise cost each preview a selection among all of them
// (Perfetto, 1.5 M tasks read: 53 ms a preview, on the loading thread).
//
// Why that is exact: a settled task's life changes only when it is touched
// and then does not shrink, so the `budget` settled tasks that are longest
// now will still be at least this long later, and no task outlives the
// budget-th of them later unless it is at least as long as it is now.
// A settled task below that mark and never touched again can be left out
// of every later selection. A task that is not settled (a Perfetto slice
// still open, whose end may come with an earlier time than the latest one
// read) is always looked at, and counts as 0 for the mark.
class LongestLivedTasks
{
public:
    struct Life {
        std::uint64_t span; // its last time so far less its first
        bool settled = true;
    };
    // A task kept: its life, and its index in the format's list.
    struct Kept {
        std::uint64_t span;
        std::uint32_t task;
    };
    // Task `index` (in the format's list) is new, or its life changed.
    void touch(std::uint32_t index)
    {
        if (index >= m_listed.size())
            m_listed.resize(std::size_t(index) + 1, 0); // the capacity grows geometrically
        if (m_listed[index] != m_round) {
            m_listed[index] = m_round;
            m_touched.push_back(index);
        }
    }

    // The `budget` longest-lived, in list order, into `kept`. `lifeOf(i)`:
    // task i's life so far; none while it is not a task (a format's rules
    // may make it one later: it is touched then). Returns how many tasks
    // were left out.
    std::uint64_t select(std::size_t budget, const std::function<std::optional<Life>(std::uint32_t)>& lifeOf,
                         std::vector<Kept>& kept);

private:
    // The tasks to look at in the next selection, each once: those touched
    // since the last one, and m_running. m_listed says per task in which
    // round it was last listed: a task's events touch it again and again,
    // and sorting out the repeats cost more than the selection itself.
    std::vector<std::uint32_t> m_touched;
    std::vector<std::uint32_t> m_listed;
    std::uint32_t m_round = 1;
    std::vector<std::uint32_t> m_running; // the tasks a later selection may keep
    struct Candidate {
        std::uint64_t span;
        std::uint32_t task;
        bool settled;
    };
    std::vector<std::uint32_t> m_candidates;
    std::vector<Candidate> m_lives;
    std::vector<bool> m_counted;
    std::uint64_t m_count = 0;
};

} // namespace runlane
