#pragma once

#include <QStyledItemDelegate>

#include <cstddef>
#include <optional>

namespace runlane {

// Draws a table cell of one line of text (its background, its selection,
// its text) as the style draws it, pixel for pixel, laying its text out
// once. The style lays a cell's text out three times (its size, its
// elision, its drawing), which made the rank's cells 2 ms of the GUI thread
// per update of a followed live recording (issue 19). What this does not
// draw the style's way is left to the style: the focused cell (its frame),
// a text that needs eliding, several lines. It reads the display,
// alignment, background and foreground roles only: a model that gives
// cells fonts, icons or check states needs QStyledItemDelegate.
class TextCellDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    // Cells drawn here rather than by the style, since construction.
    std::size_t ownCells() const { return m_ownCells; }
    // Texts too wide for their cell are elided this way instead of the
    // view's (a path's end, its file and line, is what tells it apart).
    void setElideMode(Qt::TextElideMode mode) { m_elideMode = mode; }
    // This delegate's elision, else its view's.
    std::optional<Qt::TextElideMode> elideMode() const { return m_elideMode; }

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;

private:
    mutable std::size_t m_ownCells = 0;
    std::optional<Qt::TextElideMode> m_elideMode;
};

} // namespace runlane
