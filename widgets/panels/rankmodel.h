#pragma once

#include "ranktable.h"
#include "schedulingdelays.h"

#include <QAbstractTableModel>

#include <memory>
#include <optional>

namespace runlane {

class ProfileDocument;

// The rank (semantics.md §5) as a table: one row per label. Display text is
// formatted in the profile's unit; SortRole gives the number behind it, so
// a QSortFilterProxyModel sorts by value, not by text.
class RankModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    // The Delay columns are the label's scheduling delays (tokio's wakes,
    // SchedulingDelays), over the whole profile; RankPanel hides them for
    // profiles without wakes.
    enum Column {
        Name,
        Location,
        Calls,
        Unfinished,
        Stillborn,
        Exec,
        Total,
        Wall,
        Max,
        Mean,
        P50,
        P90,
        P99,
        Busy,
        DelaySum,
        DelayMax,
        DelayP90,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, // qint64 or double
        LabelRole, // the row's LabelId
        ShareRole, // exec as a share of the busy time, 0..1
    };

    explicit RankModel(ProfileDocument* document, QObject* parent = nullptr);

    // A table and the profile it was computed from (null: empty). Its
    // label ids are read against that profile only. `delays`: the
    // scheduling delays of the table's range (null: the whole profile's).
    void setTable(std::shared_ptr<const RankTable> table, std::shared_ptr<const Profile> profile,
                  std::shared_ptr<const SchedulingDelays> delays = nullptr);
    // The same table grown (a live recording's next version, label ids
    // unchanged): the rows shown keep their places and new labels are
    // appended, so a view keeps its selection, current row and scroll; a
    // sorting proxy re-sorts on dataChanged. False (nothing changed) when
    // `table` is not such a continuation: call setTable.
    bool updateTable(std::shared_ptr<const RankTable> table, std::shared_ptr<const Profile> profile);
    const RankTable* table() const { return m_table.get(); }
    const Profile* profile() const { return m_profile.get(); }
    int rowOf(LabelId label) const;
    // The number SortRole gives for a numeric column (exact: long double
    // holds every 64-bit integer), without a QVariant; nullopt for text.
    std::optional<long double> sortNumber(int row, int column) const;
    // The row with the largest number in `column` (one of them, on a tie),
    // -1 when none has one.
    int largestRow(int column) const;
    // Changes whenever the rows' numbers may have changed: what caches of
    // them (RankSortProxy's sort keys) compare against.
    std::uint64_t revision() const { return m_revision; }
    // True when the profile has scheduling delays to show.
    bool hasDelays() const { return m_delays && m_delays->any(); }
    // The scheduling delays shown (of the table's range); null without a table.
    const SchedulingDelays* delays() const { return m_delays.get(); }

    // Without QAbstractTableModel's hasIndex (two virtual calls): the
    // sorting proxy asks for an index per row and column it compares.
    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override
    {
        return m_table && row >= 0 && column >= 0 && row < int(m_order.size()) && column < ColumnCount && !parent.isValid()
            ? createIndex(row, column)
            : QModelIndex();
    }
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString text(const RankRow& row, int column) const;
    QVariant sortValue(const RankRow& row, int column) const;

    ProfileDocument* m_document;
    std::shared_ptr<const Profile> m_profile; // kept alive with the table
    std::shared_ptr<const RankTable> m_table;
    std::shared_ptr<const SchedulingDelays> m_delays;
    std::vector<std::uint32_t> m_order; // model row -> table row
    std::uint64_t m_revision = 0;
};

} // namespace runlane
