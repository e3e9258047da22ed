#include "noticebar.h"

#include <QApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>

namespace runlane {

NoticeBar::NoticeBar(QWidget* parent) : QFrame(parent), m_text(new QLabel(this)), m_close(new QToolButton(this))
{
    setObjectName(QStringLiteral("noticeBar"));
    setFrameShape(QFrame::StyledPanel);
    m_text->setTextFormat(Qt::RichText);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::TextSelectableByMouse);
    m_close->setText(QStringLiteral("✕"));
    m_close->setToolTip(tr("Dismiss"));
    m_close->setAutoRaise(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 4, 4, 4);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    connect(m_close, &QToolButton::clicked, this, &NoticeBar::clearNotices);
    connect(m_text, &QLabel::linkActivated, this, &NoticeBar::linkActivated);
    hide();
}

void NoticeBar::addNotice(const QString& richText, Level level)
{
    m_lines << richText;
    if (level == Level::Warning)
        m_level = Level::Warning;
    refresh();
}

void NoticeBar::setNotice(const QString& richText, Level level)
{
    m_lines = QStringList{richText};
    m_level = level;
    refresh();
}

QPushButton* NoticeBar::addButton(const QString& text, const QString& objectName)
{
    auto* button = new QPushButton(text, this);
    button->setObjectName(objectName);
    auto* row = static_cast<QHBoxLayout*>(layout());
    row->insertWidget(row->indexOf(m_close), button, 0, Qt::AlignVCenter);
    return button;
}

void NoticeBar::setDismissible(bool dismissible)
{
    m_close->setVisible(dismissible);
}

void NoticeBar::clearNotices()
{
    m_lines.clear();
    m_level = Level::Info;
    refresh();
}

void NoticeBar::refresh()
{
    if (m_lines.isEmpty()) {
        hide();
        return;
    }
    const QString text = m_lines.join(QStringLiteral("<br>"));
    if (text != m_text->text()) // a rich text's layout is the cost of a change
        m_text->setText(text);
    // Colours from the palette's own roles, tinted, so that a dark theme
    // gets a dark bar with readable text.
    const QColor tint = m_level == Level::Warning ? QColor(230, 160, 30) : QColor(60, 130, 220);
    // The application's window colour, not our own: that is the tint
    // already, and would drift with every notice.
    QPalette pal = palette();
    const QColor base = QApplication::palette(this).color(QPalette::Window);
    const QColor mixed = QColor::fromRgbF(base.redF() * 0.82f + tint.redF() * 0.18f, base.greenF() * 0.82f + tint.greenF() * 0.18f,
                                          base.blueF() * 0.82f + tint.blueF() * 0.18f);
    if (!autoFillBackground() || pal.color(QPalette::Window) != mixed) { // a new palette repolishes the buttons
        pal.setColor(QPalette::Window, mixed);
        setPalette(pal);
        setAutoFillBackground(true);
    }
    show();
}

void NoticeBar::changeEvent(QEvent* event)
{
    QFrame::changeEvent(event);
    // Another theme: tinted anew. Setting the same palette again sends no
    // second event.
    if (event->type() == QEvent::PaletteChange && !m_lines.isEmpty())
        refresh();
}

} // namespace runlane
