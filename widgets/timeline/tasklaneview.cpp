#include "tasklaneview.h"

#include "colorscheme.h"
#include "counttext.h"
#include "criticalpathpainter.h"
#include "criticalpathstate.h"
#include "profiledocument.h"
#include "qstringutf8.h"
#include "timeaxis.h"
#include "valueformat.h"

#include <QContextMenuEvent>
#include <QLocale>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>

#include <algorithm>
#include <cmath>

namespace runlane {

namespace {

void pendingBrush(QPainter& p, const QRectF& r)
{
    p.fillRect(r, ColorScheme::pending());
    p.fillRect(r, QBrush(ColorScheme::hatch(), Qt::BDiagPattern));
}

void pausedLine(QPainter& p, double x0, double x1, double midY)
{
    p.setPen(QPen(ColorScheme::mark(), 1.5, Qt::DotLine));
    p.drawLine(QPointF(x0, midY), QPointF(x1, midY));
}

void endMark(QPainter& p, double x, double midY, FinalState state)
{
    p.setPen(QPen(ColorScheme::forState(state).darker(130), 1));
    p.setBrush(ColorScheme::forState(state));
    QPainterPath diamond;
    diamond.moveTo(x, midY - 5);
    diamond.lineTo(x + 4, midY);
    diamond.lineTo(x, midY + 5);
    diamond.lineTo(x - 4, midY);
    diamond.closeSubpath();
    p.drawPath(diamond);
    p.setBrush(Qt::NoBrush);
}

void unfinishedMark(QPainter& p, double x, double midY)
{
    p.setPen(Qt::NoPen);
    p.setBrush(ColorScheme::forState(FinalState::Unfinished));
    QPainterPath arrow;
    arrow.moveTo(x - 6, midY - 5);
    arrow.lineTo(x, midY);
    arrow.lineTo(x - 6, midY + 5);
    arrow.closeSubpath();
    p.drawPath(arrow);
    p.setBrush(Qt::NoBrush);
}

// Clips to a part of a row, within the lanes' area below the legend: a
// clip rectangle replaces the one before rather than narrowing it, so a row
// scrolled partly under the legend would otherwise paint over the legend.
void clipToRow(QPainter& p, const QRectF& part)
{
    p.setClipRect(part.intersected(QRectF(part.left(), TaskLaneView::kLegendHeight, part.width(), 1 << 20)));
}

// Wakes (tokio wakers) of one task in [from, to]: a tick at the top of its
// row, a self-wake in the flow colour, another's wake in the text colour.
// One tick per pixel column (the first wake in it): a task woken a million
// times costs the columns, not the wakes.
void wakeTicks(QPainter& p, std::span<const Wake> wakes, const TimeAxis& axis, double left, double width, double top)
{
    const Time from = axis.visibleStart();
    const Time to = axis.visibleEnd();
    auto it = std::partition_point(wakes.begin(), wakes.end(), [from](const Wake& w) { return w.time < from; });
    while (it != wakes.end() && it->time <= to) {
        const double column = std::floor(axis.xFor(it->time, width));
        p.fillRect(QRectF(left + column, top, 1, 4), it->isSelfWake() ? ColorScheme::flow() : ColorScheme::text());
        const Time next = axis.timeAt(column + 1, width);
        it = std::partition_point(it + 1, wakes.end(), [next](const Wake& w) { return w.time < next; });
    }
}

} // namespace

TaskLaneView::TaskLaneView(ProfileDocument* document, QWidget* parent)
    : TimelineView(document, parent)
{
    setMinimumHeight(kLegendHeight + 40);
    m_rowHeight = fontMetrics().height() + 4;
    // The rows scroll below the legend.
    setRowsTop(kLegendHeight);
    setScrollStep(m_rowHeight);
    connect(m_axis, &TimeAxis::visibleRangeChanged, this, &TaskLaneView::rangeChanged);
    connect(m_axis, &TimeAxis::selectedItemChanged, this, &TaskLaneView::selectionChanged);
    connect(m_document, &ProfileDocument::profileAboutToChange, this, &TaskLaneView::dropProfile);
    connect(m_document, &ProfileDocument::profileChanged, this, &TaskLaneView::collectTasks);
    connect(m_document, &ProfileDocument::viewModeChanged, this, &TaskLaneView::rebuild);
    connect(m_document, &ProfileDocument::colorsChanged, this, qOverload<>(&QWidget::update));
    connect(m_document, &ProfileDocument::emphasisChanged, this, qOverload<>(&QWidget::update));
    connect(m_document->criticalPath(), &CriticalPathState::changed, this, qOverload<>(&QWidget::update));
    collectTasks();
}

void TaskLaneView::setOrder(Order order)
{
    if (order == m_order)
        return;
    m_order = order;
    rebuildRows();
}

void TaskLaneView::setLayout(Layout layout)
{
    if (layout == m_layout)
        return;
    m_layout = layout;
    rebuildRows();
}

void TaskLaneView::setOnlyTasksInView(bool only)
{
    if (only == m_onlyInView)
        return;
    m_onlyInView = only;
    rebuildRows();
}

void TaskLaneView::rangeChanged()
{
    if (m_onlyInView) {
        // Keep the scroll position across the new list of rows.
        const int scroll = m_scroll->value();
        rebuildRows();
        m_scroll->setValue(scroll);
    }
    update();
}

void TaskLaneView::dropProfile()
{
    // The same source's next version (a load's preview every second): the
    // lanes stay where the user scrolled them.
    m_keptScroll = m_profile && m_document->isRefinement() ? m_scroll->value() : -1;
    m_profile.reset();
    m_metrics.reset();
    m_lanes.setTasks({}, 0);
    rebuild();
}

const Profile* TaskLaneView::shownProfile() const
{
    return m_document->isCurrent(m_profile) ? m_profile.get() : nullptr;
}

void TaskLaneView::collectTasks()
{
    // The packings come from the loading thread; a profile shown without
    // them (scripts) is packed by TaskLaneRows.
    m_profile = m_document->sharedProfile();
    m_metrics = m_document->loaded().metrics;
    if (const Profile* p = m_profile.get()) {
        if (!m_hideChosen)
            m_hideNeverRan = p->hidesTasksThatNeverRan();
        const LoadedProfile& loaded = m_document->loaded();
        m_lanes.setTasks(*p, m_hideNeverRan, loaded.tasks.get(), loaded.tasksThatRan.get());
    } else {
        m_lanes.setTasks({}, 0);
    }
    rebuild();
    const int kept = std::exchange(m_keptScroll, -1);
    if (kept >= 0 && m_document->isRefinement())
        m_scroll->setValue(kept);
}

void TaskLaneView::rebuild()
{
    rebuildRows();
    computeRelated();
}

void TaskLaneView::rebuildRows()
{
    m_lanes.clearRows();
    const Profile* p = shownProfile();
    // The lanes live on the time axis; the aggregated view has none.
    m_builtScreen = std::max(m_rowHeight, height() - kLegendHeight);
    if (p && !m_document->isAggregated())
        m_lanes.build(*p, m_metrics.get(),
                      {m_layout, m_order, m_onlyInView, m_axis->visibleStart(), m_axis->visibleEnd(), kHeaderHeight,
                       m_rowHeight, m_builtScreen});
    updateScrollBar();
    m_scroll->setValue(0);
    update();
}

void TaskLaneView::selectionChanged()
{
    computeRelated();
    if (m_axis->selectedMeasurement() != kNone)
        scrollToTask(m_axis->selectedMeasurement());
    update();
}

void TaskLaneView::computeRelated()
{
    // The selected task's creator and what it created.
    m_related.clear();
    const Profile* p = shownProfile();
    const MeasurementId selected = m_axis->selectedMeasurement();
    if (p && !m_document->isAggregated() && selected != kNone && selected < p->measurementCount()) {
        if (p->measurement(selected).creator != kNone)
            m_related.insert(p->measurement(selected).creator);
        for (const MeasurementId id : p->createdBy(selected))
            m_related.insert(id);
    }
}

int TaskLaneView::contentHeight() const
{
    return m_lanes.contentHeight();
}

int TaskLaneView::rowsInView() const
{
    const int top = scrollY();
    const int bottom = top + height() - kLegendHeight;
    int rows = 0;
    for (auto it = m_lanes.firstFrom(top); it != m_lanes.rows().end() && it->y + m_lanes.heightOf(*it) <= bottom; ++it) {
        if (it->kind != Kind::Header && it->y >= top)
            ++rows;
    }
    return rows;
}

void TaskLaneView::resizeEvent(QResizeEvent* event)
{
    TimelineView::resizeEvent(event);
    // Auto chose per task or packed for the height the lanes had then: when a profile
    // arrives, before ProfileView sizes them, that is whatever the window's docks left.
    // Chosen again for this height; a layout the user picked stays.
    if (m_layout != Layout::Auto || std::max(m_rowHeight, height() - kLegendHeight) == m_builtScreen)
        return;
    const Layout before = effectiveLayout();
    const int scroll = m_scroll->value();
    rebuildRows();
    if (effectiveLayout() == before) // the same rows: stay where the user was
        m_scroll->setValue(scroll);
}

MeasurementId TaskLaneView::taskAt(QPoint pos) const
{
    if (pos.y() < kLegendHeight)
        return kNone;
    const Row* row = m_lanes.rowAt(pos.y() - kLegendHeight + scrollY());
    if (!row || row->kind != Kind::Packed)
        return row ? row->task : kNone;
    // In a packed row: the task under the cursor, or within 3 px of it.
    const int w = std::max(1, width() - TimeAxis::kGutter - rightMargin());
    const double x = pos.x() - TimeAxis::kGutter;
    const Time t0 = m_axis->timeAt(x - 3, w);
    const Time t1 = m_axis->timeAt(x + 3, w);
    const Time t = m_axis->timeAt(x, w);
    const TaskPacking& packing = m_lanes.packing();
    const TaskPacking::Row& packed = packing.rows()[row->packed];
    const auto [a, b] = packing.alive(packed, t0, t1);
    MeasurementId best = kNone;
    Time bestDistance = kTimeMax;
    for (std::uint32_t i = a; i < b; ++i) {
        const MeasurementId id = packing.tasks()[i];
        const Measurement& m = m_profile->measurement(id);
        const Time end = TaskPacking::endOf(*m_profile, m);
        const Time distance = t < m.created ? m.created - t : t > end ? t - end : 0;
        if (distance < bestDistance) {
            best = id;
            bestDistance = distance;
        }
    }
    return best;
}

QRect TaskLaneView::rowRect(MeasurementId task) const
{
    const Row* r = m_lanes.rowOfTask(task);
    if (!r)
        return {};
    const int y = kLegendHeight + r->y - scrollY();
    if (y + m_rowHeight <= kLegendHeight || y >= height())
        return {};
    return QRect(0, y, width() - rightMargin(), m_rowHeight);
}

void TaskLaneView::scrollToTask(MeasurementId task)
{
    const Row* r = m_lanes.rowOfTask(task);
    if (!r)
        return;
    const int view = height() - kLegendHeight;
    if (r->y < scrollY() || r->y + m_rowHeight > scrollY() + view)
        m_scroll->setValue(r->y - view / 2);
}

void TaskLaneView::paintMargin(QPainter& p, const QRect& margin) const
{
    // Beside the legend: below it is the scroll bar.
    p.fillRect(QRect(margin.left(), 0, margin.width(), kLegendHeight), ColorScheme::gutter());
}

QString TaskLaneView::placeholderText() const
{
    if (!m_document->hasProfile())
        return {};
    const std::size_t total = totalTaskCount();
    const auto& partial = m_document->profile()->partial();
    // A preview of a loading file holds its calls, and its tasks only if
    // the format adds them (PreviewSettings::addTasks): without them, its
    // tasks are not known to be none.
    if (total == 0 && partial && partial->kind == PartialLoad::Kind::Preview)
        return partial->holdsTasks ? tr("No asynchronous tasks read so far")
                                   : tr("Tasks are shown when the load ends: this file's previews hold the calls only");
    if (total == 0)
        return tr("No asynchronous tasks in this profile");
    if (m_document->isAggregated())
        return tr("Task lanes need the timeline: turn off View ▸ Aggregated flame graph (Ctrl+G)");
    return tr("None of the %1 tasks is alive in the visible range").arg(total);
}

void TaskLaneView::paintContent(QPainter& p, QSize size, int scroll) const
{
    TimeAxis::paintBackdrop(p, size);
    paintLegend(p, size.width());
    const int timeWidth = std::max(1, size.width() - TimeAxis::kGutter);
    p.setClipRect(QRect(0, kLegendHeight, size.width(), size.height() - kLegendHeight));
    const std::vector<Row>& listed = m_lanes.rows();
    if (listed.empty()) {
        p.setPen(ColorScheme::mutedText());
        p.drawText(QRect(TimeAxis::kGutter, kLegendHeight, timeWidth, 50), Qt::AlignCenter, placeholderText());
    }
    const int view = size.height() - kLegendHeight;
    for (auto it = m_lanes.firstFrom(scroll); it != listed.end() && it->y < scroll + view; ++it) {
        const int y = kLegendHeight + it->y - scroll;
        if (it->kind == Kind::Header) {
            p.fillRect(QRect(0, y, size.width(), kHeaderHeight), ColorScheme::header());
            QFont bold = font();
            bold.setBold(true);
            p.setFont(bold);
            p.setPen(ColorScheme::text());
            const Profile* profile = m_profile.get(); // rows exist only while it is the open one
            const Track& track = profile->track(it->track);
            QString text = qs(profile->string(track.laneGroup != kEmptyString ? track.laneGroup : track.name))
                + QStringLiteral(" — ") + countText(qint64(it->count), "task", "tasks");
            if (m_lanes.packedShown()) {
                std::size_t rows = 0;
                for (auto next = it + 1; next != listed.end() && next->kind == Kind::Packed; ++next)
                    ++rows;
                text += tr(", packed by label in %1").arg(countText(qint64(rows), "row", "rows"));
            }
            p.drawText(QRect(6, y, size.width() - 12, kHeaderHeight), Qt::AlignVCenter | Qt::AlignLeft, text);
            p.setFont(font());
        } else if (it->kind == Kind::Packed) {
            paintPackedRow(p, *it, y, timeWidth);
        } else {
            paintTask(p, *it, y, timeWidth);
        }
    }
    paintCriticalPath(p, size, scroll);
    paintRangeSelection(p, timeWidth, kLegendHeight, size.height(), false);
    p.setClipping(false);
    p.setPen(ColorScheme::grid());
    p.drawLine(TimeAxis::kGutter - 1, 0, TimeAxis::kGutter - 1, size.height());
}

void TaskLaneView::paintCriticalPath(QPainter& p, QSize size, int scroll) const
{
    const CriticalPathState& path = *m_document->criticalPath();
    const Profile* shown = shownProfile();
    if (!path.isActive() || !shown || m_lanes.rows().empty())
        return;
    const int timeWidth = std::max(1, size.width() - TimeAxis::kGutter);
    // A lane far off screen is held a few screens away: an arrow to it
    // keeps its direction, and QPainter's coordinates stay small.
    const int limit = 4 * size.height();
    auto laneOf = [&](MeasurementId task) {
        const Row* r = m_lanes.rowOfTask(task);
        if (!r)
            return QRectF();
        const int y = std::clamp(kLegendHeight + r->y - scroll, -limit, size.height() + limit);
        return QRectF(TimeAxis::kGutter, y, timeWidth, m_rowHeight);
    };
    CriticalPathPainter(*shown, path, *m_axis, TimeAxis::kGutter, timeWidth)
        .paintLanes(p, QRectF(TimeAxis::kGutter, kLegendHeight, timeWidth, size.height() - kLegendHeight), laneOf);
}

void TaskLaneView::paintLegend(QPainter& p, int width) const
{
    p.fillRect(QRect(0, 0, width, kLegendHeight), ColorScheme::gutter());
    p.setPen(ColorScheme::grid());
    p.drawLine(0, kLegendHeight - 1, width, kLegendHeight - 1);
    const int mid = kLegendHeight / 2;
    int x = 8;
    p.setPen(ColorScheme::text());
    p.drawText(QRect(x, 0, TimeAxis::kGutter - 8, kLegendHeight), Qt::AlignVCenter,
               m_onlyInView ? tr("Tasks in view: %1 of %2").arg(taskCount()).arg(totalTaskCount()) : tr("Tasks: %1").arg(taskCount()));
    x = TimeAxis::kGutter + 8;
    auto caption = [&](const QString& text) {
        p.setPen(ColorScheme::text());
        const int w = p.fontMetrics().horizontalAdvance(text);
        p.drawText(QRect(x, 0, w + 2, kLegendHeight), Qt::AlignVCenter, text);
        x += w + 16;
    };
    pendingBrush(p, QRectF(x, mid - 5, 22, 10));
    x += 26;
    caption(tr("pending"));
    p.fillRect(QRectF(x, mid - 6, 22, 12), QColor(120, 170, 230));
    x += 26;
    caption(tr("running (in its label's colour)"));
    pausedLine(p, x, x + 22, mid);
    x += 26;
    caption(tr("paused"));
    for (const FinalState state : {FinalState::Completed, FinalState::Failed, FinalState::Cancelled}) {
        endMark(p, x + 4, mid, state);
        x += 12;
        caption(QString::fromLatin1(finalStateName(state).data()));
    }
    unfinishedMark(p, x + 8, mid);
    x += 14;
    caption(tr("unfinished"));
    if (hiddenTaskCount() > 0)
        caption(tr("· %1 hidden (never ran; right-click to show)").arg(QLocale().toString(qulonglong(hiddenTaskCount()))));
}

void TaskLaneView::paintTask(QPainter& p, const Row& row, int y, int timeWidth) const
{
    const Profile& profile = *m_profile;
    const Measurement& m = profile.measurement(row.task);
    const double mid = y + m_rowHeight / 2.0;
    const bool selected = row.task == m_axis->selectedMeasurement();
    if (selected)
        p.fillRect(QRect(0, y, TimeAxis::kGutter + timeWidth, m_rowHeight), ColorScheme::selectedRow());
    else if (isRelated(row.task))
        p.fillRect(QRect(0, y, TimeAxis::kGutter + timeWidth, m_rowHeight), ColorScheme::relatedRow());
    // The gutter: the task's name, greyed when other labels are emphasised.
    const bool dim = m_document->isEmphasisActive() && !m_document->isHighlighted(m.label);
    p.setPen(dim ? ColorScheme::faintText() : ColorScheme::text());
    const QString name = qs(profile.labelName(m.label));
    p.drawText(QRect(14, y, TimeAxis::kGutter - 20, m_rowHeight), Qt::AlignVCenter | Qt::AlignLeft,
               p.fontMetrics().elidedText(name, Qt::ElideRight, TimeAxis::kGutter - 20));

    paintTaskBody(p, row.task, y, timeWidth);
    p.setClipRect(QRect(0, kLegendHeight, TimeAxis::kGutter + timeWidth, 1 << 20));
    // A dot in the gutter says how it ended, for rows scrolled off its end.
    p.setPen(Qt::NoPen);
    p.setBrush(ColorScheme::forState(m.finalState()));
    p.drawEllipse(QPointF(7, mid), 3, 3);
    p.setBrush(Qt::NoBrush);
}

void TaskLaneView::paintPackedRow(QPainter& p, const Row& row, int y, int timeWidth) const
{
    const Profile& profile = *m_profile;
    const TaskPacking& packing = m_lanes.packing();
    const TaskPacking::Row& packed = packing.rows()[row.packed];
    const double w = timeWidth;
    const double left = TimeAxis::kGutter;
    // The gutter: the label, on the group's first row; its other rows are
    // marked as continuing it.
    const bool dim = m_document->isEmphasisActive() && !m_document->isHighlighted(packed.label);
    p.setPen(dim || packed.indexInGroup > 0 ? ColorScheme::faintText() : ColorScheme::text());
    const QString name = (packed.indexInGroup > 0 ? QStringLiteral("  ⋮ ") : QString()) + qs(profile.labelName(packed.label));
    p.drawText(QRect(14, y, TimeAxis::kGutter - 20, m_rowHeight), Qt::AlignVCenter | Qt::AlignLeft,
               p.fontMetrics().elidedText(name, Qt::ElideRight, TimeAxis::kGutter - 20));
    const Time from = m_axis->visibleStart();
    const Time to = m_axis->visibleEnd();
    auto [i, last] = packing.alive(packed, from, to);
    const MeasurementId selected = m_axis->selectedMeasurement();
    const QColor fill = QColor::fromRgb(m_document->colorOf(packed.label, 0));
    while (i < last) {
        // The packing's copies of the times: no measurement read per task.
        const MeasurementId id = packing.tasks()[i];
        const double x0 = m_axis->xFor(packing.createdAt(i), w);
        const double x1 = m_axis->xFor(packing.endAt(i), w);
        if (id == selected || isRelated(id)) {
            clipToRow(p, QRectF(left, y, w, m_rowHeight));
            p.fillRect(QRectF(left + std::max(-1.0, x0) - 2, y, std::min(w + 1, x1) - std::max(-1.0, x0) + 4, m_rowHeight),
                       id == selected ? ColorScheme::selectedRow() : ColorScheme::relatedRow());
        }
        if (x1 - x0 >= 2.0 || id == selected) {
            paintTaskBody(p, id, y, timeWidth);
            ++i;
            continue;
        }
        // Tasks narrower than two pixels: one mark per pixel column, then
        // on to the first task created past it, so a paint costs the
        // pixels, not the tasks.
        const double column = std::floor(std::max(x0, 0.0));
        clipToRow(p, QRectF(left, y, w, m_rowHeight));
        p.fillRect(QRectF(left + column, y + 3, 2, m_rowHeight - 6), fill);
        i = std::max(i + 1, packing.firstCreatedFrom(packed, m_axis->timeAt(column + 2, w)));
        i = std::min(i, last);
    }
    p.setClipRect(QRect(0, kLegendHeight, TimeAxis::kGutter + timeWidth, 1 << 20));
}

void TaskLaneView::paintTaskBody(QPainter& p, MeasurementId task, int y, int timeWidth) const
{
    const Profile& profile = *m_profile;
    const Measurement& m = profile.measurement(task);
    const double w = timeWidth;
    const double left = TimeAxis::kGutter;
    const double mid = y + m_rowHeight / 2.0;
    auto x = [&](Time t) { return left + std::clamp(m_axis->xFor(t, w), -10.0, w + 10); };
    const auto intervals = profile.intervalsOf(task);
    const Time firstRun = intervals.empty() ? m.finished : profile.interval(intervals.front()).start;
    const double top = y + 2;
    const double height = m_rowHeight - 4;
    clipToRow(p, QRectF(left, y, w, m_rowHeight));
    // Pending: created, not yet run.
    if (firstRun > m.created && m_axis->xFor(firstRun, w) >= 0 && m_axis->xFor(m.created, w) <= w)
        pendingBrush(p, QRectF(x(m.created), top + 2, std::max(1.0, x(firstRun) - x(m.created)), height - 4));
    // Running, with paused stretches between (and after, until it finished).
    const QColor fill = QColor::fromRgb(m_document->colorOf(m.label, m.finished - m.created));
    Time pausedFrom = kTimeMin;
    const Time from = m_axis->visibleStart();
    const Time to = m_axis->visibleEnd();
    const IntervalId* ids = intervals.data();
    std::size_t k = std::size_t(std::partition_point(ids, ids + intervals.size(),
                                                     [&](IntervalId id) { return profile.interval(id).end < from; })
                                - ids);
    if (k > 0)
        pausedFrom = profile.interval(ids[k - 1]).end;
    while (k < intervals.size() && profile.interval(ids[k]).start <= to) {
        const Interval& iv = profile.interval(ids[k]);
        if (pausedFrom != kTimeMin && iv.start > pausedFrom)
            pausedLine(p, x(pausedFrom), x(iv.start), mid);
        const double x0 = m_axis->xFor(iv.start, w);
        if (m_axis->xFor(iv.end, w) - x0 < 1.0) {
            // Sub-pixel slices: one block up to the next pixel column.
            const double column = std::floor(std::max(x0, 0.0));
            const Time boundary = m_axis->timeAt(column + 1, w);
            const std::size_t next = std::size_t(std::partition_point(ids + k, ids + intervals.size(),
                                                                      [&](IntervalId id) {
                                                                          return profile.interval(id).start < boundary;
                                                                      })
                                                 - ids);
            const std::size_t j = std::max(next, k + 1);
            const double end = std::max(column + 1, m_axis->xFor(profile.interval(ids[j - 1]).end, w));
            p.fillRect(QRectF(left + column, top, std::min(end, w) - column, height), fill);
            pausedFrom = profile.interval(ids[j - 1]).end;
            k = j;
            continue;
        }
        p.fillRect(QRectF(x(iv.start), top, std::max(1.0, x(iv.end) - x(iv.start)), height), fill);
        pausedFrom = iv.end;
        ++k;
    }
    const bool unfinished = m.finalState() == FinalState::Unfinished;
    const Time stop = unfinished ? profile.endTime() : m.finished;
    if (pausedFrom != kTimeMin && stop > pausedFrom && pausedFrom <= to)
        pausedLine(p, x(pausedFrom), x(stop), mid);
    wakeTicks(p, profile.wakesOf(task), *m_axis, left, w, y + 1);
    clipToRow(p, QRectF(left - 6, y, w + 12, m_rowHeight));
    if (unfinished)
        unfinishedMark(p, std::min(x(stop), left + w - 1), mid);
    else if (m_axis->xFor(m.finished, w) >= -5 && m_axis->xFor(m.finished, w) <= w + 5)
        endMark(p, x(m.finished), mid, m.finalState());
}

void TaskLaneView::clicked(QPoint pos)
{
    const MeasurementId task = taskAt(pos);
    if (task == kNone) {
        m_axis->clearSelectedItem();
        return;
    }
    const auto intervals = m_profile->intervalsOf(task);
    m_axis->selectItem(intervals.empty() ? kNone : intervals.front(), task);
}

void TaskLaneView::mouseDoubleClickEvent(QMouseEvent* event)
{
    const MeasurementId task = taskAt(event->position().toPoint());
    if (task == kNone)
        return;
    const Measurement& m = m_profile->measurement(task);
    m_axis->setVisibleRange(m.created, std::max(m.finished, addClamped(m.created, TimeAxis::kMinimumSpan)));
}

void TaskLaneView::keyPressEvent(QKeyEvent* event)
{
    const Profile* shown = shownProfile();
    if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) && shown
        && m_axis->selectedMeasurement() < shown->measurementCount()) {
        const Measurement& m = shown->measurement(m_axis->selectedMeasurement());
        m_axis->setVisibleRange(m.created, std::max(m.finished, addClamped(m.created, TimeAxis::kMinimumSpan)));
        return;
    }
    TimelineView::keyPressEvent(event);
}

void TaskLaneView::setHideTasksThatNeverRan(bool hide)
{
    // The user's choice holds for the next profiles too; until then each
    // profile says (Profile::hidesTasksThatNeverRan).
    m_hideChosen = true;
    if (hide == m_hideNeverRan)
        return;
    m_hideNeverRan = hide;
    collectTasks();
}

void TaskLaneView::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    if (const MeasurementId task = taskAt(event->pos()); task != kNone) {
        clicked(event->pos()); // the task the menu is about is the selected one
        QAction* path = menu.addAction(tr("Critical path of %1").arg(qs(m_profile->labelName(m_profile->measurement(task).label))),
                                       this, [this, task] { m_document->criticalPath()->show(task); });
        path->setShortcut(QKeySequence(Qt::Key_P));
        path->setShortcutVisibleInContextMenu(true);
        menu.addSeparator();
    }
    QMenu* order = menu.addMenu(tr("Order tasks by"));
    const std::pair<QString, Order> orders[] = {
        {tr("Creation"), Order::Creation}, {tr("Exec time"), Order::Exec}, {tr("Name"), Order::Name}};
    for (const auto& [text, value] : orders) {
        QAction* action = order->addAction(text, this, [this, value = value] { setOrder(value); });
        action->setCheckable(true);
        action->setChecked(m_order == value);
    }
    QMenu* layout = menu.addMenu(tr("Layout"));
    const std::pair<QString, Layout> layouts[] = {{tr("Automatic"), Layout::Auto},
                                                  {tr("One row per task"), Layout::PerTask},
                                                  {tr("Packed by label"), Layout::Packed}};
    for (const auto& [text, value] : layouts) {
        QAction* action = layout->addAction(text, this, [this, value = value] { setLayout(value); });
        action->setCheckable(true);
        action->setChecked(m_layout == value);
    }
    QAction* inView = menu.addAction(tr("Only tasks in the visible range"), this,
                                     [this](bool checked) { setOnlyTasksInView(checked); });
    inView->setCheckable(true);
    inView->setChecked(m_onlyInView);
    QAction* hide = menu.addAction(tr("Hide tasks that never ran"), this,
                                   [this](bool checked) { setHideTasksThatNeverRan(checked); });
    hide->setCheckable(true);
    hide->setChecked(m_hideNeverRan);
    menu.exec(event->globalPos());
}

QString TaskLaneView::toolTipAt(QPoint pos) const
{
    const MeasurementId task = taskAt(pos);
    if (task == kNone)
        return {};
    const Profile& p = *m_profile; // a row exists only while it is the open one
    const Measurement& m = p.measurement(task);
    const ValueUnit unit = p.unit();
    return QString::fromStdString(
        p.labelText(m.label) + "\ncreated at " + ValueFormat::point(m.created - p.startTime(), unit) + ", wall "
        + ValueFormat::text(m.finished - m.created, unit) + "\nexec " + ValueFormat::text(m_metrics->exec(task), unit)
        + " in " + std::to_string(p.intervalsOf(task).size()) + " active intervals\n"
        + std::string(finalStateName(m.finalState())));
}

} // namespace runlane
