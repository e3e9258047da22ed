#include "elidedlabel.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFragment>

#include <algorithm>

namespace runlane {

namespace {

const QString kEllipsis = QStringLiteral("…");

void layOut(QTextDocument& doc, const QString& richText, const QFont& font)
{
    doc.setDefaultFont(font);
    doc.setDocumentMargin(0); // as QLabel lays out its text
    doc.setHtml(richText);
}

// One fragment of the parsed text as HTML again, in the markup the
// banners use: the label parses it as it parsed the whole.
QString fragmentHtml(const QString& text, const QTextCharFormat& format)
{
    QString html = text.toHtmlEscaped();
    if (format.fontWeight() >= QFont::DemiBold)
        html = QStringLiteral("<b>%1</b>").arg(html);
    if (format.fontItalic())
        html = QStringLiteral("<i>%1</i>").arg(html);
    if (format.isAnchor()) // its colour and underline are the link's, as before
        return QStringLiteral("<a href=\"%1\">%2</a>").arg(format.anchorHref().toHtmlEscaped(), html);
    if (format.hasProperty(QTextFormat::ForegroundBrush))
        html = QStringLiteral("<span style=\"color:%1\">%2</span>").arg(format.foreground().color().name(), html);
    return html;
}

// The fragments of `doc` that fit `width` px, the one at the cut shortened
// to end in "…". Widths are summed fragment by fragment, which can differ
// from the layout of the whole by a pixel or so: elide() checks.
QString cut(const QTextDocument& doc, qreal width)
{
    QString html;
    qreal left = width;
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        if (block != doc.begin())
            html += QLatin1Char(' '); // one line: blocks run on
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            const QTextCharFormat format = fragment.charFormat();
            const QFontMetricsF metrics(format.font().resolve(doc.defaultFont()));
            const QString text = fragment.text();
            const qreal w = metrics.horizontalAdvance(text);
            if (w + metrics.horizontalAdvance(kEllipsis) <= left) {
                html += fragmentHtml(text, format);
                left -= w;
                continue;
            }
            // Its longest start that fits with "…" (elidedText would give
            // all of a fragment that fits only without); "…" alone if none.
            qsizetype n = text.size();
            while (n > 0 && metrics.horizontalAdvance(text.left(n) + kEllipsis) > left) {
                --n;
                if (n > 0 && text.at(n - 1).isHighSurrogate())
                    --n; // never half a character
            }
            return html + fragmentHtml(text.left(n) + kEllipsis, format);
        }
    }
    return html + kEllipsis;
}

} // namespace

ElidedLabel::ElidedLabel(QWidget* parent) : QLabel(parent)
{
    setTextFormat(Qt::RichText);
    setWordWrap(false);
    // Whatever width the layout gives: the text fits it, not it the text.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

void ElidedLabel::setFullText(const QString& richText, const QString& details)
{
    if (richText == m_full && details == m_details)
        return;
    m_full = richText;
    m_details = details;
    refit();
}

qreal ElidedLabel::textWidth(const QString& richText, const QFont& font)
{
    QTextDocument doc;
    layOut(doc, richText, font);
    return doc.idealWidth();
}

QString ElidedLabel::elide(const QString& richText, const QFont& font, int width)
{
    QTextDocument doc;
    layOut(doc, richText, font);
    if (doc.idealWidth() <= width)
        return richText;
    // A pixel less each time the sum of the fragments was short of the
    // layout's width (kerning, rounding): a few rounds at most.
    for (qreal budget = width; budget > 0; budget -= 1) {
        const QString html = cut(doc, budget);
        if (textWidth(html, font) <= width)
            return html;
    }
    return kEllipsis;
}

QSize ElidedLabel::minimumSizeHint() const
{
    // "…" is the least it shows.
    const QSize full = QLabel::minimumSizeHint();
    return QSize(fontMetrics().horizontalAdvance(kEllipsis) + 2 * margin(), full.height());
}

void ElidedLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    refit();
}

void ElidedLabel::changeEvent(QEvent* event)
{
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        refit();
}

void ElidedLabel::refit()
{
    const int width = std::max(0, contentsRect().width() - 2 * margin());
    const QString shown = elide(m_full, font(), width);
    m_elided = shown != m_full;
    if (text() != shown)
        setText(shown);
    QString tip = m_details;
    if (m_elided) {
        QTextDocument doc;
        doc.setHtml(m_full);
        tip = m_details.isEmpty() ? doc.toPlainText() : doc.toPlainText() + QStringLiteral("\n\n") + m_details;
    }
    if (toolTip() != tip)
        setToolTip(tip);
}

} // namespace runlane
