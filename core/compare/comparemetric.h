#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace runlane {

// What a comparison compares per label: the rank's columns (semantics.md
// §5) and, for async tasks, the time they waited (wall - exec).
enum class CompareMetric : std::uint8_t { Calls, Exec, Total, Wall, P50, P90, P99, Max, Wait };

class CompareMetrics
{
public:
    static constexpr std::size_t kCount = 9;
    using Values = std::array<double, kCount>;

    static constexpr std::array<CompareMetric, kCount> all()
    {
        return {CompareMetric::Calls, CompareMetric::Exec, CompareMetric::Total, CompareMetric::Wall, CompareMetric::P50,
                CompareMetric::P90,   CompareMetric::P99,  CompareMetric::Max,   CompareMetric::Wait};
    }
    // all() as a vector: the metrics a comparison of every metric asks for.
    // (all() returns an array by value: all().begin() and all().end() are
    // of two different arrays.)
    static std::vector<CompareMetric> list()
    {
        constexpr auto metrics = all();
        return {metrics.begin(), metrics.end()};
    }
    // The metric's place in Values (and in all()).
    static constexpr std::size_t index(CompareMetric metric) { return std::size_t(metric); }
    static std::string_view name(CompareMetric metric);
    static bool parse(std::string_view text, CompareMetric& metric);
    // Everything but calls is a time (or a profile's unit).
    static bool isTime(CompareMetric metric) { return metric != CompareMetric::Calls; }
    // Sums over calls (totals per run), as opposed to one call's figures.
    static bool isSum(CompareMetric metric);
};

} // namespace runlane
