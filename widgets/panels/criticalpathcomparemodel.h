#pragma once

#include "criticalpathcomparison.h"

#include <QAbstractTableModel>

#include <memory>

namespace runlane {

// A CriticalPathComparison as a table for the Critical path panel in
// compare mode (docs/compare.md, "Critical path in compare mode"), in one
// of two parts:
// - Kinds: running, queued, idle and waiting, each with its base and new
//   totals, Δ, Δ% and the compare rank's verdict (p and the interval in
//   the tooltip);
// - Labels: the breakdown by (kind, label) side by side, largest |Δ| first
//   (the comparison's order), a row of one side only added or removed.
// Rows are coloured as the compare rank's (DiffColors). SortRole gives
// numbers; the Δ column sorts by |Δ|.
class CriticalPathCompareModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum class Part { Kinds, Labels };
    enum Column { Kind, Name, Base, New, Delta, DeltaPct, Verdict, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1,
        // The row's Δ as a double (units of the profile).
        DeltaRole,
    };

    explicit CriticalPathCompareModel(Part part, QObject* parent = nullptr);

    Part part() const { return m_part; }
    // Null clears the table.
    void setComparison(std::shared_ptr<const CriticalPathComparison> comparison);
    const CriticalPathComparison* comparison() const { return m_comparison.get(); }

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // What a row shows, from either part.
    struct Cells {
        CriticalPath::Kind kind = CriticalPath::Kind::Running;
        QString name;
        QString labelText; // "flush (app.nim:50)", the name's tooltip
        double base = 0;
        double next = 0;
        double delta = 0;
        double deltaPct = 0;
        Comparison::Verdict verdict = Comparison::Verdict::Unchanged;
        QString verdictText;
        QString why; // the tooltip of Δ and the verdict
    };
    Cells cells(int row) const;
    QString value(double v, bool sign = false) const;

    Part m_part;
    std::shared_ptr<const CriticalPathComparison> m_comparison;
};

} // namespace runlane
