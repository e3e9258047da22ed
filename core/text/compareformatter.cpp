#include "compareformatter.h"

#include "valueformat.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>

namespace runlane {

namespace {

using Verdict = Comparison::Verdict;

std::string metricNames(const Comparison& c)
{
    std::string names;
    for (const CompareMetric m : c.options().metrics)
        names += (names.empty() ? "" : ", ") + std::string(CompareMetrics::name(m));
    return names;
}

// A value of a metric for people: a time (or the profile's unit), a count,
// or with --per busy a share of the busy time.
std::string value(const Comparison& c, CompareMetric metric, double v, bool sign = false)
{
    std::string text;
    if (!CompareMetrics::isTime(metric)) {
        char buffer[48];
        std::snprintf(buffer, sizeof buffer, std::floor(v) == v ? "%.0f" : "%.1f", std::fabs(v));
        text = buffer;
    } else if (c.options().per == CompareOptions::Per::Busy && CompareMetrics::isSum(metric)) {
        char buffer[48];
        std::snprintf(buffer, sizeof buffer, "%.2f %%", std::fabs(v) * 100);
        text = buffer;
    } else {
        text = ValueFormat::text(Time(std::llround(std::fabs(v))), c.unit());
    }
    if (v < 0)
        return "-" + text;
    return sign ? "+" + text : text;
}

std::string percent(double fraction)
{
    return CompareFormatter::percentText(fraction);
}

std::string pValue(double p)
{
    return CompareFormatter::pValueText(p);
}

std::string interval(const Comparison::MetricResult& m)
{
    return "[" + percent(m.ciPct.low) + ", " + percent(m.ciPct.high) + "]";
}

nlohmann::json numberOrNull(double v)
{
    if (!std::isfinite(v))
        return nullptr;
    if (std::floor(v) == v && std::fabs(v) < 9e15)
        return std::int64_t(v);
    return v;
}

// A value of a metric's *_ns field: times in whole nanoseconds (or units
// of the profile), as every CSV and JSON gives them; rounding is monotone,
// so a Δ inside its interval stays inside. Counts and shares of the busy
// time (--per busy) keep their fractions.
nlohmann::json figure(const Comparison& c, CompareMetric metric, double v)
{
    const bool share = c.options().per == CompareOptions::Per::Busy && CompareMetrics::isSum(metric);
    if (CompareMetrics::isTime(metric) && !share && std::isfinite(v) && std::fabs(v) < 9e15)
        return std::int64_t(std::llround(v));
    return numberOrNull(v);
}

nlohmann::json metricJson(const Comparison& c, const Comparison::MetricResult& m)
{
    const auto ns = [&](double v) { return figure(c, m.metric, v); };
    nlohmann::json j;
    j["metric"] = std::string(CompareMetrics::name(m.metric));
    j["verdict"] = std::string(Comparison::name(m.verdict));
    j["base_median_ns"] = ns(m.base.median);
    j["new_median_ns"] = ns(m.next.median);
    j["delta_ns"] = ns(m.delta);
    j["delta_pct"] = numberOrNull(m.deltaPct * 100);
    j["p_value"] = m.p;
    j["p_exact"] = m.exact;
    j["test"] = std::string(Comparison::name(m.test));
    // The interval is of delta_ns and delta_pct; ci_method says how.
    j["ci_low_ns"] = ns(m.ci.low);
    j["ci_high_ns"] = ns(m.ci.high);
    j["ci_low_pct"] = numberOrNull(m.ciPct.low * 100);
    j["ci_high_pct"] = numberOrNull(m.ciPct.high * 100);
    j["ci_method"] = std::string(Comparison::name(m.method));
    j["base_mean_ns"] = ns(m.base.mean);
    j["base_stddev_ns"] = ns(m.base.stddev);
    j["base_min_ns"] = ns(m.base.min);
    j["base_max_ns"] = ns(m.base.max);
    j["new_mean_ns"] = ns(m.next.mean);
    j["new_stddev_ns"] = ns(m.next.stddev);
    j["new_min_ns"] = ns(m.next.min);
    j["new_max_ns"] = ns(m.next.max);
    j["base_runs"] = c.baseRuns();
    j["new_runs"] = c.newRuns();
    // A history check's own threshold for this label (Comparison::withThresholds).
    if (m.threshold)
        j["threshold_pct"] = *m.threshold * 100;
    return j;
}

// What the intervals are of, as the header says it: each is of the Δ
// beside it.
std::string intervals(const Comparison& c)
{
    if (c.test() != Comparison::Test::Calls)
        return "95 % CI of Δ: bootstrap of the runs' median";
    bool totals = false;
    bool figures = false;
    for (const CompareMetric m : c.options().metrics) {
        totals = totals || CompareMetrics::isSum(m);
        figures = figures || (m != CompareMetric::Calls && !CompareMetrics::isSum(m));
    }
    std::string text = "95 % CI of Δ over the calls: ";
    if (totals)
        text += "Welch for the total";
    if (figures)
        text += std::string(totals ? ", " : "") + "exact bootstrap for p50-max";
    return totals || figures ? text : "95 % CI of Δ: none (one count a side)";
}

} // namespace

std::string CompareFormatter::labelText(const LabelKey& key)
{
    if (key.file.empty())
        return key.name;
    return key.name + " (" + key.file + (key.line > 0 ? ":" + std::to_string(key.line) : "") + ")";
}

std::string CompareFormatter::percentText(double fraction)
{
    if (std::isinf(fraction))
        return fraction > 0 ? "new" : "gone";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%+.1f %%", fraction * 100);
    return buffer;
}

std::string CompareFormatter::pValueText(double p)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, p < 0.001 ? "%.1e" : "%.3f", p);
    return buffer;
}

std::string CompareFormatter::pad(std::string text, std::size_t width, bool right)
{
    // Column widths count characters, not bytes (µ, Δ are two bytes).
    std::size_t chars = 0;
    for (const char c : text)
        chars += (static_cast<unsigned char>(c) & 0xc0) != 0x80 ? 1 : 0;
    if (chars >= width)
        return text;
    const std::string fill(width - chars, ' ');
    return right ? fill + text : text + fill;
}

std::string CompareFormatter::csvField(const std::string& text, char separator)
{
    if (text.find_first_of(std::string("\"\n") + separator) == std::string::npos)
        return text;
    std::string q = "\"";
    for (const char ch : text)
        q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
}

std::string CompareFormatter::header(const Comparison& c)
{
    char threshold[64];
    std::snprintf(threshold, sizeof threshold, "threshold %g %%, alpha %g", c.options().threshold * 100, c.options().alpha);
    const std::string per = c.options().per == CompareOptions::Per::Run    ? "per run (totals)"
                          : c.options().per == CompareOptions::Per::Call ? "per call"
                                                                         : "as a share of the busy time";
    return std::to_string(c.baseRuns()) + " base run(s), " + std::to_string(c.newRuns()) + " new run(s); "
        + metricNames(c) + " " + per + "; "
        + (c.test() == Comparison::Test::Calls ? "Mann-Whitney U over each call's values"
                                               : "Mann-Whitney U over the runs")
        + "; " + threshold + ", floor " + ValueFormat::text(Time(std::llround(c.floor())), c.unit()) + "; "
        + intervals(c);
}

std::string CompareFormatter::table(const Comparison& c, std::size_t limit)
{
    std::string out = "compare: " + header(c) + "\n\n";
    const bool several = c.options().metrics.size() > 1;
    out += pad("verdict", 13) + (several ? pad("metric", 7) : "") + pad("label", 40) + pad("base", 11, true)
        + pad("new", 11, true) + pad("Δ", 12, true) + pad("Δ%", 10, true) + pad("p", 9, true) + "  95 % CI of Δ%\n";
    std::size_t rows = 0;
    for (const Comparison::LabelResult& label : c.labels()) {
        if (label.metrics.empty()) {
            if (rows++ >= limit)
                break;
            out += pad(std::string(Comparison::name(label.verdict)), 13) + (several ? pad("", 7) : "")
                + labelText(label.key) + "\n";
            continue;
        }
        for (const Comparison::MetricResult& m : label.metrics) {
            if (rows++ >= limit)
                break;
            out += pad(std::string(Comparison::name(m.verdict)), 13)
                + (several ? pad(std::string(CompareMetrics::name(m.metric)), 7) : "")
                + pad(labelText(label.key), 40) + pad(value(c, m.metric, m.base.median), 11, true)
                + pad(value(c, m.metric, m.next.median), 11, true) + pad(value(c, m.metric, m.delta, true), 12, true)
                + pad(percent(m.deltaPct), 10, true) + pad(pValue(m.p), 9, true) + "  " + interval(m) + "\n";
        }
    }
    out += "\n" + std::to_string(c.count(Verdict::Regressed)) + " regressed, " + std::to_string(c.count(Verdict::Improved))
        + " improved, " + std::to_string(c.count(Verdict::Inconclusive)) + " inconclusive, "
        + std::to_string(c.count(Verdict::Unchanged)) + " unchanged, " + std::to_string(c.count(Verdict::Added))
        + " added, " + std::to_string(c.count(Verdict::Removed)) + " removed\n";
    for (const std::string& warning : c.warnings())
        out += "warning: " + warning + "\n";
    return out;
}

namespace {

const char* const kCsvFields[] = {"name",          "file",         "line",         "metric",         "verdict",
                                  "base_median_ns", "new_median_ns", "delta_ns",   "delta_pct",      "p_value",
                                  "ci_low_ns",     "ci_high_ns",    "base_mean_ns", "base_stddev_ns", "new_mean_ns",
                                  "new_stddev_ns", "base_runs",     "new_runs",     "test",           "ci_method"};

std::string csvHeader(char separator)
{
    std::string header;
    for (const char* field : kCsvFields)
        header += (header.empty() ? "" : std::string(1, separator)) + field;
    return header + "\n";
}

// One CSV row per metric of a label (one row for an added or removed one),
// at most `room` of them; returns how many were written.
std::size_t csvLabel(const Comparison& c, const Comparison::LabelResult& label, std::size_t room, std::string& out,
                     char separator = ',')
{
    const std::string sep(1, separator);
    const auto quoted = [separator](const std::string& text) { return CompareFormatter::csvField(text, separator); };
    const auto text = [](const nlohmann::json& v) { return v.is_null() ? std::string() : v.dump(); };
    const std::string key = quoted(label.key.name) + sep + quoted(label.key.file) + sep + std::to_string(label.key.line);
    const std::string runs = std::to_string(c.baseRuns()) + sep + std::to_string(c.newRuns());
    if (label.metrics.empty()) {
        if (room == 0)
            return 0;
        // No metric, no figures: their fields are empty.
        out += key + sep + sep + std::string(Comparison::name(label.verdict)) + std::string(11, separator) + sep + runs + sep
            + sep + "\n";
        return 1;
    }
    std::size_t rows = 0;
    for (const Comparison::MetricResult& m : label.metrics) {
        if (rows >= room)
            break;
        ++rows;
        const auto ns = [&](double v) { return text(figure(c, m.metric, v)); };
        const std::string fields[] = {std::string(CompareMetrics::name(m.metric)), std::string(Comparison::name(m.verdict)),
                                      ns(m.base.median), ns(m.next.median), ns(m.delta), text(numberOrNull(m.deltaPct * 100)),
                                      nlohmann::json(m.p).dump(), ns(m.ci.low), ns(m.ci.high), ns(m.base.mean),
                                      ns(m.base.stddev), ns(m.next.mean), ns(m.next.stddev), runs,
                                      std::string(Comparison::name(m.test)), std::string(Comparison::name(m.method))};
        out += key;
        for (const std::string& field : fields)
            out += sep + field;
        out += "\n";
    }
    return rows;
}

} // namespace

std::string CompareFormatter::csv(const Comparison& c, std::size_t limit)
{
    std::string out = csvHeader(',');
    std::size_t rows = 0;
    for (const Comparison::LabelResult& label : c.labels()) {
        if (rows >= limit)
            break;
        rows += csvLabel(c, label, limit - rows, out);
    }
    return out;
}

std::string CompareFormatter::csvRows(const Comparison& c, const std::vector<std::size_t>& labels, char separator)
{
    std::string out = csvHeader(separator);
    for (const std::size_t i : labels) {
        if (i < c.labels().size())
            csvLabel(c, c.labels()[i], kAllRows, out, separator);
    }
    return out;
}

std::string CompareFormatter::json(const Comparison& c, std::size_t limit)
{
    nlohmann::json out;
    out["base_runs"] = c.baseRuns();
    out["new_runs"] = c.newRuns();
    const bool several = c.options().metrics.size() > 1;
    if (several) {
        nlohmann::json metrics = nlohmann::json::array();
        for (const CompareMetric m : c.options().metrics)
            metrics.push_back(std::string(CompareMetrics::name(m)));
        out["metric"] = metrics;
    } else {
        out["metric"] = std::string(CompareMetrics::name(c.options().metrics.front()));
    }
    out["test"] = std::string(Comparison::name(c.test()));
    out["per"] = std::string(Comparison::name(c.options().per));
    out["unit"] = std::string(ValueFormat::key(c.unit()));
    out["threshold_pct"] = c.options().threshold * 100;
    out["alpha"] = c.options().alpha;
    out["floor_ns"] = numberOrNull(c.floor());
    out["warnings"] = c.warnings();
    nlohmann::json counts;
    for (const Verdict v : {Verdict::Regressed, Verdict::Improved, Verdict::Inconclusive, Verdict::Unchanged,
                            Verdict::Added, Verdict::Removed})
        counts[std::string(Comparison::name(v))] = c.count(v);
    out["counts"] = counts;
    nlohmann::json labels = nlohmann::json::array();
    for (const Comparison::LabelResult& label : c.labels()) {
        if (labels.size() >= limit)
            break;
        nlohmann::json j;
        j["name"] = label.key.name;
        j["file"] = label.key.file;
        j["line"] = label.key.line;
        if (label.movedMatch) {
            j["base_file"] = label.baseKey.file;
            j["base_line"] = label.baseKey.line;
        }
        j["async"] = label.async;
        j["verdict"] = std::string(Comparison::name(label.verdict));
        if (label.metrics.empty()) {
            for (const char* field : {"base_median_ns", "new_median_ns", "delta_ns", "delta_pct", "p_value", "ci_low_ns",
                                      "ci_high_ns", "ci_method"})
                j[field] = nullptr;
            j["base_runs"] = c.baseRuns();
            j["new_runs"] = c.newRuns();
        } else if (!several) {
            j.update(metricJson(c, label.metrics.front()));
        } else {
            nlohmann::json metrics;
            for (const Comparison::MetricResult& m : label.metrics)
                metrics[std::string(CompareMetrics::name(m.metric))] = metricJson(c, m);
            j["metrics"] = metrics;
        }
        labels.push_back(std::move(j));
    }
    out["labels"] = labels;
    return out.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string CompareFormatter::markdown(const Comparison& c, std::size_t limit)
{
    const std::size_t regressed = c.count(Verdict::Regressed);
    const std::size_t improved = c.count(Verdict::Improved);
    std::string out = "### Runlane: ";
    out += regressed ? "❌ " + std::to_string(regressed) + " regression" + (regressed > 1 ? "s" : "")
                     : std::string("✅ no regression");
    out += improved ? ", " + std::to_string(improved) + " improvement" + (improved > 1 ? "s" : "") : "";
    out += "\n\n" + header(c) + "\n";
    for (const Verdict kind : {Verdict::Regressed, Verdict::Improved}) {
        std::string rows;
        std::size_t n = 0;
        for (const Comparison::LabelResult& label : c.labels()) {
            for (const Comparison::MetricResult& m : label.metrics) {
                if (m.verdict != kind || n++ >= limit)
                    continue;
                std::string name = labelText(label.key);
                for (std::size_t at = name.find('|'); at != std::string::npos; at = name.find('|', at + 2))
                    name.replace(at, 1, "\\|");
                rows += "| `" + name + "` | " + std::string(CompareMetrics::name(m.metric)) + " | "
                    + value(c, m.metric, m.base.median) + " | " + value(c, m.metric, m.next.median) + " | "
                    + value(c, m.metric, m.delta, true) + " | " + percent(m.deltaPct) + " | " + pValue(m.p) + " | "
                    + interval(m) + " |\n";
            }
        }
        if (rows.empty())
            continue;
        out += std::string("\n**") + (kind == Verdict::Regressed ? "Regressions" : "Improvements") + "**\n\n"
            + "| label | metric | base | new | Δ | Δ% | p | 95 % CI of Δ% |\n|---|---|--:|--:|--:|--:|--:|---|\n" + rows;
    }
    out += "\nUnchanged: " + std::to_string(c.count(Verdict::Unchanged)) + " · inconclusive: "
        + std::to_string(c.count(Verdict::Inconclusive)) + " · added: " + std::to_string(c.count(Verdict::Added))
        + " · removed: " + std::to_string(c.count(Verdict::Removed)) + "\n";
    if (!c.warnings().empty()) {
        out += "\n";
        for (const std::string& warning : c.warnings())
            out += "> ⚠️ " + warning + "\n";
    }
    return out;
}

} // namespace runlane
