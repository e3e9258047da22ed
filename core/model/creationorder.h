#pragma once

#include "buildprogress.h"
#include "diagnostics.h"
#include "profiletypes.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace runlane {

struct RadixItem;

// The order the finisher numbers measurements in (ProfileFinisher, step 7):
// by creation time; on equal times, creators first (shallower in the
// creation tree, CreationTree::depths); then by first interval; then as
// they were added. That is the key (created, depth, first, id), unique.
class CreationOrder
{
public:
    // The scratch newIds needs per measurement.
    static constexpr std::size_t kScratchBytes = 24;

    // Each measurement's id in that order, or nothing if they are in it
    // already. Cuts creation cycles as CreationTree::depths does (with its
    // warning). `scratch` holds kScratchBytes per measurement. Reports its
    // parts through `progress` (which stops it on a cancel) and runs on
    // every core.
    static std::vector<MeasurementId> newIds(std::span<Measurement> measurements, std::span<const IntervalId> firstInterval,
                                             std::byte* scratch, Diagnostics& diagnostics, BuildProgress& progress);

private:
    // The key packed in 64 bits and sorted by radix; false, and nothing
    // done, if it does not fit.
    static bool byRadix(std::span<const Measurement> measurements, std::span<const IntervalId> firstInterval,
                        const std::uint32_t* depths, RadixItem* items, BuildProgress& progress,
                        std::vector<MeasurementId>& newId);
    // The whole key compared, for what 64 bits cannot hold.
    static void byComparison(std::span<const Measurement> measurements, std::span<const IntervalId> firstInterval,
                             const std::vector<std::uint32_t>& depths, std::byte* scratch, BuildProgress& progress,
                             std::vector<MeasurementId>& newId);
};

} // namespace runlane
