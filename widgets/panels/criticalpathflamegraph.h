#pragma once

#include "criticalpathsummary.h"

#include <QRectF>
#include <QWidget>

#include <memory>
#include <vector>

class QScrollBar;

namespace runlane {

class ProfileDocument;

// The critical-path flame graph (semantics.md §9, "Aggregated over a
// label"): a CriticalPathSummary's call tree as an icicle, roots on top,
// each node a box as wide as its running time on the paths, its children
// under it from its left edge, heaviest first. The whole tree always fills
// the width (no time axis, no zoom), so the box of a root of the only root
// spans the widget (less a scroll bar, shown when the rows are taller
// than the widget).
//
// Not an IcicleView: that view takes its spans from the document (the
// profile's timeline or the document's CallTree, rebuilt on every profile
// or mode change) and draws on the document's shared TimeAxis, which the
// other views zoom and pan; this tree has an axis of its own.
//
// Painting walks each visible row's spans with a binary search per pixel
// column of sub-pixel spans (drawn as one greyed block), so a frame costs
// O(rows × min(spans, pixels) × log spans), whatever the tree's size.
class CriticalPathFlameGraph : public QWidget
{
    Q_OBJECT

public:
    using Node = CriticalPathSummary::Node;
    using Tree = std::vector<Node>;

    explicit CriticalPathFlameGraph(ProfileDocument* document, QWidget* parent = nullptr);
    ~CriticalPathFlameGraph() override;

    // The tree of `summary` (null: nothing), its labels those of the
    // document's open profile; dropped when the profile changes. The
    // percentages are of its running time (kindTotals()[Running]) and wall.
    void setSummary(std::shared_ptr<const CriticalPathSummary> summary);
    // A tree of the same shape (parents before children); a node whose
    // parent is not an earlier node is drawn as a root. `running` and `wall`
    // are what the tooltip's shares are of (0: the roots' sum; no wall).
    void setTree(std::shared_ptr<const Tree> tree, Time running, Time wall);
    void clear();
    const std::shared_ptr<const CriticalPathSummary>& summary() const { return m_summary; }
    std::size_t nodeCount() const { return m_tree ? m_tree->size() : 0; }

    // The layout: the axis (the roots' totals summed), the rows, and where
    // a node is drawn in widget coordinates (scrolled; zero-sized if none).
    Time axisEnd() const { return m_axisEnd; }
    int depthCount() const { return int(m_rows.size()); }
    int rowHeight() const { return m_rowHeight; }
    int contentHeight() const { return depthCount() * m_rowHeight; }
    // The boxes' width: the widget's, less the scroll bar if shown.
    int plotWidth() const;
    QScrollBar* verticalScrollBar() const { return m_scroll; }
    int scrollY() const;
    int depthOf(std::uint32_t node) const;
    QRectF nodeRect(std::uint32_t node) const;
    std::uint32_t nodeAt(QPoint pos) const;
    QString toolTipOf(std::uint32_t node) const;

    // The node clicked last (its label is the document's focus), or kNone.
    std::uint32_t selectedNode() const { return m_selected; }
    void selectNode(std::uint32_t node);

    // Paints the graph as scrolled into `size` (a plot `size.width()`
    // wide), for the widget and a PNG export alike; returns how many boxes
    // it drew (a merged run counts once).
    std::size_t paintContent(QPainter& painter, QSize size) const;
    // Boxes drawn by the widget's last paint.
    std::size_t lastPaintedBoxes() const { return m_lastPainted; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    // A node was clicked (its label focused); kNone: empty space.
    void nodeClicked(std::uint32_t node);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    // A node's place in its row: [start, end) on the axis.
    struct Span {
        Time start = 0;
        Time end = 0;
        std::uint32_t node = 0;
    };

    void layout();
    void updateScrollBar();
    bool scrollShown() const;
    QRgb fillOf(std::uint32_t node) const;
    QString nameOf(std::uint32_t node) const;
    double xFor(Time t, double width) const;
    Time timeAt(double x, double width) const;
    // The rows crossing `area` of a graph `width` px wide; boxes drawn.
    std::size_t paintRows(QPainter& p, const QRect& area, int width, int scroll) const;
    std::size_t paintRow(QPainter& p, const std::vector<Span>& row, int y, double width) const;
    void paintBox(QPainter& p, std::uint32_t node, const QRectF& rect) const;

    ProfileDocument* const m_document;
    QScrollBar* const m_scroll;
    std::shared_ptr<const CriticalPathSummary> m_summary;
    std::shared_ptr<const Tree> m_tree;
    Time m_running = 0;
    Time m_wall = 0;
    Time m_axisEnd = 0;
    std::vector<std::vector<Span>> m_rows; // per depth, by start
    std::vector<std::uint32_t> m_depthOf; // per node
    std::vector<std::uint32_t> m_indexOf; // per node, in its row
    std::uint32_t m_selected = kNone;
    int m_rowHeight = 20;
    mutable std::size_t m_lastPainted = 0;
};

} // namespace runlane
