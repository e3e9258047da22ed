#include "comparemetric.h"

namespace runlane {

std::string_view CompareMetrics::name(CompareMetric metric)
{
    switch (metric) {
    case CompareMetric::Calls:
        return "calls";
    case CompareMetric::Exec:
        return "exec";
    case CompareMetric::Total:
        return "total";
    case CompareMetric::Wall:
        return "wall";
    case CompareMetric::P50:
        return "p50";
    case CompareMetric::P90:
        return "p90";
    case CompareMetric::P99:
        return "p99";
    case CompareMetric::Max:
        return "max";
    case CompareMetric::Wait:
        return "wait";
    }
    return "?";
}

bool CompareMetrics::parse(std::string_view text, CompareMetric& metric)
{
    for (const CompareMetric m : all()) {
        if (name(m) == text) {
            metric = m;
            return true;
        }
    }
    return false;
}

bool CompareMetrics::isSum(CompareMetric metric)
{
    return metric == CompareMetric::Exec || metric == CompareMetric::Total || metric == CompareMetric::Wall
        || metric == CompareMetric::Wait;
}

} // namespace runlane
