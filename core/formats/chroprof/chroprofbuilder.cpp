#include "chroprofbuilder.h"

#include "aggregatedtrack.h"

#include <algorithm>

namespace runlane {

ChroprofBuilder::ChroprofBuilder(ProfileBuilder& builder) : m_builder(builder) { }

void ChroprofBuilder::beginSnapshot(bool timed, std::int64_t t, std::uint64_t)
{
    m_timed = timed;
    SnapshotRows snapshot;
    snapshot.time = t;
    m_snapshots.push_back(std::move(snapshot));
    m_rowOfLabel.clear();
}

void ChroprofBuilder::addRow(const ChroprofJsonReader::Row& row, std::uint64_t index)
{
    const auto line = std::int32_t(std::clamp<std::int64_t>(row.line, 0, INT32_MAX));
    const LabelId label = m_builder.label(row.procedure, row.file, line);
    auto value = [](std::int64_t v) { return v < 0 ? 0 : v; };
    AggregateRow r;
    r.label = label;
    r.calls = std::uint64_t(value(row.callCount));
    r.stillborn = std::uint64_t(value(row.stillbornCount));
    r.zombieEvents = std::uint64_t(value(row.zombieEventCount));
    r.exec = value(row.execTime);
    r.execMax = value(row.execTimeMax);
    r.childrenExec = value(row.childrenExecTime);
    r.wall = value(row.wallClockTime);
    SnapshotRows& snapshot = m_snapshots.back();
    const auto [it, inserted] = m_rowOfLabel.emplace(label, snapshot.rows.size());
    if (inserted) {
        snapshot.rows.push_back(r);
        return;
    }
    // The same proc twice in one snapshot: add them up.
    m_builder.diagnostics().warnWith("duplicate row", [&] {
        return "row #" + std::to_string(index) + " repeats proc '" + row.procedure + "'; the two are added up";
    });
    AggregateRow& existing = snapshot.rows[it->second];
    existing.calls += r.calls;
    existing.stillborn += r.stillborn;
    existing.zombieEvents += r.zombieEvents;
    existing.exec += r.exec;
    existing.execMax = std::max(existing.execMax, r.execMax);
    existing.childrenExec += r.childrenExec;
    existing.wall += r.wall;
}

void ChroprofBuilder::finish()
{
    AggregatedTrack::add(m_builder, std::move(m_snapshots), m_timed);
    m_snapshots.clear();
}

} // namespace runlane
