#include "intervalnesting.h"

#include "diagnostics.h"
#include "profilebuilder.h"
#include "rowpacker.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace runlane {

IntervalNesting::IntervalNesting(const std::vector<Measurement>& measurements, std::vector<std::uint32_t>& parent,
                                 std::vector<std::uint32_t>& depth, Log& log)
    : m_measurements(measurements), m_parent(parent), m_depth(depth), m_log(log)
{
}

void IntervalNesting::Log::add(const Interval& child, const Interval& parent, bool cut)
{
    if (examples.size() < Diagnostics::kMaxExamples)
        examples.push_back(Overlap{child, parent, cut});
    ++count[cut ? 1 : 0];
}

// Nesting on a thread: the running stack. Intervals arrive sorted by (start,
// end descending, order); an interval is the child of the innermost one still
// open at its start. One stays open until an interval starts at or after its
// end, so two intervals at the same depth never overlap.
//
// A child that ends after its parent (partially overlapping slices, e.g.
// Chrome X events {a 0..10} and {b 5..15}) is a contradiction on one
// running stack. A synchronous call is cut at its parent's end, with a
// warning: kept whole it would bill 10..15 to a's time with children,
// making it longer than a itself (semantics.md §4), and moving it to a row
// of its own would have two calls running at once on one thread, so exec
// times would no longer add up to the thread's busy time. What it nests
// is then nested in the cut interval, cut again if need be. The intervals
// of tasks (which may rightly outlive the interval they started in on
// other tracks) are kept whole, with a warning.
void IntervalNesting::thread(std::span<Interval> slice)
{
    std::vector<std::uint32_t> stack;
    for (std::uint32_t i = 0; i < slice.size(); ++i) {
        Interval& iv = slice[i];
        while (!stack.empty() && slice[stack.back()].end <= iv.start)
            stack.pop_back();
        m_parent[i] = stack.empty() ? kNone : stack.back();
        m_depth[i] = std::uint32_t(stack.size());
        if (!stack.empty() && iv.end > slice[stack.back()].end) {
            const Interval& outer = slice[stack.back()];
            const bool cut = (m_measurements[iv.measurement].flags & Call) != 0;
            m_log.add(iv, outer, cut);
            if (cut)
                iv.end = outer.end;
        }
        stack.push_back(i);
    }
}

// Nesting on an async track: tasks run concurrently, so a task's slices nest
// only among themselves (a task and the measurements it created form a
// group). Each group is stacked on its own, then groups are packed into rows
// first-fit by their time span, so that same-depth intervals stay disjoint.
void IntervalNesting::async(std::span<const Interval> slice)
{
    const std::size_t n = slice.size();
    // Group = root of the creation chain, found with memoisation.
    std::unordered_map<MeasurementId, MeasurementId> rootOf;
    auto rootFor = [&](MeasurementId m) {
        std::vector<MeasurementId> path;
        MeasurementId cur = m;
        for (;;) {
            auto it = rootOf.find(cur);
            if (it != rootOf.end()) {
                cur = it->second;
                break;
            }
            path.push_back(cur);
            const MeasurementId creator = m_measurements[cur].creator;
            if (creator == kNone || creator == ProfileBuilder::kAutoCreator || path.size() > m_measurements.size())
                break;
            cur = creator;
        }
        for (MeasurementId p : path)
            rootOf[p] = cur;
        return cur;
    };
    // Groups are kept in the order of their first interval.
    std::vector<MeasurementId> group(n);
    std::vector<std::uint32_t> groupFirst(n);
    std::unordered_map<MeasurementId, std::uint32_t> firstIndex;
    for (std::uint32_t i = 0; i < n; ++i) {
        group[i] = rootFor(slice[i].measurement);
        groupFirst[i] = firstIndex.emplace(group[i], i).first->second;
    }
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&groupFirst](std::uint32_t a, std::uint32_t b) { return groupFirst[a] < groupFirst[b]; });

    RowPacker rows;
    std::vector<std::uint32_t> stack;
    std::vector<std::uint32_t> level(n);
    for (std::size_t runStart = 0; runStart < n;) {
        std::size_t runEnd = runStart;
        while (runEnd < n && groupFirst[order[runEnd]] == groupFirst[order[runStart]])
            ++runEnd;
        stack.clear();
        std::uint32_t height = 0;
        Time spanEnd = kTimeMin;
        for (std::size_t k = runStart; k < runEnd; ++k) {
            const std::uint32_t i = order[k];
            while (!stack.empty() && slice[stack.back()].end <= slice[i].start)
                stack.pop_back();
            m_parent[i] = stack.empty() ? kNone : stack.back();
            if (!stack.empty() && slice[i].end > slice[stack.back()].end)
                m_log.add(slice[i], slice[stack.back()], false);
            level[i] = std::uint32_t(stack.size());
            height = std::max(height, level[i] + 1);
            spanEnd = std::max(spanEnd, slice[i].end);
            stack.push_back(i);
        }
        const std::uint32_t base = rows.place(slice[order[runStart]].start, spanEnd, height);
        for (std::size_t k = runStart; k < runEnd; ++k)
            m_depth[order[k]] = base + level[order[k]];
        runStart = runEnd;
    }
}

// Polls on a pool of workers: a task spawned from a poll may run on another
// worker while that poll goes on, so neither nests in the other (nesting
// would take its time off the spawner's exec, and a poll that outlasts the
// spawner's would be an overlap warning). Rows are then the polls running
// at once, the workers busy: exec adds up to worker time, not loop time.
void IntervalNesting::pool(std::span<const Interval> slice)
{
    RowPacker rows;
    for (std::uint32_t i = 0; i < slice.size(); ++i) {
        m_parent[i] = kNone;
        m_depth[i] = rows.place(slice[i].start, slice[i].end, 1);
    }
}

} // namespace runlane
