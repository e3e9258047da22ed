#pragma once

#include <QLabel>

namespace runlane {

// A one-line rich-text label that fits its width: a text too long for it is
// cut at the right with "…", its bold, italics, colours and links kept up to
// the cut, and the whole text goes to the tooltip, before the details given
// for it. RankPanel's banner: a base's long name or a warning must neither
// widen the panel (and with it the window) nor vanish at its edge unread.
class ElidedLabel : public QLabel
{
    Q_OBJECT

public:
    explicit ElidedLabel(QWidget* parent = nullptr);

    // Shows `richText`, cut to the label's width; `details` is the tooltip
    // (after the whole text when the text is cut).
    void setFullText(const QString& richText, const QString& details = QString());
    const QString& fullText() const { return m_full; }
    const QString& details() const { return m_details; }
    bool isElided() const { return m_elided; }
    // `richText` as is if it is at most `width` px wide in `font`, else
    // its longest start that is, with "…", as rich text of its own.
    static QString elide(const QString& richText, const QFont& font, int width);
    // The width of rich text laid out on one line in `font`.
    static qreal textWidth(const QString& richText, const QFont& font);

    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void refit();

    QString m_full;
    QString m_details;
    bool m_elided = false;
};

} // namespace runlane
