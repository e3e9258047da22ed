#pragma once

#include "profiletypes.h"

#include <QRect>
#include <QString>

#include <vector>

class QPainter;
class QPalette;

namespace runlane {

class Profile;
class TimeAxis;

// The profile's marks (Chrome instants, Enso metadata: RpcRequest,
// BackendMessage, RenderStats, …) per track, as the icicle draws them on
// each track's header band: a diamond per mark in the colour of its name.
// A thread's mark is on its track; a process's on the first track of that
// process; a global one on the first track.
//
// Painting never walks all of a track's marks: the first visible one is
// found by binary search, and every mark less than kGlyphSpacing px right
// of it shares its diamond (drawn merged: the colour of merged boxes, a
// heavier outline; the tooltip says how many), the next diamond's first
// mark found by binary search again. A frame costs O(diamonds × log n), at
// most a diamond per kGlyphSpacing px of a band.
class TrackMarks
{
public:
    // Marks closer than this (px) share one diamond.
    static constexpr int kGlyphSpacing = 6;
    static constexpr double kHalf = 4.5; // a diamond's half width and height, px

    // A diamond: at column `x` of the time area, for a track's marks [first, last).
    struct Glyph {
        int x;
        std::size_t first;
        std::size_t last;
    };

    // The marks of `profile` (none: no marks), which must outlive this.
    void build(const Profile* profile);
    bool empty() const { return m_count == 0; }
    std::size_t markCount(TrackId track) const { return track < m_tracks.size() ? m_tracks[track].marks.size() : 0; }

    // The diamonds of a track in the axis' visible range, in a time area `timeWidth` px wide.
    std::vector<Glyph> glyphs(TrackId track, const TimeAxis& axis, int timeWidth) const;
    // Paints a track's diamonds across `band` (the time area's part of a
    // row), ringing the axis' selected mark.
    void paint(QPainter& p, TrackId track, const TimeAxis& axis, const QRect& band, const QPalette& palette) const;
    // The mark whose diamond is at `x` px into the time area (the first of a
    // merged diamond's marks); kNone if none.
    std::uint32_t markAt(TrackId track, const TimeAxis& axis, int timeWidth, double x) const;
    // What a tooltip at `x` says ("" if no mark is there).
    QString describe(TrackId track, const TimeAxis& axis, int timeWidth, double x) const;

    // What paint drew since the last reset, for the tests: diamonds, how
    // many of them stand for more than one mark, and the marks they stand for.
    void resetCounts() const { m_paintedGlyphs = m_mergedGlyphs = m_paintedMarks = 0; }
    std::size_t paintedGlyphs() const { return m_paintedGlyphs; }
    std::size_t mergedGlyphs() const { return m_mergedGlyphs; }
    std::size_t paintedMarks() const { return m_paintedMarks; }

private:
    struct Marks {
        std::vector<std::uint32_t> marks; // into the profile's marks(), by time
        std::vector<Time> times; // theirs, for the binary searches
    };
    bool glyphAt(TrackId track, const TimeAxis& axis, int timeWidth, double x, Glyph& glyph) const;

    const Profile* m_profile = nullptr;
    std::vector<Marks> m_tracks; // by track
    std::size_t m_count = 0;
    mutable std::size_t m_paintedGlyphs = 0;
    mutable std::size_t m_mergedGlyphs = 0;
    mutable std::size_t m_paintedMarks = 0;
};

} // namespace runlane
