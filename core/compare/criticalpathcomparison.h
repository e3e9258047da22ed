#pragma once

#include "comparison.h"
#include "criticalpathsummary.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace runlane {

// The critical paths of one label's tasks in base run(s) and new run(s)
// side by side (docs/compare.md, "Critical path in compare mode"): the
// breakdown by (kind, named label) with Δ per row, and a verdict per kind
// on the per-task totals (each task's running, queued, idle and waiting
// time are the samples), judged by Comparison itself: the compare rank's
// tests, interval, threshold and floor, never a second implementation.
//
// Rows match by the named label's *name*: label ids are per profile, and
// one name in several files is one row (as compare --match name). Pure: no
// files, no Widgets.
class CriticalPathComparison
{
public:
    // One run: a profile and the summary of the label's tasks in it (the
    // tasks with their breakdowns, as CriticalPathSummary::compute keeps
    // them). `busy` is the run's busy time (busyOf), what the default floor
    // is 0.1 % of, as in the compare rank.
    struct Run {
        const Profile* profile = nullptr;
        const CriticalPathSummary* summary = nullptr;
        double busy = 0;
        std::string source;
    };
    // One (kind, named label) of the breakdown. Values are each side's
    // median over its runs of the run's time of the row (divided by its
    // tasks with CompareOptions::Per::Call, by its busy time with Busy);
    // a run without the row counts 0.
    struct Row {
        CriticalPath::Kind kind = CriticalPath::Kind::Running;
        std::string name; // "" for idle
        std::string file; // of the new side's label (the base's if only there)
        std::int32_t line = 0;
        double base = 0;
        double next = 0;
        double delta = 0; // next - base
        double deltaPct = 0; // of base; ±inf when base is 0
        bool inBase = false; // some base run has time of it
        bool inNew = false;
    };

    static CriticalPathComparison compute(const std::vector<Run>& base, const std::vector<Run>& next,
                                          const CompareOptions& options);
    // A profile's busy time exactly as the compare rank counts it (the rank
    // table's Σ exec, idle left out).
    static double busyOf(const Profile& profile);

    // Largest |Δ| first; ties by kind, then name.
    const std::vector<Row>& rows() const { return m_rows; }
    // The verdict and figures of one kind's per-task totals (metric exec:
    // the run's Σ of the kind; each task's value its own time of the kind).
    const Comparison::MetricResult& kind(CriticalPath::Kind kind) const { return m_kinds[std::size_t(kind)]; }
    // The comparison the kinds' results come from: its labels are the kinds
    // (named as CriticalPath::kindName), its test, floor and warnings those
    // the verdicts rest on.
    const Comparison& kindComparison() const { return m_comparison; }
    // The worst verdict of the four kinds (as a compare rank label's).
    Comparison::Verdict verdict() const { return m_verdict; }

    std::size_t baseRuns() const { return m_baseRuns; }
    std::size_t newRuns() const { return m_newRuns; }
    // Medians over each side's runs of its tasks and of Σ their lives.
    double baseTasks() const { return m_baseTasks; }
    double newTasks() const { return m_newTasks; }
    double baseWall() const { return m_baseWall; }
    double newWall() const { return m_newWall; }
    const CompareOptions& options() const { return m_comparison.options(); }
    // The comparison's warnings, said of tasks where it says calls.
    const std::vector<std::string>& warnings() const { return m_warnings; }

private:
    std::vector<Row> m_rows;
    std::array<Comparison::MetricResult, 4> m_kinds{};
    Comparison m_comparison;
    Comparison::Verdict m_verdict = Comparison::Verdict::Unchanged;
    std::size_t m_baseRuns = 0;
    std::size_t m_newRuns = 0;
    double m_baseTasks = 0;
    double m_newTasks = 0;
    double m_baseWall = 0;
    double m_newWall = 0;
    std::vector<std::string> m_warnings;
};

} // namespace runlane
