#include "outermosttasks.h"

#include "profilebuilder.h"

#include <algorithm>
#include <tuple>

namespace runlane {

std::vector<MeasurementId> OutermostTasks::apply(ProfileBuilder& b, std::span<const Request> requests)
{
    std::vector<MeasurementId> tasks(requests.size(), kNone);
    if (requests.empty())
        return tasks;
    std::vector<std::uint32_t> requestOf(b.m_tracks.size(), kNone);
    for (std::uint32_t r = 0; r < requests.size(); ++r)
        requestOf[requests[r].track] = r;
    std::vector<std::vector<IntervalId>> perRequest(requests.size());
    for (IntervalId i = 0; i < b.m_intervals.size(); ++i) {
        const Measurement& m = b.m_measurements[b.m_intervals[i].measurement];
        if ((m.flags & Call) && requestOf[m.track] != kNone)
            perRequest[requestOf[m.track]].push_back(i);
    }

    // A step's call merges into its task: mergedInto[call] = task.
    const std::size_t count = b.m_measurements.size();
    std::vector<MeasurementId> mergedInto(count, kNone);
    bool merged = false;
    for (std::size_t r = 0; r < requests.size(); ++r) {
        std::vector<IntervalId>& ids = perRequest[r];
        if (ids.empty())
            continue;
        // The nesting order ProfileBuilder lays out: by start, the longer
        // first, then file order (`parent` holds it until the layout).
        std::sort(ids.begin(), ids.end(), [&b](IntervalId x, IntervalId y) {
            const Interval& a = b.m_intervals[x];
            const Interval& c = b.m_intervals[y];
            return std::tie(a.start, c.end, a.parent) < std::tie(c.start, a.end, c.parent);
        });
        std::vector<IntervalId> outer;
        Time reach = kTimeMin;
        for (IntervalId id : ids) {
            const Interval& iv = b.m_intervals[id];
            // An interval starting inside the last outermost one is nested
            // in it (or overlaps it, which the layout cuts and warns about).
            if (outer.empty() || iv.start >= reach) {
                outer.push_back(id);
                reach = iv.end;
            }
        }
        const MeasurementId task = b.m_intervals[outer.front()].measurement;
        const LabelId label = b.m_measurements[task].label;
        const bool oneLabel = std::all_of(outer.begin(), outer.end(), [&b, label](IntervalId id) {
            return b.m_measurements[b.m_intervals[id].measurement].label == label;
        });
        Measurement& t = b.m_measurements[task];
        t.flags = std::uint8_t((t.flags & ~Call) | AsyncMeasurement);
        t.creator = kNone;
        t.created = b.m_intervals[outer.front()].start;
        t.finished = b.m_intervals[outer.back()].end;
        t.state = std::uint32_t(FinalState::Ended);
        if (!oneLabel)
            t.label = requests[r].fallbackLabel;
        for (std::size_t k = 1; k < outer.size(); ++k) {
            mergedInto[b.m_intervals[outer[k]].measurement] = task;
            merged = true;
        }
        tasks[r] = task;
    }
    if (!merged)
        return tasks;

    // Renumber without the merged calls, keeping the others' order.
    std::vector<MeasurementId> newId(count);
    MeasurementId next = 0;
    for (MeasurementId id = 0; id < count; ++id) {
        if (mergedInto[id] == kNone) {
            b.m_measurements[next] = b.m_measurements[id];
            newId[id] = next++;
        }
    }
    b.m_measurements.resize(next);
    for (MeasurementId id = 0; id < count; ++id) {
        if (mergedInto[id] != kNone)
            newId[id] = newId[mergedInto[id]];
    }
    auto renumber = [&newId](MeasurementId& id) {
        if (id < newId.size())
            id = newId[id];
    };
    for (Interval& iv : b.m_intervals)
        renumber(iv.measurement);
    for (Measurement& m : b.m_measurements)
        renumber(m.creator); // kNone and kAutoCreator stay
    for (Wake& w : b.m_wakes)
        renumber(w.task);
    // A merged step's args would replace its task's: the task keeps its own.
    std::erase_if(b.m_args, [&mergedInto](const Profile::Args& a) {
        return a.measurement < mergedInto.size() && mergedInto[a.measurement] != kNone;
    });
    for (Profile::Args& a : b.m_args)
        renumber(a.measurement);
    for (Profile::Trigger& t : b.m_triggers) {
        renumber(t.measurement);
        renumber(t.triggeredBy);
    }
    for (auto& [id, track] : b.m_createdOn)
        renumber(id);
    b.m_flowBinder.renumberMeasurements(newId);
    for (MeasurementId& task : tasks)
        renumber(task);
    return tasks;
}

void OutermostTasks::mergeTrack(ProfileBuilder& b, TrackId from, TrackId into)
{
    for (Measurement& m : b.m_measurements) {
        if (m.track == from)
            m.track = into;
    }
    for (Mark& mark : b.m_marks) {
        if (mark.track == from)
            mark.track = into;
    }
    for (auto& [id, track] : b.m_createdOn) {
        if (track == from)
            track = into;
    }
    std::vector<TrackId> same(b.m_tracks.size());
    for (TrackId t = 0; t < same.size(); ++t)
        same[t] = t == from ? into : t;
    b.m_flowBinder.renumberTracks(same);
    b.m_mergedTracks.push_back(from);
}

} // namespace runlane
