#pragma once

#include "profiletypes.h"

#include <QObject>
#include <QSize>

class QPainter;

#include <optional>
#include <vector>

namespace runlane {

// The one object every time-based view shares: the profile's bounds, the
// visible range, the selected time range, the selected measurement or
// interval, and the zoom history. Views never talk to each other; they
// change this and repaint when it tells them to. All ranges are [from, to).
//
// Views share one geometry too: a gutter of kGutter px on the left for
// names, the time area after it, and a right margin as wide as a scroll bar;
// so a time maps to the same x in every view, to the pixel.
class TimeAxis : public QObject
{
    Q_OBJECT

public:
    static constexpr int kGutter = 220;
    static constexpr Time kMinimumSpan = 20; // ns (or ticks): the deepest zoom

    explicit TimeAxis(QObject* parent = nullptr);

    // The shared geometry's backdrop: the time area's background and the
    // names gutter, for every view to paint first.
    static void paintBackdrop(QPainter& painter, QSize size);

    // New bounds reset the visible range to them, the selection and history.
    void setBounds(Time start, Time end);
    // The same data grown (a live recording): the visible range, the
    // selection and the history stay, clamped to the new bounds.
    void extendBounds(Time start, Time end);
    Time boundsStart() const { return m_boundsStart; }
    Time boundsEnd() const { return m_boundsEnd; }

    Time visibleStart() const { return m_from; }
    Time visibleEnd() const { return m_to; }
    Time visibleSpan() const { return m_to - m_from; }

    enum class History { Record, Coalesce, Skip };
    // Clamped to the bounds and the minimum span. `Coalesce` records a
    // history step only if the last change was a while ago (wheel zoom).
    void setVisibleRange(Time from, Time to, History history = History::Record);
    // factor < 1 zooms in; the time under `anchor` stays where it is.
    void zoomAt(Time anchor, double factor, History history = History::Coalesce);
    void panBy(Time delta);
    // Pans the visible range to start at `from` plus `shift` (the span
    // kept, clamped to the bounds), computed without overflow: near 2^63
    // a drag's `from - shift` alone overflows.
    void panTo(Time from, long double shift, History history);
    void zoomToAll();

    // The back and forward steps, to carry over to the same data shown
    // anew: a loading file's next preview, its whole profile, or the
    // profile open before it, back on Cancel (setBounds clears them).
    struct Steps {
        std::vector<std::pair<Time, Time>> back;
        std::vector<std::pair<Time, Time>> forward;
    };
    Steps history() const { return {m_back, m_forward}; }
    void restoreHistory(Steps steps);

    bool canGoBack() const { return !m_back.empty(); }
    bool canGoForward() const { return !m_forward.empty(); }
    void goBack();
    void goForward();

    // Mapping between times and x in a time area `width` px wide.
    double xFor(Time t, double width) const;
    Time timeAt(double x, double width) const;

    const std::optional<std::pair<Time, Time>>& selection() const { return m_selection; }
    void setSelection(Time from, Time to);
    void clearSelection();

    // The selected interval (kNone if none) and its measurement, which may
    // also be selected alone (a task without intervals).
    IntervalId selectedInterval() const { return m_selectedInterval; }
    MeasurementId selectedMeasurement() const { return m_selectedMeasurement; }
    void selectItem(IntervalId interval, MeasurementId measurement);
    void clearSelectedItem() { selectItem(kNone, kNone); }
    // The selected mark (an index into the profile's marks(), kNone if
    // none): a mark is selected alone, so selecting one clears the
    // interval and measurement, and selecting those clears it.
    std::uint32_t selectedMark() const { return m_selectedMark; }
    void selectMark(std::uint32_t mark);

Q_SIGNALS:
    void boundsChanged();
    void visibleRangeChanged();
    void selectionChanged();
    void selectedItemChanged();
    void historyChanged();

private:
    // A range held inside the bounds, never empty: the part of it inside
    // them, else the shortest span at the nearer bound.
    std::pair<Time, Time> heldInBounds(Time from, Time to) const;
    void record();
    void step(std::vector<std::pair<Time, Time>>& from, std::vector<std::pair<Time, Time>>& to);

    Time m_boundsStart = 0;
    Time m_boundsEnd = 1;
    Time m_from = 0;
    Time m_to = 1;
    std::vector<std::pair<Time, Time>> m_back;
    std::vector<std::pair<Time, Time>> m_forward;
    qint64 m_lastCoalesced = 0;
    std::optional<std::pair<Time, Time>> m_selection;
    IntervalId m_selectedInterval = kNone;
    MeasurementId m_selectedMeasurement = kNone;
    std::uint32_t m_selectedMark = kNone;
};

} // namespace runlane
