#pragma once

#include <QColor>
#include <QGraphicsItem>
#include <QString>

#include <limits>
#include <vector>

namespace runlane {

// The usage chart's stacked bands, drawn as one item of its QChart, under
// the chart's own axes: per bin and band, one rectangle from the top of
// the band below to the band's own top.
//
// Not QAreaSeries (nor a QValueAxis for x, whose line is drawn here): at every change of its points or of the axis range, Qt
// Charts lays out each area series' outline and strokes it into a hit
// shape, whatever the pen. With 9 bands of 300 bins that was 3.6 ms of the
// GUI thread per scrape of a followed live recording (issue 19), and the
// stroke grows with the bins. Here a change keeps the numbers, and a paint
// fills at most bins × bands rectangles; no hit shape is needed, since the
// chart finds the band under the cursor from the series itself.
class UsageBands : public QGraphicsItem
{
public:
    struct Band {
        QString name;
        QColor color;
        bool visible = true;
        // The stack's top at this band, in %, per bin: the band spans from
        // the previous band's top (0 for the first) to this.
        std::vector<double> tops;
    };

    explicit UsageBands(QGraphicsItem* parent = nullptr);

    // Bottom band first. Bin b spans [left + b × binWidth, left + (b + 1) × binWidth)
    // in x units, drawn only where it lies inside [from, to): what the
    // bins count (a last bin past the profile's end stops at it).
    void setBands(std::vector<Band> bands, double left, double binWidth,
                  double from = -std::numeric_limits<double>::infinity(),
                  double to = std::numeric_limits<double>::infinity());
    void clear();
    const std::vector<Band>& bands() const { return m_bands; }
    double left() const { return m_left; }
    double binWidth() const { return m_binWidth; }
    double from() const { return m_from; }
    double to() const { return m_to; }
    // What the plot area shows: x from xMin to xMax, y from 0 to yMax %.
    void setRange(double xMin, double xMax, double yMax);
    double xMin() const { return m_xMin; }
    double xMax() const { return m_xMax; }
    // The x axis's line, under the plot area while there are bands.
    void setBaselineColor(const QColor& color);
    void setPlotArea(const QRectF& area);

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    std::vector<Band> m_bands;
    double m_left = 0;
    double m_binWidth = 1;
    double m_from = -std::numeric_limits<double>::infinity();
    double m_to = std::numeric_limits<double>::infinity();
    double m_xMin = 0;
    double m_xMax = 1;
    double m_yMax = 100;
    QRectF m_area;
    QColor m_baseline;
};

} // namespace runlane
