#pragma once

#include "profile.h"

#include <QRgb>

#include <span>
#include <string>

namespace runlane {

// What the icicle paints: per track and depth a start-sorted run of disjoint
// spans (Interval-shaped). The timeline gives the profile's intervals; the
// aggregated flame graph gives the call tree's layout. Painting, level of
// detail, hit tests and collapsing are written once against this.
class IcicleSource
{
public:
    virtual ~IcicleSource() = default;

    virtual std::size_t trackCount() const = 0;
    virtual int depthCount(TrackId track) const = 0;
    virtual std::span<const Interval> depthSlice(TrackId track, int depth) const = 0;
    // Ids index spans(); parents are ids too.
    virtual const Interval& span(std::uint32_t id) const = 0;
    virtual std::uint32_t idOf(const Interval& span) const = 0;
    virtual LabelId labelOf(const Interval& span) const = 0;
    // The measurement a span belongs to, kNone in the aggregated view.
    virtual MeasurementId measurementOf(const Interval& span) const = 0;
    virtual int depthOf(std::uint32_t id) const = 0;
    virtual TrackId trackOf(std::uint32_t id) const = 0;
    // Text for a tooltip or the details pane.
    virtual std::string describe(std::uint32_t id) const = 0;
    // True if everything deeper within a span's time is its descendant
    // (threads, call trees); false for rows of packed concurrent tasks.
    virtual bool nestsByTime(TrackId track) const = 0;
    virtual std::string trackName(TrackId track) const = 0;
    // A fill of the source's own instead of the label's (the differential
    // flame graph's); false: the document's colour of the label.
    virtual bool fillOf(const Interval& span, QRgb& color) const
    {
        (void)span;
        (void)color;
        return false;
    }

    // Ids [first, last) of the spans at `depth` touching [from, to], both
    // ends included: a span that starts exactly at `to` is drawn from that
    // pixel, and `to` may be the largest time (no caller adds 1 past it).
    std::pair<std::uint32_t, std::uint32_t> overlapping(TrackId track, int depth, Time from, Time to) const;
    // The span at `depth` containing t, or kNone.
    std::uint32_t at(TrackId track, int depth, Time t) const;
    // Whether a span has a child (what a chevron folds).
    bool hasChildren(std::uint32_t id) const;
    // Descendants of a span (what folding it hides).
    std::size_t descendantCount(std::uint32_t id) const;
};

} // namespace runlane
