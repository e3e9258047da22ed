#include "criticalpathflamegraph.h"
#include "profiledocument.h"
#include "timeaxis.h"
#include "widgettestsupport.h"

#include <QPainter>
#include <QScrollBar>
#include <QSignalSpy>
#include <QtTest>

using namespace runlane;
using namespace runlane::test;

namespace {

using Node = CriticalPathSummary::Node;
using Tree = CriticalPathFlameGraph::Tree;

// On semantics.md §9's worked example (criticalPathExample): handler runs 0–5, 8–10 and 50–52 on its
// path and query 5–8 and 40–46, so handler's call tree is handler (18,
// self 9) over query (9, self 9), of a wall time of 52.
std::shared_ptr<const CriticalPathSummary> summaryOf(const Profile& p, std::string_view label)
{
    const CriticalPath path(p, CriticalPath::sourceOf(p));
    const LabelId l = labelNamed(p, label);
    return std::make_shared<const CriticalPathSummary>(
        CriticalPathSummary::compute(path, CriticalPathSummary::tasksOf(p, std::span(&l, 1)), false));
}

std::uint32_t nodeNamed(const CriticalPathFlameGraph& graph, const Profile& p, std::string_view label)
{
    const auto& tree = graph.summary()->tree();
    for (std::uint32_t i = 0; i < tree.size(); ++i)
        if (p.labelName(tree[i].label) == label)
            return i;
    return kNone;
}

// A root whose `leaves` children each ran 1 ns on the path: at any width
// below `leaves` px every leaf is a sliver.
std::shared_ptr<const Tree> broadTree(std::uint32_t leaves, std::size_t labelCount)
{
    auto tree = std::make_shared<Tree>();
    tree->push_back(Node{0, kNone, Time(leaves), 0});
    for (std::uint32_t i = 0; i < leaves; ++i)
        tree->push_back(Node{LabelId(i % labelCount), 0, 1, 1});
    return tree;
}

// A chain: each node the only child of the one before.
std::shared_ptr<const Tree> chain(std::uint32_t length)
{
    auto tree = std::make_shared<Tree>();
    for (std::uint32_t i = 0; i < length; ++i)
        tree->push_back(Node{0, i == 0 ? kNone : i - 1, Time(length - i), 1});
    return tree;
}

} // namespace

class TestCriticalPathFlameGraph : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_axis = std::make_unique<TimeAxis>();
        m_document = std::make_unique<ProfileDocument>(m_axis.get());
        m_document->setProfile(criticalPathExample());
        QVERIFY(m_document->hasProfile());
        m_graph = std::make_unique<CriticalPathFlameGraph>(m_document.get());
        m_graph->setSummary(summaryOf(*m_document->profile(), "handler"));
    }
    void cleanup()
    {
        m_graph.reset();
        m_document.reset();
        m_axis.reset();
    }

    // handler's box spans the width; query's, under it from its left edge,
    // its share of the running time on the path (9 of 18).
    void boxesOfTheWorkedExample_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<QString>("label");
        QTest::addColumn<double>("x");
        QTest::addColumn<double>("boxWidth");
        QTest::addColumn<int>("depth");
        QTest::newRow("handler at 400") << 400 << "handler" << 0.0 << 400.0 << 0;
        QTest::newRow("query at 400") << 400 << "query" << 0.0 << 200.0 << 1;
        QTest::newRow("handler at 333") << 333 << "handler" << 0.0 << 333.0 << 0;
        QTest::newRow("query at 333") << 333 << "query" << 0.0 << 166.5 << 1;
    }
    void boxesOfTheWorkedExample()
    {
        QFETCH(int, width);
        QFETCH(QString, label);
        QFETCH(double, x);
        QFETCH(double, boxWidth);
        QFETCH(int, depth);
        const Profile& p = *m_document->profile();
        QCOMPARE(m_graph->nodeCount(), std::size_t(2));
        QCOMPARE(m_graph->axisEnd(), Time(18));
        QCOMPARE(m_graph->depthCount(), 2);
        m_graph->resize(width, 3 * m_graph->rowHeight());
        const std::uint32_t node = nodeNamed(*m_graph, p, label.toStdString());
        QVERIFY(node != kNone);
        const QRectF rect = m_graph->nodeRect(node);
        QCOMPARE(rect.x(), x);
        QCOMPARE(rect.width(), boxWidth);
        QCOMPARE(m_graph->depthOf(node), depth);
        QCOMPARE(rect.y(), double(depth * m_graph->rowHeight()));
        QCOMPARE(m_graph->nodeAt(rect.center().toPoint()), node);
    }

    // Each box is filled with its label's colour (no label focused), and
    // the space below the tree is the backdrop.
    void boxesInTheirLabelsColours()
    {
        const Profile& p = *m_document->profile();
        m_graph->resize(400, 3 * m_graph->rowHeight());
        const QImage image = m_graph->grab().toImage();
        for (const char* label : {"handler", "query"}) {
            const std::uint32_t node = nodeNamed(*m_graph, p, label);
            const QRectF rect = m_graph->nodeRect(node);
            // The centre, right of any text at the box's left.
            QCOMPARE(pixelAt(image, rect.center()), rgb(m_document->labelColor(labelNamed(p, label))));
        }
        QCOMPARE(pixelAt(image, QPointF(300, 1.5 * m_graph->rowHeight())), rgb(ColorScheme::background().rgb()));
        QCOMPARE(m_graph->lastPaintedBoxes(), std::size_t(2));
    }

    void toolTips_data()
    {
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("text");
        QTest::newRow("handler")
            << "handler"
            << "handler (app.nim:10)\ntotal 18 ns (100.0% of the running time on the path), self 9 ns\n34.6% of the wall time";
        QTest::newRow("query")
            << "query"
            << "query (app.nim:20)\ntotal 9 ns (50.0% of the running time on the path), self 9 ns\n17.3% of the wall time";
    }
    void toolTips()
    {
        QFETCH(QString, label);
        QFETCH(QString, text);
        QCOMPARE(m_graph->toolTipOf(nodeNamed(*m_graph, *m_document->profile(), label.toStdString())), text);
    }

    // A click selects the box and focuses its label (every view then dims
    // the others, this graph too); a click on no box selects nothing and
    // leaves the focus.
    void clickFocusesTheLabel()
    {
        const Profile& p = *m_document->profile();
        m_graph->resize(400, 3 * m_graph->rowHeight());
        QSignalSpy clicked(m_graph.get(), &CriticalPathFlameGraph::nodeClicked);
        const std::uint32_t query = nodeNamed(*m_graph, p, "query");
        QTest::mouseClick(m_graph.get(), Qt::LeftButton, Qt::NoModifier, m_graph->nodeRect(query).center().toPoint());
        QCOMPARE(m_document->focusLabel(), labelNamed(p, "query"));
        QCOMPARE(m_graph->selectedNode(), query);
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.front().front().value<std::uint32_t>(), query);

        // handler is dimmed now, query keeps its colour.
        const QImage image = m_graph->grab().toImage();
        const std::uint32_t handler = nodeNamed(*m_graph, p, "handler");
        QCOMPARE(pixelAt(image, m_graph->nodeRect(handler).center()),
                 rgb(ColorScheme::dimmed(m_document->labelColor(labelNamed(p, "handler")))));

        QTest::mouseClick(m_graph.get(), Qt::LeftButton, Qt::NoModifier, QPoint(300, int(1.5 * m_graph->rowHeight())));
        QCOMPARE(m_graph->selectedNode(), kNone);
        QCOMPARE(m_document->focusLabel(), labelNamed(p, "query"));
        QCOMPARE(clicked.count(), 2);
    }

    // Sub-pixel boxes are merged: one block per pixel column whatever the
    // node count, and rows out of view are not painted at all.
    void mergedBoxes_data()
    {
        QTest::addColumn<int>("shape"); // 0: broad, 1: chain
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("rows"); // the widget's height in rows
        QTest::addColumn<int>("boxes");
        // The root, then 400 columns each holding the start of some leaves
        // (a column is 9,999 / 400 ≈ 25 leaves wide).
        QTest::newRow("10,000 nodes at 400 px") << 0 << 10000 << 400 << 3 << 401;
        QTest::newRow("10,000 nodes at 1000 px") << 0 << 10000 << 1000 << 3 << 1001;
        // 10,000 leaves on a 10,000 px axis: each leaf is a pixel, drawn as a box.
        QTest::newRow("10,001 nodes at 10,000 px") << 0 << 10001 << 10000 << 3 << 10001;
        // The count does not grow with the tree.
        QTest::newRow("100,000 nodes at 1000 px") << 0 << 100000 << 1000 << 3 << 1001;
        QTest::newRow("a chain of 10,000, 5 rows shown") << 1 << 10000 << 400 << 5 << 5;
    }
    void mergedBoxes()
    {
        QFETCH(int, shape);
        QFETCH(int, nodes);
        QFETCH(int, width);
        QFETCH(int, rows);
        QFETCH(int, boxes);
        const std::size_t labels = m_document->profile()->labelCount();
        m_graph->setTree(shape == 0 ? broadTree(std::uint32_t(nodes - 1), labels) : chain(std::uint32_t(nodes)), 0, 0);
        QCOMPARE(m_graph->nodeCount(), std::size_t(nodes));
        m_graph->resize(width, rows * m_graph->rowHeight());
        QImage image(m_graph->size(), QImage::Format_RGB32);
        QPainter painter(&image);
        QCOMPARE(m_graph->paintContent(painter, m_graph->size()), std::size_t(boxes));
        painter.end();
        // No column of the leaves' row is left blank.
        if (shape == 0) {
            const QRgb background = rgb(ColorScheme::background().rgb());
            for (int x = 0; x < width; ++x)
                QVERIFY2(pixelAt(image, QPointF(x, 1.5 * m_graph->rowHeight())) != background,
                         qPrintable(QStringLiteral("blank column %1").arg(x)));
        }
    }

    // Rows taller than the widget scroll: the scroll bar takes its width
    // from the boxes, and the rows in view are the scrolled ones.
    void deepTreeScrolls()
    {
        m_graph->setTree(chain(10000), 0, 0);
        const int row = m_graph->rowHeight();
        m_graph->resize(400, 5 * row);
        m_graph->show(); // the scroll bar is laid out on a resize event
        QVERIFY(QTest::qWaitForWindowExposed(m_graph.get()));
        QScrollBar* bar = m_graph->verticalScrollBar();
        QCOMPARE(bar->maximum(), 9995 * row);
        QCOMPARE(m_graph->plotWidth(), 400 - bar->sizeHint().width());
        QCOMPARE(m_graph->nodeRect(0), QRectF(0, 0, m_graph->plotWidth(), row - 1));
        bar->setValue(100 * row);
        QCOMPARE(m_graph->nodeAt(QPoint(1, 1)), std::uint32_t(100));
        QCOMPARE(m_graph->nodeRect(102).y(), double(2 * row));
        m_graph->grab();
        QCOMPARE(m_graph->lastPaintedBoxes(), std::size_t(5));
        QWheelEvent wheel(QPointF(10, 10), m_graph->mapToGlobal(QPointF(10, 10)), QPoint(), QPoint(0, -120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(m_graph.get(), &wheel);
        QCOMPARE(bar->value(), 103 * row);

        // A shallow tree again: no scroll bar, the full width.
        m_graph->setSummary(summaryOf(*m_document->profile(), "handler"));
        QCOMPARE(m_graph->plotWidth(), 400);
        QCOMPARE(m_graph->scrollY(), 0);
    }

    // A tree a caller got wrong: a parent after its child (or itself) makes
    // a root, a label the profile lacks is named so, negative totals are 0.
    void badTrees()
    {
        auto tree = std::make_shared<Tree>(Tree{Node{0, 1, 4, 4}, Node{1, 1, 6, 6}, Node{999, 0, -5, 0}});
        m_graph->setTree(tree, 0, 0);
        m_graph->resize(100, 3 * m_graph->rowHeight());
        QCOMPARE(m_graph->axisEnd(), Time(10));
        QCOMPARE(m_graph->depthCount(), 2);
        QCOMPARE(m_graph->nodeRect(1), QRectF(0, 0, 60, m_graph->rowHeight() - 1));
        QCOMPARE(m_graph->nodeRect(0), QRectF(60, 0, 40, m_graph->rowHeight() - 1));
        QCOMPARE(m_graph->nodeRect(2).width(), 0.0);
        QVERIFY(m_graph->toolTipOf(2).startsWith(QStringLiteral("(unknown label 999)\n")));
        QCOMPARE(m_graph->toolTipOf(3), QString());
        QImage image(m_graph->size(), QImage::Format_RGB32);
        QPainter painter(&image);
        QCOMPARE(m_graph->paintContent(painter, m_graph->size()), std::size_t(3));
    }

    // The tree's label ids are of the open profile: a new one drops it.
    void anotherProfileDropsTheTree()
    {
        QVERIFY(m_graph->nodeCount() > 0);
        m_document->setProfile(criticalPathExample());
        QCOMPARE(m_graph->nodeCount(), std::size_t(0));
        QCOMPARE(m_graph->summary(), nullptr);
        QCOMPARE(m_graph->nodeAt(QPoint(1, 1)), kNone);
    }

private:
    std::unique_ptr<TimeAxis> m_axis;
    std::unique_ptr<ProfileDocument> m_document;
    std::unique_ptr<CriticalPathFlameGraph> m_graph;
};

QTEST_MAIN(TestCriticalPathFlameGraph)
#include "tst_criticalpathflamegraph.moc"
