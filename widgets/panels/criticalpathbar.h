#pragma once

#include "criticalpath.h"

#include <QColor>
#include <QWidget>

#include <array>

namespace runlane {

// A critical path's (or a label's paths') wall time as one stacked bar, a
// part per kind in the order running, queued, idle, waiting, each as wide as
// its share, with a legend of the shares under it: "half of the latency was
// the loop busy with someone else" at a glance.
class CriticalPathBar : public QWidget
{
    Q_OBJECT

public:
    explicit CriticalPathBar(QWidget* parent = nullptr);

    // The time of each kind (CriticalPath::Kind's order) and the wall time
    // they are shares of; a zero wall shows an empty bar.
    void setTotals(const std::array<Time, 4>& totals, Time wall);
    void clear() { setTotals({}, 0); }
    const std::array<Time, 4>& totals() const { return m_totals; }
    Time wall() const { return m_wall; }
    // The kind's part of the wall time, 0..1.
    double share(CriticalPath::Kind kind) const;
    // "running 17.3 % · queued 61.5 % · idle 1.9 % · waiting 1.9 %": the legend's text.
    QString legendText() const;

    // The kinds' colours, shared by the panel's tables.
    static QColor kindColor(CriticalPath::Kind kind);
    // What a kind means, for tooltips.
    static QString kindMeaning(CriticalPath::Kind kind);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::array<Time, 4> m_totals{};
    Time m_wall = 0;
};

} // namespace runlane
