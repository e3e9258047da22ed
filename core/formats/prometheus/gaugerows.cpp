#include "gaugerows.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <tuple>

namespace runlane {

GaugeRows::Gauge GaugeRows::gaugeOf(std::string_view name)
{
    // Most metrics of an exposition are not Chroprof's: one prefix test
    // settles them.
    constexpr std::string_view prefix = "chronos_";
    if (name.substr(0, prefix.size()) != prefix)
        return Gauge::None;
    name.remove_prefix(prefix.size());
    if (name == "exec_time_total")
        return Gauge::Exec;
    if (name == "exec_time_with_children_total" || name == "run_time_total")
        return Gauge::WithChildren;
    if (name == "wall_time_total")
        return Gauge::Wall;
    if (name == "call_count_total")
        return Gauge::Calls;
    if (name == "single_exec_time_max")
        return Gauge::ExecMax;
    return Gauge::None;
}

std::optional<double> GaugeRows::parseValue(std::string_view text)
{
    if (text.empty())
        return std::nullopt;
    // from_chars takes neither a leading '+' nor Go's spellings; the
    // special values are spelled out by the exposition format.
    if (text == "NaN")
        return std::numeric_limits<double>::quiet_NaN();
    if (text == "+Inf" || text == "Inf")
        return std::numeric_limits<double>::infinity();
    if (text == "-Inf")
        return -std::numeric_limits<double>::infinity();
    if (text.front() == '+') {
        text.remove_prefix(1);
        if (text.empty() || text.front() == '-' || text.front() == '+')
            return std::nullopt;
    }
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    // "nan" and "inf" in other spellings than Prometheus' are not values,
    // nor is a number past double's range.
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::optional<std::int64_t> GaugeRows::toInteger(double value)
{
    // 2^63 as a double: anything at or past it does not fit.
    constexpr double limit = 9223372036854775808.0;
    if (!std::isfinite(value) || value < 0 || value >= limit)
        return std::nullopt;
    const double rounded = std::round(value);
    return rounded >= limit ? std::nullopt : std::optional<std::int64_t>(std::int64_t(rounded));
}

void GaugeRows::procKey(std::string_view procedure, std::string_view file, std::int32_t line, std::string& out)
{
    out = std::to_string(procedure.size());
    out += ':';
    out += procedure;
    out += file;
    out += '\x1f';
    out += std::to_string(line);
}

void GaugeRows::set(std::string_view procedure, std::string_view file, std::int32_t line, Gauge gauge,
                    std::int64_t value)
{
    procKey(procedure, file, line, m_key);
    auto [it, inserted] = m_index.try_emplace(m_key, m_rows.size());
    if (inserted) {
        Row row;
        row.row.procedure = std::string(procedure);
        row.row.file = std::string(file);
        row.row.line = line;
        m_rows.push_back(std::move(row));
    }
    Row& row = m_rows[it->second];
    AggregateRow& v = row.row.values;
    switch (gauge) {
    case Gauge::Exec:
        v.exec = value;
        break;
    case Gauge::WithChildren:
        row.withChildren = value;
        break;
    case Gauge::Wall:
        v.wall = value;
        break;
    case Gauge::Calls:
        v.calls = std::uint64_t(value);
        break;
    case Gauge::ExecMax:
        v.execMax = value;
        break;
    case Gauge::None:
        break;
    }
}

ScrapedSnapshot GaugeRows::snapshot(Time time)
{
    ScrapedSnapshot out;
    out.time = time;
    out.rows.reserve(m_rows.size());
    for (Row& row : m_rows) {
        // The two gauges refresh together, but a proc may lack one of them
        // (an exporter's top-k cut between them): never a negative time.
        row.row.values.childrenExec = std::max<std::int64_t>(0, row.withChildren - row.row.values.exec);
        out.rows.push_back(std::move(row.row));
    }
    std::sort(out.rows.begin(), out.rows.end(), [](const NamedAggregateRow& a, const NamedAggregateRow& b) {
        return std::tie(a.procedure, a.file, a.line) < std::tie(b.procedure, b.file, b.line);
    });
    m_rows.clear();
    m_index.clear();
    return out;
}

} // namespace runlane
