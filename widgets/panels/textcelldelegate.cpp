#include "textcelldelegate.h"

#include <QPainter>
#include <QStyle>
#include <QTextLayout>

namespace runlane {

void TextCellDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    const QStyle* style = option.widget ? option.widget->style() : nullptr;
    const QString text = index.data(Qt::DisplayRole).toString();
    // The focused cell (its frame), a cell without a widget's style, or
    // with more than a line: the style's way.
    if (!style || option.state & QStyle::State_HasFocus || text.contains(QLatin1Char('\n'))
        || !style->styleHint(QStyle::SH_ItemView_ShowDecorationSelected, &option, option.widget)) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    // The text laid out once, as QCommonStyle lays it out: in the cell
    // less the focus frame's margins, aligned as the model says.
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, option.widget) + 1;
    const QRect textRect = option.rect.adjusted(margin, 0, -margin, 0);
    const QVariant alignmentData = index.data(Qt::TextAlignmentRole);
    const Qt::Alignment alignment = alignmentData.isValid() ? Qt::Alignment(alignmentData.toInt()) : option.displayAlignment;
    QTextOption textOption(QStyle::visualAlignment(option.direction, alignment));
    textOption.setWrapMode(QTextOption::ManualWrap);
    textOption.setTextDirection(option.direction);
    QTextLayout layout(text, option.font);
    layout.setTextOption(textOption);
    layout.beginLayout();
    QTextLine line = layout.createLine();
    if (line.isValid()) {
        line.setLineWidth(textRect.width());
        line.setPosition(QPointF(0, 0));
    }
    layout.endLayout();
    // Too wide: elided by the style (rare: the rank fits its numeric
    // columns to their widest value).
    if (line.isValid() && line.naturalTextWidth() > textRect.width()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    ++m_ownCells;
    QPalette::ColorGroup group = option.state & QStyle::State_Enabled ? QPalette::Normal : QPalette::Disabled;
    if (group == QPalette::Normal && !(option.state & QStyle::State_Active))
        group = QPalette::Inactive;
    const bool selected = option.state & QStyle::State_Selected;
    if (selected) {
        painter->fillRect(option.rect, option.palette.brush(group, QPalette::Highlight));
    } else if (const QVariant background = index.data(Qt::BackgroundRole); background.canConvert<QBrush>()) {
        const QPointF origin = painter->brushOrigin();
        painter->setBrushOrigin(option.rect.topLeft());
        painter->fillRect(option.rect, qvariant_cast<QBrush>(background));
        painter->setBrushOrigin(origin);
    }
    if (!line.isValid())
        return;
    // A model's text colour (the compare rank's verdicts) as
    // QStyledItemDelegate gives it to the style: in place of the palette's
    // text, not of the selection's.
    QColor pen = option.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text);
    if (!selected) {
        if (const QVariant foreground = index.data(Qt::ForegroundRole); foreground.canConvert<QBrush>())
            pen = qvariant_cast<QBrush>(foreground).color();
    }
    painter->setPen(pen);
    const QRect at = QStyle::alignedRect(option.direction, alignment, QSize(textRect.width(), int(line.height())), textRect);
    line.draw(painter, at.topLeft());
}

void TextCellDelegate::initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    if (m_elideMode)
        option->textElideMode = *m_elideMode;
}

} // namespace runlane
