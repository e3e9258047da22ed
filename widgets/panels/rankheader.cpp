#include "rankheader.h"

#include <QStyleOptionHeader>

namespace runlane {

RankHeader::RankHeader(QWidget* parent) : QHeaderView(Qt::Horizontal, parent)
{
    setSectionsClickable(true);
    setSortIndicatorShown(true);
    setHighlightSections(false);
}

int RankHeader::arrowOf(int logicalIndex) const
{
    QStyleOptionHeader option;
    initStyleOptionForIndex(&option, logicalIndex);
    return int(option.sortIndicator);
}

void RankHeader::initStyleOptionForIndex(QStyleOptionHeader* option, int logicalIndex) const
{
    QHeaderView::initStyleOptionForIndex(option, logicalIndex);
    if (option->sortIndicator == QStyleOptionHeader::SortDown)
        option->sortIndicator = QStyleOptionHeader::SortUp;
    else if (option->sortIndicator == QStyleOptionHeader::SortUp)
        option->sortIndicator = QStyleOptionHeader::SortDown;
}

} // namespace runlane
