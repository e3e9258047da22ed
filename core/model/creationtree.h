#pragma once

#include "diagnostics.h"
#include "profiletypes.h"

#include <cstdint>
#include <span>
#include <vector>

namespace runlane {

// The tree of who created what (Measurement::creator), as the finisher
// numbers measurements by it: creators first (ProfileFinisher, step 7).
class CreationTree
{
public:
    // Depth of each measurement in the creation tree (a root is 0). A cycle,
    // which only a hostile file can state, is cut where it closes: that
    // creator becomes kNone, with a "creation cycle" warning.
    static std::vector<std::uint32_t> depths(std::span<Measurement> measurements, Diagnostics& diagnostics);
    // The same, written through `depthAt(id)`, a std::uint32_t& for each
    // measurement that holds kNone on entry: for a caller that keeps the
    // depths beside other fields (the finisher's sort keys), without an
    // array of its own.
    template<typename DepthAt>
    static void depths(std::span<Measurement> measurements, Diagnostics& diagnostics, DepthAt&& depthAt);
};

template<typename DepthAt>
void CreationTree::depths(std::span<Measurement> measurements, Diagnostics& diagnostics, DepthAt&& depthAt)
{
    constexpr std::uint32_t kUnknown = kNone;
    constexpr std::uint32_t kOnPath = kNone - 1;
    std::vector<MeasurementId> path;
    for (MeasurementId id = 0; id < measurements.size(); ++id) {
        if (depthAt(id) != kUnknown)
            continue;
        // Most measurements (calls) have no creator.
        if (measurements[id].creator == kNone) {
            depthAt(id) = 0;
            continue;
        }
        path.clear();
        MeasurementId cur = id;
        std::uint32_t base = 0;
        for (;;) {
            depthAt(cur) = kOnPath;
            path.push_back(cur);
            const MeasurementId creator = measurements[cur].creator;
            if (creator == kNone) {
                base = 0;
                break;
            }
            if (depthAt(creator) == kOnPath) {
                // Cycles cannot come from well-formed input but a hostile
                // file can state them.
                diagnostics.warn("creation cycle", "measurements create each other in a cycle; cycle cut");
                measurements[cur].creator = kNone;
                base = 0;
                break;
            }
            if (depthAt(creator) != kUnknown) {
                base = depthAt(creator) + 1;
                break;
            }
            cur = creator;
        }
        // path.back() sits at `base`; each earlier entry one deeper.
        for (std::size_t k = path.size(); k-- > 0;)
            depthAt(path[k]) = base + std::uint32_t(path.size() - 1 - k);
    }
}

} // namespace runlane
