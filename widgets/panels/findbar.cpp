#include "findbar.h"

#include "colorscheme.h"
#include "counttext.h"
#include "profiledocument.h"
#include "timeaxis.h"
#include "valueformat.h"

#include <QApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QTimer>
#include <QToolButton>

namespace runlane {

FindBar::FindBar(ProfileDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_field(new QLineEdit(this)), m_count(new QLabel(this)),
      m_debounce(new QTimer(this))
{
    m_field->setPlaceholderText(tr("Find labels (text, or /regex/)"));
    m_field->setClearButtonEnabled(true);
    m_field->setMaximumWidth(360);
    m_field->installEventFilter(this);
    auto button = [this](const QString& text, const QString& tip) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        return b;
    };
    QToolButton* previous = button(QStringLiteral("▲"), tr("Previous occurrence (Shift+Enter, Shift+F3)"));
    QToolButton* next = button(QStringLiteral("▼"), tr("Next occurrence (Enter, F3)"));
    QToolButton* close = button(QStringLiteral("✕"), tr("Close (Escape)"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 3, 8, 3);
    layout->addWidget(new QLabel(tr("Find:"), this));
    layout->addWidget(m_field);
    layout->addWidget(previous);
    layout->addWidget(next);
    layout->addWidget(m_count, 1);
    layout->addWidget(close);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(120);
    connect(m_debounce, &QTimer::timeout, this, &FindBar::apply);
    connect(m_field, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(previous, &QToolButton::clicked, this, [this] { step(false); });
    connect(next, &QToolButton::clicked, this, [this] { step(true); });
    connect(close, &QToolButton::clicked, this, &FindBar::close);
    connect(m_document, &ProfileDocument::emphasisChanged, this, &FindBar::updateCount);
    connect(m_document->axis(), &TimeAxis::selectedItemChanged, this, &FindBar::updateCount);
    updateCount();
}

void FindBar::activate()
{
    QWidget* focus = QApplication::focusWidget();
    if (focus && !isAncestorOf(focus))
        m_returnFocus = focus;
    show();
    m_field->setFocus(Qt::ShortcutFocusReason);
    m_field->selectAll();
}

void FindBar::apply()
{
    m_debounce->stop();
    m_document->setSearch(m_field->text());
}

QString FindBar::matchSummary() const
{
    return m_count->text();
}

void FindBar::updateCount()
{
    const QString text = m_document->searchText();
    if (text.isEmpty()) {
        m_count->clear();
        return;
    }
    if (!m_document->searchIsValid()) {
        m_count->setText(QStringLiteral("<span style='color:%1'>%2</span>").arg(ColorScheme::errorText().name(), tr("not a valid regular expression")));
        return;
    }
    const std::size_t labels = m_document->searchMatches().size();
    if (labels == 0) {
        m_count->setText(QStringLiteral("<span style='color:%1'>%2</span>").arg(ColorScheme::errorText().name(), tr("no label matches")));
        return;
    }
    const auto [k, n] = m_document->occurrencePosition(m_document->searchMatches());
    const QString where = k > 0 ? tr("%1 of %2").arg(k).arg(n) : countText(qint64(n), "interval", "intervals");
    m_count->setText(where + QStringLiteral(" · ") + countText(qint64(labels), "label", "labels") + previewNote());
}

QString FindBar::previewNote() const
{
    // While a file loads, the counts are of its preview: what was read so
    // far, without the shorter boxes. "13" becoming "1,888" when the load
    // ends must not look like a wrong count.
    const Profile* profile = m_document->profile();
    if (!profile || !profile->isPreview())
        return {};
    const Time shortest = profile->partial()->shortestKept;
    if (shortest <= 0)
        return tr(" · so far");
    return tr(" · so far, boxes of %1 or more").arg(QString::fromStdString(ValueFormat::text(shortest, profile->unit())));
}

void FindBar::step(bool forward)
{
    apply(); // what is typed, even before the pause
    if (m_document->stepThrough(m_document->searchMatches(), forward) == kNone && !m_document->searchMatches().empty())
        m_count->setText(m_count->text() + (forward ? tr(" · no later one") : tr(" · no earlier one")));
}

void FindBar::close()
{
    m_debounce->stop();
    m_field->clear();
    m_document->setSearch(QString());
    hide();
    if (m_returnFocus && m_returnFocus->isVisible())
        m_returnFocus->setFocus(Qt::OtherFocusReason);
    Q_EMIT dismissed();
}

void FindBar::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape) {
        close();
        return;
    }
    QWidget::keyPressEvent(event);
}

bool FindBar::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_field && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            step(!(key->modifiers() & Qt::ShiftModifier));
            return true;
        }
        if (key->key() == Qt::Key_Escape) {
            close();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void FindBar::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        updateCount(); // its error colour is the theme's
}

} // namespace runlane
