#include "ranksortproxy.h"

#include "rankmodel.h"

namespace runlane {

void RankSortProxy::setSourceModel(QAbstractItemModel* model)
{
    m_rank = qobject_cast<const RankModel*>(model);
    m_keysColumn = -1;
    QSortFilterProxyModel::setSourceModel(model);
}

const std::vector<std::optional<long double>>& RankSortProxy::keys(int column) const
{
    // Rows appended without a new revision (there are none today) would
    // show as a size change: rebuilt then too.
    if (column != m_keysColumn || m_rank->revision() != m_keysRevision || m_keys.size() != std::size_t(m_rank->rowCount())) {
        m_keys.resize(std::size_t(m_rank->rowCount()));
        for (int r = 0; r < m_rank->rowCount(); ++r)
            m_keys[std::size_t(r)] = m_rank->sortNumber(r, column);
        m_keysColumn = column;
        m_keysRevision = m_rank->revision();
    }
    return m_keys;
}

bool RankSortProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    if (m_rank && sortRole() == RankModel::SortRole && left.column() == right.column()) {
        const auto& k = keys(left.column());
        const auto& a = k[std::size_t(left.row())];
        const auto& b = k[std::size_t(right.row())];
        if (a && b)
            return *a < *b;
    }
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace runlane
