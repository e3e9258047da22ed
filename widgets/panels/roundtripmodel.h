#pragma once

#include <QAbstractTableModel>

namespace runlane {

class MessagesState;
class ProfileDocument;

// The round trips of the messages between processes (issue 43), one row per
// endpoint as ProcessMessages::roundTrips() has them: endpoint, requests
// with a request id, the round trip's p50, p90 and max (of those answered)
// and the requests never answered. Rows follow the document's
// MessagesState; a view sorts them by SortRole (a proxy), numbers as
// numbers.
class RoundTripModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { Endpoint, Requests, P50, P90, Max, Unanswered, ColumnCount };
    enum Role {
        // What to sort by: the endpoint's text, the counts and times as numbers.
        SortRole = Qt::UserRole + 1,
        // The row's endpoint (every column), as MessagesState highlights it.
        EndpointRole,
    };

    explicit RoundTripModel(ProfileDocument* document, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    ProfileDocument* m_document;
    MessagesState* m_state;
    int m_rows = 0; // the rows the views were told of
};

} // namespace runlane
