#include "historyjsonlines.h"

#include "historystore.h"

#include <nlohmann/json.hpp>

#include <istream>
#include <map>
#include <ostream>

namespace runlane {

bool HistoryJsonLines::write(HistoryStore& store, std::ostream& out, const std::string& toolVersion,
                             std::string& error)
{
    std::vector<HistoryRun> runs;
    if (!store.runs("", 0, runs)) {
        error = store.error();
        return false;
    }
    out << nlohmann::json{{"runlane_history", kVersion}, {"tool", "runlane " + toolVersion}}.dump() << "\n";
    for (const HistoryRun& run : runs) {
        HistoryStore::Values values;
        if (!store.values(run.id, values)) {
            error = store.error();
            return false;
        }
        nlohmann::json j;
        j["id"] = run.id;
        j["run_set"] = run.runSet;
        j["recorded_at"] = run.recordedAt;
        j["commit"] = run.commit;
        j["branch"] = run.branch;
        j["host"] = run.host;
        j["workload"] = run.workload;
        j["tool_version"] = run.toolVersion;
        j["source"] = {{"name", run.sourceName}, {"size", run.sourceSize}, {"path", run.sourcePath}};
        j["format"] = run.format;
        j["unit"] = run.unit;
        j["busy"] = run.busy;
        j["tags"] = run.tags;
        nlohmann::json labels = nlohmann::json::array();
        for (const auto& [label, v] : values) {
            nlohmann::json l{{"name", label.key.name}, {"file", label.key.file}, {"line", label.key.line},
                             {"async", label.async}};
            for (const CompareMetric m : CompareMetrics::all())
                l[std::string(CompareMetrics::name(m))] = v[std::size_t(m)];
            labels.push_back(std::move(l));
        }
        j["labels"] = std::move(labels);
        out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    }
    out.flush();
    if (!out) {
        error = "cannot write the export";
        return false;
    }
    return true;
}

bool HistoryJsonLines::read(HistoryStore& store, std::istream& in, std::size_t& runs, std::string& error)
{
    runs = 0;
    std::string line;
    std::size_t number = 0;
    std::map<std::int64_t, std::int64_t> sets; // exported run set -> its new id
    bool header = false;
    while (std::getline(in, line)) {
        ++number;
        if (line.empty())
            continue;
        const std::string where = "line " + std::to_string(number) + ": ";
        try {
            const nlohmann::json j = nlohmann::json::parse(line);
            if (!header) {
                if (!j.contains("runlane_history") || j.at("runlane_history").get<int>() != kVersion) {
                    error = where + "not a Runlane history export (version " + std::to_string(kVersion) + ")";
                    return false;
                }
                header = true;
                continue;
            }
            HistoryRun run;
            const std::int64_t oldId = j.at("id").get<std::int64_t>();
            const std::int64_t oldSet = j.value("run_set", oldId);
            const auto set = sets.find(oldSet);
            run.runSet = set == sets.end() ? 0 : set->second;
            run.recordedAt = j.at("recorded_at").get<std::string>();
            run.commit = j.value("commit", "");
            run.branch = j.value("branch", "");
            run.host = j.value("host", "");
            run.workload = j.at("workload").get<std::string>();
            run.toolVersion = j.value("tool_version", "");
            const nlohmann::json& source = j.at("source");
            run.sourceName = source.value("name", "");
            run.sourceSize = source.value("size", std::int64_t(0));
            run.sourcePath = source.value("path", "");
            run.format = j.value("format", "");
            run.unit = j.value("unit", "ns");
            run.busy = j.value("busy", 0.0);
            run.tags = j.value("tags", std::vector<std::pair<std::string, std::string>>());
            HistoryStore::Values values;
            for (const nlohmann::json& l : j.at("labels")) {
                RunSet::Label label;
                label.key = LabelKey{l.at("name").get<std::string>(), l.value("file", ""), l.value("line", 0)};
                label.async = l.value("async", false);
                CompareMetrics::Values v{};
                for (const CompareMetric m : CompareMetrics::all())
                    v[std::size_t(m)] = l.at(std::string(CompareMetrics::name(m))).get<double>();
                values.emplace_back(std::move(label), v);
            }
            if (!store.record(run, values)) {
                error = where + store.error();
                return false;
            }
            if (set == sets.end())
                sets.emplace(oldSet, run.runSet);
            ++runs;
        } catch (const nlohmann::json::exception& e) {
            error = where + (header ? std::string(e.what()) : "not a Runlane history export (version " + std::to_string(kVersion) + ")");
            return false;
        }
    }
    if (!header) {
        error = "an empty file: not a Runlane history export";
        return false;
    }
    return true;
}

} // namespace runlane
