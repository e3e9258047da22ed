#include "comparemodel.h"

#include "diffcolors.h"
#include "valueformat.h"

#include <QBrush>

#include <algorithm>
#include <cmath>

namespace runlane {

namespace {

using Verdict = Comparison::Verdict;

QString percentText(double fraction)
{
    if (std::isinf(fraction))
        return fraction > 0 ? QStringLiteral("new") : QStringLiteral("gone");
    return QString::asprintf("%+.1f %%", fraction * 100);
}

QString pText(double p)
{
    return p < 0.001 ? QString::asprintf("%.1e", p) : QString::asprintf("%.3f", p);
}

// Sorting treats a change from nothing as the largest change.
double finiteOrLarge(double v)
{
    return std::isfinite(v) ? v : std::copysign(1e300, v);
}

// What a row's interval is, for its tooltip: always of the Δ% beside it.
QString intervalMethodText(Comparison::IntervalMethod method)
{
    switch (method) {
    case Comparison::IntervalMethod::TotalOverCalls:
        return CompareModel::tr("Welch's interval of the total's change, from the spread of its calls");
    case Comparison::IntervalMethod::FigureOverCalls:
        return CompareModel::tr("exact bootstrap of the figure's change over the calls");
    case Comparison::IntervalMethod::MedianOverRuns:
        break;
    }
    return CompareModel::tr("bootstrap of the change of the runs' median");
}

// The metric of a side column.
CompareMetric sideMetric(int column)
{
    return column == CompareModel::DeltaExec ? CompareMetric::Exec
        : column == CompareModel::DeltaWall  ? CompareMetric::Wall
                                             : CompareMetric::Wait;
}

} // namespace

CompareModel::CompareModel(QObject* parent) : QAbstractTableModel(parent) { }

void CompareModel::setComparison(std::shared_ptr<const Comparison> comparison, std::shared_ptr<const Profile> profile,
                                 RunSet::Match match)
{
    beginResetModel();
    m_full = std::move(comparison);
    m_profile = m_full ? std::move(profile) : nullptr;
    m_match = match;
    rebuild();
    endResetModel();
}

void CompareModel::setMetric(CompareMetric metric)
{
    if (metric == m_metric)
        return;
    beginResetModel();
    m_metric = metric;
    rebuild();
    endResetModel();
}

void CompareModel::rebuild()
{
    m_shown.reset();
    m_fullRows.clear();
    m_labels.clear();
    if (!m_full || !m_profile)
        return;
    // A metric not computed yet (the session's second pass): no rows until it is.
    const auto& computed = m_full->options().metrics;
    if (std::find(computed.begin(), computed.end(), m_metric) == computed.end())
        return;
    m_shown = std::make_shared<const Comparison>(m_full->only(m_metric));
    std::map<LabelKey, const Comparison::LabelResult*> byKey;
    for (const Comparison::LabelResult& label : m_full->labels())
        byKey.emplace(label.key, &label);
    // The new profile's label of each row: the comparison's keys of the
    // new side are the profile's own (RunSet::keyOf), moved labels too.
    const Profile& p = *m_profile;
    std::map<LabelKey, LabelId> ids;
    for (LabelId id = 0; id < p.labelCount(); ++id)
        ids.emplace(RunSet::keyOf(p, id, m_match), id);
    for (const Comparison::LabelResult& label : m_shown->labels()) {
        m_fullRows.push_back(byKey.at(label.key));
        const auto it = label.verdict == Verdict::Removed ? ids.end() : ids.find(label.key);
        m_labels.push_back(it == ids.end() ? kNone : it->second);
    }
}

int CompareModel::rowOf(LabelId label) const
{
    for (std::size_t r = 0; r < m_labels.size(); ++r) {
        if (m_labels[r] == label)
            return int(r);
    }
    return -1;
}

int CompareModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_shown ? 0 : int(m_shown->labels().size());
}

int CompareModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

const Comparison::MetricResult* CompareModel::other(int row, CompareMetric metric) const
{
    return m_fullRows[std::size_t(row)]->metric(metric);
}

QString CompareModel::value(CompareMetric metric, double v, bool sign) const
{
    QString text = !CompareMetrics::isTime(metric)
        ? QString::number(std::fabs(v), 'f', std::floor(v) == v ? 0 : 1)
        : QString::fromStdString(ValueFormat::text(Time(std::llround(std::fabs(v))), m_shown->unit()));
    if (v < 0)
        return QStringLiteral("−") + text;
    return sign && v > 0 ? QStringLiteral("+") + text : text;
}

QString CompareModel::text(int row, int column) const
{
    const Comparison::LabelResult& label = m_shown->labels()[std::size_t(row)];
    const Comparison::MetricResult* m = label.metrics.empty() ? nullptr : &label.metrics.front();
    switch (column) {
    case Name:
        return QString::fromStdString(label.key.name);
    case Location: {
        if (label.key.file.empty())
            return {};
        QString where = QString::fromStdString(label.key.file)
            + (label.key.line > 0 ? QStringLiteral(":%1").arg(label.key.line) : QString());
        if (label.movedMatch)
            where += QStringLiteral(" (was %1:%2)").arg(QString::fromStdString(label.baseKey.file)).arg(label.baseKey.line);
        return where;
    }
    case Verdict:
        return QString::fromLatin1(Comparison::name(label.verdict).data());
    case Base:
        return m ? value(m->metric, m->base.median, false) : QString();
    case New:
        return m ? value(m->metric, m->next.median, false) : QString();
    case Delta:
        return m ? value(m->metric, m->delta, true) : QString();
    case DeltaPct:
        return m ? percentText(m->deltaPct) : QString();
    case PValue:
        return m ? pText(m->p) : QString();
    case Interval:
        return m ? QStringLiteral("%1 … %2").arg(percentText(m->ciPct.low), percentText(m->ciPct.high)) : QString();
    case DeltaExec:
    case DeltaWall:
    case DeltaWait: {
        const auto* o = other(row, sideMetric(column));
        // Waiting is what async tasks do between their runs; a plain call
        // has none.
        if (!o || (column == DeltaWait && !label.async))
            return {};
        return value(o->metric, o->delta, true);
    }
    case Calls: {
        const auto* o = other(row, CompareMetric::Calls);
        if (!o)
            return {};
        const QString counts = QStringLiteral("%1 → %2").arg(value(CompareMetric::Calls, o->base.median, false),
                                                             value(CompareMetric::Calls, o->next.median, false));
        return o->delta == 0 ? counts : counts + QStringLiteral(" (%1)").arg(value(CompareMetric::Calls, o->delta, true));
    }
    default:
        return {};
    }
}

QVariant CompareModel::sortValue(int row, int column) const
{
    const Comparison::LabelResult& label = m_shown->labels()[std::size_t(row)];
    const Comparison::MetricResult* m = label.metrics.empty() ? nullptr : &label.metrics.front();
    switch (column) {
    case Name:
    case Location:
        return text(row, column);
    case Verdict: {
        // As severe as the comparison orders them.
        static const int order[] = {6, 5, 4, 1, 3, 2}; // Regressed, Improved, Inconclusive, Unchanged, Added, Removed
        return order[int(label.verdict)];
    }
    case Base:
        return m ? m->base.median : -1.0;
    case New:
        return m ? m->next.median : -1.0;
    case Delta:
        return m ? std::fabs(m->delta) : -1.0;
    case DeltaPct:
        return m ? finiteOrLarge(m->deltaPct) : 0.0;
    case PValue:
        return m ? m->p : 2.0;
    case Interval:
        return m ? finiteOrLarge(m->ciPct.low) : 0.0;
    case DeltaExec:
    case DeltaWall:
    case DeltaWait: {
        const auto* o = other(row, sideMetric(column));
        return o ? o->delta : 0.0;
    }
    case Calls: {
        const auto* o = other(row, CompareMetric::Calls);
        return o ? o->delta : 0.0;
    }
    default:
        return {};
    }
}

QVariant CompareModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_shown || index.row() >= rowCount())
        return {};
    const int row = index.row();
    const Comparison::LabelResult& label = m_shown->labels()[std::size_t(row)];
    switch (role) {
    case Qt::DisplayRole:
        return text(row, index.column());
    case SortRole:
        return sortValue(row, index.column());
    case LabelRole:
        return qulonglong(m_labels[std::size_t(row)]);
    case VerdictRole:
        return int(label.verdict);
    case Qt::ForegroundRole:
        return QBrush(DiffColors::verdictText(label.verdict));
    case Qt::BackgroundRole: {
        const QColor tint = DiffColors::verdictBackground(label.verdict);
        return tint.isValid() ? QVariant(QBrush(tint)) : QVariant();
    }
    case Qt::TextAlignmentRole:
        return index.column() <= Verdict ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                         : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (index.column() == Verdict || index.column() == Interval) {
            const Comparison::MetricResult* m = label.metrics.empty() ? nullptr : &label.metrics.front();
            if (!m)
                return label.verdict == Verdict::Added ? tr("Only in the new profile") : tr("Only in the base runs");
            return tr("%1 over %2; p = %3; Δ% %4, its 95 % interval %5 (%6)")
                .arg(QString::fromLatin1(Comparison::name(label.verdict).data()),
                     m->test == Comparison::Test::Calls ? tr("each call's value (one run per side)") : tr("the runs' values"),
                     pText(m->p), text(row, DeltaPct), text(row, Interval), intervalMethodText(m->method));
        }
        return {};
    default:
        return {};
    }
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        static const char* const names[] = {"Name", "Location", "Verdict", "Base", "New", "Δ", "Δ%", "p",
                                            "95 % CI of Δ%", "Δ exec", "Δ wall", "Δ wait", "Calls"};
        return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Base:
            return tr("Median of the base runs (the chosen metric)");
        case New:
            return tr("The open profile's value");
        case Delta:
            return tr("New − base; sorts by its size either way");
        case PValue:
            return tr("Two-sided Mann–Whitney U test");
        case Interval:
            return tr("95 % confidence interval of the Δ% beside it (of the same figure)");
        case DeltaExec:
            return tr("Δ of the time it ran (exec), whatever metric is chosen: working");
        case DeltaWall:
            return tr("Δ of wall time (creation to end), whatever metric is chosen");
        case DeltaWait:
            return tr("Δ of the time async tasks waited (wall − exec): waiting");
        case Calls:
            return tr("Calls (tasks, for async labels): base median → new (Δ)");
        default:
            return {};
        }
    }
    return {};
}

} // namespace runlane
