#pragma once

#include "chroprofjsonreader.h"
#include "profilebuilder.h"

#include <unordered_map>
#include <vector>

namespace runlane {

// Format side of Chroprof metrics (formats.md (d)): per-proc aggregates
// that Chronos' profiler computed, with no timeline. A bare array of rows is
// one untimed snapshot; snapshots over time are cumulative, so the rank shows
// the last one and usage comes from their differences (UsageSeries).
class ChroprofBuilder
{
public:
    explicit ChroprofBuilder(ProfileBuilder& builder);
    void beginSnapshot(bool timed, std::int64_t t, std::uint64_t index);
    void addRow(const ChroprofJsonReader::Row& row, std::uint64_t index);
    void finish();

private:
    ProfileBuilder& m_builder;
    std::vector<SnapshotRows> m_snapshots;
    bool m_timed = false;
    std::unordered_map<LabelId, std::size_t> m_rowOfLabel; // within the current snapshot
};

} // namespace runlane
