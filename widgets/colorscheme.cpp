#include "colorscheme.h"

#include <cmath>

namespace runlane {

QColor ColorScheme::forText(std::string_view text)
{
    // FNV-1a: stable across runs and platforms (std::hash is not).
    std::uint32_t h = 2166136261u;
    for (const char c : text) {
        h ^= static_cast<unsigned char>(c);
        h *= 16777619u;
    }
    const int hue = int(h % 360);
    const int saturation = 120 + int((h >> 9) % 60);
    const int lightness = 165 + int((h >> 17) % 30);
    return QColor::fromHsl(hue, saturation, lightness);
}

std::vector<QRgb> ColorScheme::labelColors(const Profile& profile, ColorMode mode)
{
    std::vector<QRgb> colors(profile.labelCount());
    for (LabelId l = 0; l < profile.labelCount(); ++l) {
        const Label& label = profile.label(l);
        const std::string_view key = mode == ColorMode::ByFile && label.file != kEmptyString
            ? profile.string(label.file)
            : profile.string(label.name);
        colors[l] = forText(key).rgb();
    }
    return colors;
}

QColor ColorScheme::forDuration(Time duration, Time longest)
{
    const double top = std::log10(double(std::max<Time>(longest, 10)));
    const double v = std::log10(double(std::max<Time>(duration, 1)));
    const double f = std::clamp(v / top, 0.0, 1.0);
    // Blue (short) through yellow to red (long).
    return QColor::fromHsl(int(220 - 220 * f), 170, 170);
}

QColor ColorScheme::forState(FinalState state)
{
    switch (state) {
    case FinalState::Completed:
        return QColor(40, 160, 70);
    case FinalState::Failed:
        return QColor(215, 45, 45);
    case FinalState::Cancelled:
        return QColor(235, 140, 20);
    case FinalState::Ended:
        return QColor(110, 120, 130);
    case FinalState::Unfinished:
        return QColor(60, 110, 220);
    }
    return Qt::black;
}

QColor ColorScheme::textOn(QColor background)
{
    const double luma = 0.299 * background.redF() + 0.587 * background.greenF() + 0.114 * background.blueF();
    return luma > 0.55 ? QColor(20, 20, 24) : QColor(250, 250, 250);
}

QRgb ColorScheme::dimmed(QRgb color)
{
    const QColor back = background();
    auto mix = [](int c, int b) { return (c + 3 * b) / 4; };
    return qRgb(mix(qRed(color), back.red()), mix(qGreen(color), back.green()), mix(qBlue(color), back.blue()));
}

} // namespace runlane
