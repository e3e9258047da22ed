#include "historytrend.h"

#include "noisethreshold.h"
#include "statistics.h"

#include <algorithm>
#include <cmath>

namespace runlane {

HistoryTrend HistoryTrend::compute(const std::vector<HistoryStore::Point>& points, std::size_t window)
{
    HistoryTrend trend;
    for (std::size_t i = 0; i < points.size(); ++i) {
        Point p;
        p.run = points[i].run;
        p.value = points[i].value;
        const std::size_t first = i > window ? i - window : 0;
        if (i > first) {
            std::vector<double> series;
            for (std::size_t k = first; k < i; ++k)
                series.push_back(points[k].value);
            p.hasWindow = true;
            p.median = Statistics::median(series);
            p.threshold = NoiseThreshold::of(series);
            const double delta = p.value - p.median;
            // From 0, any change is beyond every threshold (as Δ% is ±inf in compare).
            const double relative = p.median != 0 ? delta / p.median : (delta > 0 ? HUGE_VAL : -HUGE_VAL);
            p.verdict = Comparison::judge(delta, relative, p.threshold);
        }
        trend.m_points.push_back(std::move(p));
    }
    return trend;
}

std::size_t HistoryTrend::count(Comparison::Verdict verdict) const
{
    return std::size_t(std::count_if(m_points.begin(), m_points.end(),
                                     [verdict](const Point& p) { return p.verdict == verdict; }));
}

} // namespace runlane
