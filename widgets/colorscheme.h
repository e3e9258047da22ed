#pragma once

#include "profile.h"

#include <QColor>

#include <array>
#include <span>
#include <vector>

namespace runlane {

enum class ColorMode { ByLabel, ByFile, ByDuration };

// Colours of the views.
//
// Labels take their colours from a fixed palette of pastels chosen to be far
// apart in OKLab (a perceptual space), so that the labels a user sees
// together can be told apart; a label keeps its colour from run to run and
// file to file as long as it is seen with the same labels (labelColors()
// gives the rule). Text on them is dark.
class ColorScheme
{
public:
    // Colours for every label of a profile, by name or by file.
    static std::vector<QRgb> labelColors(const Profile& profile, ColorMode mode);
    // The colour a key (label name or file) hashes to, with no other label
    // around: its slot of the palette.
    static QColor forText(std::string_view text);
    static std::span<const QRgb> palette();
    // labelColors() moves a label off its hashed slot when that slot is
    // closer than this (OKLab distance) to a colour already given.
    static constexpr double kDistinct = 0.12;
    // Above this many labels (or files), the least busy ones keep their
    // hashed slot whatever it is near: the palette is used up.
    static constexpr std::size_t kProbedKeys = 24;

    // Heat from cool to hot on a log scale of the duration within [1 ns, longest].
    static QColor forDuration(Time duration, Time longest);
    static QColor forState(FinalState state);
    // The text colour that reads best on `background` (WCAG contrast).
    static QColor textOn(QColor background);
    // A colour pushed most of the way to the background: what is not
    // emphasised while something is.
    static QRgb dimmed(QRgb color);

    // OKLab (L, a, b) of an sRGB colour; distance() is the Euclidean
    // distance there (about 0.02 is just noticeable).
    static std::array<double, 3> oklab(QColor color);
    static double distance(QColor a, QColor b);
    // WCAG 2 contrast ratio, 1 to 21.
    static double contrast(QColor a, QColor b);

    // Runs of intervals narrower than a pixel, drawn as one block.
    static QColor merged() { return QColor(150, 150, 158); }
    static QColor selection() { return QColor(30, 90, 200); }
    static QColor rangeSelection() { return QColor(60, 120, 220, 48); }
    static QColor background() { return QColor(252, 252, 253); }
    static QColor gutter() { return QColor(242, 243, 246); }
    static QColor grid() { return QColor(225, 227, 232); }
};

} // namespace runlane
