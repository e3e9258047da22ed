#include "creationtree.h"

#include <algorithm>

namespace runlane {

std::vector<std::uint32_t> CreationTree::depths(std::span<Measurement> measurements, Diagnostics& diagnostics)
{
    std::vector<std::uint32_t> depth(measurements.size(), kNone);
    depths(measurements, diagnostics, [&depth](MeasurementId id) -> std::uint32_t& { return depth[id]; });
    return depth;
}

bool CreationTree::creatorsMostlyAfter(std::span<const Measurement> measurements)
{
    constexpr std::size_t kSample = 4096;
    const std::size_t count = measurements.size();
    const std::size_t step = std::max<std::size_t>(1, count / kSample);
    std::size_t after = 0;
    std::size_t before = 0;
    for (std::size_t id = 0; id < count; id += step) {
        const MeasurementId creator = measurements[id].creator;
        if (creator == kNone)
            continue;
        ++(creator > id ? after : before);
    }
    return after > before;
}

} // namespace runlane
