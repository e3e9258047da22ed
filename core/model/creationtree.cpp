#include "creationtree.h"

namespace runlane {

// Cycles cannot come from well-formed input but a hostile file can state
// them.
std::vector<std::uint32_t> CreationTree::depths(std::span<Measurement> measurements, Diagnostics& diagnostics)
{
    constexpr std::uint32_t kUnknown = kNone;
    constexpr std::uint32_t kOnPath = kNone - 1;
    std::vector<std::uint32_t> depth(measurements.size(), kUnknown);
    std::vector<MeasurementId> path;
    for (MeasurementId id = 0; id < measurements.size(); ++id) {
        if (depth[id] != kUnknown)
            continue;
        path.clear();
        MeasurementId cur = id;
        std::uint32_t base = 0;
        for (;;) {
            depth[cur] = kOnPath;
            path.push_back(cur);
            const MeasurementId creator = measurements[cur].creator;
            if (creator == kNone) {
                base = 0;
                break;
            }
            if (depth[creator] == kOnPath) {
                diagnostics.warn("creation cycle", "measurements create each other in a cycle; cycle cut");
                measurements[cur].creator = kNone;
                base = 0;
                break;
            }
            if (depth[creator] != kUnknown) {
                base = depth[creator] + 1;
                break;
            }
            cur = creator;
        }
        // path.back() sits at `base`; each earlier entry one deeper.
        for (std::size_t k = path.size(); k-- > 0;)
            depth[path[k]] = base + std::uint32_t(path.size() - 1 - k);
    }
    return depth;
}

} // namespace runlane
