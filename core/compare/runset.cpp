#include "runset.h"

#include "measurementmetrics.h"
#include "parallel.h"
#include "profile.h"
#include "ranktable.h"

#include <algorithm>

namespace runlane {

namespace {

CompareMetrics::Values valuesOf(const RankRow& row)
{
    CompareMetrics::Values v{};
    v[CompareMetrics::index(CompareMetric::Calls)] = double(row.calls);
    v[CompareMetrics::index(CompareMetric::Exec)] = double(row.exec);
    v[CompareMetrics::index(CompareMetric::Total)] = double(row.total);
    v[CompareMetrics::index(CompareMetric::Wall)] = double(row.wall);
    v[CompareMetrics::index(CompareMetric::P50)] = double(row.p50);
    v[CompareMetrics::index(CompareMetric::P90)] = double(row.p90);
    v[CompareMetrics::index(CompareMetric::P99)] = double(row.p99);
    v[CompareMetrics::index(CompareMetric::Max)] = double(row.max);
    v[CompareMetrics::index(CompareMetric::Wait)] = double(std::max<Time>(0, row.wall - row.exec));
    return v;
}

} // namespace

LabelKey RunSet::keyOf(const Profile& profile, LabelId id, Match match)
{
    if (match == Match::Name)
        return LabelKey{std::string(profile.labelName(id)), std::string(), 0};
    const runlane::Label& l = profile.label(id);
    return LabelKey{std::string(profile.labelName(id)), std::string(profile.string(l.file)), l.line};
}

std::vector<LabelId> RunSet::labelsOf(const Profile& profile, const LabelKey& key, Match match)
{
    std::vector<LabelId> exact;
    std::vector<LabelId> named;
    for (LabelId id = 0; id < profile.labelCount(); ++id) {
        if (profile.labelName(id) != key.name)
            continue;
        named.push_back(id);
        if (keyOf(profile, id, match) == key)
            exact.push_back(id);
    }
    return exact.empty() ? named : exact;
}

RunSet::Label& RunSet::labelFor(const LabelKey& key, bool async)
{
    const auto [it, added] = m_index.emplace(key, m_labels.size());
    if (added) {
        Label label;
        label.key = key;
        label.runs.assign(m_runs.size(), CompareMetrics::Values{});
        m_labels.push_back(std::move(label));
    }
    Label& label = m_labels[it->second];
    label.async = label.async || async;
    return label;
}

void RunSet::merge(CompareMetrics::Values& into, const CompareMetrics::Values& row) const
{
    const bool more = row[CompareMetrics::index(CompareMetric::Calls)] > into[CompareMetrics::index(CompareMetric::Calls)];
    for (const CompareMetric m : CompareMetrics::all()) {
        double& value = into[CompareMetrics::index(m)];
        if (m == CompareMetric::Calls || CompareMetrics::isSum(m))
            value += row[CompareMetrics::index(m)];
        else if (m == CompareMetric::Max)
            value = std::max(value, row[CompareMetrics::index(m)]);
        else if (more)
            value = row[CompareMetrics::index(m)];
    }
}

void RunSet::add(const Profile& profile, const std::string& source, bool keepCalls)
{
    const MeasurementMetrics metrics(profile);
    // The wall distribution is not among the CompareMetrics.
    const RankTable table = RankTable::compute(metrics, std::nullopt, nullptr, RankTable::Distributions::ExecOnly);
    // Whether any of a label's measurements is an async task: a large
    // profile's halves on two threads, each into flags of its own.
    const auto& all = profile.measurements();
    const std::size_t parts = all.size() >= (std::size_t(1) << 16) ? 2 : 1;
    std::vector<std::vector<char>> async(parts, std::vector<char>(profile.labelCount(), 0));
    parallelFor(parts, [&](std::size_t part) {
        std::vector<char>& flags = async[part];
        const std::size_t end = all.size() * (part + 1) / parts;
        for (std::size_t i = all.size() * part / parts; i < end; ++i)
            flags[all[i].label] |= char(all[i].isAsync());
    });
    for (std::size_t part = 1; part < parts; ++part) {
        for (std::size_t l = 0; l < profile.labelCount(); ++l)
            async[0][l] |= async[part][l];
    }

    Run run;
    run.source = source;
    run.format = profile.formatName();
    run.busy = double(table.busyTime());
    run.unit = profile.unit();
    run.cut = profile.diagnostics().firstMessage("truncated file");
    for (const Track& track : profile.tracks())
        run.tracks.emplace_back(profile.string(track.name));
    std::sort(run.tracks.begin(), run.tracks.end());
    m_runs.push_back(run);
    for (Label& label : m_labels)
        label.runs.emplace_back();

    m_labels.reserve(m_labels.size() + table.rows().size());
    m_index.reserve(m_labels.size() + table.rows().size());
    // Indices, not pointers: adding labels moves them.
    constexpr std::size_t kAbsent = std::size_t(-1);
    std::vector<std::size_t> byLabel(profile.labelCount(), kAbsent);
    for (const RankRow& row : table.rows()) {
        const LabelKey key = keyOf(profile, row.label, m_match);
        Label& label = labelFor(key, async[0][row.label] != 0);
        merge(label.runs.back(), valuesOf(row));
        byLabel[row.label] = std::size_t(&label - m_labels.data());
    }
    if (!keepCalls)
        return;
    for (MeasurementId id = 0; id < profile.measurementCount(); ++id) {
        const Measurement& m = profile.measurement(id);
        if (byLabel[m.label] == kAbsent || m.finalState() == FinalState::Unfinished)
            continue;
        Label& label = m_labels[byLabel[m.label]];
        label.callExec.push_back(double(metrics.exec(id)));
        label.callWall.push_back(double(metrics.wall(id)));
        label.callTotal.push_back(double(metrics.total(id)));
    }
}

void RunSet::add(const Run& run, const std::vector<std::pair<Label, CompareMetrics::Values>>& values)
{
    m_runs.push_back(run);
    for (Label& label : m_labels)
        label.runs.emplace_back();
    for (const auto& [from, row] : values) {
        LabelKey key = from.key;
        if (m_match == Match::Name) {
            key.file.clear();
            key.line = 0;
        }
        Label& label = labelFor(key, from.async);
        merge(label.runs.back(), row);
        label.callExec.insert(label.callExec.end(), from.callExec.begin(), from.callExec.end());
        label.callWall.insert(label.callWall.end(), from.callWall.begin(), from.callWall.end());
        label.callTotal.insert(label.callTotal.end(), from.callTotal.begin(), from.callTotal.end());
    }
}

std::vector<double> RunSet::values(const Label& label, CompareMetric metric) const
{
    std::vector<double> values;
    values.reserve(label.runs.size());
    for (const CompareMetrics::Values& run : label.runs)
        values.push_back(run[CompareMetrics::index(metric)]);
    return values;
}

} // namespace runlane
