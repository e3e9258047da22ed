#pragma once

#include "criticalpath.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace runlane {

// The segments of one critical path in time order (semantics.md §9): start,
// duration, kind, the label it names and its track, times in the ruler's
// format. Rows are the segments as the walk gives them; the panel does not
// sort them (their order is the story of the task's life).
class CriticalPathSegmentModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { Start, Duration, Kind, Label, Track, ColumnCount };
    enum Role {
        // The named measurement (kNone for idle), as qulonglong.
        MeasurementRole = Qt::UserRole + 1,
        // Start and end in the profile's time (not from its start), qlonglong.
        StartRole,
        EndRole,
        // CriticalPath::Kind as int.
        KindRole,
        // The segment's part of the path's wall time, 0..1 (ShareBarDelegate).
        ShareRole,
    };

    explicit CriticalPathSegmentModel(QObject* parent = nullptr);

    // The model holds the profile the segments refer to; null clears it.
    void setPath(std::shared_ptr<const Profile> profile, std::vector<CriticalPath::Segment> segments);
    void clear() { setPath(nullptr, {}); }
    const Profile* profile() const { return m_profile.get(); }
    const std::vector<CriticalPath::Segment>& segments() const { return m_segments; }

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Profile> m_profile;
    std::vector<CriticalPath::Segment> m_segments;
    Time m_wall = 0;
};

} // namespace runlane
