#include "criticalpathsegmentmodel.h"

#include "criticalpathbar.h"
#include "valueformat.h"

#include <QColor>

namespace runlane {

CriticalPathSegmentModel::CriticalPathSegmentModel(QObject* parent) : QAbstractTableModel(parent) {}

void CriticalPathSegmentModel::setPath(std::shared_ptr<const Profile> profile, std::vector<CriticalPath::Segment> segments)
{
    beginResetModel();
    m_profile = std::move(profile);
    m_segments = m_profile ? std::move(segments) : std::vector<CriticalPath::Segment>();
    // The segments cover the life once: their span is the wall time.
    m_wall = m_segments.empty() ? 0 : m_segments.back().end - m_segments.front().start;
    endResetModel();
}

int CriticalPathSegmentModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_segments.size());
}

int CriticalPathSegmentModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CriticalPathSegmentModel::data(const QModelIndex& index, int role) const
{
    if (!m_profile || !index.isValid() || index.row() >= int(m_segments.size()))
        return {};
    const Profile& p = *m_profile;
    const CriticalPath::Segment& s = m_segments[std::size_t(index.row())];
    const LabelId label = s.named == kNone ? kNone : p.measurement(s.named).label;
    switch (role) {
    case MeasurementRole:
        return qulonglong(s.named);
    case StartRole:
        return qlonglong(s.start);
    case EndRole:
        return qlonglong(s.end);
    case KindRole:
        return int(s.kind);
    case ShareRole:
        return m_wall > 0 ? double(s.duration()) / double(m_wall) : 0.0;
    case Qt::TextAlignmentRole:
        if (index.column() == Start || index.column() == Duration)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return int(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::DecorationRole:
        if (index.column() == Kind)
            return CriticalPathBar::kindColor(s.kind);
        return {};
    case Qt::ToolTipRole:
        if (index.column() == Label && label != kNone)
            return QString::fromStdString(p.labelText(label));
        if (index.column() == Kind)
            return CriticalPathBar::kindMeaning(s.kind);
        return {};
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case Start:
            return QString::fromStdString(ValueFormat::point(s.start - p.startTime(), p.unit()));
        case Duration:
            return QString::fromStdString(ValueFormat::text(s.duration(), p.unit()));
        case Kind:
            return QString::fromLatin1(CriticalPath::kindName(s.kind).data(), qsizetype(CriticalPath::kindName(s.kind).size()));
        case Label:
            return label == kNone ? QString() : QString::fromUtf8(p.labelName(label).data(), qsizetype(p.labelName(label).size()));
        case Track: {
            const std::string_view name = p.string(p.track(s.track).name);
            return QString::fromUtf8(name.data(), qsizetype(name.size()));
        }
        case ColumnCount:
            break;
        }
        return {};
    default:
        return {};
    }
}

QVariant CriticalPathSegmentModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case Start:
        return tr("Start");
    case Duration:
        return tr("Duration");
    case Kind:
        return tr("Kind");
    case Label:
        return tr("Label");
    case Track:
        return tr("Track");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace runlane
