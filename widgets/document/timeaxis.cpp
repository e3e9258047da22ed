#include "timeaxis.h"

#include "colorscheme.h"

#include <QDateTime>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

namespace runlane {

namespace {
constexpr std::size_t kMaxHistory = 100;
constexpr qint64 kCoalesceMs = 600;
} // namespace

TimeAxis::TimeAxis(QObject* parent) : QObject(parent) { }

void TimeAxis::paintBackdrop(QPainter& painter, QSize size)
{
    painter.fillRect(QRect(QPoint(0, 0), size), ColorScheme::background());
    painter.fillRect(QRect(0, 0, kGutter, size.height()), ColorScheme::gutter());
}

void TimeAxis::setBounds(Time start, Time end)
{
    m_boundsStart = start;
    // Every width on the axis is end - start: wider than 2^63 - 1 cannot be
    // held, so such bounds end there (tst_monkey met one under UBSan).
    Time width = 0;
    if (__builtin_sub_overflow(end, start, &width))
        end = addClamped(start, kTimeMax);
    m_boundsEnd = std::max(end, addClamped(start, 1));
    m_from = m_boundsStart;
    m_to = m_boundsEnd;
    m_back.clear();
    m_forward.clear();
    m_selection.reset();
    m_selectedInterval = kNone;
    m_selectedMeasurement = kNone;
    m_selectedMark = kNone;
    Q_EMIT boundsChanged();
    Q_EMIT visibleRangeChanged();
    Q_EMIT selectionChanged();
    Q_EMIT selectedItemChanged();
    Q_EMIT historyChanged();
}

void TimeAxis::extendBounds(Time start, Time end)
{
    Time width = 0;
    if (__builtin_sub_overflow(end, start, &width))
        end = addClamped(start, kTimeMax);
    m_boundsStart = start;
    m_boundsEnd = std::max(end, addClamped(start, 1));
    const auto [from, to] = heldInBounds(m_from, m_to);
    const bool moved = from != m_from || to != m_to;
    m_from = from;
    m_to = to;
    Q_EMIT boundsChanged();
    if (moved)
        Q_EMIT visibleRangeChanged();
}

std::pair<Time, Time> TimeAxis::heldInBounds(Time from, Time to) const
{
    from = std::clamp(from, m_boundsStart, m_boundsEnd);
    to = std::clamp(to, from, m_boundsEnd);
    if (to <= from) {
        // The shortest span from `from`, or, at the bounds' end, up to it.
        to = std::min(m_boundsEnd, addClamped(from, kMinimumSpan));
        from = std::max(m_boundsStart, std::min(from, addClamped(to, -kMinimumSpan)));
    }
    return {from, to};
}

void TimeAxis::record()
{
    m_back.emplace_back(m_from, m_to);
    if (m_back.size() > kMaxHistory)
        m_back.erase(m_back.begin());
    m_forward.clear();
}

void TimeAxis::setVisibleRange(Time from, Time to, History history)
{
    if (to < from)
        std::swap(from, to);
    const Time bounds = m_boundsEnd - m_boundsStart;
    // A requested width past 2^63 (a zoom far out on a profile with
    // negative times; found by tst_monkey under UBSan) is wider than any
    // bounds: it means the whole profile, as any width past the bounds.
    Time width = 0;
    if (__builtin_sub_overflow(to, from, &width)) {
        from = m_boundsStart;
        width = bounds;
    }
    Time span = std::clamp<Time>(width, std::min(kMinimumSpan, bounds), bounds);
    // Keep the range's middle when a clamp changes its width.
    if (width != span) {
        const Time middle = from + width / 2;
        from = addClamped(middle, -(span / 2));
    }
    from = std::clamp(from, m_boundsStart, m_boundsEnd - span);
    to = from + span;
    if (from == m_from && to == m_to)
        return;
    if (history == History::Record) {
        record();
    } else if (history == History::Coalesce) {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        if (now - m_lastCoalesced > kCoalesceMs)
            record();
        m_lastCoalesced = now;
    }
    m_from = from;
    m_to = to;
    Q_EMIT visibleRangeChanged();
    if (history != History::Skip)
        Q_EMIT historyChanged();
}

void TimeAxis::zoomAt(Time anchor, double factor, History history)
{
    anchor = std::clamp(anchor, m_from, m_to);
    const double left = double(anchor - m_from) * factor;
    const double right = double(m_to - anchor) * factor;
    // In long double, held at the ends of Time: zooming far out of a
    // profile near 2^63 must not overflow (setVisibleRange clamps it).
    auto saturated = [](long double t) {
        return t <= static_cast<long double>(kTimeMin) ? kTimeMin
            : t >= static_cast<long double>(kTimeMax)  ? kTimeMax
                                                        : static_cast<Time>(t);
    };
    const Time from = saturated(static_cast<long double>(anchor) - std::roundl(static_cast<long double>(left)));
    const Time to = saturated(static_cast<long double>(anchor) + std::roundl(static_cast<long double>(right)));
    // Do not let rounding eat the zoom at the deepest level.
    if (factor < 1 && static_cast<long double>(to) - static_cast<long double>(from) >= static_cast<long double>(m_to - m_from)
        && m_to - m_from > kMinimumSpan)
        setVisibleRange(from + 1, to - 1, history);
    else
        setVisibleRange(from, to, history);
}

void TimeAxis::panBy(Time delta)
{
    panTo(m_from, static_cast<long double>(delta), History::Skip);
}

void TimeAxis::panTo(Time from, long double shift, History history)
{
    const Time span = m_to - m_from;
    // long double holds every int64 exactly (x86-64: 64-bit mantissa).
    const long double target = std::clamp(static_cast<long double>(from) + shift, static_cast<long double>(m_boundsStart),
                                          static_cast<long double>(m_boundsEnd - span));
    const Time start = std::clamp(static_cast<Time>(target), m_boundsStart, m_boundsEnd - span);
    setVisibleRange(start, start + span, history);
}

void TimeAxis::zoomToAll()
{
    setVisibleRange(m_boundsStart, m_boundsEnd);
}

void TimeAxis::goBack()
{
    step(m_back, m_forward);
}

void TimeAxis::goForward()
{
    step(m_forward, m_back);
}

void TimeAxis::restoreHistory(Steps steps)
{
    m_back = std::move(steps.back);
    m_forward = std::move(steps.forward);
    Q_EMIT historyChanged();
}

void TimeAxis::step(std::vector<std::pair<Time, Time>>& from, std::vector<std::pair<Time, Time>>& to)
{
    // Moves one range from one history stack to the other, the current
    // range going the other way; held inside the bounds, as a step
    // restored from other ones (restoreHistory) may lie past them.
    if (from.empty())
        return;
    to.emplace_back(m_from, m_to);
    std::tie(m_from, m_to) = heldInBounds(from.back().first, from.back().second);
    from.pop_back();
    Q_EMIT visibleRangeChanged();
    Q_EMIT historyChanged();
}

double TimeAxis::xFor(Time t, double width) const
{
    // Subtract in integers first: absolute times (epoch ns) do not fit a
    // double to the nanosecond, differences within the view do.
    return double(t - m_from) * width / double(m_to - m_from);
}

Time TimeAxis::timeAt(double x, double width) const
{
    // Held within ±2^63 ns: a point a few pixels past a view that ends near
    // the largest time (a profile of centuries) must not wrap around.
    // (llround is undefined there, so such offsets never reach it.)
    const double offset = x * double(m_to - m_from) / std::max(1.0, width);
    if (offset >= 0x1p63)
        return addClamped(m_from, kTimeMax);
    if (offset <= -0x1p63)
        return addClamped(m_from, kTimeMin);
    return addClamped(m_from, Time(std::llround(offset)));
}

void TimeAxis::setSelection(Time from, Time to)
{
    if (to < from)
        std::swap(from, to);
    from = std::max(from, m_boundsStart);
    to = std::min(to, m_boundsEnd);
    if (to <= from) {
        clearSelection();
        return;
    }
    if (m_selection && m_selection->first == from && m_selection->second == to)
        return;
    m_selection = std::pair(from, to);
    Q_EMIT selectionChanged();
}

void TimeAxis::clearSelection()
{
    if (!m_selection)
        return;
    m_selection.reset();
    Q_EMIT selectionChanged();
}

void TimeAxis::selectItem(IntervalId interval, MeasurementId measurement)
{
    if (interval == m_selectedInterval && measurement == m_selectedMeasurement && m_selectedMark == kNone)
        return;
    m_selectedInterval = interval;
    m_selectedMeasurement = measurement;
    m_selectedMark = kNone;
    Q_EMIT selectedItemChanged();
}

void TimeAxis::selectMark(std::uint32_t mark)
{
    if (mark == m_selectedMark && m_selectedInterval == kNone && m_selectedMeasurement == kNone)
        return;
    m_selectedInterval = kNone;
    m_selectedMeasurement = kNone;
    m_selectedMark = mark;
    Q_EMIT selectedItemChanged();
}

} // namespace runlane
