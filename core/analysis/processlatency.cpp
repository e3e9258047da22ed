#include "processlatency.h"

#include <algorithm>
#include <unordered_map>

namespace runlane {

namespace {

// Enso's reader leaves an interval open at the end of the log (no end);
// Runlane ends it with the profile.
bool isOpen(const Profile& p, MeasurementId m, IntervalId last)
{
    return p.measurement(m).finalState() == FinalState::Unfinished && p.interval(last).end == p.endTime();
}

} // namespace

ProcessLatency::Result ProcessLatency::compute(const Profile& p, const std::vector<std::string>& labels)
{
    Result result;
    result.latencies.assign(labels.size(), 0);

    // The foreign process of each label, by its name; a name given twice
    // is the first column's.
    std::unordered_map<std::string_view, std::size_t> processOfName;
    for (std::size_t k = labels.size(); k-- > 0;)
        processOfName[labels[k]] = k;
    constexpr std::size_t kMain = ~std::size_t(0);
    std::vector<std::size_t> processOfLabel(p.labelCount(), kMain);
    std::vector<MeasurementId> highlights;
    for (LabelId l = 0; l < p.labelCount(); ++l) {
        const std::string_view name = p.string(p.label(l).name);
        if (const auto it = processOfName.find(name); it != processOfName.end())
            processOfLabel[l] = it->second;
    }
    for (MeasurementId m = 0; m < p.measurementCount(); ++m) {
        if (p.string(p.label(p.measurement(m).label).name) == kHighlight)
            highlights.push_back(m);
    }
    if (highlights.size() != 1) {
        result.error = highlights.empty()
            ? "no measurement is labelled @highlight; processes needs exactly one (the region of interest)"
            : std::to_string(highlights.size())
                + " measurements are labelled @highlight; processes needs exactly one (the region of interest)";
        return result;
    }
    const MeasurementId highlight = highlights.front();
    const auto highlightIntervals = p.intervalsOf(highlight);
    if (highlightIntervals.empty()) {
        result.error = "the @highlight measurement never ran, so its region has no end";
        return result;
    }
    if (isOpen(p, highlight, highlightIntervals.back())) {
        result.error = "the @highlight measurement is still running at the end of the profile, so its region has no end";
        return result;
    }
    result.regionStart = p.measurement(highlight).created;
    result.regionEnd = p.interval(highlightIntervals.back()).end;

    // Created by the highlight, directly or not (its creation subtree).
    enum : std::uint8_t { Unknown, Inside, Outside };
    std::vector<std::uint8_t> inside(p.measurementCount(), Unknown);
    inside[highlight] = Outside; // the highlight's own intervals are no foreign work
    std::vector<MeasurementId> chain;
    auto isInside = [&](MeasurementId m) {
        chain.clear();
        while (inside[m] == Unknown) {
            const MeasurementId creator = p.measurement(m).creator;
            if (creator == highlight) {
                inside[m] = Inside;
                break;
            }
            if (creator == kNone) {
                inside[m] = Outside;
                break;
            }
            chain.push_back(m);
            m = creator;
        }
        for (const MeasurementId c : chain)
            inside[c] = inside[m];
        return inside[m] == Inside;
    };

    std::vector<bool> seen(labels.size(), false);
    for (MeasurementId m = 0; m < p.measurementCount(); ++m) {
        const std::size_t process = processOfLabel[p.measurement(m).label];
        if (process == kMain || !isInside(m))
            continue;
        const auto intervals = p.intervalsOf(m);
        if (intervals.empty() || isOpen(p, m, intervals.back()))
            continue;
        const Time end = p.interval(intervals.back()).end - result.regionStart;
        result.latencies[process] = seen[process] ? std::max(result.latencies[process], end) : end;
        seen[process] = true;
    }

    for (IntervalId i = 0; i < p.intervalCount(); ++i) {
        const Interval& iv = p.interval(i);
        if (iv.parent != kNone || processOfLabel[p.measurement(iv.measurement).label] != kMain)
            continue;
        const auto intervals = p.intervalsOf(iv.measurement);
        if (intervals.back() == i && isOpen(p, iv.measurement, i))
            continue;
        const Time from = std::max(iv.start, result.regionStart);
        const Time to = std::min(iv.end, result.regionEnd);
        if (to > from)
            result.main += to - from;
    }
    return result;
}

} // namespace runlane
