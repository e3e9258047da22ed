#include "counterview.h"

#include "colorscheme.h"
#include "profile.h"
#include "profiledocument.h"
#include "qstringutf8.h"
#include "timeaxis.h"
#include "valueformat.h"

#include <QContextMenuEvent>
#include <QHash>
#include <QMenu>
#include <QPainter>
#include <QScrollBar>

#include <algorithm>
#include <cmath>

namespace runlane {

namespace {

constexpr int kPlotMargin = 4; // px above the plot's top value and below its bottom

// The series' colours, readable on the palette's base whether it is light
// or dark: the name's colour (pastel) for the fill, the line darker on a
// light base and as is on a dark one.
std::pair<QColor, QColor> seriesColors(const QString& name, QColor base)
{
    const QByteArray utf8 = name.toUtf8();
    const QColor color = ColorScheme::forText(std::string_view(utf8.constData(), std::size_t(utf8.size())));
    const bool dark = base.lightness() < 128;
    QColor fill = color;
    fill.setAlpha(dark ? 110 : 150);
    return {fill, dark ? color : color.darker(170)};
}

} // namespace

CounterView::CounterView(ProfileDocument* document, QWidget* parent)
    : TimelineView(document, parent)
{
    setMinimumHeight(kHeaderHeight + 2);
    setScrollStep(kHeaderHeight);
    connect(m_axis, &TimeAxis::visibleRangeChanged, this, qOverload<>(&QWidget::update));
    connect(m_document, &ProfileDocument::profileAboutToChange, this, &CounterView::dropProfile);
    connect(m_document, &ProfileDocument::profileChanged, this, &CounterView::rebuild);
    // The counters live on the time axis; the aggregated view has none.
    connect(m_document, &ProfileDocument::viewModeChanged, this, [this] {
        updateVisibility();
        update();
    });
    rebuild();
}

bool CounterView::hasContent() const
{
    return !m_tracks.empty() && !m_document->isAggregated();
}

const Profile* CounterView::shownProfile() const
{
    return m_document->isCurrent(m_profile) ? m_profile.get() : nullptr;
}

const CounterSeries& CounterView::series(const Track& track) const
{
    // Tracks exist only while m_profile is the open profile.
    return m_profile->counters()[track.series];
}

void CounterView::dropProfile()
{
    m_tracks.clear();
    m_profile.reset();
    layoutTracks();
    updateVisibility();
    update();
}

void CounterView::rebuild()
{
    m_tracks.clear();
    m_profile = m_document->sharedProfile();
    if (const Profile* p = m_profile.get()) {
        const std::vector<CounterSeries>& counters = p->counters();
        for (std::size_t i = 0; i < counters.size(); ++i) {
            const CounterSeries& c = counters[i];
            // ProfileBuilder sorts every series by time and painting's binary
            // searches rely on it: a series that is not is never searched.
            if (c.times.empty() || c.times.size() != c.values.size() || !std::is_sorted(c.times.begin(), c.times.end()))
                continue;
            Track track{i, qs(p->string(c.name)) + QLatin1Char(' ') + qs(p->string(c.key)), 0, 0, RangeExtrema(c.values)};
            auto [lo, hi] = track.extrema.extrema(0, c.values.size());
            if (lo > hi) // no finite value at all
                lo = hi = 0;
            track.bottom = std::min(0.0, lo);
            track.top = std::max(0.0, hi);
            if (track.top <= track.bottom)
                track.top = track.bottom + 1;
            m_tracks.push_back(std::move(track));
        }
        // Series of one name and key in several processes: the process
        // tells their tracks apart.
        QHash<QString, int> uses;
        for (const Track& t : m_tracks)
            ++uses[t.name];
        for (Track& t : m_tracks) {
            if (uses.value(t.name) > 1)
                t.name += tr(" (process %1)").arg(counters[t.series].pid);
        }
        for (std::size_t t = kExpandedTracks; m_tracks.size() > kCompactAbove && t < m_tracks.size(); ++t)
            m_tracks[t].collapsed = true;
    }
    layoutTracks();
    m_scroll->setValue(0);
    updateVisibility();
    update();
}

void CounterView::layoutTracks()
{
    int y = 0;
    for (Track& track : m_tracks) {
        track.y = y;
        y += track.collapsed ? kHeaderHeight : kTrackHeight;
    }
    updateScrollBar();
    Q_EMIT contentHeightChanged();
}

void CounterView::updateVisibility()
{
    // A window (a test's, an export's) is shown by whoever made it.
    if (!isWindow())
        setVisible(hasContent());
}

int CounterView::contentHeight() const
{
    return m_tracks.empty() ? 0 : trackTop(m_tracks.size() - 1) + trackHeight(m_tracks.size() - 1);
}

QString CounterView::trackName(std::size_t track) const
{
    return track < m_tracks.size() ? m_tracks[track].name : QString();
}

bool CounterView::isTrackCollapsed(std::size_t track) const
{
    return track < m_tracks.size() && m_tracks[track].collapsed;
}

void CounterView::setTrackCollapsed(std::size_t track, bool collapsed)
{
    if (track >= m_tracks.size() || m_tracks[track].collapsed == collapsed)
        return;
    m_tracks[track].collapsed = collapsed;
    layoutTracks();
    update();
}

int CounterView::trackTop(std::size_t track) const
{
    return track < m_tracks.size() ? m_tracks[track].y : 0;
}

int CounterView::trackHeight(std::size_t track) const
{
    return track >= m_tracks.size() ? 0 : m_tracks[track].collapsed ? kHeaderHeight : kTrackHeight;
}

std::pair<double, double> CounterView::trackScale(std::size_t track) const
{
    return track < m_tracks.size() ? std::pair(m_tracks[track].bottom, m_tracks[track].top) : std::pair(0.0, 0.0);
}

std::optional<double> CounterView::valueAt(std::size_t track, Time time) const
{
    if (track >= m_tracks.size() || !shownProfile())
        return std::nullopt;
    const CounterSeries& c = series(m_tracks[track]);
    const auto after = std::upper_bound(c.times.begin(), c.times.end(), time);
    if (after == c.times.begin())
        return std::nullopt;
    return c.values[std::size_t(after - c.times.begin()) - 1];
}

int CounterView::trackAt(QPoint pos) const
{
    const Track* track = pos.y() < 0 ? nullptr : rowAt(m_tracks, pos.y() + scrollY(), &Track::yEnd);
    return track ? int(track - m_tracks.data()) : -1;
}

QString CounterView::describeAt(QPoint pos) const
{
    const int track = trackAt(pos);
    const Profile* p = shownProfile();
    if (track < 0 || !p || pos.x() < 0 || pos.x() >= TimeAxis::kGutter + m_input.navigator().areaWidth())
        return {};
    const Track& t = m_tracks[std::size_t(track)];
    const CounterSeries& c = series(t);
    if (pos.x() < TimeAxis::kGutter) {
        const auto [lo, hi] = t.extrema.extrema(0, c.values.size());
        QString text = tr("%1 (process %2)\n%3 samples").arg(t.name).arg(c.pid).arg(c.times.size());
        if (lo <= hi)
            text += tr(", from %1 to %2").arg(valueText(lo), valueText(hi));
        return text;
    }
    const Time time = m_input.navigator().timeAtX(pos.x());
    const QString at = QString::fromStdString(ValueFormat::point(time - p->startTime(), p->unit()));
    const std::optional<double> value = valueAt(std::size_t(track), time);
    return value ? tr("%1 = %2\nat %3").arg(t.name, valueText(*value), at)
                 : tr("%1: no sample yet at %2").arg(t.name, at);
}

QString CounterView::valueText(double value)
{
    // Whole numbers (counts, bytes) in full; others to six significant digits.
    if (std::isfinite(value) && value == std::round(value) && std::abs(value) < 1e15)
        return QString::number(qint64(value));
    return QString::number(value, 'g', 6);
}

void CounterView::paintMargin(QPainter& p, const QRect& margin) const
{
    p.fillRect(margin, palette().color(QPalette::Window));
}

void CounterView::paintContent(QPainter& p, QSize size, int scroll) const
{
    m_paintedPoints = 0;
    m_mergedColumns = 0;
    const QPalette& colors = palette();
    p.fillRect(QRect(QPoint(0, 0), size), colors.color(QPalette::Base));
    p.fillRect(QRect(0, 0, TimeAxis::kGutter, size.height()), colors.color(QPalette::Window));
    const int timeWidth = std::max(1, size.width() - TimeAxis::kGutter);
    if (!hasContent())
        return;
    QFont bold = font();
    bold.setBold(true);
    for (auto it = firstRowFrom(m_tracks, scroll, &Track::yEnd); it != m_tracks.end() && it->y < scroll + size.height();
         ++it) {
        const int y = it->y - scroll;
        const int height = it->collapsed ? kHeaderHeight : kTrackHeight;
        // The gutter: the header line (triangle and name), then the scale.
        const int room = TimeAxis::kGutter - 12;
        p.setFont(bold);
        p.setPen(colors.color(QPalette::WindowText));
        const QString text = (it->collapsed ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) + it->name;
        p.drawText(QRect(6, y, room, kHeaderHeight), Qt::AlignVCenter | Qt::AlignLeft,
                   p.fontMetrics().elidedText(text, Qt::ElideRight, room));
        p.setFont(font());
        if (!it->collapsed) {
            const auto [lo, hi] = it->extrema.extrema(0, series(*it).values.size());
            p.setPen(colors.color(QPalette::PlaceholderText));
            QString scale = tr("max %1").arg(valueText(lo <= hi ? hi : 0));
            if (lo < 0)
                scale += tr(", min %1").arg(valueText(lo));
            p.drawText(QRect(18, y + kHeaderHeight, room - 12, kHeaderHeight), Qt::AlignVCenter | Qt::AlignLeft,
                       p.fontMetrics().elidedText(scale, Qt::ElideRight, room - 12));
            paintTrack(p, *it, y, timeWidth);
        }
        p.setPen(colors.color(QPalette::Midlight));
        p.drawLine(0, y + height - 1, size.width(), y + height - 1);
    }
    paintRangeSelection(p, timeWidth, 0, size.height(), true);
    p.setPen(colors.color(QPalette::Mid));
    p.drawLine(TimeAxis::kGutter - 1, 0, TimeAxis::kGutter - 1, size.height());
}

void CounterView::paintTrack(QPainter& p, const Track& track, int y, int timeWidth) const
{
    const std::vector<Time>& times = series(track).times;
    // The visible slice: from the sample in force at the left edge (the
    // last at or before it; the first if none is) to the last before the
    // right edge.
    const Time from = m_axis->visibleStart();
    const Time to = m_axis->visibleEnd();
    std::size_t first = std::size_t(std::upper_bound(times.begin(), times.end(), from) - times.begin());
    if (first > 0)
        --first;
    const std::size_t last = std::size_t(std::lower_bound(times.begin() + std::ptrdiff_t(first), times.end(), to) - times.begin());
    if (first >= last)
        return;
    m_paintedPoints += last - first;
    p.save();
    p.setClipRect(QRect(TimeAxis::kGutter, y, timeWidth, kTrackHeight - 1));
    if (last - first <= std::size_t(timeWidth))
        paintSteps(p, track, first, last, y, timeWidth);
    else
        paintColumns(p, track, first, last, y, timeWidth);
    p.restore();
}

namespace {

// The vertical mapping of a track's plot.
struct Plot {
    double bottomValue;
    double topValue;
    double bottomY;
    double topY;

    double yFor(double value) const
    {
        if (!std::isfinite(value))
            value = value > 0 ? topValue : bottomValue; // NaN reads as the bottom
        const double f = (std::clamp(value, bottomValue, topValue) - bottomValue) / (topValue - bottomValue);
        return bottomY - f * (bottomY - topY);
    }
};

} // namespace

void CounterView::paintSteps(QPainter& p, const Track& track, std::size_t first, std::size_t last, int y, int timeWidth) const
{
    // Few samples: the exact step line, each value held until the next
    // sample, the last until the next sample past the view or, if there is
    // none, the profile's end.
    const CounterSeries& c = series(track);
    const double w = timeWidth;
    const double left = TimeAxis::kGutter;
    const Plot plot{track.bottom, track.top, double(y + kTrackHeight - kPlotMargin), double(y + kPlotMargin)};
    auto x = [&](Time t) { return left + std::clamp(m_axis->xFor(t, w), -2.0, w + 2); };
    QPolygonF line;
    line.reserve(qsizetype(2 * (last - first) + 1));
    for (std::size_t i = first; i < last; ++i) {
        const double xi = x(c.times[i]);
        if (i != first)
            line << QPointF(xi, line.back().y());
        line << QPointF(xi, plot.yFor(c.values[i]));
    }
    const double end = last < c.times.size() ? left + w + 2 : x(m_profile->endTime());
    line << QPointF(end, line.back().y());
    const double zero = plot.yFor(0);
    QPolygonF area = line;
    area << QPointF(end, zero) << QPointF(line.front().x(), zero);
    const auto [fill, stroke] = seriesColors(track.name, palette().color(QPalette::Base));
    p.setPen(Qt::NoPen);
    p.setBrush(fill);
    p.drawPolygon(area);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(stroke, 1));
    p.drawPolyline(line);
}

void CounterView::paintColumns(QPainter& p, const Track& track, std::size_t first, std::size_t last, int y, int timeWidth) const
{
    // More samples than pixel columns: per column one bar over the least
    // and greatest value the counter takes in it (the value carried in from
    // the column before included), found with a binary search and a
    // RangeExtrema query per column.
    const CounterSeries& c = series(track);
    const double w = timeWidth;
    const double left = TimeAxis::kGutter;
    const Plot plot{track.bottom, track.top, double(y + kTrackHeight - kPlotMargin), double(y + kPlotMargin)};
    const double zero = plot.yFor(0);
    const auto [fill, stroke] = seriesColors(track.name, palette().color(QPalette::Base));
    const Time to = m_axis->visibleEnd();
    // Past the last sample the value holds until the profile's end.
    const double end = last < c.times.size() ? w : m_axis->xFor(m_profile->endTime(), w);
    std::size_t next = first;
    bool carried = false;
    double carry = 0;
    if (c.times[first] <= m_axis->visibleStart()) {
        carry = c.values[first];
        carried = std::isfinite(carry);
        next = first + 1;
    }
    for (int column = 0; column < timeWidth && column < end; ++column) {
        const Time columnEnd = column + 1 >= timeWidth ? to : m_axis->timeAt(column + 1, w);
        // Over the visible samples, not from `next`: the columns' searches
        // then share their first steps in the cache (as IcicleView::paintRow).
        const std::size_t j = std::max(next, std::size_t(std::lower_bound(c.times.begin() + std::ptrdiff_t(first),
                                                                          c.times.begin() + std::ptrdiff_t(last), columnEnd)
                                                         - c.times.begin()));
        auto [lo, hi] = j > next ? track.extrema.extrema(next, j) : track.extrema.extrema(0, 0);
        if (carried) {
            lo = std::min(lo, carry);
            hi = std::max(hi, carry);
        }
        if (j > next) {
            carry = c.values[j - 1];
            carried = std::isfinite(carry);
        }
        next = j;
        if (lo > hi)
            continue; // before the first sample
        ++m_mergedColumns;
        const double top = plot.yFor(hi);
        const double bottom = plot.yFor(lo);
        p.fillRect(QRectF(left + column, std::min(top, zero), 1, std::abs(std::max(bottom, zero) - std::min(top, zero))), fill);
        p.fillRect(QRectF(left + column, top, 1, std::max(1.0, bottom - top)), stroke);
    }
}

void CounterView::clicked(QPoint pos)
{
    // A click on a track's header line in the gutter collapses or expands it.
    const int track = trackAt(pos);
    if (track >= 0 && pos.x() < TimeAxis::kGutter && pos.y() + scrollY() < m_tracks[std::size_t(track)].y + kHeaderHeight)
        setTrackCollapsed(std::size_t(track), !isTrackCollapsed(std::size_t(track)));
}

void CounterView::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    auto collapseAll = [this](bool collapsed) {
        for (Track& track : m_tracks)
            track.collapsed = collapsed;
        layoutTracks();
        update();
    };
    menu.addAction(tr("Collapse all counters"), this, [collapseAll] { collapseAll(true); });
    menu.addAction(tr("Expand all counters"), this, [collapseAll] { collapseAll(false); });
    menu.exec(event->globalPos());
}

QString CounterView::toolTipAt(QPoint pos) const
{
    return describeAt(pos);
}

} // namespace runlane
