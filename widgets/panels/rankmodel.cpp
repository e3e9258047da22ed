#include "rankmodel.h"

#include "colorscheme.h"
#include "profiledocument.h"
#include "qstringutf8.h"
#include "valueformat.h"

#include <QColor>

#include <algorithm>

namespace runlane {

namespace {

bool isNumeric(int column)
{
    return column >= RankModel::Calls;
}

// Per-call percentiles need the calls themselves; pre-aggregated metrics
// (Chroprof) have only the max and the mean.
bool needsDistribution(int column)
{
    return column == RankModel::P50 || column == RankModel::P90 || column == RankModel::P99;
}

} // namespace

RankModel::RankModel(ProfileDocument* document, QObject* parent) : QAbstractTableModel(parent), m_document(document)
{
    // Search matches are shaded: repaint when they change.
    connect(m_document, &ProfileDocument::emphasisChanged, this, [this] {
        if (rowCount() > 0)
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {Qt::BackgroundRole});
    });
}

void RankModel::setTable(std::shared_ptr<const RankTable> table, std::shared_ptr<const Profile> profile,
                         std::shared_ptr<const SchedulingDelays> delays)
{
    beginResetModel();
    ++m_revision;
    m_table = profile ? std::move(table) : nullptr;
    m_profile = m_table ? std::move(profile) : nullptr;
    // The loading thread computed the whole profile's for the open profile;
    // one shown without it (scripts, tests) gets them here.
    m_delays = m_profile ? std::move(delays) : nullptr;
    if (!m_delays && m_profile && !m_profile->wakes().empty())
        m_delays = m_document->isCurrent(m_profile) && m_document->loaded().delays
            ? m_document->loaded().delays
            : std::make_shared<const SchedulingDelays>(*m_profile);
    m_order.clear();
    if (m_table) {
        m_order.resize(m_table->rows().size());
        for (std::uint32_t r = 0; r < m_order.size(); ++r)
            m_order[r] = r;
    }
    endResetModel();
}

bool RankModel::updateTable(std::shared_ptr<const RankTable> table, std::shared_ptr<const Profile> profile)
{
    if (!m_table || !table || !profile || m_delays || !profile->wakes().empty())
        return false;
    // Where each label is in the new table; every row shown must still be
    // there, or this is not the same table grown.
    std::vector<std::uint32_t> at(profile->labelCount(), UINT32_MAX);
    const auto& rows = table->rows();
    for (std::uint32_t r = 0; r < rows.size(); ++r) {
        if (rows[r].label >= at.size())
            return false;
        at[rows[r].label] = r;
    }
    std::vector<std::uint32_t> order;
    order.reserve(rows.size());
    std::vector<bool> placed(rows.size(), false);
    for (const std::uint32_t old : m_order) {
        const LabelId label = m_table->rows()[old].label;
        if (label >= at.size() || at[label] == UINT32_MAX)
            return false;
        order.push_back(at[label]);
        placed[at[label]] = true;
    }
    const int shown = int(m_order.size());
    for (std::uint32_t r = 0; r < rows.size(); ++r) {
        if (!placed[r])
            order.push_back(r);
    }
    // Rows keep their places (so the view's selection, current row and
    // scroll stay); a proc seen for the first time is appended.
    ++m_revision;
    m_table = std::move(table);
    m_profile = std::move(profile);
    m_order.assign(order.begin(), order.begin() + shown);
    if (shown > 0)
        Q_EMIT dataChanged(index(0, 0), index(shown - 1, ColumnCount - 1));
    if (order.size() > std::size_t(shown)) {
        beginInsertRows({}, shown, int(order.size()) - 1);
        m_order = std::move(order);
        endInsertRows();
    }
    return true;
}

int RankModel::rowOf(LabelId label) const
{
    if (!m_table)
        return -1;
    const auto& rows = m_table->rows();
    for (std::size_t r = 0; r < m_order.size(); ++r) {
        if (rows[m_order[r]].label == label)
            return int(r);
    }
    return -1;
}

int RankModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_table ? 0 : int(m_order.size());
}

int RankModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString RankModel::text(const RankRow& row, int column) const
{
    const Profile& p = *m_profile;
    const ValueUnit unit = p.unit();
    auto value = [unit](Time t) { return QString::fromStdString(ValueFormat::text(t, unit)); };
    switch (column) {
    case Name:
        return qs(p.labelName(row.label));
    case Location: {
        const Label& label = p.label(row.label);
        if (label.file == kEmptyString)
            return {};
        return qs(p.string(label.file)) + (label.line > 0 ? QStringLiteral(":%1").arg(label.line) : QString());
    }
    case Calls:
        return QString::number(row.calls);
    case Unfinished:
        return QString::number(row.unfinished);
    case Stillborn:
        return QString::number(row.stillborn);
    case Exec:
        return value(row.exec);
    case Total:
        return value(row.total);
    case Wall:
        return value(row.wall);
    case Max:
        return value(row.max);
    case Mean:
        return value(row.mean);
    case P50:
    case P90:
    case P99:
        if (!row.hasDistribution)
            return QStringLiteral("—");
        return value(column == P50 ? row.p50 : column == P90 ? row.p90 : row.p99);
    case Busy:
        return QString::number(row.busyShare * 100.0, 'f', 1) + QStringLiteral(" %");
    case DelaySum:
    case DelayMax:
    case DelayP90: {
        if (!m_delays)
            return {};
        const DelayStats& d = m_delays->ofLabel(row.label);
        if (d.count == 0)
            return QStringLiteral("—");
        return value(column == DelaySum ? d.sum : column == DelayMax ? d.max : d.p90);
    }
    default:
        return {};
    }
}

std::optional<long double> RankModel::sortNumber(int row, int column) const
{
    if (!m_table || row < 0 || row >= rowCount() || column <= Location || column >= ColumnCount)
        return std::nullopt;
    const RankRow& r = m_table->rows()[m_order[std::size_t(row)]];
    switch (column) {
    case Calls:
        return (long double)(r.calls);
    case Unfinished:
        return (long double)(r.unfinished);
    case Stillborn:
        return (long double)(r.stillborn);
    case Busy:
        return (long double)(r.busyShare);
    case Exec:
        return (long double)(r.exec);
    case Total:
        return (long double)(r.total);
    case Wall:
        return (long double)(r.wall);
    case Max:
        return (long double)(r.max);
    case Mean:
        return (long double)(r.mean);
    case P50:
    case P90:
    case P99: // as sortValue: no distribution sorts below every measured value
        return !r.hasDistribution ? -1.0L : (long double)(column == P50 ? r.p50 : column == P90 ? r.p90 : r.p99);
    default: {
        const QVariant v = sortValue(r, column); // the rarer columns: one place says what they sort by
        return v.typeId() == QMetaType::Double ? (long double)(v.toDouble()) : (long double)(v.toLongLong());
    }
    }
}

int RankModel::largestRow(int column) const
{
    // The common columns read their field directly: a live update asks
    // for every column's largest among thousands of rows each second.
    // The table's rows are read in their own order, then the one found is
    // looked up among the shown: through the shown order, each row read
    // was a cache miss (0.3 ms a scrape at 5,000 rows). Every row of the
    // table is shown (m_order is a permutation of them).
    auto largestBy = [this](auto value) {
        const auto& rows = m_table->rows();
        std::size_t largest = rows.size();
        for (std::size_t t = 0; t < rows.size(); ++t) {
            if (largest == rows.size() || value(rows[t]) > value(rows[largest]))
                largest = t;
        }
        const auto shown = std::find(m_order.begin(), m_order.end(), std::uint32_t(largest));
        return shown == m_order.end() ? -1 : int(shown - m_order.begin());
    };
    auto byField = [&](auto RankRow::*field) { return largestBy([field](const RankRow& r) { return r.*field; }); };
    if (!m_table)
        return -1;
    switch (column) {
    case Calls:
        return byField(&RankRow::calls);
    case Exec:
        return byField(&RankRow::exec);
    case Total:
        return byField(&RankRow::total);
    case Wall:
        return byField(&RankRow::wall);
    case Max:
        return byField(&RankRow::max);
    case Mean:
        return byField(&RankRow::mean);
    case Unfinished:
        return byField(&RankRow::unfinished);
    case Stillborn:
        return byField(&RankRow::stillborn);
    case Busy:
        return byField(&RankRow::busyShare);
    case P50:
    case P90:
    case P99:
        return largestBy([column](const RankRow& r) {
            return !r.hasDistribution ? Time(-1) : column == P50 ? r.p50 : column == P90 ? r.p90 : r.p99;
        });
    default:
        break;
    }
    int largest = -1;
    long double most = 0;
    for (int r = 0; r < rowCount(); ++r) {
        const auto v = sortNumber(r, column);
        if (v && (largest < 0 || *v > most)) {
            most = *v;
            largest = r;
        }
    }
    return largest;
}

QVariant RankModel::sortValue(const RankRow& row, int column) const
{
    switch (column) {
    case Name:
    case Location:
        return text(row, column);
    case Calls:
        return qulonglong(row.calls);
    case Unfinished:
        return qulonglong(row.unfinished);
    case Stillborn:
        return qulonglong(row.stillborn);
    case Exec:
        return qint64(row.exec);
    case Total:
        return qint64(row.total);
    case Wall:
        return qint64(row.wall);
    case Max:
        return qint64(row.max);
    case Mean:
        return qint64(row.mean);
    case P50:
    case P90:
    case P99:
        // No distribution sorts below every measured value.
        return !row.hasDistribution ? qint64(-1) : qint64(column == P50 ? row.p50 : column == P90 ? row.p90 : row.p99);
    case Busy:
        return row.busyShare;
    case DelaySum:
    case DelayMax:
    case DelayP90: {
        // No delay sorts below every measured one.
        const DelayStats d = m_delays ? m_delays->ofLabel(row.label) : DelayStats{};
        return d.count == 0 ? qint64(-1) : qint64(column == DelaySum ? d.sum : column == DelayMax ? d.max : d.p90);
    }
    default:
        return {};
    }
}

QVariant RankModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_table || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const RankRow& row = m_table->rows()[m_order[std::size_t(index.row())]];
    switch (role) {
    case Qt::DisplayRole:
        return text(row, index.column());
    case SortRole:
        return sortValue(row, index.column());
    case LabelRole:
        return qulonglong(row.label);
    case ShareRole:
        return row.busyShare;
    case Qt::TextAlignmentRole:
        return isNumeric(index.column()) ? int(Qt::AlignRight | Qt::AlignVCenter) : int(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (index.column() <= Location)
            return QString::fromStdString(m_profile->labelText(row.label));
        if (needsDistribution(index.column()) && !row.hasDistribution)
            return tr("Pre-aggregated metrics give no per-call distribution");
        return {};
    case Qt::BackgroundRole:
        if (!m_document->searchText().isEmpty() && m_document->isCurrent(m_profile) && m_document->isHighlighted(row.label))
            return ColorScheme::matchRow();
        return {};
    default:
        return {};
    }
}

QVariant RankModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    static const char* const names[] = {"name", "file:line", "calls", "unfinished", "stillborn", "exec", "total",
                                        "wall", "max", "mean", "p50", "p90", "p99", "% busy",
                                        "delay Σ", "delay max", "delay p90"};
    static const char* const tips[] = {
        "The label: a proc, a function, a span name",
        "Where it is defined",
        "Finished measurements (stillborn included)",
        "Still running or pending when the profile ends",
        "Finished as they were created: never pending, never ran",
        "Time as the innermost running measurement of its track",
        "Exec plus everything it created, transitively (recursion counted once)",
        "Finish minus creation, summed over calls",
        "Exec of the longest single call",
        "Exec per call that ran",
        "Median exec of one call",
        "90th percentile of one call's exec",
        "99th percentile of one call's exec",
        "Exec as a share of the busy time of all labels",
        "Scheduling delay (wake to next poll) of its tasks, summed",
        "Longest scheduling delay of one of its tasks",
        "90th percentile of its tasks' scheduling delays",
    };
    if (role == Qt::DisplayRole)
        return tr(names[section]);
    if (role == Qt::ToolTipRole && section >= DelaySum)
        return tr(tips[section])
            + (m_delays && m_delays->range() ? tr("; of the polls that start in the range") : tr("; whole profile"));
    if (role == Qt::ToolTipRole)
        return tr(tips[section]);
    if (role == Qt::TextAlignmentRole)
        return int((isNumeric(section) ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    // The first click on a number sorts the largest first: that is what a
    // rank is read for. Names and places sort A to Z.
    if (role == Qt::InitialSortOrderRole)
        return int(isNumeric(section) ? Qt::DescendingOrder : Qt::AscendingOrder);
    return {};
}

} // namespace runlane
