#pragma once

#include "profiletypes.h"

#include <QCoreApplication>
#include <QRect>

class QFontMetrics;
class QPainter;

namespace runlane {

// The differential flame graph's colour key, painted below its exported
// image (the window gives it in the Removed paths dock): what a box's colour
// says, DiffColors' gradient from faster in new to slower in new on its
// scale, the grey of a change within the threshold or under the floor, and
// the green of a call path no base run has. An image read alone, in a pull
// request, says what its colours mean.
//
// The gradient's scale is the ratio new / base on a log scale, so that
// halving (−50 %, where faster saturates) and doubling (+100 %, where slower
// does) are at its two ends, as far from "unchanged" in its middle.
class DiffLegend
{
    Q_DECLARE_TR_FUNCTIONS(DiffLegend)

public:
    // `threshold`: the relative change within which a box is grey; `floor`:
    // the least |Δ| of self time that counts, in `unit`.
    DiffLegend(double threshold, double floor, ValueUnit unit);

    // Its height for text of `metrics`.
    static int height(const QFontMetrics& metrics);
    // Paints it in `rect` (the image's width, height()), text in `metrics`'
    // font (the painter's).
    void paint(QPainter& painter, const QRect& rect, const QFontMetrics& metrics) const;
    // Where paint() draws the gradient in `rect`: its first pixel column is
    // DiffColors' colour for −50 %, its last for +100 %.
    static QRect gradientRect(const QRect& rect, const QFontMetrics& metrics);
    // The relative change (new / base − 1) at column `x` of a gradient
    // `width` px wide: −0.5 at 0, 0 in the middle, +1 at width − 1.
    static double changeAt(int x, int width);
    // The column of a relative change (the inverse of changeAt).
    static double columnOf(double change, int width);

private:
    double m_threshold;
    double m_floor;
    ValueUnit m_unit;
};

} // namespace runlane
