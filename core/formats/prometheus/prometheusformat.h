#pragma once

#include "inputformat.h"

namespace runlane {

// A Prometheus HTTP API response holding Chroprof's gauges, saved from
// Prometheus (/api/v1/query_range, /api/v1/query) or Grafana's query
// inspector: timed Chroprof snapshots, the repeats of gauges that were not
// refreshed left out (RefreshFilter).
class PrometheusFormat : public InputFormat
{
public:
    std::string_view id() const override;
    std::string_view name() const override;
    std::vector<std::string_view> fileNamePatterns() const override;
    Probe probe(const FormatPrefix& prefix) const override;
    double memoryPerInputByte() const override;
    void read(ChunkedFileReader& input, ProfileBuilder& builder) const override;
};

} // namespace runlane
