#include "criticalpathcomparemodel.h"

#include "compareformatter.h"
#include "criticalpathbar.h"
#include "diffcolors.h"
#include "qstringutf8.h"
#include "valueformat.h"

#include <QBrush>

#include <cmath>

namespace runlane {

namespace {


} // namespace

CriticalPathCompareModel::CriticalPathCompareModel(Part part, QObject* parent)
    : QAbstractTableModel(parent), m_part(part)
{
}

void CriticalPathCompareModel::setComparison(std::shared_ptr<const CriticalPathComparison> comparison)
{
    beginResetModel();
    m_comparison = std::move(comparison);
    endResetModel();
}

int CriticalPathCompareModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !m_comparison)
        return 0;
    return m_part == Part::Kinds ? int(std::size(CriticalPath::kAllKinds)) : int(m_comparison->rows().size());
}

int CriticalPathCompareModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString CriticalPathCompareModel::value(double v, bool sign) const
{
    const QString text = QString::fromStdString(
        ValueFormat::text(Time(std::llround(std::fabs(v))), m_comparison->kindComparison().unit()));
    if (v < 0)
        return QStringLiteral("-") + text;
    return sign ? QStringLiteral("+") + text : text;
}

CriticalPathCompareModel::Cells CriticalPathCompareModel::cells(int row) const
{
    Cells c;
    if (m_part == Part::Kinds) {
        c.kind = CriticalPath::kAllKinds[row];
        const Comparison::MetricResult& m = m_comparison->kind(c.kind);
        c.base = m.base.median;
        c.next = m.next.median;
        c.delta = m.delta;
        c.deltaPct = m.deltaPct;
        c.verdict = m.verdict;
        c.verdictText = qs(Comparison::name(m.verdict));
        c.why = tr("Each task's %1 time is a sample; p = %2, 95 % interval of Δ: %3 … %4 (%5)")
                    .arg(qs(CriticalPath::kindName(c.kind)), QString::fromStdString(CompareFormatter::pValueText(m.p)),
                         value(m.ci.low, true), value(m.ci.high, true), qs(Comparison::name(m.method)));
        return c;
    }
    const CriticalPathComparison::Row& r = m_comparison->rows()[std::size_t(row)];
    c.kind = r.kind;
    c.name = QString::fromStdString(r.name);
    c.labelText = QString::fromStdString(CompareFormatter::labelText(LabelKey{r.name, r.file, r.line}));
    c.base = r.base;
    c.next = r.next;
    c.delta = r.delta;
    c.deltaPct = r.deltaPct;
    // A row has no test of its own: only whether one side lacks it.
    c.verdict = !r.inBase ? Comparison::Verdict::Added
              : !r.inNew  ? Comparison::Verdict::Removed
                          : Comparison::Verdict::Unchanged;
    c.verdictText = c.verdict == Comparison::Verdict::Unchanged ? QString() : qs(Comparison::name(c.verdict));
    return c;
}

QVariant CriticalPathCompareModel::data(const QModelIndex& index, int role) const
{
    if (!m_comparison || !index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const Cells c = cells(index.row());
    if (role == DeltaRole)
        return c.delta;
    if (role == Qt::ForegroundRole && index.column() >= Delta)
        return QBrush(DiffColors::verdictText(c.verdict));
    if (role == Qt::TextAlignmentRole && index.column() >= Base && index.column() <= DeltaPct)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    switch (index.column()) {
    case Kind:
        if (role == Qt::DisplayRole || role == SortRole)
            return qs(CriticalPath::kindName(c.kind));
        if (role == Qt::DecorationRole)
            return CriticalPathBar::kindColor(c.kind);
        if (role == Qt::ToolTipRole)
            return CriticalPathBar::kindMeaning(c.kind);
        return {};
    case Name:
        if (role == Qt::DisplayRole || role == SortRole)
            return c.name;
        if (role == Qt::ToolTipRole && !c.labelText.isEmpty())
            return c.labelText;
        return {};
    case Base:
    case New: {
        const double v = index.column() == Base ? c.base : c.next;
        if (role == Qt::DisplayRole)
            return value(v);
        return role == SortRole ? QVariant(v) : QVariant();
    }
    case Delta:
        if (role == Qt::DisplayRole)
            return value(c.delta, true);
        if (role == SortRole)
            return std::fabs(c.delta);
        return role == Qt::ToolTipRole && !c.why.isEmpty() ? QVariant(c.why) : QVariant();
    case DeltaPct:
        if (role == Qt::DisplayRole)
            return QString::fromStdString(CompareFormatter::percentText(c.deltaPct));
        return role == SortRole ? QVariant(c.deltaPct) : QVariant();
    case Verdict:
        if (role == Qt::DisplayRole || role == SortRole)
            return c.verdictText;
        return role == Qt::ToolTipRole && !c.why.isEmpty() ? QVariant(c.why) : QVariant();
    default:
        return {};
    }
}

QVariant CriticalPathCompareModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Kind:
        return tr("Kind");
    case Name:
        return m_part == Part::Kinds ? QString() : tr("Label");
    case Base:
        return tr("Base");
    case New:
        return tr("New");
    case Delta:
        return tr("Δ");
    case DeltaPct:
        return tr("Δ%");
    case Verdict:
        return tr("Verdict");
    default:
        return {};
    }
}

} // namespace runlane
