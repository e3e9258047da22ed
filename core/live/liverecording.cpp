#include "liverecording.h"

#include "aggregatedtrack.h"
#include "gaugerows.h"
#include "profilebuilder.h"

#include <algorithm>
#include <stdexcept>

namespace runlane {

LiveRecording::LiveRecording(std::string source) : m_source(std::move(source)) { }

LabelId LiveRecording::idOf(const NamedAggregateRow& row)
{
    GaugeRows::procKey(row.procedure, row.file, row.line, m_key);
    const auto [it, inserted] = m_ids.try_emplace(m_key, LabelId(m_names.size()));
    if (inserted) {
        m_names.push_back(Name{row.procedure, row.file, row.line});
        m_lastExec.push_back(-1);
    }
    return it->second;
}

LiveRecording::Added LiveRecording::add(const std::vector<ScrapedSnapshot>& snapshots)
{
    Added added;
    for (const ScrapedSnapshot& scraped : snapshots) {
        // A source delivers in time order; one that goes back (a clock
        // step, a server answering twice) must not make usage negative.
        if (!m_snapshots.empty() && scraped.time <= m_snapshots.back()->time()) {
            ++added.outOfOrder;
            continue;
        }
        std::vector<AggregateRow> rows;
        rows.reserve(scraped.rows.size());
        for (std::size_t k = 0; k < scraped.rows.size(); ++k) {
            const NamedAggregateRow& row = scraped.rows[k];
            AggregateRow r = row.values;
            // An exporter lists its procs in the same order scrape after
            // scrape: the proc at this place last time is the likely one,
            // checked by comparing names instead of building and hashing a
            // key (1 ms of the GUI thread for 5,000 procs).
            const std::vector<AggregateRow>& lastRows = *m_lastRows;
            const Name* before = k < lastRows.size() ? &m_names[lastRows[k].label] : nullptr;
            r.label = before && before->line == row.line && before->procedure == row.procedure && before->file == row.file
                ? lastRows[k].label
                : idOf(row);
            Time& last = m_lastExec[r.label];
            if (last >= 0 && r.exec < last)
                ++added.resets;
            last = r.exec;
            rows.push_back(r);
        }
        auto snapshot = std::make_shared<const Snapshot>(scraped.time, rows,
                                                         m_snapshots.empty() ? nullptr : m_snapshots.back().get(), *m_lastRows);
        // A new vector each time: versions being built still read the last.
        m_lastRows = std::make_shared<const std::vector<AggregateRow>>(std::move(rows));
        m_snapshots.push_back(std::move(snapshot));
        ++added.snapshots;
    }
    m_resets += added.resets;
    return added;
}

std::shared_ptr<const Profile> LiveRecording::build(const Version& version)
{
    if (version.snapshots.empty())
        return nullptr;
    ProfileBuilder builder("Chroprof metrics (live)", version.source);
    // Interned in id order, so the profile's label ids are the recording's.
    for (LabelId id = 0; id < version.names.size(); ++id) {
        const Name& n = version.names[id];
        if (builder.label(n.procedure, n.file, n.line) != id)
            throw std::logic_error("LiveRecording: label ids out of step with the profile's");
    }
    AggregatedTrack::add(builder, version.snapshots, version.newestRows);
    return builder.build();
}

ScrapedSnapshot LiveRecording::named(Time time, std::span<const AggregateRow> rows) const
{
    ScrapedSnapshot out;
    out.time = time;
    out.rows.reserve(rows.size());
    for (const AggregateRow& r : rows) {
        const Name& n = m_names[r.label];
        out.rows.push_back(NamedAggregateRow{n.procedure, n.file, n.line, r});
    }
    return out;
}

std::size_t LiveRecording::memoryBytes() const
{
    std::size_t bytes = m_snapshots.capacity() * sizeof(SnapshotList::Pointer);
    for (const auto& s : m_snapshots)
        bytes += s->memoryBytes() + 16; // 16: the shared control block
    bytes += m_lastRows->capacity() * sizeof(AggregateRow);
    for (const Name& n : m_names)
        bytes += sizeof(Name) + n.procedure.capacity() + n.file.capacity();
    bytes += m_ids.size() * (sizeof(std::string) + 32 + sizeof(LabelId)) + m_lastExec.capacity() * sizeof(Time);
    return bytes;
}

} // namespace runlane
