#include "criticalpathflamegraph.h"

#include "colorscheme.h"
#include "profiledocument.h"
#include "qstringutf8.h"
#include "valueformat.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QResizeEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace runlane {

namespace {

constexpr double kMinimumBox = 1.0; // px: narrower runs are merged
constexpr double kTextMinimum = 24.0; // px: narrower boxes get no label
constexpr double kSliver = 2.0; // px: how far a click may miss a sliver

QString percent(Time part, Time whole)
{
    return QString::number(100.0 * double(part) / double(std::max<Time>(1, whole)), 'f', 1) + QLatin1Char('%');
}

} // namespace

CriticalPathFlameGraph::CriticalPathFlameGraph(ProfileDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_scroll(new QScrollBar(Qt::Vertical, this))
{
    m_rowHeight = fontMetrics().height() + 6;
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_scroll->hide();
    m_scroll->setSingleStep(m_rowHeight);
    connect(m_scroll, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
    // The labels, their colours and the emphasis are the open profile's:
    // the tree's label ids mean nothing in the next one.
    connect(m_document, &ProfileDocument::profileAboutToChange, this, &CriticalPathFlameGraph::clear);
    connect(m_document, &ProfileDocument::colorsChanged, this, qOverload<>(&QWidget::update));
    connect(m_document, &ProfileDocument::emphasisChanged, this, qOverload<>(&QWidget::update));
}

CriticalPathFlameGraph::~CriticalPathFlameGraph() = default;

void CriticalPathFlameGraph::setSummary(std::shared_ptr<const CriticalPathSummary> summary)
{
    if (!summary) {
        clear();
        return;
    }
    // The tree lives in the summary: share its ownership, not a copy.
    std::shared_ptr<const Tree> tree(summary, &summary->tree());
    const Time running = summary->kindTotals()[std::size_t(CriticalPath::Kind::Running)];
    const Time wall = summary->wall();
    setTree(std::move(tree), running, wall);
    m_summary = std::move(summary);
}

void CriticalPathFlameGraph::setTree(std::shared_ptr<const Tree> tree, Time running, Time wall)
{
    m_summary.reset();
    m_tree = std::move(tree);
    m_wall = std::max<Time>(0, wall);
    m_selected = kNone;
    layout();
    m_running = running > 0 ? running : m_axisEnd;
    m_scroll->setValue(0);
    updateScrollBar();
    updateGeometry();
    update();
}

void CriticalPathFlameGraph::clear()
{
    m_summary.reset();
    m_tree.reset();
    m_running = m_wall = 0;
    m_selected = kNone;
    layout();
    updateScrollBar();
    updateGeometry();
    update();
}

void CriticalPathFlameGraph::updateScrollBar()
{
    const int w = m_scroll->sizeHint().width();
    m_scroll->setGeometry(width() - w, 0, w, height());
    m_scroll->setRange(0, std::max(0, contentHeight() - height()));
    m_scroll->setPageStep(std::max(1, height()));
    m_scroll->setVisible(scrollShown());
}

bool CriticalPathFlameGraph::scrollShown() const
{
    // From the sizes, not the bar's isVisible(): a widget not shown yet (a
    // hidden tab; its resize events wait until it is) lays out the same.
    return contentHeight() > height();
}

int CriticalPathFlameGraph::plotWidth() const
{
    return std::max(1, width() - (scrollShown() ? m_scroll->sizeHint().width() : 0));
}

int CriticalPathFlameGraph::scrollY() const
{
    return scrollShown() ? std::min(m_scroll->value(), contentHeight() - height()) : 0;
}

void CriticalPathFlameGraph::layout()
{
    m_rows.clear();
    m_depthOf.clear();
    m_indexOf.clear();
    m_axisEnd = 0;
    if (!m_tree)
        return;
    const Tree& tree = *m_tree;
    const std::uint32_t n = std::uint32_t(tree.size());
    auto total = [&tree](std::uint32_t i) { return std::max<Time>(0, tree[i].total); };
    // Children lists, heaviest first (ties by label, then order), as the
    // aggregated flame graph orders them. Parents come first in a summary's
    // tree; a node claiming a later parent (or itself) is a root, so no
    // cycle can be walked.
    std::vector<std::vector<std::uint32_t>> children(std::size_t(n) + 1); // last: the roots
    for (std::uint32_t i = 0; i < n; ++i)
        children[tree[i].parent < i ? tree[i].parent : n].push_back(i);
    for (auto& list : children) {
        std::sort(list.begin(), list.end(), [&](std::uint32_t a, std::uint32_t b) {
            if (total(a) != total(b))
                return total(a) > total(b);
            return tree[a].label != tree[b].label ? tree[a].label < tree[b].label : a < b;
        });
    }

    // Depth first, iteratively (a file may claim a chain of 100,000): a
    // node spans [x, x + total) clipped to its parent; its children follow
    // each other from its start. Pushing the children last-first lays the
    // heaviest out first, so every row comes out sorted by start.
    struct Item {
        std::uint32_t node;
        Time x;
        Time limit;
        std::uint32_t depth;
    };
    std::vector<Item> stack;
    for (const std::uint32_t root : children[n]) {
        stack.push_back(Item{root, m_axisEnd, kTimeMax, 0});
        m_axisEnd = addClamped(m_axisEnd, total(root));
    }
    std::reverse(stack.begin(), stack.end());
    m_depthOf.assign(n, 0);
    m_indexOf.assign(n, 0);
    while (!stack.empty()) {
        const Item item = stack.back();
        stack.pop_back();
        const Time end = std::min(item.limit, addClamped(item.x, total(item.node)));
        if (m_rows.size() <= item.depth)
            m_rows.resize(std::size_t(item.depth) + 1);
        m_depthOf[item.node] = item.depth;
        m_indexOf[item.node] = std::uint32_t(m_rows[item.depth].size());
        m_rows[item.depth].push_back(Span{item.x, end, item.node});
        const std::size_t base = stack.size();
        Time x = item.x;
        for (const std::uint32_t c : children[item.node]) {
            stack.push_back(Item{c, x, end, item.depth + 1});
            x = std::min(end, addClamped(x, total(c)));
        }
        std::reverse(stack.begin() + std::ptrdiff_t(base), stack.end());
    }
}

int CriticalPathFlameGraph::depthOf(std::uint32_t node) const
{
    return node < m_depthOf.size() ? int(m_depthOf[node]) : -1;
}

double CriticalPathFlameGraph::xFor(Time t, double width) const
{
    return m_axisEnd <= 0 ? 0.0 : double(t) / double(m_axisEnd) * width;
}

QRectF CriticalPathFlameGraph::nodeRect(std::uint32_t node) const
{
    if (node >= m_depthOf.size())
        return {};
    const Span& span = m_rows[m_depthOf[node]][m_indexOf[node]];
    const double x0 = xFor(span.start, plotWidth());
    const double x1 = xFor(span.end, plotWidth());
    return QRectF(x0, double(m_depthOf[node]) * m_rowHeight - scrollY(), x1 - x0, m_rowHeight - 1);
}

std::uint32_t CriticalPathFlameGraph::nodeAt(QPoint pos) const
{
    if (pos.y() < 0 || pos.x() < 0 || pos.x() >= plotWidth() || m_axisEnd <= 0)
        return kNone;
    const std::size_t depth = std::size_t((pos.y() + scrollY()) / m_rowHeight);
    if (depth >= m_rows.size())
        return kNone;
    const std::vector<Span>& row = m_rows[depth];
    const double w = plotWidth();
    const double x = pos.x() + 0.5; // the pixel's centre
    // The first span ending right of x: under the cursor, or the nearest
    // one to its right, if within a sliver's reach; else the one before.
    const auto it = std::partition_point(row.begin(), row.end(), [&](const Span& s) { return xFor(s.end, w) <= x; });
    if (it != row.end() && xFor(it->start, w) <= x + kSliver)
        return it->node;
    if (it != row.begin() && xFor(std::prev(it)->end, w) >= x - kSliver)
        return std::prev(it)->node;
    return kNone;
}

QString CriticalPathFlameGraph::nameOf(std::uint32_t node) const
{
    const Profile* profile = m_document->profile();
    const LabelId label = (*m_tree)[node].label;
    return profile && label < profile->labelCount() ? qs(profile->labelName(label)) : tr("(unknown label %1)").arg(label);
}

QString CriticalPathFlameGraph::toolTipOf(std::uint32_t node) const
{
    if (!m_tree || node >= m_tree->size())
        return {};
    const Node& n = (*m_tree)[node];
    const Profile* profile = m_document->profile();
    const ValueUnit unit = profile ? profile->unit() : ValueUnit{};
    auto text = [unit](Time t) { return qs(ValueFormat::text(t, unit)); };
    QString out = profile && n.label < profile->labelCount() ? qs(profile->labelText(n.label)) : nameOf(node);
    out += tr("\ntotal %1 (%2 of the running time on the path), self %3")
               .arg(text(n.total), percent(n.total, m_running), text(n.self));
    if (m_wall > 0)
        out += tr("\n%1 of the wall time").arg(percent(n.total, m_wall));
    return out;
}

void CriticalPathFlameGraph::selectNode(std::uint32_t node)
{
    m_selected = m_tree && node < m_tree->size() ? node : kNone;
    update();
}

QRgb CriticalPathFlameGraph::fillOf(std::uint32_t node) const
{
    const Profile* profile = m_document->profile();
    const Node& n = (*m_tree)[node];
    if (!profile || n.label >= profile->labelCount())
        return ColorScheme::merged().rgb();
    // By duration, against this tree's axis, not the profile's longest.
    const QRgb color = m_document->colorMode() == ColorMode::ByDuration
        ? ColorScheme::forDuration(n.total, m_axisEnd).rgb()
        : m_document->labelColor(n.label);
    return m_document->isEmphasisActive() && !m_document->isHighlighted(n.label) ? ColorScheme::dimmed(color) : color;
}

std::size_t CriticalPathFlameGraph::paintContent(QPainter& p, QSize size) const
{
    return paintRows(p, QRect(QPoint(0, 0), size), size.width(), scrollY());
}

std::size_t CriticalPathFlameGraph::paintRows(QPainter& p, const QRect& area, int width, int scroll) const
{
    p.fillRect(area, ColorScheme::background());
    if (m_tree && m_axisEnd <= 0) {
        p.setPen(ColorScheme::mutedText());
        p.drawText(QRect(0, 0, width, 60), Qt::AlignCenter, tr("No running time on the critical path"));
        return 0;
    }
    std::size_t boxes = 0;
    const double w = std::max(1, width);
    // Only the rows in the area: a deep tree costs nothing out of view.
    const std::size_t first = std::size_t(std::max(0, area.top() + scroll) / m_rowHeight);
    for (std::size_t d = first; d < m_rows.size() && int(d) * m_rowHeight - scroll <= area.bottom(); ++d)
        boxes += paintRow(p, m_rows[d], int(d) * m_rowHeight - scroll, w);
    return boxes;
}

std::size_t CriticalPathFlameGraph::paintRow(QPainter& p, const std::vector<Span>& row, int y, double w) const
{
    const double h = m_rowHeight - 1;
    std::size_t boxes = 0;
    std::size_t i = 0;
    while (i < row.size()) {
        const Span& span = row[i];
        const double x0 = xFor(span.start, w);
        const double x1 = xFor(span.end, w);
        ++boxes;
        if (x1 - x0 >= kMinimumBox) {
            paintBox(p, span.node, QRectF(x0, y, x1 - x0, h));
            ++i;
            continue;
        }
        // A run narrower than a pixel: jump to the first span starting in a
        // later pixel column and draw the run as one block.
        const double column = std::floor(std::max(x0, 0.0));
        const auto next = std::partition_point(row.begin() + std::ptrdiff_t(i), row.end(),
                                               [&](const Span& s) { return xFor(s.start, w) < column + 1; });
        std::size_t j = std::max(i + 1, std::size_t(next - row.begin()));
        // Only the run's last span can reach past this column; a wide one
        // is drawn as itself, not swallowed by the block.
        if (j - 1 > i && xFor(row[j - 1].end, w) - xFor(row[j - 1].start, w) >= kMinimumBox)
            --j;
        const double blockEnd = std::min(w, std::max(column + 1, xFor(row[j - 1].end, w)));
        // One span is its own colour; a run takes that of the span under
        // the column's centre, greyed, to show it is merged.
        QColor color = QColor::fromRgb(fillOf(span.node));
        if (j - i > 1) {
            const auto under = std::partition_point(row.begin() + std::ptrdiff_t(i), row.begin() + std::ptrdiff_t(j),
                                                    [&](const Span& s) { return xFor(s.end, w) <= column + 0.5; });
            const QColor tint = QColor::fromRgb(fillOf(under == row.begin() + std::ptrdiff_t(j) ? span.node : under->node));
            const QColor grey = ColorScheme::merged();
            color = QColor((tint.red() + grey.red()) / 2, (tint.green() + grey.green()) / 2, (tint.blue() + grey.blue()) / 2);
        }
        p.fillRect(QRectF(column, y, blockEnd - column, h), color);
        i = j;
    }
    return boxes;
}

void CriticalPathFlameGraph::paintBox(QPainter& p, std::uint32_t node, const QRectF& rect) const
{
    const QColor fill = QColor::fromRgb(fillOf(node));
    p.fillRect(rect, fill);
    if (rect.width() >= 3) {
        p.setPen(fill.darker(125));
        // On the box's last column, not the one after it.
        p.drawLine(QPointF(rect.right() - 1, rect.top()), QPointF(rect.right() - 1, rect.bottom()));
    }
    if (node == m_selected) {
        p.setPen(QPen(ColorScheme::selection(), 2));
        p.drawRect(rect.adjusted(1, 1, -1, -1));
    }
    if (rect.width() < kTextMinimum)
        return;
    const QRectF text = rect.adjusted(4, 0, -3, 0);
    QString name = nameOf(node);
    const QFontMetrics metrics = p.fontMetrics();
    if (metrics.horizontalAdvance(name) > text.width())
        name = metrics.elidedText(name, Qt::ElideRight, int(text.width()));
    if (name.isEmpty())
        return;
    p.setPen(ColorScheme::textOn(fill));
    p.drawText(text, Qt::AlignVCenter | Qt::AlignLeft, name);
}

void CriticalPathFlameGraph::paintEvent(QPaintEvent* event)
{
    QPainter p(this);
    // Rows out of the repainted area are skipped.
    const QRect area = event->rect() & QRect(0, 0, plotWidth(), height());
    p.setClipRect(area);
    m_lastPainted = paintRows(p, area, plotWidth(), scrollY());
}

void CriticalPathFlameGraph::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    const std::uint32_t node = nodeAt(event->position().toPoint());
    selectNode(node);
    if (node != kNone)
        m_document->setFocusLabel((*m_tree)[node].label);
    Q_EMIT nodeClicked(node);
}

void CriticalPathFlameGraph::wheelEvent(QWheelEvent* event)
{
    if (!scrollShown()) {
        event->ignore();
        return;
    }
    // Three rows a notch, as the timeline's rows scroll.
    m_scroll->setValue(m_scroll->value() - event->angleDelta().y() * 3 * m_rowHeight / 120);
    event->accept();
}

void CriticalPathFlameGraph::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    updateScrollBar();
}

bool CriticalPathFlameGraph::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipOf(nodeAt(help->pos()));
        if (text.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), text, this);
        }
        return true;
    }
    return QWidget::event(event);
}

QSize CriticalPathFlameGraph::sizeHint() const
{
    return QSize(400, std::max(3, depthCount()) * m_rowHeight);
}

QSize CriticalPathFlameGraph::minimumSizeHint() const
{
    return QSize(100, 2 * m_rowHeight);
}

} // namespace runlane
