#include "icicleview.h"

#include "aggregatedsource.h"
#include "colorscheme.h"
#include "comparesession.h"
#include "criticalpathpainter.h"
#include "criticalpathstate.h"
#include "differentialsource.h"
#include "intervalmatch.h"
#include "labelindex.h"
#include "profiledocument.h"
#include "qstringutf8.h"
#include "timeaxis.h"
#include "timelinesource.h"

#include <QContextMenuEvent>
#include <QInputDialog>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>

#include <algorithm>
#include <cmath>

namespace runlane {

namespace {

constexpr double kMinimumNode = 1.0; // px: narrower runs are merged
constexpr double kTextMinimum = 24.0; // px: narrower boxes get no label
constexpr int kChevronWidth = 12;

} // namespace

IcicleView::IcicleView(ProfileDocument* document, QWidget* parent)
    : TimelineView(document, parent)
{
    setMinimumHeight(80);
    m_rowHeight = fontMetrics().height() + 6;
    setScrollStep(m_rowHeight);
    connect(m_axis, &TimeAxis::visibleRangeChanged, this, qOverload<>(&QWidget::update));
    connect(m_axis, &TimeAxis::selectedItemChanged, this, qOverload<>(&QWidget::update));
    connect(m_document, &ProfileDocument::profileAboutToChange, this, &IcicleView::dropProfile);
    connect(m_document, &ProfileDocument::profileChanged, this, &IcicleView::rebuild);
    connect(m_document, &ProfileDocument::viewModeChanged, this, &IcicleView::rebuild);
    connect(m_document, &ProfileDocument::colorsChanged, this, qOverload<>(&QWidget::update));
    connect(m_document, &ProfileDocument::emphasisChanged, this, qOverload<>(&QWidget::update));
    connect(m_document, &ProfileDocument::intervalRevealed, this, &IcicleView::revealSpan);
    connect(m_document->criticalPath(), &CriticalPathState::changed, this, qOverload<>(&QWidget::update));
    connect(m_document->compare(), &CompareSession::diffChanged, this, &IcicleView::applyDiff);
    rebuild();
}

IcicleView::~IcicleView() = default;

void IcicleView::dropProfile()
{
    // The timeline of the same source's next version: tracks the user
    // folded stay folded and the rows stay where they were (a load's
    // preview every second must not undo them).
    if (m_source && m_document->isRefinement() && !m_document->isAggregated()) {
        Kept kept;
        for (TrackId t = 0; t < m_trackCollapsed.size(); ++t) {
            if (m_trackCollapsed[t])
                kept.foldedTracks.insert(m_source->trackName(t));
        }
        kept.scroll = m_scroll->value();
        kept.collapsedToDepth = m_collapsedToDepth;
        if (m_collapsedToDepth < 0 && !m_collapsed.empty()) {
            kept.from = m_built.profile;
            kept.collapsed.assign(m_collapsed.begin(), m_collapsed.end());
        }
        m_kept = std::move(kept);
    }
    m_collapsedToDepth = -1;
    m_source.reset();
    m_marks.build(nullptr);
    m_built = LoadedProfile();
    m_builtTree.reset();
    m_collapsed.clear();
    m_aggregatedSelection = kNone;
    m_trackCollapsed.clear();
    m_rows.clear();
    update();
}

void IcicleView::rebuild()
{
    dropProfile();
    if (m_document->hasProfile()) {
        m_built = m_document->loaded();
        m_builtTree = m_document->sharedCallTree();
        if (!m_document->isAggregated()) {
            m_source = std::make_unique<TimelineSource>(*m_built.profile, *m_built.metrics);
            m_marks.build(m_built.profile.get());
        } else if (m_builtTree)
            m_source = aggregatedSource();
    }
    m_trackCollapsed.assign(m_source ? m_source->trackCount() : 0, false);
    std::optional<Kept> kept = std::exchange(m_kept, std::nullopt);
    if (!m_document->isRefinement() || m_document->isAggregated())
        kept.reset();
    if (kept && m_source) {
        for (TrackId t = 0; t < m_trackCollapsed.size(); ++t)
            m_trackCollapsed[t] = kept->foldedTracks.count(m_source->trackName(t)) != 0;
        if (kept->collapsedToDepth >= 0)
            collapseToDepth(kept->collapsedToDepth);
        for (const IntervalId id : kept->collapsed) {
            if (const IntervalId same = IntervalMatch::find(*kept->from, id, *m_built.profile); same != kNone)
                m_collapsed.insert(same);
        }
    }
    layoutRows();
    m_scroll->setValue(kept ? kept->scroll : 0);
    update();
}

std::unique_ptr<IcicleSource> IcicleView::aggregatedSource() const
{
    // In compare mode, the differential flame graph once its diff is of
    // this very call tree (its node ids are this tree's).
    const CompareSession* compare = m_document->compare();
    if (compare->diff() && compare->diffTree() == m_builtTree) {
        return std::make_unique<DifferentialSource>(*m_built.profile, *m_builtTree, compare->sharedDiff(),
                                                    compare->options().threshold, compare->floor());
    }
    return std::make_unique<AggregatedSource>(*m_built.profile, *m_builtTree);
}

void IcicleView::applyDiff()
{
    // The same tree, the same span ids: collapsed boxes, selection and
    // scrolling stay; only the colours and tooltips change.
    if (!m_source || !m_builtTree || !m_document->isAggregated())
        return;
    m_source = aggregatedSource();
    update();
}

bool IcicleView::isDifferential() const
{
    return dynamic_cast<const DifferentialSource*>(m_source.get()) != nullptr;
}

QRgb IcicleView::fillOf(const Interval& span) const
{
    QRgb own;
    if (!m_source->fillOf(span, own))
        return m_document->colorOf(m_source->labelOf(span), span.end - span.start);
    const LabelId label = m_source->labelOf(span);
    return m_document->isEmphasisActive() && !m_document->isHighlighted(label) ? ColorScheme::dimmed(own) : own;
}

void IcicleView::layoutRows()
{
    m_rows.clear();
    m_trackRow.clear();
    int y = 0;
    if (m_source) {
        for (TrackId t = 0; t < m_source->trackCount(); ++t) {
            m_trackRow.push_back(m_rows.size());
            m_rows.push_back(Row{t, -1, y, kHeaderHeight});
            y += kHeaderHeight;
            if (m_trackCollapsed[t])
                continue;
            for (int d = 0; d < m_source->depthCount(t); ++d) {
                m_rows.push_back(Row{t, d, y, m_rowHeight});
                y += m_rowHeight;
            }
        }
    }
    updateScrollBar();
}

int IcicleView::contentHeight() const
{
    return m_rows.empty() ? 0 : m_rows.back().y + m_rows.back().height;
}

const IcicleView::Row* IcicleView::rowAt(int contentY) const
{
    return TimelineView::rowAt(m_rows, contentY, &Row::yEnd);
}

TrackId IcicleView::pinnedTrackAt(int scroll) const
{
    const Row* top = rowAt(scroll);
    return top && top->depth >= 0 ? top->track : kNone;
}

int IcicleView::pinnedNameY(TrackId track, int scroll) const
{
    const Row* next = rowOf(track + 1, -1);
    const int trackEnd = next ? next->y : contentHeight();
    return std::min(0, trackEnd - scroll - kHeaderHeight);
}

QRect IcicleView::pinnedNameRect() const
{
    const TrackId pinned = pinnedTrack();
    return pinned == kNone ? QRect() : QRect(0, pinnedNameY(pinned, scrollY()), TimeAxis::kGutter, kHeaderHeight);
}

int IcicleView::trackHeaderY(TrackId track) const
{
    const Row* header = rowOf(track, -1);
    return header ? header->y - scrollY() : -1;
}

const IcicleView::Row* IcicleView::rowOf(TrackId track, int depth) const
{
    // A track's rows follow its header, one per depth, unless collapsed.
    if (track >= m_trackRow.size() || depth < -1 || (depth >= 0 && isTrackCollapsed(track)))
        return nullptr;
    const std::size_t index = m_trackRow[track] + std::size_t(depth + 1);
    return index < m_rows.size() && m_rows[index].track == track && m_rows[index].depth == depth ? &m_rows[index]
                                                                                                : nullptr;
}

bool IcicleView::isTrackCollapsed(TrackId track) const
{
    return track < m_trackCollapsed.size() && m_trackCollapsed[track];
}

void IcicleView::setTrackCollapsed(TrackId track, bool collapsed)
{
    if (track >= m_trackCollapsed.size() || m_trackCollapsed[track] == collapsed)
        return;
    m_trackCollapsed[track] = collapsed;
    layoutRows();
    update();
}

std::uint32_t IcicleView::hiddenBy(std::uint32_t id) const
{
    if (m_collapsed.empty() || !m_source)
        return kNone;
    std::uint32_t hider = kNone;
    for (std::uint32_t p = m_source->span(id).parent; p != kNone; p = m_source->span(p).parent) {
        if (m_collapsed.count(p))
            hider = p;
    }
    return hider;
}

void IcicleView::setCollapsed(std::uint32_t id, bool collapsed)
{
    if (collapsed)
        m_collapsed.insert(id);
    else
        m_collapsed.erase(id);
    update();
}

void IcicleView::expandAll()
{
    m_collapsedToDepth = -1;
    m_collapsed.clear();
    std::fill(m_trackCollapsed.begin(), m_trackCollapsed.end(), false);
    layoutRows();
    update();
}

void IcicleView::collapseToDepth(int depth)
{
    if (!m_source)
        return;
    m_collapsedToDepth = depth;
    m_collapsed.clear();
    for (TrackId t = 0; t < m_source->trackCount(); ++t) {
        for (const Interval& span : m_source->depthSlice(t, depth)) {
            const std::uint32_t id = m_source->idOf(span);
            if (m_source->hasChildren(id))
                m_collapsed.insert(id);
        }
    }
    update();
}

std::uint32_t IcicleView::selectedSpan() const
{
    return m_document->isAggregated() ? m_aggregatedSelection : m_axis->selectedInterval();
}

void IcicleView::selectSpan(std::uint32_t id)
{
    if (m_document->isAggregated()) {
        m_aggregatedSelection = id;
        Q_EMIT aggregatedNodeSelected(id);
        update();
    } else {
        m_axis->selectItem(id, id == kNone ? kNone : m_source->measurementOf(m_source->span(id)));
    }
}

void IcicleView::zoomToSpan(std::uint32_t id)
{
    if (!m_source || id == kNone)
        return;
    const Interval& span = m_source->span(id);
    m_axis->setVisibleRange(span.start, std::max(span.end, addClamped(span.start, TimeAxis::kMinimumSpan)));
}

QRectF IcicleView::spanRect(std::uint32_t id) const
{
    if (!m_source || id == kNone || hiddenBy(id) != kNone)
        return {};
    const Row* row = rowOf(m_source->trackOf(id), m_source->depthOf(id));
    if (!row)
        return {};
    const double width = m_input.navigator().areaWidth();
    const Interval& span = m_source->span(id);
    const double x0 = std::max(-1.0, m_axis->xFor(span.start, width));
    const double x1 = std::min(width + 1, std::max(m_axis->xFor(span.end, width), x0 + 1));
    if (x1 <= 0 || x0 >= width)
        return {};
    return QRectF(TimeAxis::kGutter + x0, row->y - scrollY(), x1 - x0, row->height - 1);
}

QRectF IcicleView::boxOf(std::uint32_t id, int scroll, int timeWidth) const
{
    if (!m_source || hiddenBy(id) != kNone)
        return {};
    const Row* row = rowOf(m_source->trackOf(id), m_source->depthOf(id));
    if (!row)
        return {};
    const Interval& span = m_source->span(id);
    // Far off-screen ends are held a screen away: QPainter's coordinates
    // must stay small, and the arrow's direction is kept.
    const double limit = 4.0 * timeWidth + 1000;
    const double x0 = std::clamp(m_axis->xFor(span.start, timeWidth), -limit, limit);
    const double x1 = std::clamp(std::max(m_axis->xFor(span.end, timeWidth), x0 + 1), -limit, limit + 1);
    return QRectF(TimeAxis::kGutter + x0, row->y - scroll, x1 - x0, row->height - 1);
}

std::vector<FlowPainter::Row> IcicleView::flowRows(int scroll, int height) const
{
    // The rows of boxes (not track headers) on screen: rows are in y order.
    std::vector<FlowPainter::Row> rows;
    for (auto it = firstRowFrom(m_rows, scroll, &Row::yEnd); it != m_rows.end() && it->y < scroll + height; ++it) {
        if (it->depth >= 0)
            rows.push_back(FlowPainter::Row{it->track, it->depth});
    }
    return rows;
}

void IcicleView::paintFlows(QPainter& p, QSize size, int scroll, int timeWidth) const
{
    const Profile& profile = *m_built.profile;
    if (profile.flows().empty())
        return;
    const std::vector<FlowPainter::Row> rows = flowRows(scroll, size.height());
    p.save();
    p.setClipRect(QRect(TimeAxis::kGutter, 0, timeWidth, size.height()));
    FlowPainter(profile, [&](IntervalId id) { return boxOf(id, scroll, timeWidth); }, m_built.flowSpans.get(),
                size.height())
        .paint(p, rows, m_axis->visibleStart(), m_axis->visibleEnd(), m_axis->selectedInterval(),
               FlowPainter::maxFlows(timeWidth));
    p.restore();
}

QLineF IcicleView::flowLine(std::uint32_t flow) const
{
    if (!m_source || m_document->isAggregated() || flow >= m_built.profile->flows().size())
        return {};
    const int timeWidth = std::max(1, width() - rightMargin() - TimeAxis::kGutter);
    const std::vector<FlowPainter::Row> rows = flowRows(scrollY(), height());
    auto locate = [&](IntervalId id) { return boxOf(id, scrollY(), timeWidth); };
    const FlowPainter painter(*m_built.profile, locate, m_built.flowSpans.get(), height());
    const auto shown = painter.flowsInView(rows, m_axis->visibleStart(), m_axis->visibleEnd(), m_axis->selectedInterval(),
                                           FlowPainter::maxFlows(timeWidth));
    const Flow& f = m_built.profile->flows()[flow];
    if (!std::binary_search(shown.begin(), shown.end(), flow) || locate(f.from).isEmpty() || locate(f.to).isEmpty())
        return {};
    return FlowPainter::arrowLine(locate(f.from), locate(f.to));
}

void IcicleView::revealSpan(std::uint32_t id)
{
    if (!m_source || m_document->isAggregated() || id >= m_built.profile->intervalCount())
        return;
    const TrackId track = m_source->trackOf(id);
    for (std::uint32_t p = m_source->span(id).parent; p != kNone; p = m_source->span(p).parent)
        m_collapsed.erase(p);
    if (isTrackCollapsed(track)) {
        m_trackCollapsed[track] = false;
        layoutRows();
    }
    if (const Row* row = rowOf(track, m_source->depthOf(id));
        row && (row->y < scrollY() || row->y + row->height > scrollY() + height()))
        m_scroll->setValue(row->y - height() / 2);
    update();
}

std::uint32_t IcicleView::spanAt(QPoint pos) const
{
    if (!m_source || pos.x() < TimeAxis::kGutter || pos.x() >= TimeAxis::kGutter + m_input.navigator().areaWidth())
        return kNone;
    const Row* row = rowAt(pos.y() + scrollY());
    if (!row || row->depth < 0)
        return kNone;
    // Exactly under the cursor, or within two pixels for slivers.
    const double width = m_input.navigator().areaWidth();
    const double x = pos.x() - TimeAxis::kGutter;
    std::uint32_t id = m_source->at(row->track, row->depth, m_axis->timeAt(x, width));
    if (id == kNone) {
        const auto [first, last] = m_source->overlapping(row->track, row->depth, m_axis->timeAt(x - 2, width),
                                                         m_axis->timeAt(x + 2, width));
        if (first != last)
            id = first;
    }
    return id != kNone && hiddenBy(id) == kNone ? id : kNone;
}

bool IcicleView::chevronHit(std::uint32_t id, QPoint pos) const
{
    const QRectF rect = spanRect(id);
    return rect.width() >= kTextMinimum && pos.x() < rect.left() + kChevronWidth + 2
        && (isCollapsed(id) || m_source->hasChildren(id));
}

void IcicleView::paintContent(QPainter& p, QSize size, int scroll) const
{
    TimeAxis::paintBackdrop(p, size);
    if (!m_source) {
        p.setPen(ColorScheme::mutedText());
        const QString text = !m_document->hasProfile() ? tr("Open a profile (Ctrl+O) or drop one here")
            : m_document->isAggregated()               ? tr("Merging call paths…")
                                                       : QString();
        p.drawText(QRect(TimeAxis::kGutter, 0, size.width() - TimeAxis::kGutter, 60), Qt::AlignCenter, text);
        return;
    }
    const int timeWidth = std::max(1, size.width() - TimeAxis::kGutter);
    if (m_built.profile->intervalCount() == 0) {
        p.setPen(ColorScheme::mutedText());
        p.drawText(QRect(TimeAxis::kGutter, kHeaderHeight, timeWidth, 60), Qt::AlignCenter,
                   tr("This profile has no timeline: its metrics are in the rank."));
    }
    for (auto it = firstRowFrom(m_rows, scroll, &Row::yEnd); it != m_rows.end() && it->y < scroll + size.height(); ++it) {
        const int y = it->y - scroll;
        if (it->depth < 0)
            paintHeader(p, *it, y, size.width());
        else
            paintRow(p, *it, y, timeWidth);
    }
    if (const TrackId pinned = pinnedTrackAt(scroll); pinned != kNone)
        paintTrackName(p, pinned, pinnedNameY(pinned, scroll), kHeaderHeight, TimeAxis::kGutter);
    if (!m_document->isAggregated()) {
        paintFlows(p, size, scroll, timeWidth);
        // The critical path shown, over the boxes (the timeline's span ids
        // are interval ids).
        CriticalPathPainter(*m_built.profile, *m_document->criticalPath(), *m_axis, TimeAxis::kGutter, timeWidth)
            .paintIcicle(p, QRectF(TimeAxis::kGutter, 0, timeWidth, size.height()),
                         [&](IntervalId id) { return boxOf(id, scroll, timeWidth); });
    }
    paintRangeSelection(p, timeWidth, 0, size.height(), true);
    p.setPen(ColorScheme::grid());
    p.drawLine(TimeAxis::kGutter - 1, 0, TimeAxis::kGutter - 1, size.height());
}

QString IcicleView::elidedTrackName(const QString& name, const QFontMetrics& metrics, int width)
{
    if (metrics.horizontalAdvance(name) <= width)
        return name;
    const qsizetype split = name.lastIndexOf(qs(Profile::kTrackNameSeparator));
    if (split > 0) {
        const QString thread = name.mid(split);
        // The process keeps at least a character and the ellipsis.
        const QString process
            = metrics.elidedText(name.left(split), Qt::ElideRight, width - metrics.horizontalAdvance(thread));
        if (process.size() >= 2)
            return process + thread;
    }
    return metrics.elidedText(name, Qt::ElideMiddle, width);
}

void IcicleView::paintHeader(QPainter& p, const Row& row, int y, int width) const
{
    paintTrackName(p, row.track, y, row.height, width);
    // The track's marks over its header band (the timeline's tracks are the profile's).
    m_marks.paint(p, row.track, *m_axis, QRect(TimeAxis::kGutter, y, width - TimeAxis::kGutter, row.height - 1), palette());
    // The depth after the marks, on the band's colour: a track with a mark
    // every few pixels (an instant per frame) drew its diamonds over the
    // text and left it unreadable.
    const int depth = m_source->depthCount(row.track);
    const QString info = depth == 0 ? tr("no intervals") : tr("depth %1").arg(depth);
    const QRect text = QRect(TimeAxis::kGutter + 2, y, p.fontMetrics().horizontalAdvance(info) + 8, row.height - 1)
                           .intersected(QRect(TimeAxis::kGutter, y, width - TimeAxis::kGutter, row.height - 1));
    p.fillRect(text, ColorScheme::header());
    p.setPen(ColorScheme::mutedText());
    p.drawText(text, Qt::AlignCenter, info);
}

void IcicleView::paintTrackName(QPainter& p, TrackId track, int y, int height, int width) const
{
    p.fillRect(QRect(0, y, width, height), ColorScheme::header());
    p.setPen(ColorScheme::grid());
    p.drawLine(0, y + height - 1, width, y + height - 1);
    p.setPen(ColorScheme::text());
    const QString chevron = isTrackCollapsed(track) ? QStringLiteral("▸ ") : QStringLiteral("▾ ");
    QFont bold = p.font();
    bold.setBold(true);
    p.setFont(bold);
    const QString name = qs(m_source->trackName(track));
    // The name stays in the names gutter, like every view's names: a long
    // one is elided at the divider (the tooltip has it whole), so the
    // plot's left edge is the same line in every row.
    const int room = std::min(width, TimeAxis::kGutter) - 12;
    const QFontMetrics metrics = p.fontMetrics();
    p.drawText(QRect(6, y, room, height), Qt::AlignVCenter | Qt::AlignLeft,
               chevron + elidedTrackName(name, metrics, room - metrics.horizontalAdvance(chevron)));
    p.setFont(font());
}

void IcicleView::paintRow(QPainter& p, const Row& row, int y, int timeWidth) const
{
    const double w = timeWidth;
    const Time from = m_axis->visibleStart();
    const Time to = m_axis->visibleEnd();
    const auto [first, last] = m_source->overlapping(row.track, row.depth, from, to);
    if (first == last)
        return;
    const auto slice = m_source->depthSlice(row.track, row.depth);
    const std::uint32_t base = m_source->idOf(slice.front());
    const bool nests = m_source->nestsByTime(row.track);
    const double h = row.height - 1;
    std::uint32_t i = first;
    while (i < last) {
        const Interval& span = slice[i - base];
        if (const std::uint32_t hider = hiddenBy(i); hider != kNone) {
            // Skip the collapsed node's whole subtree at this depth at once.
            const Time end = m_source->span(hider).end;
            std::uint32_t j = i + 1;
            if (nests)
                j = base + std::uint32_t(std::partition_point(slice.begin() + (i - base), slice.begin() + (last - base),
                                                              [end](const Interval& c) { return c.start < end; })
                                         - slice.begin());
            i = std::max(j, i + 1);
            continue;
        }
        const double x0 = m_axis->xFor(span.start, w);
        const double x1 = m_axis->xFor(span.end, w);
        if (x1 - x0 < kMinimumNode) {
            // A run narrower than a pixel: jump to the first span that
            // starts in a later pixel column and draw the run as one block.
            const double column = std::floor(std::max(x0, 0.0));
            const Time boundary = m_axis->timeAt(column + 1, w);
            // Searched over the row's whole visible run, not from i: the
            // columns' searches then share their first steps, which stay
            // in the cache, where searches from i each probe other lines
            // (a row of millions of intervals: a cache miss a step).
            const auto next = std::partition_point(slice.begin() + (first - base), slice.begin() + (last - base),
                                                   [boundary](const Interval& c) { return c.start < boundary; });
            std::uint32_t j = std::max(i + 1, base + std::uint32_t(next - slice.begin()));
            // Only the run's last span can reach past this column; if it is
            // wide it is drawn as itself, not swallowed by the block.
            const Interval& lastInRun = slice[j - 1 - base];
            if (j - 1 > i && m_axis->xFor(lastInRun.end, w) - m_axis->xFor(lastInRun.start, w) >= kMinimumNode)
                --j;
            const double blockEnd = std::min(w, std::max(column + 1, m_axis->xFor(slice[j - 1 - base].end, w)));
            // One span is its own colour; a run takes that of the span under
            // the column's centre, greyed, to show it is merged.
            QColor color;
            if (j - i == 1) {
                color = QColor::fromRgb(fillOf(span));
            } else {
                const Time centre = m_axis->timeAt(column + 0.5, w);
                // Where ends rise (a row nested by time), over the visible
                // run as above: the search for `next` has just read its path.
                const auto under = nests
                    ? std::clamp(std::partition_point(slice.begin() + (first - base), slice.begin() + (last - base),
                                                      [centre](const Interval& c) { return c.end <= centre; }),
                                 slice.begin() + (i - base), slice.begin() + (j - base))
                    : std::partition_point(slice.begin() + (i - base), slice.begin() + (j - base),
                                           [centre](const Interval& c) { return c.end <= centre; });
                const Interval& pick = under == slice.begin() + (j - base) ? span : *under;
                const QColor tint = QColor::fromRgb(fillOf(pick));
                const QColor grey = ColorScheme::merged();
                color = QColor((tint.red() + grey.red()) / 2, (tint.green() + grey.green()) / 2, (tint.blue() + grey.blue()) / 2);
            }
            p.fillRect(QRectF(TimeAxis::kGutter + column, y, blockEnd - column, h), color);
            i = j;
            continue;
        }
        const double left = std::max(-2.0, x0);
        const double right = std::min(w + 2, x1);
        paintNode(p, i, span, QRectF(TimeAxis::kGutter + left, y, right - left, h));
        ++i;
    }
    if (m_document->isEmphasisActive() && !m_document->isAggregated())
        paintMarks(p, first, last, y, timeWidth, row.height - 1);
}

void IcicleView::paintMarks(QPainter& p, std::uint32_t first, std::uint32_t last, int y, int timeWidth, int height) const
{
    // Emphasised intervals narrower than a pixel vanish in the merged
    // blocks: mark each pixel column holding one in its label's colour.
    // Per label a binary search per marked column: O(pixels × log n).
    // The document's labels are of the profile the rows were built from:
    // a switch drops the rows before the labels change.
    const LabelIndex* index = m_built.labels.get();
    const std::vector<LabelId> labels = m_document->steppedLabels();
    if (!index || labels.size() > kMaxMarkedLabels)
        return;
    const Profile& profile = *m_built.profile;
    const double w = timeWidth;
    for (const LabelId label : labels) {
        const auto ids = index->inRow(label, first, last);
        const QColor color = QColor::fromRgb(m_document->colorOf(label, 0));
        std::size_t k = 0;
        while (k < ids.size()) {
            const Interval& iv = profile.interval(ids[k]);
            const double x0 = m_axis->xFor(iv.start, w);
            if (m_axis->xFor(iv.end, w) - x0 >= kMinimumNode || hiddenBy(ids[k]) != kNone) {
                ++k; // drawn as a box already, or collapsed away
                continue;
            }
            const double column = std::floor(std::max(x0, 0.0));
            p.fillRect(QRectF(TimeAxis::kGutter + column, y, 1, height), color);
            const Time boundary = m_axis->timeAt(column + 1, w);
            // At least one step: on an axis of a few ns a column is less
            // than 1 ns wide, and its boundary may round to this very start.
            k = std::max(k + 1, std::size_t(std::partition_point(ids.begin() + std::ptrdiff_t(k), ids.end(),
                                                                 [&](IntervalId id) { return profile.interval(id).start < boundary; })
                                            - ids.begin()));
        }
    }
}

void IcicleView::paintNode(QPainter& p, std::uint32_t id, const Interval& span, const QRectF& rect) const
{
    const LabelId label = m_source->labelOf(span);
    const QColor fill = QColor::fromRgb(fillOf(span));
    p.fillRect(rect, fill);
    if (rect.width() >= 3) {
        p.setPen(fill.darker(125));
        // On the box's last column, not the one after it.
        p.drawLine(QPointF(rect.right() - 1, rect.top()), QPointF(rect.right() - 1, rect.bottom()));
    }
    if (m_document->isEmphasisActive() && m_document->isHighlighted(label) && rect.width() >= 4) {
        p.setPen(fill.darker(160));
        p.drawRect(rect.adjusted(0, 0, -1, -1));
    }
    const bool selected = id == selectedSpan();
    const MeasurementId measurement = m_source->measurementOf(span);
    const bool sameTask = !selected && measurement != kNone && measurement == m_axis->selectedMeasurement();
    if (selected || sameTask) {
        p.setPen(QPen(ColorScheme::selection(), selected ? 2 : 1, selected ? Qt::SolidLine : Qt::DashLine));
        p.drawRect(rect.adjusted(1, 1, -1, -1));
    }
    if (rect.width() < kTextMinimum)
        return;
    const bool collapsed = isCollapsed(id);
    QRectF text = rect.adjusted(4, 0, -3, 0);
    p.setPen(ColorScheme::textOn(fill));
    if (collapsed || rect.width() >= 60) {
        if (collapsed || m_source->hasChildren(id)) {
            p.drawText(QRectF(text.left(), text.top(), kChevronWidth, text.height()), Qt::AlignVCenter | Qt::AlignLeft,
                       collapsed ? QStringLiteral("▸") : QStringLiteral("▾"));
            text.setLeft(text.left() + kChevronWidth);
        }
    }
    QString name = qs(m_built.profile->labelName(label));
    if (collapsed)
        name += QStringLiteral("  +%1").arg(m_source->descendantCount(id));
    const QFontMetrics metrics = p.fontMetrics();
    if (metrics.horizontalAdvance(name) > text.width())
        name = metrics.elidedText(name, Qt::ElideRight, int(text.width()));
    if (!name.isEmpty())
        p.drawText(text, Qt::AlignVCenter | Qt::AlignLeft, name);
}

void IcicleView::clicked(QPoint pos)
{
    if (pinnedNameRect().contains(pos)) {
        // As a click on its header: folded, the header then at the top.
        const TrackId pinned = pinnedTrack();
        const int headerY = rowOf(pinned, -1)->y;
        setTrackCollapsed(pinned, true);
        m_scroll->setValue(headerY);
        return;
    }
    if (const Row* row = rowAt(pos.y() + scrollY()); row && row->depth < 0) {
        // A mark on the header band is selected; elsewhere the band folds its track.
        const int timeWidth = m_input.navigator().areaWidth();
        const std::uint32_t mark =
            pos.x() < TimeAxis::kGutter ? kNone : m_marks.markAt(row->track, *m_axis, timeWidth, pos.x() - TimeAxis::kGutter);
        if (mark != kNone)
            m_axis->selectMark(mark);
        else
            setTrackCollapsed(row->track, !isTrackCollapsed(row->track));
        return;
    }
    const std::uint32_t id = spanAt(pos);
    if (id != kNone && chevronHit(id, pos)) {
        setCollapsed(id, !isCollapsed(id));
        return;
    }
    selectSpan(id);
}

void IcicleView::mouseDoubleClickEvent(QMouseEvent* event)
{
    const std::uint32_t id = spanAt(event->position().toPoint());
    if (id != kNone) {
        selectSpan(id);
        zoomToSpan(id);
    }
}

void IcicleView::keyPressEvent(QKeyEvent* event)
{
    const std::uint32_t selected = selectedSpan();
    switch (event->key()) {
    case Qt::Key_C:
        if (selected != kNone)
            setCollapsed(selected, true);
        return;
    case Qt::Key_E:
        if (selected != kNone)
            setCollapsed(selected, false);
        return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        zoomToSpan(selected);
        return;
    case Qt::Key_Escape:
        if (!m_axis->selection() && selected != kNone) {
            selectSpan(kNone);
            return;
        }
        break;
    default:
        break;
    }
    TimelineView::keyPressEvent(event);
}

void IcicleView::contextMenuEvent(QContextMenuEvent* event)
{
    const std::uint32_t id = spanAt(event->pos());
    QMenu menu(this);
    if (id != kNone) {
        selectSpan(id);
        const QString name = qs(m_built.profile->labelName(m_source->labelOf(m_source->span(id))));
        if (const MeasurementId m = m_source->measurementOf(m_source->span(id)); m != kNone && !m_document->isAggregated()) {
            QAction* path = menu.addAction(tr("Critical path of %1").arg(name), this,
                                           [this, m] { m_document->criticalPath()->show(m); });
            path->setShortcut(QKeySequence(Qt::Key_P));
            path->setShortcutVisibleInContextMenu(true);
        }
        menu.addAction(tr("Zoom to %1").arg(name), this, [this, id] { zoomToSpan(id); });
        if (isCollapsed(id))
            menu.addAction(tr("Expand"), this, [this, id] { setCollapsed(id, false); });
        else if (m_source->hasChildren(id))
            menu.addAction(tr("Collapse (%1 below)").arg(m_source->descendantCount(id)), this, [this, id] { setCollapsed(id, true); });
        menu.addSeparator();
    }
    menu.addAction(tr("Expand all"), this, &IcicleView::expandAll);
    menu.addAction(tr("Collapse to depth…"), this, [this] {
        bool ok = false;
        const int depth = QInputDialog::getInt(this, tr("Collapse to depth"), tr("Show depths up to:"), 3, 0, 1000, 1, &ok);
        if (ok)
            collapseToDepth(depth);
    });
    menu.exec(event->globalPos());
}

QString IcicleView::toolTipAt(QPoint pos) const
{
    const std::uint32_t id = spanAt(pos);
    const Row* row = m_source ? rowAt(pos.y() + scrollY()) : nullptr;
    if (id != kNone)
        return QString::fromStdString(m_source->describe(id));
    if (row && row->depth < 0 && pos.x() < TimeAxis::kGutter) // a track's whole name
        return qs(m_source->trackName(row->track));
    if (pinnedNameRect().contains(pos))
        return qs(m_source->trackName(pinnedTrack()));
    if (row && row->depth < 0)
        return m_marks.describe(row->track, *m_axis, m_input.navigator().areaWidth(), pos.x() - TimeAxis::kGutter);
    return {};
}

} // namespace runlane
