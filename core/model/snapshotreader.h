#pragma once

#include "snapshot.h"
#include "snapshotlist.h"

#include <cstddef>
#include <limits>
#include <span>
#include <vector>

namespace runlane {

// Reads the rows of stored snapshots (Snapshot keeps them as changes from
// the snapshot before). Reading in increasing order decodes each snapshot
// once; reading snapshot i alone decodes from the keyframe at or before it
// (at most Snapshot::kKeyframeInterval snapshots). Not thread-safe: one
// reader per thread; the snapshots themselves are shared read-only.
class SnapshotReader
{
public:
    // What it decodes: whole rows (rows()), or each row's label and exec
    // only (exec(): what the usage chart reads, a fraction of the work).
    enum class Columns { All, Exec };

    explicit SnapshotReader(std::span<const SnapshotList::Pointer> snapshots, Columns columns = Columns::All);
    explicit SnapshotReader(const SnapshotList& snapshots, Columns columns = Columns::All)
        : SnapshotReader(std::span<const SnapshotList::Pointer>(snapshots.pointers()), columns)
    {
        m_newest = snapshots.newestRows().get();
    }

    std::size_t size() const { return m_snapshots.size(); }
    const Snapshot& snapshot(std::size_t i) const { return *m_snapshots[i]; }

    // Snapshot i's rows, valid until the next call (Columns::All).
    std::span<const AggregateRow> rows(std::size_t i);
    // Snapshot i's labels and exec, row by row, valid until the next call
    // (Columns::Exec).
    struct Exec {
        std::span<const LabelId> labels;
        std::span<const Time> exec;
    };
    Exec exec(std::size_t i);

    // The first snapshot of the block that holds snapshot i: the keyframe
    // it is decoded from.
    std::size_t blockStart(std::size_t i) const { return i - m_snapshots[i]->chainPosition(); }

    // For the scans that go from the newest back (a proc's last row): the
    // blocks of snapshots before `end`, newest first, each as fn(first,
    // end) to be read forward, until fn returns false.
    template<typename Fn>
    void forEachBlockBackward(std::size_t end, Fn&& fn) const
    {
        while (end > 0) {
            const std::size_t first = blockStart(end - 1);
            if (!fn(first, end))
                return;
            end = first;
        }
    }

private:
    static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

    void seek(std::size_t i, Columns columns);

    std::span<const SnapshotList::Pointer> m_snapshots;
    Columns m_columns = Columns::All;
    std::size_t m_index = kNone; // the snapshot decoded last
    std::vector<AggregateRow> m_rows; // Columns::All
    std::vector<AggregateRow> m_before; // the one before it, while decoding
    std::vector<LabelId> m_labels; // Columns::Exec
    std::vector<Time> m_exec;
    const std::vector<AggregateRow>* m_newest = nullptr; // SnapshotList::newestRows
};

} // namespace runlane
