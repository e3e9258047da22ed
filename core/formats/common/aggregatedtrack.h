#pragma once

#include "profilebuilder.h"
#include "scrapedsnapshot.h"

#include <vector>

namespace runlane {

// The profile every source of Chroprof metrics builds (a snapshots file, a
// saved Prometheus query, a live recording): one track, "event loop
// (aggregated)", holding cumulative snapshots and no timeline. Here, not in
// a format, so that formats that may not use each other build the same thing.
class AggregatedTrack
{
public:
    // `snapshot`'s named rows as labels of `builder` (rows in their order).
    static SnapshotRows intern(ProfileBuilder& builder, const ScrapedSnapshot& snapshot);
    // Adds the track and `snapshots`, sorted by time (with a warning when
    // they were not: a writer's clock that went back).
    static void add(ProfileBuilder& builder, std::vector<SnapshotRows> snapshots, bool timed);
    // The same with timed snapshots other profiles share (the versions of
    // a live recording), already in time order.
    // `newestRows`: the last snapshot's rows, if the caller has them.
    static void add(ProfileBuilder& builder, const std::vector<SnapshotList::Pointer>& snapshots,
                    SnapshotList::Rows newestRows = nullptr);

private:
    static void addTrack(ProfileBuilder& builder, bool timed);
};

} // namespace runlane
