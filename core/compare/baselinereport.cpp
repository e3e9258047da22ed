#include "baselinereport.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <cstdint>
#include <limits>

namespace runlane {

namespace {

using Json = nlohmann::ordered_json; // the marker first, as isReport() expects

constexpr std::string_view kMarker = "runlaneBaseline";

// Integral values as integers, so that reports read like the rank's JSON.
Json number(double value)
{
    if (std::isfinite(value) && std::floor(value) == value && std::fabs(value) < 9e15)
        return Json(std::int64_t(value));
    return Json(value);
}

Json numbers(const std::vector<double>& values)
{
    Json array = Json::array();
    for (const double v : values)
        array.push_back(number(v));
    return array;
}

std::vector<double> doubles(const Json& array, const std::string& what)
{
    if (!array.is_array())
        throw std::runtime_error("'" + what + "' must be an array of numbers");
    std::vector<double> values;
    values.reserve(array.size());
    for (const Json& v : array) {
        if (!v.is_number())
            throw std::runtime_error("'" + what + "' must be an array of numbers");
        values.push_back(v.get<double>());
    }
    return values;
}

// A label's line: a number that fits LabelKey::line. Not value("line", 0):
// nlohmann's get<int> of 8e19 is a cast out of range, undefined behaviour.
std::int32_t lineOf(const Json& label)
{
    const auto it = label.find("line");
    if (it == label.end())
        return 0;
    if (!it->is_number())
        throw std::runtime_error("'line' must be a number");
    const double line = it->get<double>();
    if (!(line >= std::numeric_limits<std::int32_t>::min() && line <= std::numeric_limits<std::int32_t>::max()))
        throw std::runtime_error("line " + it->dump() + " is out of range");
    return std::int32_t(line);
}

// The units' names in reports: what the rank's CSV and JSON call them.
constexpr std::pair<ValueUnit, const char*> kUnits[] = {
    {ValueUnit::Nanoseconds, "ns"}, {ValueUnit::Samples, "samples"}, {ValueUnit::Bytes, "bytes"}, {ValueUnit::None, "units"}};

std::string unitKey(ValueUnit unit)
{
    for (const auto& [u, key] : kUnits) {
        if (u == unit)
            return key;
    }
    return "ns";
}

ValueUnit unitOf(const std::string& key)
{
    for (const auto& [u, name] : kUnits) {
        if (key == name)
            return u;
    }
    throw std::runtime_error("unknown unit '" + key + "' (ns, samples, bytes, units)");
}

} // namespace

std::string BaselineReport::write(const RunSet& set, std::string_view toolVersion)
{
    Json report;
    report[std::string(kMarker)] = kVersion;
    report["tool"] = std::string(toolVersion);
    report["match"] = set.match() == RunSet::Match::Name ? "name" : "name-file-line";
    Json runs = Json::array();
    for (const RunSet::Run& run : set.runs()) {
        runs.push_back({{"source", run.source}, {"format", run.format}, {"unit", unitKey(run.unit)},
                        {"busy", number(run.busy)}, {"tracks", run.tracks}});
        if (!run.cut.empty())
            runs.back()["cut"] = run.cut;
    }
    report["runs"] = runs;
    Json labels = Json::array();
    for (const RunSet::Label& label : set.labels()) {
        Json values;
        for (const CompareMetric metric : CompareMetrics::all())
            values[std::string(CompareMetrics::name(metric))] = numbers(set.values(label, metric));
        Json entry{{"name", label.key.name}, {"file", label.key.file}, {"line", label.key.line},
                   {"async", label.async}, {"values", values}};
        // One run: its calls too, so that one new profile can still be
        // tested per call against it.
        if (set.runs().size() == 1) {
            entry["call_exec"] = numbers(label.callExec);
            entry["call_wall"] = numbers(label.callWall);
            entry["call_total"] = numbers(label.callTotal);
        }
        labels.push_back(std::move(entry));
    }
    report["labels"] = labels;
    // Names are bytes from the profile: invalid UTF-8 is replaced, not an error.
    return report.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
}

bool BaselineReport::readIfReport(const std::string& path, RunSet& into, bool& wasReport, std::string& error)
{
    wasReport = false;
    std::error_code ignored;
    if (!std::filesystem::is_regular_file(path, ignored))
        return true; // a pipe, or nothing there: the profile loader reads it or says why
    std::ifstream file(path, std::ios::binary);
    if (!file)
        return true; // not readable here: the profile loader says why
    std::string text(4096, '\0');
    file.read(text.data(), std::streamsize(text.size()));
    text.resize(std::size_t(file.gcount()));
    if (!isReport(text))
        return true;
    wasReport = true;
    text.append(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
    if (file.bad()) {
        error = "cannot read the report";
        return false;
    }
    return read(text, into, error);
}

bool BaselineReport::isReport(std::string_view prefix)
{
    std::size_t pos = prefix.find_first_not_of(" \t\r\n");
    if (pos == std::string_view::npos || prefix[pos] != '{')
        return false;
    pos = prefix.find_first_not_of(" \t\r\n", pos + 1);
    return pos != std::string_view::npos && prefix.substr(pos, kMarker.size() + 2) == "\"" + std::string(kMarker) + "\"";
}

bool BaselineReport::read(std::string_view text, RunSet& into, std::string& error)
{
    Json report;
    try {
        report = Json::parse(text.begin(), text.end());
    } catch (const Json::exception& e) { // parse_error, and out_of_range for a number past a double (1e400)
        error = "not a baseline report: " + std::string(e.what());
        return false;
    }
    try {
        if (!report.is_object() || !report.contains(kMarker)) {
            error = "not a baseline report: missing \"runlaneBaseline\": 1 (write one with 'runlane-cli report')";
            return false;
        }
        // Compared as JSON numbers: get<int>() of 4294967297 would read 1.
        if (!report[std::string(kMarker)].is_number_integer() || report[std::string(kMarker)] != Json(kVersion)) {
            error = "unsupported baseline report version " + report[std::string(kMarker)].dump()
                + " (this Runlane reads version 1)";
            return false;
        }
        const Json& runs = report.at("runs");
        const Json& labels = report.at("labels");
        if (!runs.is_array() || !labels.is_array())
            throw std::runtime_error("'runs' and 'labels' must be arrays");
        for (std::size_t r = 0; r < runs.size(); ++r) {
            const Json& run = runs[r];
            RunSet::Run meta;
            meta.source = run.value("source", "");
            meta.format = run.value("format", "");
            meta.busy = run.value("busy", 0.0);
            meta.unit = unitOf(run.value("unit", "ns"));
            meta.tracks = run.value("tracks", std::vector<std::string>());
            meta.cut = run.value("cut", "");
            std::vector<std::pair<RunSet::Label, CompareMetrics::Values>> values;
            for (const Json& l : labels) {
                RunSet::Label label;
                label.key = {l.at("name").get<std::string>(), l.value("file", ""), lineOf(l)};
                label.async = l.value("async", false);
                CompareMetrics::Values v{};
                for (const CompareMetric metric : CompareMetrics::all()) {
                    const std::string name(CompareMetrics::name(metric));
                    const std::vector<double> perRun = doubles(l.at("values").at(name), "values." + name);
                    if (perRun.size() != runs.size())
                        throw std::runtime_error("label '" + label.key.name + "' has " + std::to_string(perRun.size())
                                                 + " values of " + name + " for " + std::to_string(runs.size()) + " runs");
                    v[std::size_t(metric)] = perRun[r];
                }
                if (runs.size() == 1 && l.contains("call_exec")) {
                    label.callExec = doubles(l.at("call_exec"), "call_exec");
                    label.callWall = doubles(l.at("call_wall"), "call_wall");
                    label.callTotal = doubles(l.at("call_total"), "call_total");
                    if (label.callWall.size() != label.callExec.size() || label.callTotal.size() != label.callExec.size())
                        throw std::runtime_error("label '" + label.key.name + "': call_exec, call_wall and call_total differ in length");
                }
                values.emplace_back(std::move(label), v);
            }
            into.add(meta, values);
        }
    } catch (const std::exception& e) {
        error = std::string("malformed baseline report: ") + e.what();
        return false;
    }
    return true;
}

} // namespace runlane
