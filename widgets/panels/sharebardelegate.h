#pragma once

#include "textcelldelegate.h"

namespace runlane {

// Draws a cell with a translucent bar as long as the share (0..1) its model gives
// in `shareRole`: the exec column of the rank shows each label's part of the
// busy time at a glance.
class ShareBarDelegate : public TextCellDelegate
{
    Q_OBJECT

public:
    ShareBarDelegate(int shareRole, QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    int m_shareRole;
};

} // namespace runlane
