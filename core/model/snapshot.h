#pragma once

#include "profiletypes.h"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace runlane {

// One proc's figures as a profiler aggregated them (Chroprof metrics), when
// the file gives no timeline to derive them from.
struct AggregateRow {
    LabelId label = 0;
    std::uint64_t calls = 0;
    std::uint64_t stillborn = 0;
    std::uint64_t zombieEvents = 0;
    Time exec = 0;
    Time execMax = 0;
    Time childrenExec = 0;
    Time wall = 0;
};

// A snapshot's rows as a format reads them, before they are stored (the
// snapshots of a file are sorted by time first).
struct SnapshotRows {
    Time time = 0;
    std::vector<AggregateRow> rows;
};

// Cumulative aggregates at one instant (a Chroprof snapshot), stored as what
// changed since the snapshot before it in its list.
//
// Why: a live recording of 5,000 procs at a 1 s interval receives 18 M
// rows an hour, 1.1 GB as 64-byte rows, while from one snapshot to the next
// a proc's counters grow by a little. Each row is stored as the varint
// differences from the same proc's row in the snapshot before, column by
// column (exec first, so that the usage chart reads that column alone); a
// column with no change in any row is not stored at all. Labels are stored
// only when the procs differ from the snapshot before (top-k churn). Every
// kKeyframeInterval-th snapshot stands alone (a keyframe), so that reading
// any one decodes at most that many. SnapshotReader decodes them.
//
// Immutable once made; the versions of a live recording share them.
class Snapshot
{
public:
    static constexpr std::uint32_t kKeyframeInterval = 32;

    // `rows` at `time`, stored against `previous` (the snapshot before in
    // the list, null for the first) whose rows are `previousRows`.
    Snapshot(Time time, std::span<const AggregateRow> rows, const Snapshot* previous,
             std::span<const AggregateRow> previousRows);
    Snapshot(const Snapshot&) = delete;
    Snapshot& operator=(const Snapshot&) = delete;

    Time time() const { return m_time; }
    std::size_t rowCount() const { return m_rowCount; }
    // Snapshots since the last keyframe: 0 for a keyframe.
    std::uint32_t chainPosition() const { return m_chain; }
    std::size_t memoryBytes() const { return sizeof(Snapshot) + m_size; }

    // This snapshot's rows into `out`, given the rows of the snapshot before
    // it (not read for a keyframe). `out` must not be `previousRows`.
    void decode(std::span<const AggregateRow> previousRows, std::vector<AggregateRow>& out) const;
    // Only each row's label and exec (what the usage chart reads), in
    // place: `labels` and `exec` hold the snapshot before's and become
    // this one's. With the procs unchanged, that is one pass adding the
    // exec column to `exec`.
    void decodeExec(std::vector<LabelId>& labels, std::vector<Time>& exec) const;

private:
    // How the rows' procs relate to the snapshot before's.
    enum class Kind : std::uint8_t {
        Keyframe, // labels stored, values absolute
        SameProcs, // row i is the same proc as the row i before
        OtherProcs, // labels stored, and each row's row before (or none)
    };

    const std::uint8_t* decodeLabels(const std::uint8_t* p, LabelId* labels) const;
    const std::uint8_t* decodeBases(const std::uint8_t* p, std::vector<std::uint32_t>& baseIndex) const;

    Time m_time = 0;
    std::unique_ptr<std::uint8_t[]> m_bytes;
    std::size_t m_size = 0;
    std::uint32_t m_rowCount = 0;
    std::uint32_t m_chain = 0;
    Kind m_kind = Kind::Keyframe;
    std::uint8_t m_columns = 0; // bit c: column c stored (kColumns order)
};

} // namespace runlane
