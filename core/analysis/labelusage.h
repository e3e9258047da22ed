#pragma once

#include "profile.h"

#include <atomic>
#include <vector>

namespace runlane {

// One label's event-loop usage over a whole profile (semantics.md §6): per
// bin of `binWidth` from the profile's start, the share of the bin that the
// chosen labels executed on one track. What the viewer's compare mode draws
// for the base and the new profile on one chart, each from its own start,
// with the same bin width, so that the two runs line up without averaging
// anything.
class LabelUsage
{
public:
    // `labels[id]` marks the labels counted (one label of the comparison may
    // be several ids of a profile). Throws LoadCancelled once `cancel` is set.
    static std::vector<double> compute(const Profile& profile, TrackId track, const std::vector<bool>& labels, Time binWidth,
                                       std::size_t binCount, const std::atomic<bool>* cancel = nullptr);
    // The track on which the labels executed the longest; kNone if they
    // never executed.
    static TrackId busiestTrack(const Profile& profile, const std::vector<bool>& labels,
                                const std::atomic<bool>* cancel = nullptr);
};

} // namespace runlane
