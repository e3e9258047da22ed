#pragma once

#include "profile.h"

#include <QColor>

#include <vector>

namespace runlane {

enum class ColorMode { ByLabel, ByFile, ByDuration };

// Colours of the views. A label keeps its colour from run to run and file
// to file (a hash of its name, not its position), so people learn them.
class ColorScheme
{
public:
    // Colours for every label of a profile, by name or by file.
    static std::vector<QRgb> labelColors(const Profile& profile, ColorMode mode);
    static QColor forText(std::string_view text);
    // Heat from cool to hot on a log scale of the duration within [1 ns, longest].
    static QColor forDuration(Time duration, Time longest);
    static QColor forState(FinalState state);
    // Runs of intervals narrower than a pixel, drawn as one block.
    static QColor merged() { return QColor(150, 150, 158); }
    static QColor textOn(QColor background);
    // A colour pushed most of the way to the background: what is not
    // emphasised while something is.
    static QRgb dimmed(QRgb color);
    static QColor selection() { return QColor(30, 90, 200); }
    static QColor rangeSelection() { return QColor(60, 120, 220, 48); }
    static QColor background() { return QColor(252, 252, 253); }
    static QColor gutter() { return QColor(242, 243, 246); }
    static QColor grid() { return QColor(225, 227, 232); }
};

} // namespace runlane
