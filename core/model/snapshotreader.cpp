#include "snapshotreader.h"

#include <stdexcept>
#include <utility>

namespace runlane {

SnapshotReader::SnapshotReader(std::span<const SnapshotList::Pointer> snapshots, Columns columns)
    : m_snapshots(snapshots), m_columns(columns)
{
}

std::span<const AggregateRow> SnapshotReader::rows(std::size_t i)
{
    if (m_newest && i + 1 == m_snapshots.size() && m_columns == Columns::All)
        return *m_newest; // what is decoded stays where it was
    seek(i, Columns::All);
    return m_rows;
}

SnapshotReader::Exec SnapshotReader::exec(std::size_t i)
{
    seek(i, Columns::Exec);
    return Exec{m_labels, m_exec};
}

void SnapshotReader::seek(std::size_t i, Columns columns)
{
    if (columns != m_columns)
        throw std::logic_error("SnapshotReader: read with the other columns than it decodes");
    if (i == m_index)
        return;
    std::size_t from = blockStart(i);
    // Going on from the snapshot read last when it is in the way.
    if (m_index != kNone && m_index < i && m_index >= from)
        from = m_index + 1;
    for (std::size_t j = from; j <= i; ++j) {
        if (m_columns == Columns::Exec) {
            m_snapshots[j]->decodeExec(m_labels, m_exec);
        } else {
            std::swap(m_rows, m_before);
            m_snapshots[j]->decode(m_before, m_rows);
        }
    }
    m_index = i;
}

} // namespace runlane
