#pragma once

#include "profile.h"

#include <string>
#include <vector>

namespace runlane {

// One proc's Chroprof figures as a source gave them, named rather than
// interned: a row of a metrics snapshot before it becomes part of a profile
// (a live scrape, a saved Prometheus query_range, a recording being
// written). Values as in AggregateRow (ns and counts); values.label unused.
struct NamedAggregateRow {
    std::string procedure;
    std::string file;
    std::int32_t line = 0;
    AggregateRow values;
};

// The cumulative figures of the procs a source exported at one instant,
// `time` in ns since the Unix epoch: when the data was current (the
// exporter's own sample timestamps when it gives them), not necessarily
// when it was fetched.
struct ScrapedSnapshot {
    Time time = 0;
    std::vector<NamedAggregateRow> rows;
};

} // namespace runlane
