#pragma once

#include "flowpainter.h"
#include "iciclesource.h"
#include "loadedprofile.h"
#include "timelineview.h"
#include "trackmarks.h"

#include <QFontMetrics>
#include <QLineF>

#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace runlane {

class CallTree;

class ProfileDocument;

// The icicle plot: per track a band of rows, one per depth, with the active
// intervals (or, aggregated, the call paths) as boxes on the shared time
// axis. Painting asks each row for its visible spans (a binary search) and
// skips over runs narrower than a pixel with another binary search, drawing
// them as one block: a frame costs O(pixels × log n) whatever the profile.
class IcicleView : public TimelineView
{
    Q_OBJECT

public:
    static constexpr int kHeaderHeight = 22;
    // Beyond this many emphasised labels (a broad search), sub-pixel
    // occurrences are not marked one by one.
    static constexpr std::size_t kMaxMarkedLabels = 64;

    explicit IcicleView(ProfileDocument* document, QWidget* parent = nullptr);
    ~IcicleView() override;

    void paintContent(QPainter& painter, QSize size, int scrollY) const override;
    int contentHeight() const override;
    int rowHeight() const { return m_rowHeight; }

    const IcicleSource* source() const { return m_source.get(); }
    // The profile's marks on the tracks' header bands (the timeline only):
    // a click on one selects it, a hover names it.
    const TrackMarks& trackMarks() const { return m_marks; }
    // The top of a track's header band in widget coordinates; -1 if none.
    int trackHeaderY(TrackId track) const;
    // A track's name ("process / thread", Profile::nameOf) fitted to
    // `width`: the process's part elided first, since the thread's part is
    // what tells a process's tracks apart ("… / tokio-runtime-worker-3"); if
    // that alone is too wide, elided in its middle, which keeps a numbered
    // end.
    static QString elidedTrackName(const QString& name, const QFontMetrics& metrics, int width);
    // Where a span is drawn, in widget coordinates (empty if not shown).
    QRectF spanRect(std::uint32_t id) const;
    std::uint32_t spanAt(QPoint pos) const;

    bool isCollapsed(std::uint32_t id) const { return m_collapsed.count(id) != 0; }
    void setCollapsed(std::uint32_t id, bool collapsed);
    // The collapsed ancestor hiding a span, or kNone if it is shown.
    std::uint32_t hiddenBy(std::uint32_t id) const;
    void expandAll();
    void collapseToDepth(int depth);
    bool isTrackCollapsed(TrackId track) const;
    void setTrackCollapsed(TrackId track, bool collapsed);

    // The selected span: the selected interval in the timeline, a call path
    // in the aggregated view.
    std::uint32_t selectedSpan() const;
    void selectSpan(std::uint32_t id);
    void zoomToSpan(std::uint32_t id);
    // Where the arrow of a flow (an index into Profile::flows()) is drawn,
    // in widget coordinates; a null line if it is not (an end's row not laid
    // out, the aggregated view, too many flows in view).
    QLineF flowLine(std::uint32_t flow) const;
    // Shows an interval: its track expanded, the boxes hiding it expanded,
    // its row scrolled into view (ProfileDocument::intervalRevealed).
    void revealSpan(std::uint32_t id);
    // The track whose rows are at the top of the view, scrolled past its
    // header (kNone when a header is at the top): its name is pinned to the
    // top of the names gutter, as Perfetto pins a track's shell, so that
    // a box deep in a stack (a find, a critical path segment) says whose it
    // is. A click on the pinned name folds the track.
    TrackId pinnedTrack() const { return pinnedTrackAt(scrollY()); }
    // Where the pinned name is drawn (empty if none): the gutter's top, or
    // above it as the next track's header pushes it up.
    QRect pinnedNameRect() const;

    // Whether the aggregated view shows the differential flame graph
    // (compare mode, its diff computed).
    bool isDifferential() const;

Q_SIGNALS:
    // A call path was selected in the aggregated view (kNone: cleared).
    void aggregatedNodeSelected(std::uint32_t span);

protected:
    void clicked(QPoint pos) override;
    QString toolTipAt(QPoint pos) const override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    struct Row {
        TrackId track;
        int depth; // -1: the track's header
        int y;
        int height;
        int yEnd() const { return y + height; }
    };

    void dropProfile();
    void rebuild();
    std::unique_ptr<IcicleSource> aggregatedSource() const;
    void applyDiff();
    QRgb fillOf(const Interval& span) const;
    void layoutRows();
    const Row* rowAt(int contentY) const;
    const Row* rowOf(TrackId track, int depth) const;
    TrackId pinnedTrackAt(int scroll) const;
    int pinnedNameY(TrackId track, int scroll) const;
    // The rows of boxes between `scroll` and `scroll + height`, for the flows.
    std::vector<FlowPainter::Row> flowRows(int scroll, int height) const;
    // A box in content coordinates scrolled by `scroll`, x not clipped; empty
    // if it is not laid out.
    QRectF boxOf(std::uint32_t id, int scroll, int timeWidth) const;
    void paintFlows(QPainter& p, QSize size, int scroll, int timeWidth) const;
    void paintHeader(QPainter& p, const Row& row, int y, int width) const;
    // A track's band over [0, width) with its chevron and name in the names
    // gutter: a header's (the whole width), the pinned name's (the gutter).
    void paintTrackName(QPainter& p, TrackId track, int y, int height, int width) const;
    void paintRow(QPainter& p, const Row& row, int y, int timeWidth) const;
    void paintNode(QPainter& p, std::uint32_t id, const Interval& span, const QRectF& rect) const;
    void paintMarks(QPainter& p, std::uint32_t first, std::uint32_t last, int y, int timeWidth, int height) const;
    bool chevronHit(std::uint32_t id, QPoint pos) const;

    // What m_source reads (it holds references into them): kept alive with
    // it, and its ids read against this profile only.
    LoadedProfile m_built;
    std::shared_ptr<const CallTree> m_builtTree;
    std::unique_ptr<IcicleSource> m_source;
    TrackMarks m_marks; // of m_built's profile, on the timeline
    std::vector<Row> m_rows;
    std::vector<std::size_t> m_trackRow; // per track, its header's index in m_rows
    std::vector<bool> m_trackCollapsed;
    std::unordered_set<std::uint32_t> m_collapsed;
    std::uint32_t m_aggregatedSelection = kNone;
    int m_rowHeight = 20;
    // What a refinement of the profile keeps (ProfileDocument::
    // refineProfile): the folded tracks by name and the scroll, taken as
    // the old profile is dropped and applied by the rebuild that follows.
    struct Kept {
        std::unordered_set<std::string> foldedTracks;
        int scroll = 0;
        int collapsedToDepth = -1;
        // Boxes folded one by one, found again by what they are
        // (IntervalMatch) in the new version.
        std::shared_ptr<const Profile> from;
        std::vector<IntervalId> collapsed;
    };
    std::optional<Kept> m_kept;
    int m_collapsedToDepth = -1; // collapseToDepth's, until expandAll or another profile
};

} // namespace runlane
