#pragma once

#include "comparison.h"
#include "profile.h"

#include <QAbstractTableModel>

#include <map>
#include <memory>

namespace runlane {

// The rank in compare mode: one row per label of a Comparison for one
// metric (the metric selector's), with base and new medians, Δ, Δ%, the
// test's p, the interval of Δ%, and, side by side for every label and
// most telling for async ones, the Δ of exec (working), of wall and of
// waiting (wall - exec), and the calls (tasks) on each side with their Δ. Rows are coloured by verdict
// (DiffColors). SortRole gives numbers; the Δ column sorts by |Δ|, the
// size of a change either way, which is the panel's default order.
class CompareModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        Name,
        Location,
        Verdict,
        Base,
        New,
        Delta,
        DeltaPct,
        PValue,
        Interval,
        DeltaExec,
        DeltaWall,
        DeltaWait,
        Calls,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1,
        LabelRole, // the row's LabelId in the new profile (kNone: removed)
        VerdictRole, // int(Comparison::Verdict)
    };

    explicit CompareModel(QObject* parent = nullptr);

    // Every metric's comparison, and the new profile its keys read against,
    // matched as `match` (null: empty).
    void setComparison(std::shared_ptr<const Comparison> comparison, std::shared_ptr<const Profile> profile,
                       RunSet::Match match = RunSet::Match::NameFileLine);
    void setMetric(CompareMetric metric);
    CompareMetric metric() const { return m_metric; }
    // The comparison of the chosen metric only: what the rows show, and
    // what an export writes.
    const Comparison* shown() const { return m_shown.get(); }
    const Comparison* full() const { return m_full.get(); }
    int rowOf(LabelId label) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void rebuild();
    QString text(int row, int column) const;
    QVariant sortValue(int row, int column) const;
    QString value(CompareMetric metric, double v, bool sign) const;
    // The Δ of another metric of the row's label (exec, wait, calls).
    const Comparison::MetricResult* other(int row, CompareMetric metric) const;

    std::shared_ptr<const Comparison> m_full;
    std::shared_ptr<const Profile> m_profile;
    std::shared_ptr<const Comparison> m_shown;
    CompareMetric m_metric = CompareMetric::Exec;
    RunSet::Match m_match = RunSet::Match::NameFileLine;
    std::vector<const Comparison::LabelResult*> m_fullRows; // per shown row
    std::vector<LabelId> m_labels; // per shown row
};

} // namespace runlane
