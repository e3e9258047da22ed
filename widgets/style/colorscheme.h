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
// gives the rule). Label colours are the same in the light and dark themes,
// as painted (no theme lightens or darkens them, so the rule's distances
// hold in both): text on them is dark.
//
// The views' own colours (backgrounds, text, marks) come in a light and a
// dark set; which one applies follows the application palette (isDark()),
// so every view, and every export painted with it, follows the theme.
class ColorScheme
{
public:
    // Colours for every label of a profile, by name or by file. `kept`: the
    // colours of the labels of a previous version of this profile (a live
    // recording's, ids kept), which they keep while the rule allows.
    // `exec`: execPerLabel(profile) if already known (one per label),
    // otherwise found here when needed.
    static std::vector<QRgb> labelColors(const Profile& profile, ColorMode mode, std::span<const QRgb> kept = {},
                                         std::span<const double> exec = {});
    // Each label's own time (its intervals less their children), by which
    // labelColors() ranks labels past kProbedKeys; empty when a profile has
    // no more labels than that. A walk of every interval (0.4 s at 16 M on
    // the reference machine): LoadedProfile::prepare finds it off the GUI
    // thread.
    static std::vector<double> execPerLabel(const Profile& profile);
    // The colour a key (label name or file) hashes to, with no other label
    // around: its slot of the palette.
    static QColor forText(std::string_view text);
    static std::span<const QRgb> palette();
    // A sampled thread's "(idle)" (Profile::isIdle): a light grey that no
    // palette colour is, so that doing nothing reads as nothing.
    static constexpr QRgb kIdle = 0xffdcdcdc;
    // labelColors() moves a label off its hashed slot when that slot is
    // closer than this (OKLab distance) to a colour already given; up to
    // apartCapacity() labels (or files) are all this far apart.
    static constexpr double kDistinct = 0.12;
    // The most palette colours that are pairwise kDistinct apart (8): no
    // more labels can all be.
    static std::size_t apartCapacity();
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

    // The theme: dark when the application palette's window is dark.
    static bool isDark();
    static QColor background(); // the plots
    static QColor gutter(); // names column, legends
    static QColor grid(); // dividers
    static QColor header(); // a track's header band
    static QColor text();
    static QColor mutedText(); // placeholders, secondary captions
    static QColor faintText(); // dimmed or hidden entries
    static QColor errorText();
    static QColor mark(); // ruler ticks, paused stretches
    static QColor pending(); // a task's pending stretch, hatched with hatch()
    static QColor hatch();
    static QColor selectedRow();
    static QColor relatedRow(); // creator and creations of the selected task
    static QColor matchRow(); // rank rows matching the search
    static QColor shareBar(); // translucent, over a rank cell
    static QColor outsideWindow(); // translucent, over the overview outside the visible range
    static QColor other(); // the usage chart's "other" band
    // Runs of intervals narrower than a pixel, drawn as one block.
    static QColor merged();
    static QColor selection();
    // The arrows of flows between intervals (the selection's in selection()).
    static QColor flow();
    static QColor rangeSelection(); // translucent
};

} // namespace runlane
