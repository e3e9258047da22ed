#pragma once

namespace runlane {

// ProfileView's sizing policy (issue 46): how the time-axis views share the
// main splitter's height, decided by what the open profile holds rather than
// by fixed ratios. Pure arithmetic on content facts, so that it is tested
// without widgets; ProfileView measures the facts and applies the sizes.
class ViewSizing
{
public:
    // What the views hold, in pixels, measured from them.
    struct Facts {
        int total = 0; // the splitter's height less its handles
        int handle = 0; // the timeline panel's handle, between icicle and counters
        bool chartOnly = false; // metrics over time, no intervals: the chart is the view
        int icicleContent = 0; // the icicle's rows (its depth) in px
        int icicleMinimum = 0;
        bool counters = false; // counter tracks are shown
        int countersContent = 0; // every track as it is (collapsed or not)
        int countersCompact = 0; // every track collapsed to its header
        int countersMinimum = 0;
        int laneContent = 0; // every lane row, 0 without tasks
        int laneRowHeight = 18;
        int lanesLegend = 0;
        int lanesMinimum = 0;
        int usageMinimum = 0; // the chart with its y labels readable
    };
    struct Sizes {
        int timeline = 0; // icicle + counters panel, handle included
        int lanes = 0;
        int usage = 0;
        int counters = 0; // part of `timeline`
        bool operator==(const Sizes&) const = default;
    };

    // The lanes' rows that come before anything but compact counters.
    static constexpr int kMinLaneRows = 6;
    // A profile without tasks: the lanes keep their legend and the note saying so.
    static constexpr int kShrunkLanesHeight = 90;
    static constexpr int kUsageHeight = 170;
    // The usage chart's height that keeps its y labels readable (two ticks, 0 and the top, and the legend).
    static constexpr int kUsageLabelsHeight = 150;
    // Metrics over time: the timeline panel's height under the chart's room.
    static constexpr int kChartOnlyTimeline = 100;
    // The Rank dock below the views (issue 46): the rows it shows when the views can spare
    // the room, the rows it keeps when they cannot, and its most, a share of the window.
    static constexpr int kRankRows = 8;
    static constexpr int kMinRankRows = 3;
    static constexpr int kRankWindowShare = 3; // a third

    static Sizes fit(const Facts& facts);
    // The kinds of profile whose splitter sizes the user's moves set apart (for the session):
    // with or without tasks, with or without counters, metrics over time.
    static int kindOf(const Facts& facts) { return (facts.laneContent > 0 ? 1 : 0) | (facts.counters ? 2 : 0) | (facts.chartOnly ? 4 : 0); }
    // The lanes' height that shows min(kMinLaneRows, rows) rows under the legend.
    static int lanesFloor(const Facts& facts);
    // The counters' height in a timeline panel `panel` px high: their share `room`, or what
    // the icicle's rows leave, up to their content; the icicle keeps its minimum.
    static int countersInPanel(const Facts& facts, int panel, int room);
    // The Details pane's width in a window `window` px wide: the `strip` while it shows
    // nothing, else `wanted` up to a quarter of the window, so that a narrow window's
    // timeline keeps the rest (issue 39, item 15).
    static int detailsWidth(bool empty, int window, int strip, int wanted);
    // The splitter's height below which fit() can no longer give each view what it gives
    // first: the chart its labels, compact counters, min(6, rows) lane rows, and the icicle
    // the rows its depth needs, up to its 40 % share. What a dock below may take is the rest.
    static int wantedTotal(const Facts& facts);
    // The Rank dock's height, from what is laid out now: the dock's `height`, of which its
    // `chrome` (title, filter, header, scroll bar) and the rest rows of `rowHeight` px. It
    // grows towards kRankRows rows (or the `rows` it may have, if fewer) by what the views
    // `spare`, or shrinks towards kMinRankRows by what they are short (a negative `spare`),
    // never over a kRankWindowShare-th of the `window`'s height.
    struct Dock {
        int height = 0;
        int chrome = 0;
        int rowHeight = 0;
        int rows = kRankRows;
        int window = 0;
        int spare = 0;
    };
    static int rankHeight(const Dock& dock);
};

} // namespace runlane
