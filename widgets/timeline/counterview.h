#pragma once

#include "profiletypes.h"
#include "rangeextrema.h"
#include "timelineview.h"

#include <memory>
#include <optional>
#include <vector>

namespace runlane {

class Profile;
class ProfileDocument;
struct CounterSeries;

// The counters of a profile (Chrome `C` events), one track per series on
// the shared time axis: a step-shaped area, since a counter holds its value
// until its next sample, scaled per track from 0 (or the series' minimum if
// it is negative) to the series' maximum. Each track's header line in the
// names gutter collapses it to that line.
//
// Painting finds the visible slice of a series by binary search; when the
// slice has more samples than the track has pixel columns, each column is
// drawn as one bar from the least to the greatest value it holds (a
// RangeExtrema query), so a frame costs O(columns × log n).
//
// As a panel of a window the view shows itself only while it has tracks to
// show (and the timeline is shown, not the aggregated flame graph).
class CounterView : public TimelineView
{
    Q_OBJECT

public:
    // A collapsed track is its header line; an expanded one is this tall,
    // the header line included (the plot spans the whole height).
    static constexpr int kHeaderHeight = 20;
    static constexpr int kTrackHeight = 64;
    // More tracks than kCompactAbove start compact, each its header line,
    // but the first kExpandedTracks (issue 46: they took the lanes' room).
    static constexpr std::size_t kCompactAbove = 3;
    static constexpr std::size_t kExpandedTracks = 2;

    explicit CounterView(ProfileDocument* document, QWidget* parent = nullptr);

    void paintContent(QPainter& painter, QSize size, int scrollY) const override;
    int contentHeight() const override;
    // Whether there is anything to show: tracks, on the timeline.
    bool hasContent() const;

    std::size_t trackCount() const { return m_tracks.size(); }
    // "name key", as the gutter shows it (elided there if long).
    QString trackName(std::size_t track) const;
    bool isTrackCollapsed(std::size_t track) const;
    void setTrackCollapsed(std::size_t track, bool collapsed);
    // The track's vertical extent in content coordinates.
    int trackTop(std::size_t track) const;
    int trackHeight(std::size_t track) const;
    // The scale of a track's plot: its bottom and top values.
    std::pair<double, double> trackScale(std::size_t track) const;
    // The counter's value at `time`: that of the last sample at or before
    // it (held until the next); none before the first sample.
    std::optional<double> valueAt(std::size_t track, Time time) const;
    // The track at a point in widget coordinates; -1 if none.
    int trackAt(QPoint pos) const;
    // What the tooltip says at a point ("" if nothing is there).
    QString describeAt(QPoint pos) const;

    // What the last paint read, for the tests: the samples in the visible
    // slices of the expanded tracks (the one in force at the left edge
    // included), and the pixel columns drawn merged.
    std::size_t lastPaintedPoints() const { return m_paintedPoints; }
    std::size_t lastMergedColumns() const { return m_mergedColumns; }

    static QString valueText(double value);

Q_SIGNALS:
    // The tracks or their heights changed (a profile, a collapse).
    void contentHeightChanged();

protected:
    void paintMargin(QPainter& p, const QRect& margin) const override;
    void clicked(QPoint pos) override;
    QString toolTipAt(QPoint pos) const override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    struct Track {
        std::size_t series; // index in the profile's counters()
        QString name;
        double bottom; // the plot's scale
        double top;
        RangeExtrema extrema;
        bool collapsed = false;
        int y = 0;
        int yEnd() const { return y + (collapsed ? kHeaderHeight : kTrackHeight); }
    };

    void dropProfile();
    void rebuild();
    void layoutTracks();
    void updateVisibility();
    // The profile the tracks were built from, while it is the open one.
    const Profile* shownProfile() const;
    const CounterSeries& series(const Track& track) const;
    void paintTrack(QPainter& p, const Track& track, int y, int timeWidth) const;
    void paintSteps(QPainter& p, const Track& track, std::size_t first, std::size_t last, int y, int timeWidth) const;
    void paintColumns(QPainter& p, const Track& track, std::size_t first, std::size_t last, int y, int timeWidth) const;

    // What the tracks were built from: read against this profile only.
    std::shared_ptr<const Profile> m_profile;
    std::vector<Track> m_tracks;
    mutable std::size_t m_paintedPoints = 0;
    mutable std::size_t m_mergedColumns = 0;
};

} // namespace runlane
