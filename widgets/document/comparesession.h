#pragma once

#include "calltree.h"
#include "calltreediff.h"
#include "comparison.h"
#include "loaderror.h"
#include "profilejob.h"

#include <QFutureWatcher>
#include <QObject>
#include <QStringList>

#include <atomic>
#include <memory>
#include <vector>

namespace runlane {

class ProfileDocument;

// Compare mode: base runs (one profile or several, or a baseline report)
// beside the open profile, which is the new side. Owned by the
// ProfileDocument, so every view reaches it the way it reaches the
// document. The base loads on a worker, with progress and cancel; a failed
// load leaves the comparison as it was. The comparison (every metric, so
// that switching metric in the rank is instant) and the call-path diff of
// the differential flame graph are ProfileJobs: each result knows the
// profile, base and call tree it was computed from and is dropped when any
// of them is no longer the current one. Opening another profile keeps the
// base and compares the new file against it; closing the profile, or
// stop(), ends compare mode.
class CompareSession : public QObject
{
    Q_OBJECT

public:
    // What the base side is: runs loaded from files, each a profile with its
    // call tree, or (a baseline report) per-label values only.
    struct Base {
        QStringList paths;
        std::vector<CallTreeDiff::Base> profiles; // empty for a report
        std::shared_ptr<const RunSet> runs;
        quint64 generation = 0;
    };

    explicit CompareSession(ProfileDocument* document);
    ~CompareSession() override;

    // Loads the base in the background and then compares; baseLoaded() or
    // baseFailed() follows.
    void loadBase(const QStringList& paths);
    void cancelLoad();
    bool isLoading() const { return m_watcher.isRunning(); }
    // Leaves compare mode.
    void stop();
    bool isActive() const { return m_base != nullptr; }
    const Base* base() const { return m_base.get(); }
    QStringList basePaths() const { return m_base ? m_base->paths : QStringList(); }
    std::size_t baseRunCount() const { return m_base && m_base->runs ? m_base->runs->runs().size() : 0; }

    // Threshold, α, floor and matching of the verdicts (CompareOptions's
    // defaults: those of runlane-cli compare). Recomputes.
    const CompareOptions& options() const { return m_options; }
    // The smallest |Δ| that counts: the options' floor, or 0.1 % of the
    // base's busy time (what the comparison uses); 0 outside compare mode.
    double floor() const;
    void setOptions(const CompareOptions& options, RunSet::Match match = RunSet::Match::NameFileLine);
    RunSet::Match match() const { return m_match; }

    // The metric the rank shows: computed first (with calls), then every
    // other metric in a second pass,
    // so that one profile against one (each call's values tested, seconds
    // for all nine metrics at a million events) shows its rank early.
    void setPreferredMetric(CompareMetric metric) { m_preferred = metric; }
    // Every metric of every label once the second pass is done (the first
    // pass's metrics before); null until computed. Its label keys read
    // against the open profile (the new side).
    const Comparison* comparison() const { return m_compared ? &m_compared->comparison : nullptr; }
    std::shared_ptr<const Comparison> sharedComparison() const
    {
        return m_compared ? std::shared_ptr<const Comparison>(m_compared, &m_compared->comparison) : nullptr;
    }
    // The diff of the document's call tree against the base runs' trees;
    // null until the document has its call tree (the aggregated view) and
    // the diff is computed, and for a baseline report (it has no paths).
    const CallTreeDiff* diff() const { return m_diff.get(); }
    const std::shared_ptr<const CallTreeDiff>& sharedDiff() const { return m_diff; }
    // The call tree the diff's node ids read against.
    const std::shared_ptr<const CallTree>& diffTree() const { return m_diffTree; }
    bool isComputing() const { return m_compareJob.isRunning() || m_diffJob.isRunning(); }
    // Waits for the load, both passes of the comparison, the document's
    // call tree if it is being built, and the diff (scripts, tests).
    void finishPendingWork();

    // "base.json", or "a.json and 4 more runs"; "" outside compare mode.
    QString baseName() const;

Q_SIGNALS:
    void loadProgress(qint64 done, qint64 total);
    void baseLoaded();
    void baseFailed(const runlane::LoadError& error);
    // The base was set or cleared (compare mode entered or left).
    void baseChanged();
    // comparison() changed (computed, or dropped).
    void comparisonChanged();
    void diffChanged();

private:
    struct Outcome {
        std::shared_ptr<Base> base;
        LoadError error;
        quint64 request = 0; // dropped unless it is still the current one
    };
    static Outcome loadRuns(const QStringList& paths, RunSet::Match match, const std::atomic<bool>* cancel,
                            const std::function<void(qint64, qint64)>& progress);
    void loadFinished();
    void dropResults();
    void recompute();
    // A pass of the comparison and the new run it reduced the open profile
    // to, which the second pass reuses.
    struct Compared {
        std::shared_ptr<const RunSet> next;
        Comparison comparison;
    };
    void startSecondPass();
    void maybeStartDiff();
    void compared(ProfileResult<Compared> result);
    void diffed(ProfileResult<CallTreeDiff> result);

    ProfileDocument* m_document;
    std::shared_ptr<const Base> m_base;
    quint64 m_generation = 0;
    CompareOptions m_options;
    RunSet::Match m_match = RunSet::Match::NameFileLine;
    QFutureWatcher<Outcome> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    quint64 m_loadRequest = 0;
    QString m_loadingPath; // the first file of the load under way
    std::shared_ptr<const Compared> m_compared;
    ProfileJob<Compared> m_compareJob;
    quint64 m_compareGeneration = 0; // the base the job under way compares against
    CompareMetric m_preferred = CompareMetric::Exec;
    bool m_firstPass = false; // the job under way computes the first pass
    std::shared_ptr<const CallTreeDiff> m_diff;
    std::shared_ptr<const CallTree> m_diffTree;
    std::shared_ptr<const CallTree> m_diffTreeAsked; // of the diff job under way
    quint64 m_diffGeneration = 0;
    ProfileJob<CallTreeDiff> m_diffJob;
};

} // namespace runlane
