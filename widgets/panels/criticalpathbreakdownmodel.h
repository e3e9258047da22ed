#pragma once

#include "criticalpathsummary.h"

#include <QAbstractTableModel>

#include <memory>

namespace runlane {

// A critical-path summary's breakdown as a table: by (kind, label) — kind,
// label, time, % of the wall time — or by process — pid, process, time,
// % of the wall time. Rows come largest first (the summary's order); the
// panel sorts them further by SortRole.
class CriticalPathBreakdownModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum class Grouping { ByLabel, ByProcess };
    // By process, Kind is the pid and Name the process's name.
    enum Column { Kind, Name, Ns, Share, ColumnCount };
    enum Role {
        // The value to sort by: the text of Kind and Name (the pid as a
        // number), the nanoseconds of Ns and Share.
        SortRole = Qt::UserRole + 1,
        // The part of the wall time, 0..1 (ShareBarDelegate).
        ShareRole,
        // The row's label (kNone for idle, and by process), qulonglong.
        LabelRole,
        // The nanoseconds as qlonglong.
        NsRole,
    };

    CriticalPathBreakdownModel(Grouping grouping, QObject* parent = nullptr);

    Grouping grouping() const { return m_grouping; }
    // Null clears the table; the model holds both.
    void setSummary(std::shared_ptr<const Profile> profile, std::shared_ptr<const CriticalPathSummary> summary);
    const CriticalPathSummary* summary() const { return m_summary.get(); }
    const Profile* profile() const { return m_profile.get(); }

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant labelData(const CriticalPathSummary::Entry& entry, int column, int role) const;
    QVariant processData(const CriticalPathSummary::ProcessEntry& entry, int column, int role) const;
    QVariant shared(Time ns, int column, int role) const;

    Grouping m_grouping;
    std::shared_ptr<const Profile> m_profile;
    std::shared_ptr<const CriticalPathSummary> m_summary;
};

} // namespace runlane
