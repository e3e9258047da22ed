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
};

} // namespace runlane
