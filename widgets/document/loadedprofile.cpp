#include "loadedprofile.h"

#include "colorscheme.h"
#include "loaderror.h"
#include "parallel.h"

#include <algorithm>

namespace runlane {

LoadedProfile LoadedProfile::prepare(std::shared_ptr<const Profile> profile, const QString& path,
                                     const std::atomic<bool>* cancel)
{
    auto checkCancel = [cancel] {
        if (cancel && cancel->load(std::memory_order_relaxed))
            throw LoadCancelled();
    };
    LoadedProfile loaded;
    loaded.path = path;
    checkCancel();
    // Each part reads only the immutable profile: the metrics (the
    // longest, 0.58 s at 16 M measurements) on one core, the rest on the
    // other.
    parallelFor(2, [&](std::size_t part) {
        if (part == 0) {
            loaded.metrics = std::make_shared<MeasurementMetrics>(*profile);
            return;
        }
        loaded.labels = std::make_shared<LabelIndex>(*profile);
        checkCancel();
        loaded.tasks = std::make_shared<TaskPacking>(*profile);
        checkCancel();
        if (TaskPacking::neverRanCount(*profile) > 0)
            loaded.tasksThatRan = std::make_shared<TaskPacking>(*profile, false);
        checkCancel();
        loaded.flowSpans = std::make_shared<FlowSpans>(*profile);
        checkCancel();
        if (!profile->wakes().empty())
            loaded.delays = std::make_shared<SchedulingDelays>(*profile);
        checkCancel();
        loaded.messages = std::make_shared<const ProcessMessages>(ProcessMessages::of(*profile));
        checkCancel();
        loaded.frames = std::make_shared<const FrameSeries>(FrameSeries::of(*profile));
        checkCancel();
        loaded.labelExec = ColorScheme::execPerLabel(*profile);
    });
    checkCancel();
    const Time start = profile->startTime();
    const Time span = std::max<Time>(1, profile->duration());
    loaded.overview.assign(profile->trackCount(), std::vector<float>(kOverviewBins, 0.0f));
    // Busy = covered by a top-level interval; spread over the bins it touches.
    for (TrackId t = 0; t < profile->trackCount(); ++t) {
        std::vector<double> busy(kOverviewBins, 0.0);
        const double binWidth = double(span) / kOverviewBins;
        for (const Interval& iv : profile->depthSlice(t, 0)) {
            double s = double(iv.start - start);
            const double e = double(iv.end - start);
            int bin = std::clamp(int(s / binWidth), 0, kOverviewBins - 1);
            while (s < e && bin < kOverviewBins) {
                const double binEnd = double(bin + 1) * binWidth;
                busy[std::size_t(bin)] += std::min(e, binEnd) - s;
                s = binEnd;
                ++bin;
            }
        }
        for (int b = 0; b < kOverviewBins; ++b)
            loaded.overview[t][std::size_t(b)] = float(std::min(1.0, busy[std::size_t(b)] / binWidth));
    }
    for (const Interval& iv : profile->intervals())
        loaded.longestInterval = std::max(loaded.longestInterval, iv.end - iv.start);
    loaded.profile = std::move(profile);
    return loaded;
}

} // namespace runlane
