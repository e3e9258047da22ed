#include "sharebardelegate.h"

#include "colorscheme.h"

#include <QPainter>

#include <algorithm>

namespace runlane {

ShareBarDelegate::ShareBarDelegate(int shareRole, QObject* parent) : TextCellDelegate(parent), m_shareRole(shareRole) { }

void ShareBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    TextCellDelegate::paint(painter, option, index);
    const double share = std::clamp(index.data(m_shareRole).toDouble(), 0.0, 1.0);
    if (share > 0) {
        // Translucent over the cell (selected or not), inside its margins,
        // from the left.
        const QRectF bar = QRectF(option.rect).adjusted(2, 3, -2, -3);
        painter->fillRect(QRectF(bar.left(), bar.top(), std::max(1.0, bar.width() * share), bar.height()),
                          ColorScheme::shareBar());
    }
}

} // namespace runlane
