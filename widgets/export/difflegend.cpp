#include "difflegend.h"

#include "colorscheme.h"
#include "diffcolors.h"
#include "valueformat.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace runlane {

namespace {

constexpr int kPad = 8; // around the legend and between its parts
constexpr int kBarHeight = 12;
constexpr int kBarMin = 120;
constexpr int kBarMax = 360;
constexpr int kSwatch = 12;

int lineHeight(const QFontMetrics& metrics)
{
    return metrics.height() + 4;
}

QString fasterText()
{
    return DiffLegend::tr("faster in new");
}

QString slowerText()
{
    return DiffLegend::tr("slower in new");
}

QString newPathText()
{
    return DiffLegend::tr("not in the base");
}

} // namespace

DiffLegend::DiffLegend(double threshold, double floor, ValueUnit unit) : m_threshold(threshold), m_floor(floor), m_unit(unit)
{
}

int DiffLegend::height(const QFontMetrics& metrics)
{
    // A caption, the gradient with its ends' words, the scale under it.
    return kPad + 3 * lineHeight(metrics) + kPad;
}

double DiffLegend::changeAt(int x, int width)
{
    // new / base from 1/2 to 2 on a log scale; exact at both ends.
    const double f = width > 1 ? double(x) / double(width - 1) : 0.5;
    return std::exp2(2 * f - 1) - 1;
}

double DiffLegend::columnOf(double change, int width)
{
    return (std::log2(1 + change) + 1) / 2 * double(width - 1);
}

QRect DiffLegend::gradientRect(const QRect& rect, const QFontMetrics& metrics)
{
    const int line = lineHeight(metrics);
    // As wide as the words around it leave, within bounds: a scale of a
    // few hundred pixels reads the same in any image.
    const int words = metrics.horizontalAdvance(fasterText()) + metrics.horizontalAdvance(slowerText())
        + metrics.horizontalAdvance(newPathText());
    const int room = rect.width() - (2 * kPad + words + 2 * kPad + 3 * kPad + kSwatch + kPad / 2);
    const int width = std::clamp(room, kBarMin, kBarMax);
    const int left = rect.left() + kPad + metrics.horizontalAdvance(fasterText()) + kPad;
    const int top = rect.top() + kPad + line + (line - kBarHeight) / 2;
    return QRect(left, top, width, kBarHeight);
}

void DiffLegend::paint(QPainter& painter, const QRect& rect, const QFontMetrics& metrics) const
{
    painter.save();
    painter.setClipRect(rect);
    painter.fillRect(rect, ColorScheme::gutter());
    painter.setPen(ColorScheme::grid());
    painter.drawLine(rect.topLeft(), rect.topRight());
    const int line = lineHeight(metrics);
    const int x = rect.left() + kPad;
    int y = rect.top() + kPad;

    // What the colour is of, and what is grey.
    const QString threshold = QString::number(m_threshold * 100, 'g', 3);
    QString caption = tr("Box colour: change of the call path's self time, new against the base's median; grey within ±%1 %")
                          .arg(threshold);
    if (m_floor >= 1)
        caption += tr(" or under %1").arg(QString::fromStdString(ValueFormat::text(Time(std::llround(m_floor)), m_unit)));
    painter.setPen(ColorScheme::text());
    painter.drawText(QRect(x, y, rect.width() - 2 * kPad, line), Qt::AlignLeft | Qt::AlignVCenter, caption);
    y += line;

    // The gradient, a column at a time in DiffColors' own colour of that
    // change: the image's colours and the key's are the same.
    const QRect bar = gradientRect(rect, metrics);
    for (int c = 0; c < bar.width(); ++c)
        painter.fillRect(QRect(bar.left() + c, bar.top(), 1, bar.height()),
                         DiffColors::forDelta(changeAt(c, bar.width()), 1.0, m_threshold, 0));
    painter.setPen(ColorScheme::text());
    painter.drawText(QRect(x, y, bar.left() - kPad - x, line), Qt::AlignRight | Qt::AlignVCenter, fasterText());
    const int slowerLeft = bar.right() + 1 + kPad;
    const int slowerWidth = metrics.horizontalAdvance(slowerText());
    painter.drawText(QRect(slowerLeft, y, slowerWidth, line), Qt::AlignLeft | Qt::AlignVCenter, slowerText());
    const int swatchLeft = slowerLeft + slowerWidth + 3 * kPad;
    painter.fillRect(QRect(swatchLeft, y + (line - kSwatch) / 2, kSwatch, kSwatch), DiffColors::newPath());
    painter.drawText(QRect(swatchLeft + kSwatch + kPad / 2, y, metrics.horizontalAdvance(newPathText()) + 1, line),
                     Qt::AlignLeft | Qt::AlignVCenter, newPathText());
    y += line;

    // Its scale: the ends saturate, and so does all beyond them.
    struct Tick {
        double change;
        QString text;
    };
    const Tick ticks[] = {{-0.5, tr("≤ −50 %")}, {-0.25, tr("−25 %")}, {0, tr("0")}, {0.5, tr("+50 %")}, {1, tr("≥ +100 %")}};
    painter.setPen(ColorScheme::mutedText());
    for (const Tick& tick : ticks) {
        const int at = bar.left() + int(std::lround(columnOf(tick.change, bar.width())));
        painter.drawLine(at, bar.bottom() + 1, at, bar.bottom() + 3);
        const int w = metrics.horizontalAdvance(tick.text);
        painter.drawText(QRect(at - w / 2, y, w + 1, line), Qt::AlignHCenter | Qt::AlignVCenter, tick.text);
    }
    painter.restore();
}

} // namespace runlane
