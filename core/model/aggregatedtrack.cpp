#include "aggregatedtrack.h"

#include <algorithm>

namespace runlane {

Snapshot AggregatedTrack::intern(ProfileBuilder& builder, const ScrapedSnapshot& snapshot)
{
    Snapshot out;
    out.time = snapshot.time;
    out.rows.reserve(snapshot.rows.size());
    for (const NamedAggregateRow& row : snapshot.rows) {
        AggregateRow r = row.values;
        r.label = builder.label(row.procedure, row.file, std::max(row.line, 0));
        out.rows.push_back(r);
    }
    return out;
}

void AggregatedTrack::add(ProfileBuilder& builder, std::vector<Snapshot> snapshots, bool timed)
{
    const auto earlier = [](const Snapshot& a, const Snapshot& b) { return a.time < b.time; };
    if (!std::is_sorted(snapshots.begin(), snapshots.end(), earlier)) {
        builder.diagnostics().warn("unsorted snapshots", "snapshots are not in time order; sorted by time");
        std::stable_sort(snapshots.begin(), snapshots.end(), earlier);
    }
    addTrack(builder, timed);
    for (Snapshot& s : snapshots)
        builder.addSnapshot(std::move(s));
}

void AggregatedTrack::add(ProfileBuilder& builder, const std::vector<SnapshotList::Pointer>& snapshots)
{
    addTrack(builder, true);
    for (const SnapshotList::Pointer& s : snapshots)
        builder.addSnapshot(s);
}

void AggregatedTrack::addTrack(ProfileBuilder& builder, bool timed)
{
    TrackInfo info;
    info.displayName = builder.intern("event loop (aggregated)");
    builder.addTrack(info);
    builder.setSnapshotsTimed(timed);
}

} // namespace runlane
