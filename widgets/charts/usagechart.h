#pragma once

#include "profilejob.h"
#include "profiletypes.h"
#include "runset.h"
#include "usageseries.h"

#include <QWidget>

#include <memory>
#include <set>
#include <string>
#include <vector>

class QComboBox;
class QValueAxis;
class QSpinBox;
class QTimer;

namespace runlane {

class ProfileDocument;
class TimeAxis;
class LineLabel;
class UsageBands;
class UsageChartView;

// Event-loop usage over the visible range (semantics.md §6): per bin, the
// share of the bin each of the top-k labels of one track executed, stacked,
// with the rest as "other". Its plot sits on the shared time axis, aligned
// with the icicle and the lanes; zooming either zooms the other. Series are
// recomputed off the GUI thread for the visible range with at most one bin
// per pixel column, so the chart redraws in constant time.
class UsageChart : public QWidget
{
    Q_OBJECT

public:
    static constexpr int kHeaderHeight = 28;

    explicit UsageChart(ProfileDocument* document, QWidget* parent = nullptr);
    ~UsageChart() override;

    // The series shown (null until computed, without a timeline, or while
    // the one held was computed from another profile than the open one).
    const UsageSeries* series() const;
    // How many computations were started: each one scans the range shown.
    std::size_t computations() const { return m_computations; }
    // Whether the old bins will be stretched to the visible range if the
    // new ones are not in within 30 ms (after a zoom or a pan; not after
    // the slide of a followed live recording to its new version).
    bool isStretchPending() const;
    TrackId track() const { return m_track; }
    void setTrack(TrackId track);
    // What the controls above the plot say, for an image without them: the
    // track's name as its box shows it, and the note on the bins ("bins of
    // 1.00 ms", worker-equivalents).
    QString trackName() const;
    QString binsNote() const;
    // 0: automatic (about one bin per 3 px).
    Time requestedBinWidth() const { return m_binWidth; }
    void setBinWidth(Time width);
    int topK() const { return m_topK; }
    void setTopK(int k);
    // A series hidden from the stack (its legend entry clicked); the label
    // kNone is "other".
    bool isHidden(LabelId label) const { return m_hidden.count(label) != 0; }
    void setHidden(LabelId label, bool hidden);
    // The label of the band at a point of the view (kNone: none, or other).
    LabelId labelAt(QPoint viewPos) const;
    // Text for the bin under a point: its time range and each share.
    QString describeAt(QPoint viewPos) const;
    // The legend, drawn in the gutter: one entry per series, bottom band
    // first, with its mean share in view (UsageSeries::meanShare: its exec
    // in view / the view's time inside the profile).
    struct LegendEntry {
        LabelId label; // kNone: other
        QString name;
        QColor color;
        double meanShare;
        bool hidden;
    };
    std::vector<LegendEntry> legend() const;
    // A click on a band focuses its label in every view; elsewhere clears.
    void focusLabelAt(QPoint viewPos);
    // The top of the y axis in %: 100, or more where bins add up to more
    // (Chroprof credits a future's time when it completes).
    double yMaximum() const;
    // The y axis's labels and the grid's lines: every yStep() % from 0.
    double yStep() const;
    // The least height between two y labels, in pixels.
    static constexpr double kYLabelGap = 24;
    UsageChartView* view() const { return m_view; }
    // The stacked bands drawn in the view's plot area.
    const UsageBands& bands() const { return *m_bands; }
    // Waits for the computation under way and shows its result.
    void finishPendingWork();

Q_SIGNALS:
    void seriesShown();

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void dropProfile();
    void profileChanged();
    void scheduleRecompute();
    void recompute();
    void computed(ProfileResult<UsageSeries> result);
    void rebuildChart();
    void clearBands();
    void updateRange();
    void updateYTicks();
    Time effectiveBinWidth(Time span) const;
    // Series k's label (kNone: "other"), its name and its colour: one
    // place for the bands, the legend and the tooltip.
    static LabelId labelOf(const UsageSeries& series, std::size_t k);
    static QString nameOf(const Profile& profile, LabelId label);
    QColor colorOf(LabelId label) const;
    int plotWidth() const;

    ProfileDocument* m_document;
    TimeAxis* m_axis;
    UsageChartView* m_view;
    QComboBox* m_trackBox;
    QComboBox* m_binBox;
    QSpinBox* m_topBox;
    LineLabel* m_note; // changes with a zoom's bin width: never re-lays out the window
    QTimer* m_debounce;
    QTimer* m_stretch; // old bins to a new range, when new ones are late
    UsageBands* m_bands; // owned by the view's chart
    QValueAxis* m_yAxis = nullptr;
    ProfileJob<UsageSeries> m_job;
    struct IndexCache;
    std::shared_ptr<IndexCache> m_indexCache;
    // The series shown and the profile it was computed from: its label ids
    // are read against that profile and no other.
    ProfileResult<UsageSeries> m_shown;
    std::vector<TrackId> m_tracks; // the tracks offered, by busy time
    TrackId m_track = 0;
    Time m_binWidth = 0;
    int m_topK = 8;
    std::set<LabelId> m_hidden;
    // Kept through a refinement of the profile (ProfileDocument::
    // refineProfile; ids change): the loop the user chose, by name (""
    // while it is the busiest, chosen by the chart), and the bands hidden.
    std::string m_chosenTrack;
    std::vector<LabelKey> m_keptHidden;
    double m_yMax = 100;
    bool m_pending = false; // a recompute was asked for while one runs
    std::size_t m_computations = 0;
    bool m_continuationQueued = false; // a continuation's recompute, unless one comes first
};

} // namespace runlane
