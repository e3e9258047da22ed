#include "taskpacking.h"

#include "rowpacker.h"

#include <algorithm>
#include <map>

namespace runlane {

Time TaskPacking::endOf(const Profile& profile, const Measurement& m)
{
    return m.finalState() == FinalState::Unfinished ? profile.endTime() : m.finished;
}

namespace {

bool neverRan(const Profile& profile, MeasurementId id)
{
    return profile.intervalsOf(id).empty();
}

} // namespace

std::size_t TaskPacking::neverRanCount(const Profile& profile)
{
    std::size_t count = 0;
    for (MeasurementId id = 0; id < profile.measurementCount(); ++id)
        count += profile.measurement(id).isAsync() && neverRan(profile, id);
    return count;
}

std::vector<TrackId> TaskPacking::laneTracks(const Profile& profile)
{
    std::vector<TrackId> lane(profile.trackCount());
    std::map<std::pair<std::int64_t, StringId>, TrackId> first;
    for (TrackId t = 0; t < profile.trackCount(); ++t) {
        const Track& track = profile.track(t);
        lane[t] = track.laneGroup == kEmptyString ? t : first.try_emplace({track.pid, track.laneGroup}, t).first->second;
    }
    return lane;
}

TaskPacking::TaskPacking(const Profile& profile, bool withNeverRan)
{
    const std::vector<TrackId> lane = laneTracks(profile);
    // Tasks per track and label, each list in order of creation (ids are
    // not: a reused Chronos id or a late begin event comes later).
    struct Group {
        TrackId track;
        Time firstCreated;
        LabelId label;
        std::vector<MeasurementId> tasks;
    };
    std::vector<Group> groups;
    std::map<std::pair<TrackId, LabelId>, std::size_t> groupOf;
    for (MeasurementId id = 0; id < profile.measurementCount(); ++id) {
        const Measurement& m = profile.measurement(id);
        if (!m.isAsync() || (!withNeverRan && neverRan(profile, id)))
            continue;
        const auto [it, added] = groupOf.try_emplace({lane[m.track], m.label}, groups.size());
        if (added)
            groups.push_back(Group{lane[m.track], m.created, m.label, {}});
        Group& g = groups[it->second];
        g.firstCreated = std::min(g.firstCreated, m.created);
        g.tasks.push_back(id);
    }
    // The labels with the most tasks first (the first screen then shows
    // the most), ties in order of first creation.
    std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
        if (a.track != b.track)
            return a.track < b.track;
        if (a.tasks.size() != b.tasks.size())
            return a.tasks.size() > b.tasks.size();
        return a.firstCreated < b.firstCreated;
    });
    for (Group& g : groups) {
        std::stable_sort(g.tasks.begin(), g.tasks.end(), [&profile](MeasurementId a, MeasurementId b) {
            return profile.measurement(a).created < profile.measurement(b).created;
        });
        RowPacker packer;
        std::vector<std::vector<MeasurementId>> rows;
        for (const MeasurementId id : g.tasks) {
            const Measurement& m = profile.measurement(id);
            // A zero-length task still takes its instant: it may not share
            // it with another that starts there.
            const Time end = std::max(endOf(profile, m), m.created + (endOf(profile, m) == m.created ? 1 : 0));
            const std::uint32_t row = packer.place(m.created, end, 1);
            if (row >= rows.size())
                rows.resize(row + 1);
            rows[row].push_back(id);
        }
        for (std::uint32_t r = 0; r < rows.size(); ++r) {
            const auto begin = std::uint32_t(m_tasks.size());
            for (const MeasurementId id : rows[r]) {
                m_rowOf.emplace(id, std::uint32_t(m_rows.size()));
                m_tasks.push_back(id);
                m_created.push_back(profile.measurement(id).created);
                m_ends.push_back(endOf(profile, profile.measurement(id)));
            }
            m_rows.push_back(Row{g.track, g.label, r, begin, std::uint32_t(m_tasks.size())});
        }
    }
}

std::size_t TaskPacking::rowOf(MeasurementId task) const
{
    const auto it = m_rowOf.find(task);
    return it == m_rowOf.end() ? m_rows.size() : it->second;
}

std::pair<std::uint32_t, std::uint32_t> TaskPacking::alive(const Row& row, Time from, Time to) const
{
    const auto first = std::partition_point(m_ends.begin() + row.begin, m_ends.begin() + row.end, [from](Time e) { return e < from; });
    const auto last = std::partition_point(m_created.begin() + row.begin, m_created.begin() + row.end, [to](Time c) { return c <= to; });
    const auto a = std::uint32_t(first - m_ends.begin());
    const auto b = std::uint32_t(last - m_created.begin());
    return {a, std::max(a, b)};
}

std::uint32_t TaskPacking::firstCreatedFrom(const Row& row, Time t) const
{
    return std::uint32_t(std::partition_point(m_created.begin() + row.begin, m_created.begin() + row.end, [t](Time c) { return c < t; })
                         - m_created.begin());
}

} // namespace runlane
