#include "viewsizing.h"

#include <algorithm>

namespace runlane {

int ViewSizing::lanesFloor(const Facts& f)
{
    if (f.laneContent <= 0)
        return kShrunkLanesHeight;
    // The first group's header line, then the rows; a few pixels under the last, so that it does not end on the handle.
    const int rows = std::min(f.laneContent, (kMinLaneRows + 1) * f.laneRowHeight);
    return std::max(f.lanesMinimum, f.lanesLegend + rows + 4);
}

int ViewSizing::countersInPanel(const Facts& f, int panel, int room)
{
    const int wanted = std::max(f.countersMinimum, std::min(f.countersContent, std::max(room, panel - f.icicleContent - 8)));
    return std::min(wanted, std::max(f.countersMinimum, panel - f.icicleMinimum));
}

int ViewSizing::detailsWidth(bool empty, int window, int strip, int wanted)
{
    return empty ? strip : std::max(strip, std::min(wanted, window / 4));
}

int ViewSizing::wantedTotal(const Facts& f)
{
    if (f.chartOnly)
        return kShrunkLanesHeight + kUsageHeight + kChartOnlyTimeline;
    const int usage = std::max(f.usageMinimum, kUsageLabelsHeight);
    const int counters = f.counters ? std::min(f.countersContent, std::max(f.countersCompact, f.countersMinimum)) + f.handle : 0;
    const int others = lanesFloor(f) + counters;
    // fit() gives the icicle its depth's rows up to 2/5 of what the chart leaves: in a
    // room of `others` × 5/3 the icicle's 2/5 is what the others leave it.
    const int icicleNeed = std::max(f.icicleMinimum, f.icicleContent + 8);
    return usage + std::min(others + icicleNeed, (others * 5 + 2) / 3);
}

int ViewSizing::rankHeight(const Dock& d)
{
    // The lanes' rows come first: the rank grows only by what the views spare, and where they
    // are short it gives them its rows down to kMinRankRows (or to what it has, if fewer).
    const int most = std::min(d.chrome + std::min(kRankRows, d.rows) * d.rowHeight, d.window / kRankWindowShare);
    const int least = std::min(d.height, d.chrome + kMinRankRows * d.rowHeight);
    return std::min(most, std::max(d.height + d.spare, least));
}

ViewSizing::Sizes ViewSizing::fit(const Facts& f)
{
    Sizes s;
    const int total = std::max(0, f.total);
    const int countersHandle = f.counters ? f.handle : 0;
    const int usageFloor = std::max(f.usageMinimum, kUsageLabelsHeight);
    if (f.chartOnly) {
        // Metrics over time (Chroprof, live or saved) have no intervals: their chart gets the room.
        s.lanes = kShrunkLanesHeight;
        s.usage = std::max(kUsageHeight, total - kShrunkLanesHeight - kChartOnlyTimeline);
        s.counters = f.counters ? std::min(f.countersContent, std::max(f.countersCompact, f.countersMinimum)) : 0;
        s.timeline = std::max(0, total - s.lanes - s.usage);
        return s;
    }
    // The usage chart: a quarter of the room up to kUsageHeight, never less than its labels need.
    s.usage = std::max(usageFloor, std::min(kUsageHeight, total / 4));
    const int rest = total - s.usage;
    const int icicleNeed = std::max(f.icicleMinimum, f.icicleContent + 8);
    const int countersFloor = f.counters ? std::min(f.countersContent, std::max(f.countersCompact, f.countersMinimum)) : 0;
    if (f.laneContent <= 0) {
        // Without tasks the lanes keep their legend and note; the icicle's panel gets their room, and
        // in it the counters every track if they fit in a third of the room or in what the icicle's rows leave.
        s.lanes = kShrunkLanesHeight;
        s.timeline = std::max(0, rest - s.lanes);
        if (f.counters) {
            s.counters = countersInPanel(f, s.timeline - countersHandle, std::max(countersFloor, total / 3));
        }
        return s;
    }
    // With tasks, first the floors: the icicle's minimum, compact counters, min(6, rows) lane rows.
    int icicle = f.icicleMinimum;
    int counters = countersFloor;
    int lanes = lanesFloor(f);
    int spare = rest - icicle - counters - countersHandle - lanes;
    if (spare < 0) {
        // Too small a room even for the floors (a small window, or a dock open below the views):
        // the lanes' rows go last. First the counters give their compact strip down to their
        // minimum (they scroll), then the chart its labels' room down to its minimum, then the
        // lanes theirs.
        const auto take = [&spare](int& size, int floor) {
            const int taken = std::clamp(-spare, 0, std::max(0, size - floor));
            size -= taken;
            spare += taken;
        };
        if (f.counters)
            take(counters, std::min(counters, f.countersMinimum));
        take(s.usage, f.usageMinimum);
        take(lanes, f.lanesMinimum);
        spare = 0;
    }
    const auto give = [&spare](int& size, int upTo) {
        const int add = std::clamp(upTo - size, 0, spare);
        size += add;
        spare -= add;
    };
    give(icicle, std::min(icicleNeed, rest * 2 / 5)); // the rows its depth needs, up to 40 %
    if (f.counters)
        give(counters, std::min(f.countersContent, std::max(countersFloor, total / 4)));
    give(lanes, f.lanesLegend + f.laneContent + 4); // every row
    icicle += spare; // few tasks: the rest to the icicle
    s.lanes = lanes;
    s.counters = f.counters ? counters : 0;
    s.timeline = icicle + s.counters + countersHandle;
    return s;
}

} // namespace runlane
