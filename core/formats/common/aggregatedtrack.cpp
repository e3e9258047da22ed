#include "aggregatedtrack.h"

#include <algorithm>

namespace runlane {

SnapshotRows AggregatedTrack::intern(ProfileBuilder& builder, const ScrapedSnapshot& snapshot)
{
    SnapshotRows out;
    out.time = snapshot.time;
    out.rows.reserve(snapshot.rows.size());
    for (const NamedAggregateRow& row : snapshot.rows) {
        AggregateRow r = row.values;
        r.label = builder.label(row.procedure, row.file, std::max(row.line, 0));
        out.rows.push_back(r);
    }
    return out;
}

void AggregatedTrack::add(ProfileBuilder& builder, std::vector<SnapshotRows> snapshots, bool timed)
{
    const auto earlier = [](const SnapshotRows& a, const SnapshotRows& b) { return a.time < b.time; };
    if (!std::is_sorted(snapshots.begin(), snapshots.end(), earlier)) {
        builder.diagnostics().warn("unsorted snapshots", "snapshots are not in time order; sorted by time");
        std::stable_sort(snapshots.begin(), snapshots.end(), earlier);
    }
    addTrack(builder, timed);
    // Stored in time order, each as the change from the one before.
    const Snapshot* previous = nullptr;
    const std::vector<AggregateRow> none;
    for (std::size_t i = 0; i < snapshots.size(); ++i) {
        auto stored = std::make_shared<const Snapshot>(snapshots[i].time, snapshots[i].rows, previous,
                                                       i > 0 ? snapshots[i - 1].rows : none);
        previous = stored.get();
        builder.addSnapshot(std::move(stored));
        if (i > 0)
            std::vector<AggregateRow>().swap(snapshots[i - 1].rows); // the rows are in the snapshot now
    }
}

void AggregatedTrack::add(ProfileBuilder& builder, const std::vector<SnapshotList::Pointer>& snapshots,
                          SnapshotList::Rows newestRows)
{
    addTrack(builder, true);
    for (const SnapshotList::Pointer& s : snapshots)
        builder.addSnapshot(s);
    if (newestRows && !snapshots.empty() && newestRows->size() == snapshots.back()->rowCount())
        builder.setNewestSnapshotRows(std::move(newestRows));
}

void AggregatedTrack::addTrack(ProfileBuilder& builder, bool timed)
{
    TrackInfo info;
    info.displayName = builder.intern("event loop (aggregated)");
    builder.addTrack(info);
    builder.setSnapshotsTimed(timed);
}

} // namespace runlane
