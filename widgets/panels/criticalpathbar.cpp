#include "criticalpathbar.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace runlane {

namespace {

using Kind = CriticalPath::Kind;
constexpr int kBarHeight = 16;
constexpr int kMargin = 4;

QString kindText(Kind kind)
{
    const std::string_view name = CriticalPath::kindName(kind);
    return QString::fromLatin1(name.data(), qsizetype(name.size()));
}

} // namespace

CriticalPathBar::CriticalPathBar(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void CriticalPathBar::setTotals(const std::array<Time, 4>& totals, Time wall)
{
    m_totals = totals;
    m_wall = wall;
    setToolTip(m_wall > 0 ? legendText() : QString());
    update();
}

double CriticalPathBar::share(Kind kind) const
{
    return m_wall > 0 ? double(m_totals[std::size_t(kind)]) / double(m_wall) : 0.0;
}

QString CriticalPathBar::legendText() const
{
    QStringList parts;
    for (const Kind kind : CriticalPath::kAllKinds)
        parts << QStringLiteral("%1 %2 %").arg(kindText(kind)).arg(100.0 * share(kind), 0, 'f', 1);
    return parts.join(QStringLiteral(" · "));
}

QColor CriticalPathBar::kindColor(Kind kind)
{
    // Running in the green of work done, queued in the orange of "someone
    // else had the loop", idle and waiting in greys and blue that recede.
    switch (kind) {
    case Kind::Running:
        return QColor(0x4c, 0xaf, 0x50);
    case Kind::Queued:
        return QColor(0xf5, 0x7c, 0x00);
    case Kind::Idle:
        return QColor(0xbd, 0xbd, 0xbd);
    case Kind::Waiting:
        return QColor(0x64, 0x95, 0xed);
    }
    return Qt::gray;
}

QString CriticalPathBar::kindMeaning(Kind kind)
{
    switch (kind) {
    case Kind::Running:
        return tr("Running: code on the path ran (named after the innermost measurement running)");
    case Kind::Queued:
        return tr("Queued: ready to go on, but the loop ran someone else (named after that blocker)");
    case Kind::Idle:
        return tr("Idle: ready to go on, and nothing ran on its loop");
    case Kind::Waiting:
        return tr("Waiting: nothing on the path could run and no waker is known (a timer, I/O)");
    }
    return {};
}

QSize CriticalPathBar::sizeHint() const
{
    return {400, minimumSizeHint().height()};
}

QSize CriticalPathBar::minimumSizeHint() const
{
    return {120, kMargin + kBarHeight + 4 + fontMetrics().height() + kMargin};
}

void CriticalPathBar::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QRect bar(kMargin, kMargin, width() - 2 * kMargin, kBarHeight);
    painter.setPen(palette().color(QPalette::Mid));
    painter.setBrush(palette().color(QPalette::Base));
    painter.drawRect(bar.adjusted(0, 0, -1, -1));
    if (m_wall <= 0)
        return;
    // Each part from the running sum's rounded edges: the parts meet and
    // fill the bar to the pixel.
    double sum = 0;
    for (const Kind kind : CriticalPath::kAllKinds) {
        const int x0 = bar.left() + int(std::lround(sum * bar.width()));
        sum += share(kind);
        const int x1 = bar.left() + int(std::lround(std::min(sum, 1.0) * bar.width()));
        if (x1 > x0)
            painter.fillRect(QRect(x0, bar.top(), x1 - x0, bar.height()), kindColor(kind));
    }
    // The legend: a swatch and "kind 12.3 %" per kind.
    const QFontMetrics metrics = fontMetrics();
    int x = kMargin;
    const int y = bar.bottom() + 4;
    painter.setPen(palette().color(QPalette::WindowText));
    for (const Kind kind : CriticalPath::kAllKinds) {
        const int swatch = metrics.height() - 4;
        painter.fillRect(QRect(x, y + 2, swatch, swatch), kindColor(kind));
        x += swatch + 4;
        const QString text = QStringLiteral("%1 %2 %").arg(kindText(kind)).arg(100.0 * share(kind), 0, 'f', 1);
        painter.drawText(QRect(x, y, metrics.horizontalAdvance(text) + 1, metrics.height()), Qt::AlignVCenter, text);
        x += metrics.horizontalAdvance(text) + 14;
    }
}

} // namespace runlane
