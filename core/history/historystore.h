#pragma once

#include "comparemetric.h"
#include "historyrun.h"
#include "runset.h"

#include <QSqlQuery>
#include <QVariantList>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace runlane {

class HistoryDatabase;

// What a history holds: runs with their per-label values of every metric,
// written one run set per transaction (a killed recorder leaves all of its
// runs or none), read back as RunSets for the comparison code.
class HistoryStore
{
public:
    // Test hook: with RUNLANE_HISTORY_ABORT_AFTER_ROWS=N in the environment,
    // a record aborts the process after writing N value rows, halfway
    // through its transaction, as a killed CI job would.
    static constexpr const char* kAbortHook = "RUNLANE_HISTORY_ABORT_AFTER_ROWS";

    struct Point {
        HistoryRun run;
        LabelKey key;
        double value = 0;
    };
    using Values = std::vector<std::pair<RunSet::Label, CompareMetrics::Values>>;

    explicit HistoryStore(HistoryDatabase& db);

    // Stores set.runs()[i] as runs[i] (workload, commit, source … filled
    // in; id, runSet and recordedAt, if empty, are set here) with its
    // labels' values. One transaction for the whole set.
    bool record(const RunSet& set, std::vector<HistoryRun>& runs);
    // One run as it was exported (HistoryJsonLines): its values as given.
    bool record(HistoryRun& run, const Values& values);

    // Reads every label `workload` has recorded ahead of a record of it,
    // which then looks them up instead of asking for each (record reads
    // them itself otherwise). HistoryRecorder does this during the load.
    bool readKnownLabels(const std::string& workload);

    // Runs in recording order; `workload` "" for all, `last` 0 for all.
    bool runs(const std::string& workload, std::size_t last, std::vector<HistoryRun>& out);
    bool run(std::int64_t id, std::optional<HistoryRun>& out);
    // One label's metric over the workload's runs, oldest first (the last
    // `last`, 0 for all); every label of that name (several files or lines
    // give several points per run).
    bool series(const std::string& workload, const std::string& label, CompareMetric metric, std::size_t last,
                std::vector<Point>& out);
    // The workloads, and the label names of a workload's runs, sorted.
    bool workloads(std::vector<std::string>& out);
    bool labelNames(const std::string& workload, std::vector<std::string>& out);
    // The same names, heaviest first: by `metric` in the workload's latest
    // run (the labels of one name summed), as the viewer's rank puts its
    // top label first; those not in that run after them, by name.
    bool labelNamesByWeight(const std::string& workload, CompareMetric metric, std::vector<std::string>& out);
    // The labels' values of one run, as recorded.
    bool values(std::int64_t run, Values& out);

    const std::string& error() const;

private:
    // A run's row of values for one label: the label's id, whether it is
    // async, the values (in the caller's RunSet or Values).
    struct ValueRow {
        std::int64_t label = 0;
        bool async = false;
        const CompareMetrics::Values* values = nullptr;
    };
    // Adds `run` and its rows (sorted here by label).
    bool insertRun(HistoryRun& run, std::vector<ValueRow>& values, std::size_t& rows, long long abortAfter);
    // The rows of `run`, in the given order, by each engine's fastest
    // means; `rows` counts them for the abort hook (kAbortHook).
    bool insertValuesSqlite(std::int64_t run, const std::vector<ValueRow>& values, std::size_t& rows, long long abortAfter);
    bool insertValuesQt(std::int64_t run, const std::vector<ValueRow>& values, std::size_t& rows, long long abortAfter);
    // The statements that find and add labels, prepared once per run.
    struct LabelQueries {
        QSqlQuery select;
        QSqlQuery insert;
    };
    bool labelId(const LabelKey& key, LabelQueries& queries, std::int64_t& id);
    // After a rollback: the ids of labels added in it are gone too.
    void forgetLabels();
    // readKnownLabels(workload) unless m_labelIds holds its labels already:
    // the labels a record looks up one by one are then only those new to
    // the workload.
    bool knowLabelsOf(const std::string& workload);
    // The labels of `values` (sorted by id) in workload_labels: those
    // m_workloadLabels lacks, once `workload`'s are read.
    bool addWorkloadLabels(const std::string& workload, const std::vector<ValueRow>& values);
    // Every one of `keys` in the labels table and in m_labelIds (the
    // callers pass those not in m_labelIds yet).
    bool addLabels(const std::set<LabelKey>& keys);
    // Prepares `sql` on `q`, binds `values` and runs it; false with the error set.
    bool select(QSqlQuery& q, const QString& sql, const QVariantList& values, const char* what);

    HistoryDatabase& m_db;
    // Hashed, not ordered: a record looks up every label of its runs, and
    // ordering compares whole names, which cost more than writing a row.
    std::unordered_map<LabelKey, std::int64_t, LabelKeyHash> m_labelIds;
    // The workload whose labels m_labelIds holds since readKnownLabels,
    // and their ids: those in its workload_labels.
    std::optional<std::string> m_knownFor;
    std::unordered_set<std::int64_t> m_workloadLabels;
};

} // namespace runlane
