#pragma once

#include "criticalpathcomparison.h"
#include "profilejob.h"

#include <QWidget>

#include <atomic>
#include <memory>

class QLabel;
class QTableView;

namespace runlane {

class CriticalPathCompareModel;
class ProfileDocument;

// The Critical path panel's "Base vs new" tab in compare mode
// (docs/compare.md, "Critical path in compare mode"): the label's paths in
// the new profile against the paths of the base runs' tasks of a label of
// the same name (label ids differ between profiles), the kinds with their
// verdicts and the (kind, label) rows. The base runs' paths are computed off
// the GUI thread; a newer label, base or option drops what runs. A baseline
// report keeps no paths: the tab says so.
class CriticalPathCompareTab : public QWidget
{
    Q_OBJECT

public:
    explicit CriticalPathCompareTab(ProfileDocument* document, QWidget* parent = nullptr);
    ~CriticalPathCompareTab() override;

    // The new side: `label`'s summary in `profile` (null: nothing to compare).
    void setLabel(std::shared_ptr<const Profile> profile, LabelId label, std::shared_ptr<const CriticalPathSummary> summary);
    // Whether the tab has anything to show: compare mode is on.
    bool isAvailable() const;
    void finishPendingWork();

    CriticalPathCompareModel* kindModel() const { return m_kinds; }
    CriticalPathCompareModel* labelModel() const { return m_labels; }
    QString message() const;

Q_SIGNALS:
    // A comparison is shown, or cleared.
    void comparisonChanged();

private:
    void recompute();
    void compared(ProfileResult<CriticalPathComparison> result);
    void show(std::shared_ptr<const CriticalPathComparison> comparison);
    // Tells the computation under way, if any, to stop: its result is not wanted.
    void stopJob();

    ProfileDocument* m_document;
    QLabel* m_message;
    CriticalPathCompareModel* m_kinds;
    CriticalPathCompareModel* m_labels;
    QTableView* m_kindView;
    QTableView* m_labelView;
    std::shared_ptr<const Profile> m_profile;
    LabelId m_label = kNone;
    std::shared_ptr<const CriticalPathSummary> m_summary;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    ProfileJob<CriticalPathComparison> m_job;
};

} // namespace runlane
