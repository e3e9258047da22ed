#include "refreshfilter.h"

#include <algorithm>
#include <tuple>

namespace runlane {

namespace {

bool before(const NamedAggregateRow& a, const NamedAggregateRow& b)
{
    return std::tie(a.procedure, a.file, a.line) < std::tie(b.procedure, b.file, b.line);
}

bool sameRow(const NamedAggregateRow& a, const NamedAggregateRow& b)
{
    const AggregateRow& x = a.values;
    const AggregateRow& y = b.values;
    return a.procedure == b.procedure && a.file == b.file && a.line == b.line && x.calls == y.calls
        && x.stillborn == y.stillborn && x.zombieEvents == y.zombieEvents && x.exec == y.exec && x.execMax == y.execMax
        && x.childrenExec == y.childrenExec && x.wall == y.wall;
}

} // namespace

bool RefreshFilter::accept(const ScrapedSnapshot& snapshot)
{
    // Both readers give sorted rows; a copy is sorted only for other callers.
    ScrapedSnapshot sorted;
    const ScrapedSnapshot* current = &snapshot;
    if (!std::is_sorted(snapshot.rows.begin(), snapshot.rows.end(), before)) {
        sorted = snapshot;
        std::sort(sorted.rows.begin(), sorted.rows.end(), before);
        current = &sorted;
    }
    if (m_last && std::equal(m_last->rows.begin(), m_last->rows.end(), current->rows.begin(), current->rows.end(), sameRow))
        return false;
    m_last = current == &sorted ? std::move(sorted) : snapshot;
    return true;
}

} // namespace runlane
