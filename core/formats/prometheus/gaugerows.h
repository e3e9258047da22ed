#pragma once

#include "scrapedsnapshot.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace runlane {

// Chroprof's Prometheus gauges (formats.md (d) Exports) of one instant,
// gathered into one row per proc. The exposition text and the query API
// give a proc's figures as separate samples, in any order, so rows are
// completed only when the instant is (snapshot()).
class GaugeRows
{
public:
    enum class Gauge : std::uint8_t { None, Exec, WithChildren, Wall, Calls, ExecMax };

    // Which field a metric fills; None for any other metric (the unlabelled
    // chronos_largest_exec_time_* too). chronos_run_time_total is the older
    // exporter's name of ..._with_children_total.
    static Gauge gaugeOf(std::string_view metricName);
    // A sample value: a float as Prometheus writes it ("1.5e+09", "NaN",
    // "+Inf", "-Inf"); nothing if it is not one.
    static std::optional<double> parseValue(std::string_view text);
    // The value rounded to ns or a count; nothing (the field stays 0, the
    // caller warns) for NaN, ±Inf, a negative value or one past int64.
    static std::optional<std::int64_t> toInteger(double value);

    // A proc's identity as one string, into `out`: the procedure's length
    // first, so that no name, whatever bytes it holds, runs into the file.
    static void procKey(std::string_view procedure, std::string_view file, std::int32_t line, std::string& out);

    void set(std::string_view procedure, std::string_view file, std::int32_t line, Gauge gauge, std::int64_t value);
    bool empty() const { return m_rows.empty(); }
    // The rows sorted by (procedure, file, line), childrenExec = with
    // children − exec (at least 0), at `time`. Leaves this empty.
    ScrapedSnapshot snapshot(Time time);

private:
    struct Row {
        NamedAggregateRow row;
        std::int64_t withChildren = 0;
    };

    std::vector<Row> m_rows;
    // procKey() → index in m_rows; the key is rebuilt in m_key for every
    // sample rather than allocated.
    std::unordered_map<std::string, std::size_t> m_index;
    std::string m_key;
};

} // namespace runlane
