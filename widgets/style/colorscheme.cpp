#include "colorscheme.h"

#include "snapshotreader.h"

#include <QGuiApplication>
#include <QPalette>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace runlane {

namespace {

// 24 colours of OKLab lightness 0.76 to 0.90 and chroma 0.05 to 0.15 (dark
// text reads on every one), picked from the 8-bit sRGB colours of that
// region by farthest-point sampling, then moved one at a time to wherever
// is farthest from all the others, with the usage chart's "other" grey
// (176, 178, 186) and the merged runs' grey (150, 150, 158) held fixed
// among them: any two are at least 0.0840 apart, and each at least 0.0837
// from both greys. The order is the hash's: changing it changes every label's
// colour.
constexpr std::array<QRgb, 24> kPalette = {
    0xffadf592, 0xfffbbd72, 0xff03e5f6, 0xfffba8fc, 0xff80c766, 0xfffe8899, 0xfffad6c0, 0xffba9efc,
    0xff7bb4ff, 0xffa0d3ed, 0xff10cdae, 0xffb4d6af, 0xfffc9157, 0xfff7df67, 0xffe193cf, 0xfff2b1ad,
    0xff95f2e7, 0xffdea731, 0xff5be8b1, 0xff36c4e1, 0xffb1b77e, 0xfffecbf8, 0xffcbcc4b, 0xffceb9eb,
};
constexpr std::size_t kSlots = kPalette.size();

std::uint32_t fnv1a(std::string_view text)
{
    // FNV-1a: stable across runs and platforms (std::hash is not).
    std::uint32_t h = 2166136261u;
    for (const char c : text) {
        h ^= static_cast<unsigned char>(c);
        h *= 16777619u;
    }
    return h;
}

std::size_t hashedSlot(std::string_view key)
{
    return fnv1a(key) % kSlots;
}

const std::array<std::array<double, kSlots>, kSlots>& slotDistances()
{
    static const auto table = [] {
        std::array<std::array<double, kSlots>, kSlots> d{};
        for (std::size_t i = 0; i < kSlots; ++i) {
            for (std::size_t j = 0; j < kSlots; ++j)
                d[i][j] = ColorScheme::distance(QColor::fromRgb(kPalette[i]), QColor::fromRgb(kPalette[j]));
        }
        return d;
    }();
    return table;
}

// Per label, the time it ran as the innermost interval (exec), or what the
// last snapshot says for pre-aggregated metrics. In doubles: sums over a
// profile near 2^63 ns must not overflow.
std::vector<double> walkExecPerLabel(const Profile& profile)
{
    std::vector<double> exec(profile.labelCount(), 0.0);
    auto labelOf = [&](const Interval& iv) {
        return iv.measurement < profile.measurementCount() ? profile.labelOf(iv.measurement) : kNone;
    };
    for (const Interval& iv : profile.intervals()) {
        const double length = double(iv.end) - double(iv.start);
        if (const LabelId l = labelOf(iv); l < exec.size())
            exec[l] += length;
        if (iv.parent < profile.intervalCount()) {
            if (const LabelId l = labelOf(profile.interval(iv.parent)); l < exec.size())
                exec[l] -= length;
        }
    }
    if (!profile.snapshots().empty()) {
        SnapshotReader reader(profile.snapshots(), SnapshotReader::Columns::Exec);
        const SnapshotReader::Exec last = reader.exec(reader.size() - 1);
        for (std::size_t k = 0; k < last.labels.size(); ++k) {
            if (last.labels[k] < exec.size())
                exec[last.labels[k]] += double(last.exec[k]);
        }
    }
    return exec;
}

double linear(double c)
{
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double luminance(QColor c)
{
    return 0.2126 * linear(c.redF()) + 0.7152 * linear(c.greenF()) + 0.0722 * linear(c.blueF());
}

// The views' own colours, light and dark.
struct UiColors {
    QColor background, gutter, grid, header, text, mutedText, faintText, errorText, mark, pending, hatch, selectedRow,
        relatedRow, matchRow, shareBar, outsideWindow, other, merged, selection, rangeSelection, flow;
};

const UiColors kLight{
    .background = {252, 252, 253},
    .gutter = {242, 243, 246},
    .grid = {225, 227, 232},
    .header = {232, 235, 241},
    .text = {40, 44, 52},
    .mutedText = {100, 100, 110},
    .faintText = {170, 174, 182},
    .errorText = {176, 32, 32},
    .mark = {120, 126, 138},
    .pending = {236, 238, 243},
    .hatch = {150, 156, 170},
    .selectedRow = {210, 225, 250},
    .relatedRow = {252, 238, 200},
    .matchRow = {255, 243, 176},
    .shareBar = {70, 130, 220, 70},
    .outsideWindow = {20, 30, 50, 40},
    .other = {176, 178, 186},
    .merged = {150, 150, 158},
    .selection = {30, 90, 200},
    .rangeSelection = {60, 120, 220, 48},
    .flow = {72, 76, 92},
};

const UiColors kDark{
    .background = {30, 32, 36},
    .gutter = {40, 42, 48},
    .grid = {62, 65, 73},
    .header = {50, 53, 61},
    .text = {222, 225, 230},
    .mutedText = {160, 165, 175},
    .faintText = {100, 104, 113},
    .errorText = {255, 128, 118},
    .mark = {140, 146, 158},
    .pending = {52, 55, 62},
    .hatch = {118, 124, 138},
    .selectedRow = {40, 64, 108},
    .relatedRow = {74, 60, 28},
    .matchRow = {78, 66, 22},
    .shareBar = {100, 160, 245, 90},
    .outsideWindow = {0, 0, 0, 110},
    .other = {118, 122, 132},
    .merged = {104, 106, 114},
    .selection = {110, 165, 255},
    .rangeSelection = {90, 150, 255, 60},
    .flow = {196, 200, 212},
};

const UiColors& ui()
{
    return ColorScheme::isDark() ? kDark : kLight;
}

// Slots of the palette as bits: bit s is slot s.
using Slots = std::uint32_t;
static_assert(kSlots <= 32);
constexpr Slots kAllSlots = (Slots(1) << kSlots) - 1;

// Per slot, the slots closer than kDistinct to it, itself included: what
// giving it rules out for labels that must be apart from it.
const std::array<Slots, kSlots>& nearSlots()
{
    static const auto table = [] {
        std::array<Slots, kSlots> near{};
        for (std::size_t i = 0; i < kSlots; ++i) {
            for (std::size_t j = 0; j < kSlots; ++j) {
                if (i == j || slotDistances()[i][j] < ColorScheme::kDistinct)
                    near[i] |= Slots(1) << j;
            }
        }
        return near;
    }();
    return table;
}

// The most slots of a set that are pairwise at least kDistinct apart: an
// exact search, remembered per set (the sets met while placing a few
// labels are few: those the slots already given leave).
class ApartSlots
{
public:
    int most(Slots free)
    {
        if (free == 0)
            return 0;
        if (const auto it = m_most.find(free); it != m_most.end())
            return it->second;
        const int s = std::countr_zero(free);
        const Slots rest = free & (free - 1);
        const int best = std::max(most(rest), 1 + most(rest & ~nearSlots()[std::size_t(s)]));
        m_most.emplace(free, best);
        return best;
    }

private:
    std::unordered_map<Slots, int> m_most;
};

// The slots a key may take, in the order the rule prefers them: its own
// (hashed) slot if it is kDistinct from every colour given, then every
// slot from the farthest from those colours to the nearest (of equally far
// ones, the first after its own).
std::array<std::size_t, kSlots> preferred(std::size_t own, const std::array<double, kSlots>& nearest)
{
    std::array<std::size_t, kSlots> order;
    for (std::size_t step = 0; step < kSlots; ++step)
        order[step] = (own + step) % kSlots;
    const bool keepOwn = nearest[own] >= ColorScheme::kDistinct;
    std::stable_sort(order.begin() + (keepOwn ? 1 : 0), order.end(),
                     [&](std::size_t a, std::size_t b) { return nearest[a] > nearest[b]; });
    return order;
}

// Gives the keys of `spread` (in that order) slots pairwise kDistinct
// apart, and apart from the slots `fixed` already holds (kSlots: none),
// each the first of its preferred() slots that leaves room for the keys
// after it. False, with `slotOf` untouched, when the palette has no such
// slots.
bool placeApart(const std::vector<std::size_t>& spread, const std::vector<std::size_t>& fixed, std::vector<std::size_t>& slotOf)
{
    if (spread.size() > ColorScheme::apartCapacity())
        return false;
    Slots free = kAllSlots;
    std::array<double, kSlots> nearest;
    nearest.fill(std::numeric_limits<double>::infinity());
    std::size_t left = 0;
    for (const std::size_t k : spread) {
        if (fixed[k] == kSlots) {
            ++left;
            continue;
        }
        if ((free & (Slots(1) << fixed[k])) == 0)
            return false; // kept colours already too near each other
        free &= ~nearSlots()[fixed[k]];
    }
    ApartSlots apart;
    if (apart.most(free) < int(left))
        return false;
    std::vector<std::size_t> placed = slotOf;
    for (const std::size_t k : spread) {
        if (fixed[k] != kSlots) {
            placed[k] = fixed[k];
            for (std::size_t s = 0; s < kSlots; ++s)
                nearest[s] = std::min(nearest[s], slotDistances()[fixed[k]][s]);
        }
    }
    for (const std::size_t k : spread) {
        if (fixed[k] != kSlots)
            continue;
        --left;
        for (const std::size_t s : preferred(placed[k], nearest)) {
            if ((free & (Slots(1) << s)) != 0 && apart.most(free & ~nearSlots()[s]) >= int(left)) {
                placed[k] = s;
                break;
            }
        }
        free &= ~nearSlots()[placed[k]];
        for (std::size_t s = 0; s < kSlots; ++s)
            nearest[s] = std::min(nearest[s], slotDistances()[placed[k]][s]);
    }
    slotOf = std::move(placed);
    return true;
}

// More keys than the palette keeps apart: each key in turn keeps its slot
// if it is kDistinct from every colour given, else takes the first of its
// preferred() slots, the farthest; while slots are left that is one no key
// has, so keys differ by the palette's spacing at least.
void placeFarthest(const std::vector<std::size_t>& spread, const std::vector<std::size_t>& fixed, std::vector<std::size_t>& slotOf)
{
    std::array<double, kSlots> nearest;
    nearest.fill(std::numeric_limits<double>::infinity());
    auto give = [&](std::size_t slot) {
        for (std::size_t s = 0; s < kSlots; ++s)
            nearest[s] = std::min(nearest[s], slotDistances()[slot][s]);
    };
    for (const std::size_t k : spread) {
        if (fixed[k] != kSlots)
            give(slotOf[k] = fixed[k]);
    }
    for (const std::size_t k : spread) {
        if (fixed[k] == kSlots)
            give(slotOf[k] = preferred(slotOf[k], nearest).front());
    }
}

} // namespace

std::size_t ColorScheme::apartCapacity()
{
    static const std::size_t capacity = std::size_t(ApartSlots().most(kAllSlots));
    return capacity;
}

std::span<const QRgb> ColorScheme::palette()
{
    return kPalette;
}

QColor ColorScheme::forText(std::string_view text)
{
    return QColor::fromRgb(kPalette[hashedSlot(text)]);
}

// The rule: every distinct key (a label's name, or its file when colouring
// by file) hashes to a slot of the palette. The keys spread (all of them,
// or past kProbedKeys the busiest kProbedKeys by exec time; the rest keep
// their hashed slot) are given slots in the order of their text: a key
// keeps its hashed slot if that is at least kDistinct from every colour
// given before it, else it takes the farthest slot from them (of equally
// far ones, the first after its own), except that while the palette can
// hold every spread key kDistinct apart (up to apartCapacity() keys) a key
// passes over a slot that would leave no room for the keys after it. So
// the colours of a profile depend only on its set of keys (the same labels
// get the same colours in every run and every file); up to
// apartCapacity() keys are pairwise kDistinct apart; more have distinct
// colours of the palette, its spacing apart at least, while the palette
// lasts. A live recording's labels keep the colours they had (`kept`),
// and only new keys are placed, apart from them, unless that would leave
// some closer than kDistinct where a fresh start does not: then every key
// is placed afresh.
std::vector<double> ColorScheme::execPerLabel(const Profile& profile)
{
    return profile.labelCount() > kProbedKeys ? walkExecPerLabel(profile) : std::vector<double>();
}

std::vector<QRgb> ColorScheme::labelColors(const Profile& profile, ColorMode mode, std::span<const QRgb> kept,
                                           std::span<const double> exec)
{
    std::vector<std::size_t> keyOf(profile.labelCount());
    std::vector<std::string_view> keys;
    std::unordered_map<std::string_view, std::size_t> index;
    for (LabelId l = 0; l < profile.labelCount(); ++l) {
        const Label& label = profile.label(l);
        const std::string_view key = mode == ColorMode::ByFile && label.file != kEmptyString
            ? profile.string(label.file)
            : profile.string(label.name);
        const auto [it, added] = index.try_emplace(key, keys.size());
        if (added)
            keys.push_back(key);
        keyOf[l] = it->second;
    }
    std::vector<std::size_t> spread(keys.size());
    std::iota(spread.begin(), spread.end(), std::size_t(0));
    if (keys.size() > kProbedKeys) {
        std::vector<double> walked;
        if (exec.size() != profile.labelCount()) {
            walked = walkExecPerLabel(profile);
            exec = walked;
        }
        std::vector<double> busy(keys.size(), 0.0);
        for (LabelId l = 0; l < profile.labelCount(); ++l)
            busy[keyOf[l]] += exec[l];
        std::partial_sort(spread.begin(), spread.begin() + kProbedKeys, spread.end(), [&](std::size_t a, std::size_t b) {
            return busy[a] != busy[b] ? busy[a] > busy[b] : keys[a] < keys[b];
        });
        spread.resize(kProbedKeys);
    }
    std::sort(spread.begin(), spread.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });

    // The slot each key keeps (kSlots: none), from its labels' colours.
    const std::size_t keptCount = std::min(kept.size(), std::size_t(profile.labelCount()));
    std::vector<std::size_t> fixed(keys.size(), kSlots);
    for (LabelId l = 0; l < keptCount; ++l) {
        const auto it = std::find(kPalette.begin(), kPalette.end(), kept[l]);
        if (it != kPalette.end())
            fixed[keyOf[l]] = std::size_t(it - kPalette.begin());
    }
    std::vector<std::size_t> slotOf(keys.size());
    for (std::size_t k = 0; k < keys.size(); ++k)
        slotOf[k] = hashedSlot(keys[k]);
    bool keep = keptCount > 0;
    if (!placeApart(spread, fixed, slotOf)) {
        const std::vector<std::size_t> none(keys.size(), kSlots);
        if (keep && placeApart(spread, none, slotOf))
            keep = false; // kept colours would crowd the new ones: all afresh
        else
            placeFarthest(spread, fixed, slotOf);
    }
    for (std::size_t k = 0; keep && k < keys.size(); ++k) {
        if (fixed[k] != kSlots)
            slotOf[k] = fixed[k]; // new labels of a kept file take its colour
    }
    std::vector<QRgb> colors(profile.labelCount());
    for (LabelId l = 0; l < profile.labelCount(); ++l)
        colors[l] = profile.isIdle(l) ? kIdle : keep && l < keptCount ? kept[l] : kPalette[slotOf[keyOf[l]]];
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
    const QColor dark(20, 20, 24);
    const QColor light(250, 250, 250);
    return contrast(background, dark) >= contrast(background, light) ? dark : light;
}

QRgb ColorScheme::dimmed(QRgb color)
{
    const QColor back = background();
    auto mix = [](int c, int b) { return (c + 3 * b) / 4; };
    return qRgb(mix(qRed(color), back.red()), mix(qGreen(color), back.green()), mix(qBlue(color), back.blue()));
}

std::array<double, 3> ColorScheme::oklab(QColor color)
{
    // Björn Ottosson's OKLab, from linear sRGB.
    const double r = linear(color.redF());
    const double g = linear(color.greenF());
    const double b = linear(color.blueF());
    const double l = std::cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
    const double m = std::cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
    const double s = std::cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
    return {0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s, 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
            0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s};
}

double ColorScheme::distance(QColor a, QColor b)
{
    const auto p = oklab(a);
    const auto q = oklab(b);
    return std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

double ColorScheme::contrast(QColor a, QColor b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

bool ColorScheme::isDark()
{
    return qGuiApp && QGuiApplication::palette().color(QPalette::Window).lightness() < 128;
}

QColor ColorScheme::background() { return ui().background; }
QColor ColorScheme::gutter() { return ui().gutter; }
QColor ColorScheme::grid() { return ui().grid; }
QColor ColorScheme::header() { return ui().header; }
QColor ColorScheme::text() { return ui().text; }
QColor ColorScheme::mutedText() { return ui().mutedText; }
QColor ColorScheme::faintText() { return ui().faintText; }
QColor ColorScheme::errorText() { return ui().errorText; }
QColor ColorScheme::mark() { return ui().mark; }
QColor ColorScheme::pending() { return ui().pending; }
QColor ColorScheme::hatch() { return ui().hatch; }
QColor ColorScheme::selectedRow() { return ui().selectedRow; }
QColor ColorScheme::relatedRow() { return ui().relatedRow; }
QColor ColorScheme::matchRow() { return ui().matchRow; }
QColor ColorScheme::shareBar() { return ui().shareBar; }
QColor ColorScheme::outsideWindow() { return ui().outsideWindow; }
QColor ColorScheme::other() { return ui().other; }
QColor ColorScheme::merged() { return ui().merged; }
QColor ColorScheme::selection() { return ui().selection; }
QColor ColorScheme::rangeSelection() { return ui().rangeSelection; }
QColor ColorScheme::flow() { return ui().flow; }

} // namespace runlane
