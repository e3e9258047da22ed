#include "roundtripmodel.h"

#include "messagesstate.h"
#include "profile.h"
#include "profiledocument.h"
#include "qstringutf8.h"
#include "valueformat.h"

namespace runlane {

RoundTripModel::RoundTripModel(ProfileDocument* document, QObject* parent)
    : QAbstractTableModel(parent), m_document(document), m_state(document->messages())
{
    m_rows = int(m_state->messages().roundTrips().size());
    // The state's messages are replaced whole: so are the rows.
    connect(m_state, &MessagesState::changed, this, [this] {
        beginResetModel();
        m_rows = int(m_state->messages().roundTrips().size());
        endResetModel();
    });
}

int RoundTripModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

int RoundTripModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RoundTripModel::data(const QModelIndex& index, int role) const
{
    const auto& rows = m_state->messages().roundTrips();
    if (!index.isValid() || index.row() >= m_rows || std::size_t(index.row()) >= rows.size())
        return {};
    const ProcessMessages::RoundTrips& row = rows[std::size_t(index.row())];
    if (role == EndpointRole)
        return qs(row.endpoint);
    if (role == Qt::TextAlignmentRole)
        return index.column() == Endpoint ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole)
        return {};
    const bool sort = role == SortRole;
    const Profile* profile = m_document->profile();
    // A time, or a dash where no request was answered (there is no round trip to tell).
    auto time = [&](Time t) -> QVariant {
        if (sort)
            return row.answered > 0 ? qlonglong(t) : qlonglong(-1);
        if (row.answered == 0 || !profile)
            return QStringLiteral("–");
        return QString::fromStdString(ValueFormat::text(t, profile->unit()));
    };
    switch (index.column()) {
    case Endpoint:
        return qs(row.endpoint);
    case Requests:
        return sort ? QVariant(qulonglong(row.requests)) : QVariant(QString::number(row.requests));
    case P50:
        return time(row.p50);
    case P90:
        return time(row.p90);
    case Max:
        return time(row.max);
    case Unanswered:
        return sort ? QVariant(qulonglong(row.unanswered())) : QVariant(QString::number(row.unanswered()));
    default:
        return {};
    }
}

QVariant RoundTripModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return {};
    const bool tip = role == Qt::ToolTipRole;
    switch (section) {
    case Endpoint:
        return tr("Endpoint");
    case Requests:
        return tip ? tr("Requests with a request id") : tr("Requests");
    case P50:
        return tip ? tr("Median round trip of the answered requests") : tr("p50");
    case P90:
        return tip ? tr("90th percentile round trip of the answered requests") : tr("p90");
    case Max:
        return tip ? tr("Longest round trip") : tr("Max");
    case Unanswered:
        return tip ? tr("Requests without a response") : tr("Unanswered");
    default:
        return {};
    }
}

} // namespace runlane
