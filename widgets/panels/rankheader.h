#pragma once

#include <QHeaderView>

namespace runlane {

// The rank's column header. Qt draws an ascending sort as a downward
// arrow (QStyleOptionHeader::SortDown); spreadsheets, file managers and
// the web show ascending as ▲ and descending as ▼, and that is what users
// read: this header draws the arrow that way. The first click on a column
// sorts in the order the model's Qt::InitialSortOrderRole asks for
// (largest first for numbers).
class RankHeader : public QHeaderView
{
    Q_OBJECT

public:
    explicit RankHeader(QWidget* parent = nullptr);
    // The arrow drawn on a section (QStyleOptionHeader::SortIndicator).
    int arrowOf(int logicalIndex) const;

protected:
    void initStyleOptionForIndex(QStyleOptionHeader* option, int logicalIndex) const override;
};

} // namespace runlane
