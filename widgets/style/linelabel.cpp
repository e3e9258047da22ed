#include "linelabel.h"

#include <QHelpEvent>
#include <QPainter>
#include <QStyle>
#include <QToolTip>

namespace runlane {

LineLabel::LineLabel(QWidget* parent) : QWidget(parent)
{
    // As wide as the layout allows (a status line, a note beside controls),
    // one line high.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
}

void LineLabel::setText(const QString& text)
{
    if (text == m_text)
        return;
    m_text = text;
    // What a screen reader reads of a QLabel: its text.
    setAccessibleName(text);
    update();
}

bool LineLabel::isElided() const
{
    return fontMetrics().horizontalAdvance(m_text) > contentsRect().width();
}

QSize LineLabel::sizeHint() const
{
    // Some room for a short text; the layouts that hold one give it more.
    return QSize(fontMetrics().averageCharWidth() * 20, fontMetrics().height());
}

QSize LineLabel::minimumSizeHint() const
{
    return QSize(0, fontMetrics().height());
}

void LineLabel::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QRect area = contentsRect();
    const QString shown = fontMetrics().elidedText(m_text, Qt::ElideRight, area.width());
    style()->drawItemText(&painter, area, Qt::AlignLeft | Qt::AlignVCenter, palette(), isEnabled(), shown,
                          foregroundRole());
}

bool LineLabel::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        // The whole text, when the label shows only its start.
        const auto* help = static_cast<QHelpEvent*>(event);
        if (isElided())
            QToolTip::showText(help->globalPos(), m_text, this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace runlane
