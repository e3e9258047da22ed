#pragma once

#include "comparemetric.h"
#include "profiletypes.h"

#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace runlane {

class Profile;

// How labels are told apart across runs.
struct LabelKey {
    std::string name;
    std::string file;
    std::int32_t line = 0;

    bool operator<(const LabelKey& other) const
    {
        return std::tie(name, file, line) < std::tie(other.name, other.file, other.line);
    }
    bool operator==(const LabelKey& other) const = default;
};

// For hashed maps of labels: a run's thousands of labels are looked up by
// key, and ordering them compares whole names.
struct LabelKeyHash {
    std::size_t operator()(const LabelKey& key) const
    {
        const std::size_t name = std::hash<std::string>()(key.name);
        const std::size_t file = std::hash<std::string>()(key.file);
        return (name * 31 + file) * 31 + std::hash<std::int32_t>()(key.line);
    }
};

// N runs of one workload, each reduced to its rank (semantics.md §5): per
// label, one observation of every CompareMetric per run. Never an average
// of timelines: an averaged profile can show what never happened. Built
// from profiles or read back from a baseline report (BaselineReport).
class RunSet
{
public:
    struct Run {
        std::string source; // the file it came from
        std::string format;
        double busy = 0; // Σ exec of the run: its busy time
        std::vector<std::string> tracks; // names, sorted
        ValueUnit unit = ValueUnit::Nanoseconds;
        // Where the file was cut short ("" if it was whole): its values
        // are of what came before the cut.
        std::string cut = {};
    };
    struct Label {
        LabelKey key;
        bool async = false;
        // One per run, in run order; zeros for a run the label is absent from.
        std::vector<CompareMetrics::Values> runs;
        // One value per call (exec, wall, total) of the runs added with
        // `keepCalls`: what two single profiles are compared on.
        std::vector<double> callExec;
        std::vector<double> callWall;
        std::vector<double> callTotal;
    };
    enum class Match { NameFileLine, Name };

    explicit RunSet(Match match = Match::NameFileLine)
        : m_match(match)
    {
    }

    // One run from a loaded profile. With Match::Name, labels of one name
    // (in several files) are one label: sums add up, the max is the
    // largest, percentiles are those of the label with the most calls.
    void add(const Profile& profile, const std::string& source, bool keepCalls);
    // One run from its per-label values (a baseline report).
    void add(const Run& run, const std::vector<std::pair<Label, CompareMetrics::Values>>& values);

    // How a profile's label is told apart from others (file and line only
    // with Match::NameFileLine).
    static LabelKey keyOf(const Profile& profile, LabelId id, Match match);
    // The ids of `profile` that are the label `key`; where none is, those
    // of its name (the code moved).
    static std::vector<LabelId> labelsOf(const Profile& profile, const LabelKey& key, Match match);

    const std::vector<Run>& runs() const { return m_runs; }
    const std::vector<Label>& labels() const { return m_labels; }
    Match match() const { return m_match; }
    // The runs' values of one metric for one label.
    std::vector<double> values(const Label& label, CompareMetric metric) const;

private:
    Label& labelFor(const LabelKey& key, bool async);
    void merge(CompareMetrics::Values& into, const CompareMetrics::Values& row) const;

    Match m_match;
    std::vector<Run> m_runs;
    std::vector<Label> m_labels;
    std::unordered_map<LabelKey, std::size_t, LabelKeyHash> m_index;
};

} // namespace runlane
