#include "historyformatter.h"

#include "compareformatter.h"
#include "valueformat.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>

namespace runlane {

namespace {

using Verdict = Comparison::Verdict;

std::string pad(std::string text, std::size_t width, bool right = false)
{
    return CompareFormatter::pad(std::move(text), width, right);
}

std::string percent(double fraction, const char* format = "%+.2f %%")
{
    if (std::isinf(fraction))
        return fraction > 0 ? "new" : "gone";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, format, fraction * 100);
    return buffer;
}

std::string shortCommit(const std::string& commit)
{
    return commit.substr(0, 12);
}

std::string labelText(const LabelKey& key)
{
    return CompareFormatter::labelText(key);
}

std::string valueText(double v, CompareMetric metric, const std::string& unit)
{
    if (!CompareMetrics::isTime(metric)) {
        char buffer[48];
        std::snprintf(buffer, sizeof buffer, "%.0f", v);
        return buffer;
    }
    return ValueFormat::text(Time(std::llround(v)), ValueFormat::unitOfKey(unit));
}

nlohmann::json runJson(const HistoryRun& run)
{
    nlohmann::json tags = nlohmann::json::object();
    for (const auto& [key, value] : run.tags)
        tags[key] = value;
    return {{"id", run.id},
            {"run_set", run.runSet},
            {"recorded_at", run.recordedAt},
            {"commit", run.commit},
            {"branch", run.branch},
            {"host", run.host},
            {"workload", run.workload},
            {"tool_version", run.toolVersion},
            {"source", run.sourceName},
            {"source_size", run.sourceSize},
            {"source_path", run.sourcePath},
            {"format", run.format},
            {"unit", run.unit},
            {"busy", run.busy},
            {"tags", tags}};
}

std::string dump(const nlohmann::json& j)
{
    return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace

std::string HistoryFormatter::runsTable(const std::vector<HistoryRun>& runs)
{
    std::string out = pad("id", 7, true) + "  " + pad("set", 6, true) + "  " + pad("recorded (UTC)", 25)
        + pad("workload", 16) + pad("commit", 14) + pad("branch", 14) + pad("host", 14) + "source\n";
    for (const HistoryRun& run : runs) {
        std::string tags;
        for (const auto& [key, value] : run.tags)
            tags += " " + key + "=" + value;
        out += pad(std::to_string(run.id), 7, true) + "  " + pad(std::to_string(run.runSet), 6, true) + "  "
            + pad(run.recordedAt, 25) + pad(run.workload, 16) + pad(shortCommit(run.commit), 14) + pad(run.branch, 14)
            + pad(run.host, 14) + run.sourceName + tags + "\n";
    }
    out += std::to_string(runs.size()) + " run(s)\n";
    return out;
}

std::string HistoryFormatter::runsJson(const std::vector<HistoryRun>& runs)
{
    nlohmann::json out = nlohmann::json::array();
    for (const HistoryRun& run : runs)
        out.push_back(runJson(run));
    return dump(out);
}

std::string HistoryFormatter::seriesTable(const std::vector<HistoryStore::Point>& points, CompareMetric metric)
{
    std::string out = pad("run", 7, true) + "  " + pad("recorded (UTC)", 25) + pad("commit", 14) + pad("label", 40)
        + pad(std::string(CompareMetrics::name(metric)), 12, true) + pad("Δ%", 10, true) + "\n";
    std::map<LabelKey, double> previous;
    for (const HistoryStore::Point& p : points) {
        const auto before = previous.find(p.key);
        const std::string change = before == previous.end() || before->second == 0
            ? std::string()
            : percent((p.value - before->second) / before->second, "%+.1f %%");
        out += pad(std::to_string(p.run.id), 7, true) + "  " + pad(p.run.recordedAt, 25)
            + pad(shortCommit(p.run.commit), 14) + pad(labelText(p.key), 40)
            + pad(valueText(p.value, metric, p.run.unit), 12, true) + pad(change, 10, true) + "\n";
        previous[p.key] = p.value;
    }
    return out;
}

std::string HistoryFormatter::seriesCsv(const std::vector<HistoryStore::Point>& points, CompareMetric metric)
{
    const auto quoted = [](const std::string& text) { return CompareFormatter::csvField(text); };
    std::string out = "run,run_set,recorded_at,commit,branch,name,file,line,metric,value,unit\n";
    for (const HistoryStore::Point& p : points)
        out += std::to_string(p.run.id) + "," + std::to_string(p.run.runSet) + "," + p.run.recordedAt + ","
            + quoted(p.run.commit) + "," + quoted(p.run.branch) + "," + quoted(p.key.name) + "," + quoted(p.key.file)
            + "," + std::to_string(p.key.line) + "," + std::string(CompareMetrics::name(metric)) + ","
            + nlohmann::json(p.value).dump() + "," + p.run.unit + "\n";
    return out;
}

std::string HistoryFormatter::seriesJson(const std::vector<HistoryStore::Point>& points, CompareMetric metric)
{
    nlohmann::json out = nlohmann::json::array();
    for (const HistoryStore::Point& p : points) {
        nlohmann::json j = runJson(p.run);
        j["name"] = p.key.name;
        j["file"] = p.key.file;
        j["line"] = p.key.line;
        j["metric"] = std::string(CompareMetrics::name(metric));
        j["value"] = p.value;
        out.push_back(std::move(j));
    }
    return dump(out);
}

namespace {

std::string checkHeader(const HistoryCheck& check)
{
    const HistoryRun& run = check.checked().front();
    const Comparison& c = check.comparison();
    return "run " + std::to_string(run.id) + (run.commit.empty() ? "" : " (" + shortCommit(run.commit) + ")") + " of "
        + run.workload + ", " + std::to_string(c.newRuns()) + " run(s), against the " + std::to_string(c.baseRuns())
        + " run set(s) before it; " + std::string(CompareMetrics::name(c.options().metrics.front()))
        + " per run; each label's threshold: Q3 + 3 × IQR of its run-to-run changes (0.2 % without history)";
}

std::string counts(const Comparison& c)
{
    return std::to_string(c.count(Verdict::Regressed)) + " regressed, " + std::to_string(c.count(Verdict::Improved))
        + " improved, " + std::to_string(c.count(Verdict::Unchanged)) + " unchanged, "
        + std::to_string(c.count(Verdict::Added)) + " added, " + std::to_string(c.count(Verdict::Removed)) + " removed";
}

} // namespace

std::string HistoryFormatter::checkTable(const HistoryCheck& check)
{
    const Comparison& c = check.comparison();
    const std::string unit(ValueFormat::key(c.unit()));
    std::string out = "history check: " + checkHeader(check) + "\n\n" + pad("verdict", 13) + pad("label", 40)
        + pad("window", 12, true) + pad("new", 12, true) + pad("Δ%", 10, true) + pad("threshold", 11, true) + "\n";
    for (const Comparison::LabelResult& label : c.labels()) {
        if (label.metrics.empty()) {
            out += pad(std::string(Comparison::name(label.verdict)), 13) + labelText(label.key) + "\n";
            continue;
        }
        const Comparison::MetricResult& m = label.metrics.front();
        out += pad(std::string(Comparison::name(m.verdict)), 13) + pad(labelText(label.key), 40)
            + pad(valueText(m.base.median, m.metric, unit), 12, true) + pad(valueText(m.next.median, m.metric, unit), 12, true)
            + pad(percent(m.deltaPct), 10, true) + pad(percent(m.threshold.value_or(0), "%.2f %%"), 11, true) + "\n";
    }
    out += "\n" + counts(c) + "\n";
    for (const std::string& warning : c.warnings())
        out += "warning: " + warning + "\n";
    return out;
}

std::string HistoryFormatter::checkJson(const HistoryCheck& check)
{
    nlohmann::json out = nlohmann::json::parse(CompareFormatter::json(check.comparison()));
    out["run"] = runJson(check.checked().front());
    nlohmann::json runs = nlohmann::json::array();
    for (const HistoryRun& run : check.checked())
        runs.push_back(run.id);
    out["runs"] = runs;
    nlohmann::json window = nlohmann::json::array();
    for (const HistoryRun& run : check.window())
        window.push_back(run.id);
    out["window"] = window;
    out["threshold_rule"] = "q3+3iqr";
    return dump(out);
}

std::string HistoryFormatter::checkMarkdown(const HistoryCheck& check)
{
    const Comparison& c = check.comparison();
    const std::string unit(ValueFormat::key(c.unit()));
    const std::size_t regressed = c.count(Verdict::Regressed);
    std::string out = "### Runlane history: ";
    out += regressed ? "❌ " + std::to_string(regressed) + " regression" + (regressed > 1 ? "s" : "")
                     : std::string("✅ no regression");
    out += "\n\n" + checkHeader(check) + "\n";
    std::string rows;
    for (const Comparison::LabelResult& label : c.labels()) {
        for (const Comparison::MetricResult& m : label.metrics) {
            if (m.verdict != Verdict::Regressed && m.verdict != Verdict::Improved)
                continue;
            std::string name = labelText(label.key);
            for (std::size_t at = name.find('|'); at != std::string::npos; at = name.find('|', at + 2))
                name.replace(at, 1, "\\|");
            rows += "| " + std::string(Comparison::name(m.verdict)) + " | `" + name + "` | "
                + valueText(m.base.median, m.metric, unit) + " | " + valueText(m.next.median, m.metric, unit) + " | "
                + percent(m.deltaPct) + " | " + percent(m.threshold.value_or(0), "%.2f %%") + " |\n";
        }
    }
    if (!rows.empty())
        out += "\n| verdict | label | window | new | Δ% | threshold |\n|---|---|--:|--:|--:|--:|\n" + rows;
    out += "\n" + counts(c) + "\n";
    return out;
}

} // namespace runlane
