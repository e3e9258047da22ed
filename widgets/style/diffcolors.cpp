#include "diffcolors.h"

#include "colorscheme.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace runlane {

namespace {

constexpr int kSlowerHue = 2; // red
constexpr int kFasterHue = 214; // blue
constexpr int kNewHue = 140; // green: neither slower nor faster, not there before

} // namespace

QColor DiffColors::verdictText(Comparison::Verdict verdict)
{
    const bool dark = ColorScheme::isDark();
    switch (verdict) {
    case Comparison::Verdict::Regressed:
        return dark ? QColor(255, 120, 110) : QColor(190, 30, 30);
    case Comparison::Verdict::Improved:
        return dark ? QColor(120, 170, 255) : QColor(20, 90, 200);
    case Comparison::Verdict::Added:
        return dark ? QColor(110, 210, 140) : QColor(25, 125, 60);
    case Comparison::Verdict::Removed:
        return dark ? QColor(200, 165, 130) : QColor(135, 90, 50);
    case Comparison::Verdict::Inconclusive:
    case Comparison::Verdict::Unchanged:
        break;
    }
    return dark ? QColor(150, 150, 150) : QColor(120, 120, 120);
}

QColor DiffColors::verdictBackground(Comparison::Verdict verdict)
{
    const bool dark = ColorScheme::isDark();
    if (verdict == Comparison::Verdict::Regressed)
        return dark ? QColor(90, 30, 30) : QColor(253, 226, 224);
    if (verdict == Comparison::Verdict::Improved)
        return dark ? QColor(25, 45, 90) : QColor(222, 234, 253);
    return {};
}

double DiffColors::strength(double relative, double threshold)
{
    // Slower saturates at +100 %, faster at -50 % (a box cannot get more
    // than 100 % faster, and halving is as striking as doubling).
    const double size = relative >= 0 ? relative : -relative * 2;
    if (std::isinf(size))
        return 1.0;
    const double t = std::clamp((size - threshold) / std::max(1e-9, 1.0 - threshold), 0.0, 1.0);
    return std::sqrt(t);
}

QColor DiffColors::forDelta(double delta, double base, double threshold, double floor)
{
    const bool dark = ColorScheme::isDark();
    const double relative = base != 0 ? delta / base : (delta == 0 ? 0 : std::copysign(std::numeric_limits<double>::infinity(), delta));
    if (std::fabs(relative) < threshold || std::fabs(delta) < floor || delta == 0)
        return dark ? QColor(88, 88, 92) : QColor(208, 208, 212);
    const double s = 0.22 + 0.68 * strength(relative, threshold);
    const int hue = delta > 0 ? kSlowerHue : kFasterHue;
    return QColor::fromHsvF(hue / 360.0, s, dark ? 0.62 + 0.25 * s : 0.98 - 0.12 * s);
}

QColor DiffColors::newPath()
{
    return ColorScheme::isDark() ? QColor::fromHsv(kNewHue, 150, 170) : QColor::fromHsv(kNewHue, 110, 225);
}

} // namespace runlane
