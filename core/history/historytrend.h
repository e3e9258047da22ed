#pragma once

#include "comparison.h"
#include "historystore.h"

#include <cstddef>
#include <vector>

namespace runlane {

// One label's values over runs as the trend view draws them: at each run,
// the band of the label's noise threshold around the median of the
// `window` runs before it, and the verdict `history check` gives that run
// (the change from that median judged on NoiseThreshold over the same
// runs, Comparison::judge). Per run, where check takes run sets.
class HistoryTrend
{
public:
    struct Point {
        HistoryRun run;
        double value = 0;
        bool hasWindow = false; // false for the first run: no band, "added"
        double median = 0; // of the window
        double threshold = 0; // relative
        Comparison::Verdict verdict = Comparison::Verdict::Added;
        double low() const { return median * (1 - threshold); }
        double high() const { return median * (1 + threshold); }
    };

    // `points` of one label (HistoryStore::series of one key), oldest first.
    static HistoryTrend compute(const std::vector<HistoryStore::Point>& points, std::size_t window = 30);

    const std::vector<Point>& points() const { return m_points; }
    std::size_t count(Comparison::Verdict verdict) const;

private:
    std::vector<Point> m_points;
};

} // namespace runlane
