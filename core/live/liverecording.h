#pragma once

#include "profile.h"
#include "scrapedsnapshot.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace runlane {

// What a live source delivered, kept as Chroprof snapshots, and the
// profile of it so far. Each version of the profile shares the snapshots
// received before (SnapshotList), and labels keep their ids from one
// version to the next (a proc gets the next id the first time it is seen),
// so views may carry a label id over to the next version.
//
// Snapshots are kept as received: a proc missing from one is not zero
// there (it left the exporter's top-k) and a value that went down is a
// counter reset; UsageSeries and RankTable read them that way.
class LiveRecording
{
public:
    struct Added {
        std::size_t snapshots = 0; // appended
        std::size_t outOfOrder = 0; // not after the last one: dropped
        std::size_t resets = 0; // procs whose exec went down (restart, reset())
    };

    explicit LiveRecording(std::string source = {});

    // Appends snapshots later than the last one (in their order).
    Added add(const std::vector<ScrapedSnapshot>& snapshots);

    struct Name {
        std::string procedure;
        std::string file;
        std::int32_t line = 0;
    };
    // What a profile of the recording so far is made of, taken on the
    // recording's thread so that the profile can be built on another.
    struct Version {
        std::string source;
        std::vector<Name> names; // by label id
        std::vector<SnapshotList::Pointer> snapshots;
        SnapshotList::Rows newestRows; // the last snapshot's, decoded
    };
    Version version() const { return Version{m_source, m_names, m_snapshots, m_lastRows}; }
    // A new immutable profile of a version: O(procs + snapshots), no row is
    // copied. Null for a version without snapshots.
    static std::shared_ptr<const Profile> build(const Version& version);
    std::shared_ptr<const Profile> profile() const { return build(version()); }

    const std::string& source() const { return m_source; }
    std::size_t snapshotCount() const { return m_snapshots.size(); }
    std::size_t procCount() const { return m_names.size(); }
    Time firstTime() const { return m_snapshots.empty() ? 0 : m_snapshots.front()->time(); }
    Time lastTime() const { return m_snapshots.empty() ? 0 : m_snapshots.back()->time(); }
    std::uint64_t resets() const { return m_resets; }
    // The snapshots received, in order (read with a SnapshotReader).
    const std::vector<SnapshotList::Pointer>& snapshots() const { return m_snapshots; }
    // A snapshot's rows with their procs named again (for a recording file).
    ScrapedSnapshot named(Time time, std::span<const AggregateRow> rows) const;
    // Bytes held by the snapshots and names.
    std::size_t memoryBytes() const;

private:
    LabelId idOf(const NamedAggregateRow& row);

    std::string m_source;
    std::vector<Name> m_names; // by label id
    std::unordered_map<std::string, LabelId> m_ids; // GaugeRows::procKey -> id
    std::string m_key; // idOf's, kept for its capacity
    std::vector<Time> m_lastExec; // by label id; -1 before its first value
    std::vector<SnapshotList::Pointer> m_snapshots;
    // The last snapshot's rows, which the next one is stored against (and
    // each version's rank reads).
    std::shared_ptr<const std::vector<AggregateRow>> m_lastRows = std::make_shared<const std::vector<AggregateRow>>();
    std::uint64_t m_resets = 0;
};

} // namespace runlane
