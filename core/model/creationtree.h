#pragma once

#include "diagnostics.h"
#include "parallel.h"
#include "profiletypes.h"

#include <atomic>
#include <cstddef>
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

    // Whether, in a sample of up to 4,096 measurements spread over all of
    // them, more have a creator with a higher id than a lower one: the
    // direction depths walks in. Only speed depends on it.
    static bool creatorsMostlyAfter(std::span<const Measurement> measurements);
};

template<typename DepthAt>
void CreationTree::depths(std::span<Measurement> measurements, Diagnostics& diagnostics, DepthAt&& depthAt)
{
    constexpr std::uint32_t kUnknown = kNone;
    constexpr std::uint32_t kOnPath = kNone - 1;
    constexpr std::uint32_t kGaveUp = kNone - 2; // unknown: the first pass went too far from it
    const auto known = [](std::uint32_t depth) { return depth < kGaveUp; };
    // First, on every core, what a short walk up the creators settles: a
    // chain that reaches a root, or a depth found already, within kSteps
    // creators (nearly every measurement: a call's creator is its caller).
    // The creators do not change in this pass, and a depth is only ever
    // the one value, whichever core writes it, so the writes race
    // harmlessly (relaxed atomics). A walk that goes further, as around a
    // cycle, gives up and marks its path so that others stop there; all
    // that is left to the second pass, which is the one-thread walk below
    // in id order, and so finds and cuts each cycle where one thread would
    // (the first pass settles nothing a cycle leads to). At 20 M the one
    // thread alone took 0.2 s.
    //
    // Each slice is walked in the direction in which creators come first,
    // so that most walks take one step to a depth known already. A loader
    // that adds a call as it ends (Chrome's X and B/E, Perfetto) numbers
    // it before its caller, so there the walk runs from the last id down:
    // in id order every leaf walked its whole chain of callers up to a
    // root, a cache miss per caller, which was two thirds of this pass.
    constexpr std::size_t kSteps = 64;
    const bool creatorsAfter = creatorsMostlyAfter(measurements);
    parallelSlices(measurements.size(), [&](std::size_t from, std::size_t to) {
        std::vector<MeasurementId> path;
        path.reserve(kSteps);
        const auto load = [&](MeasurementId id) { return std::atomic_ref(depthAt(id)).load(std::memory_order_relaxed); };
        const auto store = [&](MeasurementId id, std::uint32_t depth) {
            std::atomic_ref(depthAt(id)).store(depth, std::memory_order_relaxed);
        };
        for (std::size_t k = from; k < to; ++k) {
            const auto id = MeasurementId(creatorsAfter ? to - 1 - (k - from) : k);
            if (load(id) != kUnknown)
                continue;
            path.clear();
            MeasurementId cur = id;
            std::uint32_t base = kGaveUp;
            while (path.size() < kSteps) {
                path.push_back(cur);
                const MeasurementId creator = measurements[cur].creator;
                if (creator == kNone) {
                    base = 0;
                    break;
                }
                const std::uint32_t depth = load(creator);
                if (known(depth)) {
                    base = depth + 1;
                    break;
                }
                if (depth == kGaveUp)
                    break;
                cur = creator;
            }
            for (std::size_t k = path.size(); k-- > 0;)
                store(path[k], base == kGaveUp ? kGaveUp : base + std::uint32_t(path.size() - 1 - k));
        }
    });
    std::vector<MeasurementId> path;
    for (MeasurementId id = 0; id < measurements.size(); ++id) {
        if (known(depthAt(id)))
            continue;
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
            if (known(depthAt(creator))) {
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
