#include "criticalpathbreakdownmodel.h"

#include "criticalpathbar.h"
#include "qstringutf8.h"
#include "valueformat.h"

namespace runlane {

CriticalPathBreakdownModel::CriticalPathBreakdownModel(Grouping grouping, QObject* parent)
    : QAbstractTableModel(parent), m_grouping(grouping)
{
}

void CriticalPathBreakdownModel::setSummary(std::shared_ptr<const Profile> profile,
                                            std::shared_ptr<const CriticalPathSummary> summary)
{
    beginResetModel();
    const bool both = profile && summary;
    m_profile = both ? std::move(profile) : nullptr;
    m_summary = both ? std::move(summary) : nullptr;
    endResetModel();
}

int CriticalPathBreakdownModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !m_summary)
        return 0;
    return int(m_grouping == Grouping::ByLabel ? m_summary->breakdown().size() : m_summary->byProcess().size());
}

int CriticalPathBreakdownModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CriticalPathBreakdownModel::data(const QModelIndex& index, int role) const
{
    if (!m_summary || !index.isValid() || index.row() >= rowCount())
        return {};
    const auto row = std::size_t(index.row());
    if (m_grouping == Grouping::ByLabel)
        return labelData(m_summary->breakdown()[row], index.column(), role);
    return processData(m_summary->byProcess()[row], index.column(), role);
}

QVariant CriticalPathBreakdownModel::labelData(const CriticalPathSummary::Entry& e, int column, int role) const
{
    const Profile& p = *m_profile;
    const QString kind = qs(CriticalPath::kindName(e.kind));
    const QString name = e.label == kNone ? QString() : qs(p.labelName(e.label));
    if (role == LabelRole)
        return qulonglong(e.label);
    if (column == Kind) {
        if (role == Qt::DisplayRole || role == SortRole)
            return kind;
        if (role == Qt::DecorationRole)
            return CriticalPathBar::kindColor(e.kind);
        if (role == Qt::ToolTipRole)
            return CriticalPathBar::kindMeaning(e.kind);
        return {};
    }
    if (column == Name) {
        if (role == Qt::DisplayRole || role == SortRole)
            return name;
        if (role == Qt::ToolTipRole && e.label != kNone)
            return QString::fromStdString(p.labelText(e.label));
        return {};
    }
    return shared(e.ns, column, role);
}

QVariant CriticalPathBreakdownModel::processData(const CriticalPathSummary::ProcessEntry& e, int column, int role) const
{
    if (role == LabelRole)
        return qulonglong(kNone);
    if (column == Kind) {
        if (role == Qt::DisplayRole)
            return QString::number(e.pid);
        if (role == SortRole)
            return qlonglong(e.pid);
        if (role == Qt::TextAlignmentRole)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    if (column == Name)
        return role == Qt::DisplayRole || role == SortRole ? qs(m_profile->string(e.name)) : QVariant();
    return shared(e.ns, column, role);
}

// The time and share columns, alike in both groupings.
QVariant CriticalPathBreakdownModel::shared(Time ns, int column, int role) const
{
    const Time wall = m_summary->wall();
    const double share = wall > 0 ? double(ns) / double(wall) : 0.0;
    switch (role) {
    case NsRole:
    case SortRole:
        return qlonglong(ns);
    case ShareRole:
        return share;
    case Qt::TextAlignmentRole:
        return int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::DisplayRole:
        if (column == Ns)
            return QString::fromStdString(ValueFormat::text(ns, m_profile->unit()));
        if (column == Share)
            return QStringLiteral("%1 %").arg(100.0 * share, 0, 'f', 1);
        return {};
    default:
        return {};
    }
}

QVariant CriticalPathBreakdownModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    const bool byLabel = m_grouping == Grouping::ByLabel;
    switch (Column(section)) {
    case Kind:
        return byLabel ? tr("Kind") : tr("PID");
    case Name:
        return byLabel ? tr("Label") : tr("Process");
    case Ns:
        return tr("Time");
    case Share:
        return tr("% of wall");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace runlane
