#include "usagebands.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace runlane {

UsageBands::UsageBands(QGraphicsItem* parent) : QGraphicsItem(parent)
{
}

void UsageBands::setBands(std::vector<Band> bands, double left, double binWidth, double from, double to)
{
    m_bands = std::move(bands);
    m_left = left;
    m_binWidth = std::max(binWidth, 1e-300);
    m_from = from;
    m_to = to;
    update();
}

void UsageBands::clear()
{
    if (m_bands.empty())
        return;
    m_bands.clear();
    update();
}

void UsageBands::setRange(double xMin, double xMax, double yMax)
{
    if (xMin == m_xMin && xMax == m_xMax && yMax == m_yMax)
        return;
    m_xMin = xMin;
    m_xMax = xMax;
    m_yMax = yMax;
    update();
}

void UsageBands::setPlotArea(const QRectF& area)
{
    if (area == m_area)
        return;
    prepareGeometryChange();
    m_area = area;
}

void UsageBands::setBaselineColor(const QColor& color)
{
    if (color == m_baseline)
        return;
    m_baseline = color;
    update();
}

QRectF UsageBands::boundingRect() const
{
    return m_area.adjusted(0, 0, 0, 1); // and the baseline's row
}

void UsageBands::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    if (m_bands.empty() || m_area.isEmpty() || !(m_xMax > m_xMin) || !(m_yMax > 0))
        return;
    std::size_t bins = m_bands.front().tops.size();
    for (const Band& band : m_bands)
        bins = std::min(bins, band.tops.size());
    const double xScale = m_area.width() / (m_xMax - m_xMin);
    const double yScale = m_area.height() / m_yMax;
    // Edges on whole pixels, each computed once: neighbouring bins and
    // stacked bands share their edge, with no seam and no overlap.
    const int areaLeft = int(std::floor(m_area.left()));
    const int areaRight = int(std::ceil(m_area.right()));
    const int areaTop = int(std::floor(m_area.top()));
    const int bottom = int(std::round(m_area.bottom()));
    // Nothing is drawn outside what the bins count: x held to it.
    auto xOf = [&](double x) {
        x = std::clamp(x, m_from, std::max(m_from, m_to));
        return std::clamp(m_area.left() + (x - m_xMin) * xScale, double(areaLeft), double(areaRight));
    };
    // Only the bins in range: a zoom into old bins (stretched while the
    // new ones are computed) paints what shows, not the whole series.
    const double firstBin = std::floor((m_xMin - m_left) / m_binWidth);
    const double endBin = std::ceil((m_xMax - m_left) / m_binWidth);
    const std::size_t first = firstBin <= 0 ? 0 : std::size_t(std::min(firstBin, double(bins)));
    const std::size_t end = endBin <= 0 ? 0 : std::size_t(std::min(endBin, double(bins)));
    if (m_baseline.isValid())
        painter->fillRect(QRect(areaLeft, bottom, areaRight - areaLeft, 1), m_baseline);
    int painted = areaLeft; // the first pixel column not painted yet
    for (std::size_t b = first; b < end; ++b) {
        const double binLeft = m_left + double(b) * m_binWidth;
        if (binLeft >= m_to || binLeft + m_binWidth <= m_from)
            continue; // counts nothing (past the profile's end)
        const double left = xOf(binLeft);
        int x0 = int(std::round(left));
        int x1 = int(std::round(xOf(m_left + double(b + 1) * m_binWidth)));
        if (x1 == x0) {
            // Narrower than a pixel (old bins shrunk by a zoom out, until
            // the new ones come): the first bin that starts in a column
            // paints it and the others are skipped, so a paint stays
            // within one rectangle per column and band.
            const int column = int(std::floor(left));
            if (column < painted || column >= areaRight)
                continue;
            x0 = column;
            x1 = column + 1;
        } else {
            x0 = std::max(x0, painted);
        }
        if (x1 <= x0)
            continue;
        painted = x1;
        int floor = bottom;
        for (const Band& band : m_bands) {
            if (!band.visible)
                continue;
            const int y = std::max(areaTop, int(std::round(m_area.bottom() - band.tops[b] * yScale)));
            if (y < floor) {
                painter->fillRect(QRect(x0, y, x1 - x0, floor - y), band.color);
                floor = y;
            }
        }
    }
}

} // namespace runlane
