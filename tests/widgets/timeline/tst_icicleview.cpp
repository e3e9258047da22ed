#include "icicleview.h"
#include "imageexporter.h"
#include "profiledocument.h"
#include "timeaxis.h"
#include "timelinetestprofiles.h"
#include "widgettestsupport.h"

#include <QScrollBar>
#include <QStyle>
#include <QWheelEvent>
#include <QtTest>

using namespace runlane;
using namespace runlane::test;

namespace {

constexpr qint64 us = 1000;
constexpr int kTimeWidth = 800;

const char* const kNames[] = {"main", "parse", "tokenize", "render", "layout", "work"};

// A document and an icicle whose time area is exactly kTimeWidth px wide.
struct Fixture {
    TimeAxis axis;
    ProfileDocument document{&axis};
    IcicleView view{&document};

    explicit Fixture(const LoadedProfile& loaded)
    {
        const int scrollBar = view.style()->pixelMetric(QStyle::PM_ScrollBarExtent);
        view.resize(TimeAxis::kGutter + kTimeWidth + scrollBar, 300);
        document.setProfile(loaded);
        view.show();
    }
    const Profile& profile() const { return *document.profile(); }
    IntervalId id(const char* name) const { return intervalNamed(profile(), name); }
    const Interval& span(const char* name) const { return profile().interval(id(name)); }
    QPoint centre(const char* name) const { return view.spanRect(id(name)).center().toPoint(); }
};

void sendWheel(QWidget& widget, QPointF pos, int notches, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
{
    QWheelEvent event(pos, widget.mapToGlobal(pos), QPoint(), QPoint(0, 120 * notches), Qt::NoButton, modifiers,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(&widget, &event);
}

} // namespace

class TestIcicleView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        m_loaded = loadedText(twoThreads());
        QVERIFY(!m_loaded.isNull());
    }

    void init()
    {
        // Key zoom anchors at the cursor when it is over the time area: keep it away.
        QCursor::setPos(-100, -100);
    }

    // Issue 13, item 13: a long track name stays left of the divider: no
    // text (dark) pixel around it.
    void aLongTrackNameStopsAtTheDivider()
    {
        const LoadedProfile loaded = loadedText(
            JSON([{"ph" : "M", "pid" : 1, "tid" : 1, "name" : "thread_name",
                   "args" : {"name" : "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW"}},
                  {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "main", "ts" : 0, "dur" : 1000}]));
        Fixture f(loaded);
        const QImage image = ImageExporter::icicle(f.view, f.view.size() - QSize(f.view.style()->pixelMetric(QStyle::PM_ScrollBarExtent), 0));
        int dark = 0;
        for (int x = TimeAxis::kGutter - 4; x < TimeAxis::kGutter + 4; ++x) {
            for (int y = 2; y < IcicleView::kHeaderHeight - 2; ++y)
                dark += qGray(pixelAt(image, QPointF(x + 0.5, y + 0.5))) < 170 ? 1 : 0;
        }
        QCOMPARE(dark, 0);
    }

    // A track with an instant every few pixels (a frame mark, as in the
    // generated traces) drew its diamonds over the header's "depth N":
    // the label reads the same with marks under it as without, and the
    // marks right of it are still drawn.
    void theDepthStaysReadableOverMarks_data()
    {
        QTest::addColumn<int>("firstMark"); // µs; 0.8 px per µs
        QTest::addColumn<bool>("underTheLabel");
        QTest::newRow("marks from the start, under the label") << 0 << true;
        QTest::newRow("marks right of the label only") << 400 << false;
    }
    void theDepthStaysReadableOverMarks()
    {
        QFETCH(int, firstMark);
        QFETCH(bool, underTheLabel);
        const QByteArray call = R"({"ph":"X","pid":1,"tid":1,"name":"main","ts":0,"dur":1000})";
        QByteArray marked = "[" + call;
        for (int ts = firstMark; ts < 1000; ts += 10)
            marked += R"(,{"ph":"i","s":"t","pid":1,"tid":1,"name":"frame","ts":)" + QByteArray::number(ts) + "}";
        const LoadedProfile withMarks = loadedText(marked + "]");
        const LoadedProfile without = loadedText("[" + call + "]");
        QCOMPARE(withMarks.profile->marks().size(), std::size_t((1000 - firstMark) / 10));
        Fixture plain(without);
        Fixture f(withMarks);
        const int labelWidth = QFontMetrics(f.view.font()).horizontalAdvance(QStringLiteral("depth 1")) + 8;
        const QRect label(TimeAxis::kGutter + 2, 0, labelWidth, IcicleView::kHeaderHeight - 1);
        const QImage image = f.view.grab().toImage();
        const QImage plainImage = plain.view.grab().toImage();
        QCOMPARE(image.copy(label), plainImage.copy(label));
        // Right of the label the band holds diamonds where there are marks.
        const QRect past(TimeAxis::kGutter + 500, 0, 200, IcicleView::kHeaderHeight - 1);
        QVERIFY(image.copy(past) != plainImage.copy(past));
        // Marks under the label are not lost: a diamond's edge shows at the
        // label's left, where the first mark sits.
        const QRect left(TimeAxis::kGutter, 0, 2, IcicleView::kHeaderHeight - 1);
        QCOMPARE(image.copy(left) != plainImage.copy(left), underTheLabel);
    }

    // Threads of one process differ at the end of their names: what is
    // cut is the process's part, then the middle, never that end.
    void aTrackNameKeepsItsThread_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("room"); // the text that sets the width
        QTest::addColumn<QString>("kind"); // whole, process elided, middle elided
        const QString worker = QStringLiteral("pid 1605085 / tokio-runtime-worker-3");
        QTest::newRow("fits") << worker << worker << "whole";
        QTest::newRow("fits exactly") << "service-1 / main-0" << "service-1 / main-0" << "whole";
        QTest::newRow("the process cut") << worker << "pid 16 / tokio-runtime-worker-3" << "process";
        QTest::newRow("the process to a character") << worker << "pW / tokio-runtime-worker-3" << "process";
        QTest::newRow("the thread too wide") << worker << "tokio-runtime-worker-3" << "middle";
        QTest::newRow("no thread") << "a_function_name_with_no_separator_at_all_12" << "a_function_name_with" << "middle";
        QTest::newRow("a process with a slash")
            << "svc / a / thread-long-name-7" << "s… / thread-long-name-7" << "process";
    }
    void aTrackNameKeepsItsThread()
    {
        QFETCH(QString, name);
        QFETCH(QString, room);
        QFETCH(QString, kind);
        const QFontMetrics metrics(QApplication::font());
        const int width = metrics.horizontalAdvance(room);
        const QString shown = IcicleView::elidedTrackName(name, metrics, width);
        QVERIFY2(metrics.horizontalAdvance(shown) <= width, qPrintable(shown));
        const QString ellipsis = QStringLiteral("…");
        if (kind == "whole") {
            QCOMPARE(shown, name);
        } else if (kind == "process") {
            const qsizetype split = name.lastIndexOf(QStringLiteral(" / "));
            const QString thread = name.mid(split);
            QVERIFY2(shown.endsWith(thread), qPrintable(shown));
            const QString process = shown.chopped(thread.size());
            QVERIFY2(process.size() >= 2 && process.endsWith(ellipsis), qPrintable(shown));
            QVERIFY2(name.startsWith(process.chopped(1)), qPrintable(shown));
        } else {
            // Both ends kept, the cut between.
            const qsizetype cut = shown.indexOf(ellipsis);
            QVERIFY2(cut > 0 && cut < shown.size() - 1, qPrintable(shown));
            QVERIFY2(name.startsWith(shown.left(cut)), qPrintable(shown));
            QVERIFY2(name.endsWith(shown.mid(cut + 1)), qPrintable(shown));
        }
    }

    void placesSpansOnTheTimeAxis_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("x");
        QTest::addColumn<double>("width");
        QTest::addColumn<int>("depth");
        // The profile spans 1000 µs over 800 px: 0.8 px per µs.
        QTest::newRow("main") << "main" << 0.0 << 800.0 << 0;
        QTest::newRow("parse") << "parse" << 80.0 << 240.0 << 1;
        QTest::newRow("tokenize") << "tokenize" << 120.0 << 80.0 << 2;
        QTest::newRow("render") << "render" << 400.0 << 320.0 << 1;
        QTest::newRow("layout") << "layout" << 480.0 << 80.0 << 2;
        QTest::newRow("work") << "work" << 160.0 << 480.0 << 0;
    }
    void placesSpansOnTheTimeAxis()
    {
        QFETCH(QString, name);
        QFETCH(double, x);
        QFETCH(double, width);
        QFETCH(int, depth);
        Fixture f(m_loaded);
        const IntervalId id = f.id(name.toUtf8().constData());
        const QRectF rect = f.view.spanRect(id);
        QCOMPARE(rect.left(), TimeAxis::kGutter + x);
        QCOMPARE(rect.width(), width);
        QCOMPARE(f.profile().depthOf(id), depth);
        QCOMPARE(f.view.spanAt(rect.center().toPoint()), id);
        // Rows stack per track: a header, then one row per depth.
        const TrackId track = f.profile().trackOf(id);
        const int trackTop = track == 0 ? 0 : IcicleView::kHeaderHeight + 3 * f.view.rowHeight();
        QCOMPARE(int(rect.top()), trackTop + IcicleView::kHeaderHeight + depth * f.view.rowHeight());
    }

    void doubleClickZoomsToTheExactSpan_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* name : kNames)
            QTest::newRow(name) << QString::fromLatin1(name);
    }
    void doubleClickZoomsToTheExactSpan()
    {
        QFETCH(QString, name);
        Fixture f(m_loaded);
        const QByteArray n = name.toUtf8();
        QTest::mouseDClick(&f.view, Qt::LeftButton, Qt::NoModifier, f.centre(n.constData()));
        QCOMPARE(f.axis.visibleStart(), f.span(n.constData()).start);
        QCOMPARE(f.axis.visibleEnd(), f.span(n.constData()).end);
        QCOMPARE(f.axis.selectedInterval(), f.id(n.constData()));
        // Back returns to the whole profile.
        QTest::keyClick(&f.view, Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(f.axis.visibleStart(), 0);
        QCOMPARE(f.axis.visibleEnd(), 1000 * us);
    }

    void enterZoomsToTheSelectedSpan()
    {
        Fixture f(m_loaded);
        QTest::mouseClick(&f.view, Qt::LeftButton, Qt::NoModifier, f.centre("layout"));
        QCOMPARE(f.view.selectedSpan(), f.id("layout"));
        QTest::keyClick(&f.view, Qt::Key_Return);
        QCOMPARE(f.axis.visibleStart(), 600 * us);
        QCOMPARE(f.axis.visibleEnd(), 700 * us);
    }

    void wheelZoomsAtTheCursor_data()
    {
        QTest::addColumn<double>("x"); // in the time area
        QTest::addColumn<int>("notches");
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        QTest::newRow("in at 500 µs") << 400.0 << 1 << 100 * us << 900 * us;
        QTest::newRow("in twice at 250 µs") << 200.0 << 2 << 90 * us << 730 * us;
        QTest::newRow("out at the whole profile") << 400.0 << -1 << 0 * us << 1000 * us;
    }
    void wheelZoomsAtTheCursor()
    {
        QFETCH(double, x);
        QFETCH(int, notches);
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        Fixture f(m_loaded);
        sendWheel(f.view, QPointF(TimeAxis::kGutter + x, 50), notches);
        QCOMPARE(f.axis.visibleStart(), from);
        QCOMPARE(f.axis.visibleEnd(), to);
    }

    void keysZoomAndReset()
    {
        Fixture f(m_loaded);
        f.view.setFocus();
        QTest::keyClick(&f.view, Qt::Key_W);
        QCOMPARE(f.axis.visibleStart(), 150 * us);
        QCOMPARE(f.axis.visibleEnd(), 850 * us);
        QTest::keyClick(&f.view, Qt::Key_D);
        QCOMPARE(f.axis.visibleStart(), 255 * us);
        QCOMPARE(f.axis.visibleEnd(), 955 * us);
        QTest::keyClick(&f.view, Qt::Key_0);
        QCOMPARE(f.axis.visibleStart(), 0);
        QCOMPARE(f.axis.visibleEnd(), 1000 * us);
        QTest::keyClick(&f.view, Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(f.axis.visibleStart(), 255 * us);
    }

    void shiftDragSelectsARange()
    {
        Fixture f(m_loaded);
        const int y = 50;
        QTest::mousePress(&f.view, Qt::LeftButton, Qt::ShiftModifier, QPoint(TimeAxis::kGutter + 80, y));
        QMouseEvent move(QEvent::MouseMove, QPointF(TimeAxis::kGutter + 400, y), f.view.mapToGlobal(QPointF(TimeAxis::kGutter + 400, y)),
                         Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
        QApplication::sendEvent(&f.view, &move);
        QTest::mouseRelease(&f.view, Qt::LeftButton, Qt::ShiftModifier, QPoint(TimeAxis::kGutter + 400, y));
        QVERIFY(f.axis.selection());
        QCOMPARE(f.axis.selection()->first, 100 * us);
        QCOMPARE(f.axis.selection()->second, 500 * us);
        QCOMPARE(f.axis.visibleSpan(), 1000 * us); // selecting does not zoom
    }

    void collapseHidesExactlyTheSubtree_data()
    {
        QTest::addColumn<QString>("node");
        QTest::addColumn<QStringList>("hidden");
        QTest::newRow("main") << "main" << QStringList{"parse", "tokenize", "render", "layout"};
        QTest::newRow("parse") << "parse" << QStringList{"tokenize"};
        QTest::newRow("render") << "render" << QStringList{"layout"};
        QTest::newRow("leaf") << "tokenize" << QStringList{};
        QTest::newRow("other thread") << "work" << QStringList{};
    }
    void collapseHidesExactlyTheSubtree()
    {
        QFETCH(QString, node);
        QFETCH(QStringList, hidden);
        Fixture f(m_loaded);
        const QByteArray n = node.toUtf8();
        const IntervalId id = f.id(n.constData());
        QCOMPARE(f.view.source()->descendantCount(id), std::size_t(hidden.size()));
        // Where the hidden nodes were drawn, before collapsing.
        std::vector<QPointF> wereAt;
        for (const QString& h : hidden)
            wereAt.push_back(f.view.spanRect(f.id(h.toUtf8().constData())).center());

        f.view.selectSpan(id);
        QTest::keyClick(&f.view, Qt::Key_C);
        QVERIFY(f.view.isCollapsed(id));
        for (const char* other : kNames) {
            const bool shouldHide = hidden.contains(QString::fromLatin1(other));
            QCOMPARE(f.view.hiddenBy(f.id(other)), shouldHide ? id : kNone);
            QCOMPARE(f.view.spanRect(f.id(other)).isEmpty(), shouldHide);
        }
        // Nothing is painted where the hidden nodes were.
        const QImage image = ImageExporter::icicle(f.view, f.view.size() - QSize(f.view.style()->pixelMetric(QStyle::PM_ScrollBarExtent), 0));
        for (const QPointF& at : wereAt)
            QCOMPARE(pixelAt(image, at), rgb(ColorScheme::background().rgb()));

        QTest::keyClick(&f.view, Qt::Key_E);
        QVERIFY(!f.view.isCollapsed(id));
        for (const char* other : kNames)
            QCOMPARE(f.view.hiddenBy(f.id(other)), kNone);
    }

    void chevronClickTogglesCollapse()
    {
        Fixture f(m_loaded);
        const QRectF rect = f.view.spanRect(f.id("render"));
        const QPoint chevron(int(rect.left()) + 8, int(rect.center().y()));
        QTest::mouseClick(&f.view, Qt::LeftButton, Qt::NoModifier, chevron);
        QVERIFY(f.view.isCollapsed(f.id("render")));
        QCOMPARE(f.view.hiddenBy(f.id("layout")), f.id("render"));
        QTest::mouseClick(&f.view, Qt::LeftButton, Qt::NoModifier, chevron);
        QVERIFY(!f.view.isCollapsed(f.id("render")));
        // A click in the box, away from the chevron, selects instead.
        QTest::mouseClick(&f.view, Qt::LeftButton, Qt::NoModifier, rect.center().toPoint());
        QVERIFY(!f.view.isCollapsed(f.id("render")));
        QCOMPARE(f.axis.selectedInterval(), f.id("render"));
    }

    void collapseToDepthAndExpandAll()
    {
        Fixture f(m_loaded);
        f.view.collapseToDepth(1);
        QVERIFY(f.view.isCollapsed(f.id("parse")));
        QVERIFY(f.view.isCollapsed(f.id("render")));
        QVERIFY(!f.view.isCollapsed(f.id("main")));
        QVERIFY(!f.view.isCollapsed(f.id("tokenize"))); // no children: nothing to collapse
        QCOMPARE(f.view.hiddenBy(f.id("tokenize")), f.id("parse"));
        QCOMPARE(f.view.hiddenBy(f.id("layout")), f.id("render"));
        QCOMPARE(f.view.hiddenBy(f.id("parse")), kNone);
        f.view.expandAll();
        for (const char* name : kNames)
            QCOMPARE(f.view.hiddenBy(f.id(name)), kNone);
    }

    void collapsingATrackHidesItsRows()
    {
        Fixture f(m_loaded);
        const int full = f.view.contentHeight();
        QTest::mouseClick(&f.view, Qt::LeftButton, Qt::NoModifier, QPoint(30, IcicleView::kHeaderHeight / 2));
        QVERIFY(f.view.isTrackCollapsed(0));
        QCOMPARE(f.view.contentHeight(), full - 3 * f.view.rowHeight());
        QVERIFY(f.view.spanRect(f.id("main")).isEmpty());
        QCOMPARE(int(f.view.spanRect(f.id("work")).top()), 2 * IcicleView::kHeaderHeight);
    }

    // F3 and the find bar zoom to an occurrence in time; its row must come
    // on screen too: below the view, on a collapsed track, or under a
    // collapsed caller (a deep stack on another thread was off screen).
    void steppingToAnOccurrenceShowsItsRow_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("height");
        QTest::addColumn<QString>("collapsed");
        QTest::newRow("a track below the view") << "work" << 80 << "";
        QTest::newRow("a collapsed track") << "work" << 300 << "worker";
        QTest::newRow("under a collapsed caller") << "tokenize" << 300 << "parse";
        QTest::newRow("under a collapsed caller, below the view") << "tokenize" << 80 << "main";
    }

    void steppingToAnOccurrenceShowsItsRow()
    {
        QFETCH(QString, name);
        QFETCH(int, height);
        QFETCH(QString, collapsed);
        Fixture f(m_loaded);
        f.view.resize(f.view.width(), height);
        height = f.view.height(); // the view's minimum height, 80 px, at least
        const IntervalId id = f.id(name.toUtf8().constData());
        if (collapsed == QLatin1String("worker"))
            f.view.setTrackCollapsed(f.profile().trackOf(id), true);
        else if (!collapsed.isEmpty())
            f.view.setCollapsed(f.id(collapsed.toUtf8().constData()), true);
        QVERIFY(f.view.spanRect(id).isEmpty() || f.view.spanRect(id).bottom() > height);
        f.document.setSearch(name);
        QCOMPARE(f.document.stepOccurrence(true), id);
        QCOMPARE(f.view.hiddenBy(id), kNone);
        QVERIFY(!f.view.isTrackCollapsed(f.profile().trackOf(id)));
        const QRectF rect = f.view.spanRect(id);
        QVERIFY2(!rect.isEmpty() && rect.top() >= 0 && rect.bottom() <= height,
                 qPrintable(QStringLiteral("drawn at y %1-%2 in a view %3 px high").arg(rect.top()).arg(rect.bottom()).arg(height)));
        QCOMPARE(f.view.spanAt(rect.center().toPoint()), id);
    }

    // A load shows a new preview every second, each with ids of its own:
    // a track the user folded stays folded (found by its name) and the
    // rows stay where they were scrolled; another profile starts unfolded
    // at the top.
    void keepsFoldedTracksThroughARefinement_data()
    {
        QTest::addColumn<bool>("refine");
        QTest::newRow("the same file's next version") << true;
        QTest::newRow("another profile") << false;
    }
    void keepsFoldedTracksThroughARefinement()
    {
        QFETCH(bool, refine);
        Fixture f(loadedText(fourDeepThreads()));
        f.view.resize(f.view.width(), 80);
        auto* bar = f.view.findChild<QScrollBar*>();
        QVERIFY(bar);
        const TrackId third = f.profile().trackOf(f.id("a3"));
        f.view.setTrackCollapsed(third, true);
        f.view.setCollapsed(f.id("b2"), true); // a box: c2 and d2 hidden
        bar->setValue(30);
        // The next version: a thread before them, so that every track id moves.
        QByteArray next = fourDeepThreads();
        next.insert(1, R"({"ph": "X", "pid": 0, "tid": 9, "name": "z", "ts": 0, "dur": 10},)");
        if (refine)
            f.document.refineProfile(loadedText(next));
        else
            f.document.setProfile(loadedText(next));
        const TrackId now = f.profile().trackOf(f.id("a3"));
        QVERIFY(now != third);
        for (TrackId t = 0; t < f.profile().trackCount(); ++t)
            QCOMPARE(f.view.isTrackCollapsed(t), refine && t == now);
        QCOMPARE(bar->value(), refine ? 30 : 0);
        QCOMPARE(f.view.isCollapsed(f.id("b2")), refine);
        QCOMPARE(f.view.hiddenBy(f.id("d2")), refine ? f.id("b2") : kNone);
        // Folded to a depth: every box there, in the new version too.
        f.view.collapseToDepth(2);
        f.document.refineProfile(loadedText(fourDeepThreads()));
        for (const char* name : {"c1", "c2", "c3", "c4"})
            QVERIFY2(f.view.isCollapsed(f.id(name)), name);
        QVERIFY(!f.view.isCollapsed(f.id("b2")));
    }

    // Scrolled past a track's header into its rows, the track's name stays
    // at the top of the gutter, drawn as its header draws it, until the
    // next track's header pushes it up. Four threads, each a header of 22
    // px and four rows of the view's row height.
    void pinsTheNameOfTheTrackAtTheTop_data()
    {
        QTest::addColumn<int>("rows"); // the scroll: this many rows of the view's height
        QTest::addColumn<int>("px"); // and this many pixels more
        QTest::addColumn<int>("pinned"); // -1: none
        QTest::addColumn<int>("y"); // the pinned name's top
        QTest::newRow("at the top") << 0 << 0 << -1 << 0;
        QTest::newRow("within the first header") << 0 << 10 << -1 << 0;
        QTest::newRow("the first track's first row") << 0 << 22 << 0 << 0;
        QTest::newRow("its last row, the next header 10 px below") << 4 << 12 << 0 << -12;
        QTest::newRow("the second header at the top") << 4 << 22 << -1 << 0;
        QTest::newRow("the second track's first row") << 4 << 44 << 1 << 0;
        QTest::newRow("the third track's second row") << 9 << 66 << 2 << 0;
    }

    void pinsTheNameOfTheTrackAtTheTop()
    {
        QFETCH(int, rows);
        QFETCH(int, px);
        QFETCH(int, pinned);
        QFETCH(int, y);
        Fixture f(loadedText(fourDeepThreads()));
        f.view.resize(f.view.width(), 80);
        const int rowHeight = f.view.rowHeight();
        QCOMPARE(f.view.contentHeight(), 4 * (IcicleView::kHeaderHeight + 4 * rowHeight));
        auto* bar = f.view.findChild<QScrollBar*>();
        QVERIFY(bar);
        const QImage top = f.view.grab().toImage().copy(0, 0, TimeAxis::kGutter - 1, IcicleView::kHeaderHeight);
        bar->setValue(rows * rowHeight + px);
        QCOMPARE(f.view.scrollY(), rows * rowHeight + px);
        QCOMPARE(f.view.pinnedTrack(), pinned < 0 ? kNone : TrackId(pinned));
        const QRect rect = f.view.pinnedNameRect();
        QCOMPARE(rect.isEmpty(), pinned < 0);
        if (pinned < 0)
            return;
        QCOMPARE(rect, QRect(0, y, TimeAxis::kGutter, IcicleView::kHeaderHeight));
        // The first track's name pinned at the top is its header, pixel for pixel.
        if (pinned == 0 && y == 0)
            QCOMPARE(f.view.grab().toImage().copy(0, 0, TimeAxis::kGutter - 1, IcicleView::kHeaderHeight), top);
        // A click on it folds the track and shows its header at the top.
        QTest::mouseClick(&f.view, Qt::LeftButton, Qt::NoModifier, QPoint(30, y + IcicleView::kHeaderHeight / 2));
        QVERIFY(f.view.isTrackCollapsed(TrackId(pinned)));
        QCOMPARE(f.view.trackHeaderY(TrackId(pinned)), 0);
        QCOMPARE(f.view.pinnedTrack(), kNone);
    }

    void tooltipDescribesTheNode()
    {
        Fixture f(m_loaded);
        QCOMPARE(QString::fromStdString(f.view.source()->describe(f.id("parse"))),
                 QStringLiteral("parse\nstart 100.000 µs, duration 300 µs\nexec 200 µs in this interval\ndepth 1, completed"));
    }

    void exportedPngHasTheSizeAndColours_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<double>("scale");
        QTest::newRow("800x200") << QSize(800, 200) << 1.0;
        QTest::newRow("1220x300 at 2x") << QSize(1220, 300) << 2.0;
    }
    void exportedPngHasTheSizeAndColours()
    {
        QFETCH(QSize, size);
        QFETCH(double, scale);
        Fixture f(m_loaded);
        const QImage image = ImageExporter::icicle(f.view, size, scale);
        QCOMPARE(image.size(), size * scale);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("icicle.png"));
        QVERIFY(ImageExporter::savePng(image, path));
        QImage png(path);
        QCOMPARE(png.size(), size * scale);
        png.setDevicePixelRatio(scale); // a PNG file does not keep it
        // Each node's colour near the top of its box, half-way along it (text
        // sits lower, in the middle of the row).
        const double timeWidth = size.width() - TimeAxis::kGutter;
        for (const char* name : kNames) {
            const Interval& span = f.span(name);
            const double x = TimeAxis::kGutter + double(span.start + span.end) / 2 * timeWidth / double(1000 * us);
            const double y = f.view.spanRect(f.id(name)).top() + 2;
            QCOMPARE(pixelAt(png, QPointF(x, y)), rgb(f.document.colorOf(f.profile().measurement(span.measurement).label, 0)));
        }
        // The gutter is the gutter's colour below the track header.
        QCOMPARE(pixelAt(png, QPointF(10, size.height() - 5)), rgb(ColorScheme::gutter().rgb()));
    }

    // Sub-pixel runs are merged: no column of a run is left blank, and a wide
    // interval right after a run is drawn in its own colour.
    void levelOfDetailLeavesNoGaps()
    {
        QByteArray json = "[";
        for (int i = 0; i < 20000; ++i)
            json += "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"f" + QByteArray::number(i % 7) + "\",\"ts\":"
                + QByteArray::number(i) + ",\"dur\":1},";
        json += "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"tail\",\"ts\":20000,\"dur\":20000}]";
        Fixture f(loadedText(json));
        QCOMPARE(f.profile().intervalCount(), std::size_t(20001));
        const QImage image = ImageExporter::icicle(f.view, QSize(TimeAxis::kGutter + kTimeWidth, 100));
        const int y = int(f.view.spanRect(f.id("tail")).top()) + 2;
        const QRgb background = rgb(ColorScheme::background().rgb());
        for (int x = TimeAxis::kGutter; x < TimeAxis::kGutter + kTimeWidth; ++x)
            QVERIFY2(pixelAt(image, QPointF(x, y)) != background, qPrintable(QStringLiteral("blank column %1").arg(x)));
        const QRgb tail = rgb(f.document.colorOf(f.profile().measurement(f.span("tail").measurement).label, 0));
        QCOMPARE(pixelAt(image, QPointF(TimeAxis::kGutter + 600, y)), tail);
        QCOMPARE(pixelAt(image, QPointF(TimeAxis::kGutter + 402, y)), tail);
        // A merged column takes the colour of the interval under its centre
        // (column 100 spans 5000..5050 µs: f(5025) is "f6"), half greyed.
        const QColor f6 = QColor::fromRgb(f.document.colorOf(f.profile().measurement(byName(f.profile(), "f6")).label, 0));
        const QColor grey = ColorScheme::merged();
        const QColor mixed((f6.red() + grey.red()) / 2, (f6.green() + grey.green()) / 2, (f6.blue() + grey.blue()) / 2);
        QCOMPARE(pixelAt(image, QPointF(TimeAxis::kGutter + 100, y)), rgb(mixed.rgb()));
    }

    // A focused label (the rank's row) keeps its colours; the others fade.
    void focusDimsTheOtherLabels_data()
    {
        QTest::addColumn<QString>("focus");
        QTest::addColumn<QString>("search");
        QTest::addColumn<QStringList>("highlighted");
        QTest::newRow("focus render") << "render" << "" << QStringList{"render"};
        QTest::newRow("search 'r'") << "" << "r" << QStringList{"parse", "render", "work"};
        QTest::newRow("search regex") << "" << "/^(main|layout)$/" << QStringList{"main", "layout"};
        QTest::newRow("nothing") << "" << "" << QStringList{"main", "parse", "tokenize", "render", "layout", "work"};
    }
    void focusDimsTheOtherLabels()
    {
        QFETCH(QString, focus);
        QFETCH(QString, search);
        QFETCH(QStringList, highlighted);
        Fixture f(m_loaded);
        if (!focus.isEmpty())
            f.document.setFocusLabel(f.profile().measurement(f.span(focus.toUtf8().constData()).measurement).label);
        f.document.setSearch(search);
        const QImage image = ImageExporter::icicle(f.view, QSize(TimeAxis::kGutter + kTimeWidth, 200));
        for (const char* name : kNames) {
            const LabelId label = f.profile().measurement(f.span(name).measurement).label;
            const QRgb own = rgb(f.document.labelColor(label));
            const QRgb expected = highlighted.contains(QString::fromLatin1(name)) ? own : rgb(ColorScheme::dimmed(own));
            // Inside the box, clear of the outline and of the label text.
            const QRectF box = f.view.spanRect(f.id(name));
            QCOMPARE(pixelAt(image, QPointF(box.center().x(), box.top() + 3)), expected);
        }
    }

    // Sub-pixel occurrences of a focused label are marked in every column
    // that holds one, over the merged blocks.
    void marksSubPixelOccurrences()
    {
        QByteArray json = "[";
        for (int i = 0; i < 20000; ++i)
            json += "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"f" + QByteArray::number(i % 7 == 3 ? 3 : i % 7 == 0 ? 0 : 1)
                + "\",\"ts\":" + QByteArray::number(i) + ",\"dur\":1},";
        json += "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"tail\",\"ts\":20000,\"dur\":20000}]";
        Fixture f(loadedText(json));
        const LabelId f3 = byName(f.profile(), "f3") == kNone ? kNone : f.profile().measurement(byName(f.profile(), "f3")).label;
        QVERIFY(f3 != kNone);
        f.document.setFocusLabel(f3);
        const QImage image = ImageExporter::icicle(f.view, QSize(TimeAxis::kGutter + kTimeWidth, 100));
        const int y = int(f.view.spanRect(f.id("tail")).top()) + 2;
        const QRgb color = rgb(f.document.labelColor(f3));
        // Every 50 µs column of the first half holds about seven of them.
        for (int x = 0; x < 400; ++x)
            QCOMPARE(pixelAt(image, QPointF(TimeAxis::kGutter + x, y)), color);
        // The tail is another label: dimmed.
        const QRgb tail = rgb(f.document.labelColor(f.profile().measurement(f.span("tail").measurement).label));
        QCOMPARE(pixelAt(image, QPointF(TimeAxis::kGutter + 600, y)), rgb(ColorScheme::dimmed(tail)));
    }

    // One call of no length: the axis is 1 ns over 800 px, so a column's
    // boundary rounds to the call's own start. Marking it once looped
    // forever (the rank view of `runlane-cli render` hung on it).
    void marksAZeroLengthCallOnANanosecondAxis()
    {
        Fixture f(loadedText(JSON([{"ph" : "X", "pid" : 1, "tid" : 1, "name" : "a", "ts" : 0, "dur" : 0}])));
        QCOMPARE(f.axis.boundsEnd() - f.axis.boundsStart(), Time(1));
        f.document.setFocusLabel(f.profile().measurement(f.id("a")).label);
        const QImage image = ImageExporter::icicle(f.view, QSize(TimeAxis::kGutter + kTimeWidth, 100));
        const int y = int(f.view.spanRect(f.id("a")).top()) + 2;
        QCOMPARE(pixelAt(image, QPointF(TimeAxis::kGutter, y)), rgb(f.document.labelColor(f.profile().measurement(f.id("a")).label)));
    }

    void aggregatedModeZoomsOnTheMergedAxis()
    {
        Fixture f(m_loaded);
        f.document.setAggregated(true);
        f.document.finishPendingWork();
        QVERIFY(f.view.source());
        // Per track, root paths side by side: main thread 1000 µs wide, worker 600 µs.
        QCOMPARE(f.axis.boundsEnd() - f.axis.boundsStart(), 1000 * us);
        const IcicleSource& source = *f.view.source();
        QCOMPARE(source.trackCount(), std::size_t(2));
        QCOMPARE(source.depthCount(0), 3);
        // Depth 1 of the main thread: render (400 µs) before parse (300 µs).
        const auto children = source.depthSlice(0, 1);
        QCOMPARE(children.size(), std::size_t(2));
        QCOMPARE(f.profile().labelName(source.labelOf(children[0])), "render");
        QCOMPARE(children[0].end - children[0].start, 400 * us);
        QCOMPARE(f.profile().labelName(source.labelOf(children[1])), "parse");
        const std::uint32_t parse = source.idOf(children[1]);
        QTest::mouseDClick(&f.view, Qt::LeftButton, Qt::NoModifier, f.view.spanRect(parse).center().toPoint());
        QCOMPARE(f.axis.visibleStart(), children[1].start);
        QCOMPARE(f.axis.visibleEnd(), children[1].end);
        QCOMPARE(f.view.selectedSpan(), parse);
    }

    // Two overlapping tasks of 5e18 ns: merged side by side, the axis runs
    // to the largest time. Both are painted, q up to the view's right edge
    // (the visible slice was once asked for up to `end + 1`, which wrapped).
    void aggregatedAxisUpToTheLargestTime()
    {
        Fixture f(loadedFile(dataPath(QStringLiteral("profiles/chrome-158-years.json"))));
        f.document.setAggregated(true);
        f.document.finishPendingWork();
        QVERIFY(f.view.source());
        QCOMPARE(f.axis.boundsStart(), Time(0));
        QCOMPARE(f.axis.boundsEnd(), kTimeMax);
        const IcicleSource& source = *f.view.source();
        const auto roots = source.depthSlice(0, 0);
        QCOMPARE(roots.size(), std::size_t(2));
        const QImage image = ImageExporter::icicle(f.view, QSize(TimeAxis::kGutter + kTimeWidth, 120), 1.0);
        // p covers [0, 5e18): 433.7 px of 800; q the rest.
        const std::pair<double, std::size_t> probes[] = {{2, 0}, {430, 0}, {437, 1}, {kTimeWidth - 2, 1}};
        for (const auto& [x, root] : probes) {
            const double y = f.view.spanRect(source.idOf(roots[root])).top() + 2;
            QCOMPARE(pixelAt(image, QPointF(TimeAxis::kGutter + x, y)), rgb(f.document.colorOf(source.labelOf(roots[root]), 0)));
        }
        QCOMPARE(f.view.spanRect(source.idOf(roots[1])).right(), double(TimeAxis::kGutter + kTimeWidth));
    }

private:
    LoadedProfile m_loaded;
};

QTEST_MAIN(TestIcicleView)
#include "tst_icicleview.moc"
