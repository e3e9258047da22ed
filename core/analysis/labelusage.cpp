#include "labelusage.h"

#include "execsegments.h"
#include "loaderror.h"

#include <algorithm>

namespace runlane {

namespace {

bool counted(const Profile& profile, const std::vector<bool>& labels, MeasurementId measurement)
{
    const LabelId label = profile.measurement(measurement).label;
    return label < labels.size() && labels[label];
}

void checkCancel(const std::atomic<bool>* cancel)
{
    if (cancel && cancel->load(std::memory_order_relaxed))
        throw LoadCancelled();
}

} // namespace

std::vector<double> LabelUsage::compute(const Profile& profile, TrackId track, const std::vector<bool>& labels,
                                        Time binWidth, std::size_t binCount, const std::atomic<bool>* cancel)
{
    std::vector<double> shares(binCount, 0.0);
    if (binWidth <= 0 || binCount == 0 || track >= profile.trackCount())
        return shares;
    const Time start = profile.startTime();
    const Time end = addClamped(start, Time(std::min<std::size_t>(binCount, std::size_t(kTimeMax / binWidth))) * binWidth);
    checkCancel(cancel);
    ExecSegments::forEach(profile, track, start, end, [&](MeasurementId m, IntervalId, Time s, Time e) {
        if (!counted(profile, labels, m))
            return;
        // Spread the segment over the bins it covers, each its own part.
        for (auto bin = std::size_t((s - start) / binWidth); bin < binCount && s < e; ++bin) {
            const Time binEnd = start + Time(bin + 1) * binWidth;
            const Time part = std::min(e, binEnd) - s;
            shares[bin] += double(part) / double(binWidth);
            s += part;
        }
    });
    checkCancel(cancel);
    return shares;
}

TrackId LabelUsage::busiestTrack(const Profile& profile, const std::vector<bool>& labels, const std::atomic<bool>* cancel)
{
    TrackId best = kNone;
    Time bestExec = 0;
    for (TrackId t = 0; t < profile.trackCount(); ++t) {
        checkCancel(cancel);
        Time exec = 0;
        ExecSegments::forEach(profile, t, profile.startTime(), kTimeMax, [&](MeasurementId m, IntervalId, Time s, Time e) {
            if (counted(profile, labels, m))
                exec = addClamped(exec, e - s);
        });
        if (exec > bestExec) {
            bestExec = exec;
            best = t;
        }
    }
    return best;
}

} // namespace runlane
