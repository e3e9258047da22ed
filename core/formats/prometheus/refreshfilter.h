#pragma once

#include "scrapedsnapshot.h"

#include <optional>

namespace runlane {

// Lets through only snapshots whose data changed. Chroprof's gauges are
// refreshed at most every 5 s, when a future completes, while a source is
// scraped or queried every second: the same values come back several
// times. Dropping the repeats makes the snapshots' times the data's own
// refresh times, so usage is not spread over made-up intervals. A value
// that went down (a counter reset) is a change like any other: what it
// means is for the analysis to say.
class RefreshFilter
{
public:
    // True when `snapshot` differs from the last accepted one: a proc's
    // values differ, a proc appeared or disappeared (the first snapshot
    // always). Rows are compared by (procedure, file, line), in any order.
    bool accept(const ScrapedSnapshot& snapshot);
    void reset() { m_last.reset(); }

private:
    std::optional<ScrapedSnapshot> m_last; // its rows sorted
};

} // namespace runlane
