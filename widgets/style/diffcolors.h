#pragma once

#include "comparison.h"

#include <QColor>

namespace runlane {

// The colours of compare mode, shared by the compare rank and the
// differential flame graph so that red means slower and blue faster in
// both: rows by verdict, boxes by the change of their call path's self
// time. Light and dark sets follow ColorScheme::isDark(), as every view's.
class DiffColors
{
public:
    // Text of a rank row: red regressed, blue improved, grey unchanged or
    // inconclusive, green added (the flame graph's hue of a new path),
    // brown removed.
    static QColor verdictText(Comparison::Verdict verdict);
    // A tint behind the row, for regressed and improved only (invalid: none).
    static QColor verdictBackground(Comparison::Verdict verdict);

    // A box of the differential flame graph: `delta` of its path's self time
    // against `base` (the base's median). Grey while |Δ%| is within
    // `threshold` or |Δ| under `floor`; beyond, red (slower) or blue
    // (faster), more saturated the larger |Δ%| (fully at +100 %, or −50 %:
    // half the time is as far as faster goes in a flame graph).
    static QColor forDelta(double delta, double base, double threshold, double floor);
    // A path the base runs do not have.
    static QColor newPath();
    // Saturation of forDelta's colour for a relative change (0 grey .. 1).
    static double strength(double relative, double threshold);
};

} // namespace runlane
