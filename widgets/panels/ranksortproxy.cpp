#include "ranksortproxy.h"

#include "rankmodel.h"

namespace runlane {

bool RankSortProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    if (const auto* model = qobject_cast<const RankModel*>(sourceModel()); model && sortRole() == RankModel::SortRole) {
        const auto a = model->sortNumber(left.row(), left.column());
        const auto b = model->sortNumber(right.row(), right.column());
        if (a && b)
            return *a < *b;
    }
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace runlane
