#include "tasklanerows.h"

#include "measurementmetrics.h"
#include "profile.h"

#include <algorithm>

namespace runlane {

void TaskLaneRows::setTasks(const Profile& profile, bool onlyThatRan, const TaskPacking* all, const TaskPacking* ran)
{
    TaskPacking packing;
    std::size_t hidden = 0;
    if (all) {
        // `ran` is absent when every task ran.
        packing = onlyThatRan && ran ? *ran : *all;
        hidden = all->taskCount() - packing.taskCount();
    } else {
        packing = TaskPacking(profile, !onlyThatRan);
        hidden = onlyThatRan ? TaskPacking::neverRanCount(profile) : 0;
    }
    setTasks(std::move(packing), profile.trackCount());
    m_hiddenCount = hidden;
}

void TaskLaneRows::setTasks(TaskPacking packing, std::size_t trackCount)
{
    // Once per profile, so that a zoom only filters these lists.
    m_packing = std::move(packing);
    m_hiddenCount = 0;
    m_tasks.assign(trackCount, {});
    for (const TaskPacking::Row& row : m_packing.rows()) {
        for (std::uint32_t i = row.begin; i < row.end; ++i)
            m_tasks[row.track].push_back(Task{m_packing.tasks()[i], m_packing.createdAt(i), m_packing.endAt(i)});
    }
    for (auto& tasks : m_tasks) // ids are in order of creation
        std::sort(tasks.begin(), tasks.end(), [](const Task& a, const Task& b) { return a.id < b.id; });
    clearRows();
}

void TaskLaneRows::clearRows()
{
    m_rows.clear();
    m_rowOfPacked.assign(m_packing.rows().size(), -1);
    m_packedShown = false;
    m_taskCount = 0;
}

void TaskLaneRows::build(const Profile& profile, const MeasurementMetrics* metrics, const Options& options)
{
    clearRows();
    m_headerHeight = options.headerHeight;
    m_rowHeight = options.rowHeight;
    if (options.layout == Layout::Packed) {
        m_packedShown = true;
        m_taskCount = packedRows(options, m_rows);
    } else if (options.layout == Layout::PerTask) {
        m_taskCount = perTaskRows(profile, metrics, options, m_rows);
    } else {
        // Packed rows are few and cheap; a row per task is one per task
        // alive in the range (200,000 at a zoom out), and Auto compares
        // only the first screen of each: those rows are built only when
        // they are the ones shown.
        m_taskCount = packedRows(options, m_rows);
        if (tasksWithin(m_rows, options.screen) > perTaskWithin(options)) {
            m_packedShown = true;
        } else {
            m_rows.clear();
            m_taskCount = perTaskRows(profile, metrics, options, m_rows);
        }
    }
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].kind == Kind::Packed)
            m_rowOfPacked[m_rows[i].packed] = std::int32_t(i);
    }
}

std::size_t TaskLaneRows::perTaskRows(const Profile& p, const MeasurementMetrics* metrics, const Options& o,
                                      std::vector<Row>& rows) const
{
    int y = 0;
    std::size_t total = 0;
    for (TrackId t = 0; t < m_tasks.size(); ++t) {
        // Each track's rows are written straight after its header, in
        // creation order; another order sorts them there.
        const std::size_t header = rows.size();
        rows.push_back(Row{t, kNone, y, Kind::Header, 0, 0});
        for (const Task& task : m_tasks[t]) {
            if (listed(task, o))
                rows.push_back(Row{t, task.id, 0, Kind::Task, 0, 0});
        }
        const auto first = rows.begin() + std::ptrdiff_t(header + 1);
        const std::size_t count = std::size_t(rows.end() - first);
        if (count == 0) {
            rows.pop_back(); // the header of a track with nothing listed
            continue;
        }
        if (o.order == Order::Exec && metrics) {
            std::stable_sort(first, rows.end(),
                             [metrics](const Row& a, const Row& b) { return metrics->exec(a.task) > metrics->exec(b.task); });
        } else if (o.order == Order::Name) {
            std::stable_sort(first, rows.end(), [&p](const Row& a, const Row& b) {
                return p.labelName(p.labelOf(a.task)) < p.labelName(p.labelOf(b.task));
            });
        }
        rows[header].count = std::uint32_t(count);
        y += o.headerHeight;
        for (auto it = first; it != rows.end(); ++it) {
            it->y = y;
            y += o.rowHeight;
        }
        total += count;
    }
    return total;
}

std::size_t TaskLaneRows::perTaskWithin(const Options& o) const
{
    // What tasksWithin would count on perTaskRows's rows: their places
    // depend only on how many tasks each track lists, not on the order.
    int y = 0;
    std::size_t shown = 0;
    for (const auto& tasks : m_tasks) {
        bool header = false;
        for (const Task& task : tasks) {
            if (!listed(task, o))
                continue;
            if (!header) {
                if (y >= o.screen)
                    return shown;
                y += o.headerHeight;
                header = true;
            }
            if (y >= o.screen)
                return shown;
            ++shown;
            y += o.rowHeight;
        }
    }
    return shown;
}

std::size_t TaskLaneRows::packedRows(const Options& o, std::vector<Row>& rows) const
{
    const auto& packed = m_packing.rows();
    int y = 0;
    std::size_t listed = 0;
    std::size_t header = 0;
    for (std::size_t r = 0; r < packed.size(); ++r) {
        const TaskPacking::Row& row = packed[r];
        std::uint32_t count = row.end - row.begin;
        if (o.onlyInRange) {
            const auto [a, b] = m_packing.alive(row, o.from, o.to);
            count = b - a;
        }
        if (count == 0)
            continue;
        if (rows.empty() || rows[header].track != row.track) {
            header = rows.size();
            rows.push_back(Row{row.track, kNone, y, Kind::Header, 0, 0});
            y += o.headerHeight;
        }
        rows[header].count += count;
        rows.push_back(Row{row.track, kNone, y, Kind::Packed, std::uint32_t(r), count});
        y += o.rowHeight;
        listed += count;
    }
    return listed;
}

std::size_t TaskLaneRows::tasksWithin(const std::vector<Row>& rows, int height)
{
    std::size_t shown = 0;
    for (const Row& row : rows) {
        if (row.y >= height)
            break;
        if (row.kind == Kind::Task)
            ++shown;
        else if (row.kind == Kind::Packed)
            shown += row.count;
    }
    return shown;
}

std::vector<TaskLaneRows::Row>::const_iterator TaskLaneRows::firstFrom(int y) const
{
    return std::partition_point(m_rows.begin(), m_rows.end(), [this, y](const Row& r) { return r.y + heightOf(r) <= y; });
}

const TaskLaneRows::Row* TaskLaneRows::rowAt(int y) const
{
    const auto it = firstFrom(y);
    return it == m_rows.end() || it->y > y ? nullptr : &*it;
}

const TaskLaneRows::Row* TaskLaneRows::rowOfTask(MeasurementId task) const
{
    if (m_packedShown) {
        const std::size_t packed = m_packing.rowOf(task);
        return packed < m_rowOfPacked.size() && m_rowOfPacked[packed] >= 0 ? &m_rows[std::size_t(m_rowOfPacked[packed])]
                                                                          : nullptr;
    }
    for (const Row& r : m_rows) {
        if (r.kind == Kind::Task && r.task == task)
            return &r;
    }
    return nullptr;
}

} // namespace runlane
