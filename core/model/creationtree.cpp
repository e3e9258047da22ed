#include "creationtree.h"

namespace runlane {

std::vector<std::uint32_t> CreationTree::depths(std::span<Measurement> measurements, Diagnostics& diagnostics)
{
    std::vector<std::uint32_t> depth(measurements.size(), kNone);
    depths(measurements, diagnostics, [&depth](MeasurementId id) -> std::uint32_t& { return depth[id]; });
    return depth;
}

} // namespace runlane
