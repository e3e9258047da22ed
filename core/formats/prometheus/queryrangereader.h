#pragma once

#include "scrapedsnapshot.h"

#include <QByteArray>

#include <vector>

namespace runlane {

class ChunkedFileReader;
class Diagnostics;

// A Prometheus HTTP API response read for Chroprof's gauges: what
// /api/v1/query_range returns (resultType "matrix": each series' "values"
// [[seconds, "value"], ...]) and what users save from Prometheus or
// Grafana's query inspector, or /api/v1/query's "vector" (one "value"
// each). Streamed (nlohmann SAX): keys in any order, series in any order.
class QueryRangeReader
{
public:
    QueryRangeReader(ChunkedFileReader& input, Diagnostics& diagnostics);
    // One snapshot per distinct sample time, in time order, with a row for
    // each proc that has a value then (rows as PrometheusText gives them).
    // Times are ns since the epoch, exact from the seconds' decimal text.
    // Throws FormatError for malformed JSON, "status": "error" (quoting
    // errorType and error) or a result that is not series.
    std::vector<ScrapedSnapshot> read();

    // The same from a response in memory (the network code's).
    static std::vector<ScrapedSnapshot> parse(const QByteArray& response, Diagnostics& diagnostics);

private:
    ChunkedFileReader& m_input;
    Diagnostics& m_diagnostics;
};

} // namespace runlane
