#include "comparefiltermodel.h"

#include "comparemodel.h"

namespace runlane {

CompareFilterModel::CompareFilterModel(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortRole(CompareModel::SortRole);
    setFilterKeyColumn(CompareModel::Name);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void CompareFilterModel::setVerdicts(std::set<Comparison::Verdict> verdicts)
{
    if (verdicts == m_verdicts)
        return;
    m_verdicts = std::move(verdicts);
    invalidateFilter();
}

bool CompareFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (!m_verdicts.empty()) {
        const QModelIndex index = sourceModel()->index(sourceRow, CompareModel::Verdict, sourceParent);
        if (!m_verdicts.count(Comparison::Verdict(index.data(CompareModel::VerdictRole).toInt())))
            return false;
    }
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

} // namespace runlane
