#include "colorscheme.h"
#include "criticalpathpainter.h"
#include "criticalpathstate.h"
#include "icicleview.h"
#include "imageexporter.h"
#include "profiledocument.h"
#include "tasklaneview.h"
#include "timeaxis.h"
#include "widgettestsupport.h"

#include <QPainter>
#include <QRegion>
#include <QStyle>
#include <QtTest>

#include <cmath>

using namespace runlane;
using namespace runlane::test;

namespace {

// semantics.md §9's worked example spans 52 ticks over these 800 px.
constexpr int kTimeWidth = 800;
constexpr int kHeight = 300;

struct Fixture {
    TimeAxis axis;
    ProfileDocument document{&axis};
    TaskLaneView lanes{&document};
    IcicleView icicle{&document};

    explicit Fixture(const LoadedProfile& loaded)
    {
        const int scrollBar = lanes.style()->pixelMetric(QStyle::PM_ScrollBarExtent);
        lanes.resize(TimeAxis::kGutter + kTimeWidth + scrollBar, kHeight);
        icicle.resize(TimeAxis::kGutter + kTimeWidth + scrollBar, kHeight);
        document.setProfile(loaded);
        lanes.show();
        icicle.show();
    }
    const Profile& profile() const { return *document.profile(); }
    MeasurementId task(const char* name) const { return byName(profile(), name); }
    CriticalPathState& path() { return *document.criticalPath(); }
    double xOf(Time t) const { return TimeAxis::kGutter + axis.xFor(t, kTimeWidth); }
    QRect lane(const char* name) const { return lanes.rowRect(task(name)); }
    // The box of `name`'s interval that holds instant t.
    QRectF box(const char* name, Time t) const
    {
        for (const IntervalId id : profile().intervalsOf(task(name))) {
            if (profile().interval(id).start <= t && t < profile().interval(id).end)
                return icicle.spanRect(id);
        }
        return {};
    }
    QImage lanesImage() const { return ImageExporter::lanes(lanes, QSize(TimeAxis::kGutter + kTimeWidth, kHeight)); }
    QImage icicleImage() const { return ImageExporter::icicle(icicle, QSize(TimeAxis::kGutter + kTimeWidth, kHeight)); }
};

// What `over` painted on a pixel of colour `under` gives, as the views'
// exports paint it.
QRgb blended(QRgb under, const QColor& over, QImage::Format format)
{
    QImage one(1, 1, format);
    one.fill(QColor::fromRgb(under));
    QPainter p(&one);
    p.fillRect(QRect(0, 0, 1, 1), over);
    p.end();
    return rgb(one.pixel(0, 0));
}

// Pixels of exactly `color` among the `columns` columns from x on row y.
int count(const QImage& image, double x, double y, int columns, QColor color)
{
    int n = 0;
    for (int i = 0; i < columns; ++i)
        n += pixelAt(image, QPointF(std::floor(x) + i + 0.2, y)) == rgb(color.rgb());
    return n;
}

// The least OKLab distance to `color` among the 3 × 3 pixels around a point.
double nearest(const QImage& image, QPointF at, QColor color)
{
    double best = 1e9;
    for (int dx = -1; dx <= 1; ++dx) {
        for (int dy = -1; dy <= 1; ++dy)
            best = std::min(best, ColorScheme::distance(QColor::fromRgb(pixelAt(image, at + QPointF(dx, dy))), color));
    }
    return best;
}


// A Chronos log: handler runs 0–2n and calls n procs `child` in turn, each
// synchronously for one tick at 2i+1: a path of 2n running segments, one
// tick each, on two lanes (handler's, and the children's one lane below).
QByteArray childCalls(int n)
{
    QByteArray text = R"({"chronosFutureEvents": 1, "loop": "main", "events": [
{"t": 0, "id": 1, "state": "Pending", "proc": "handler", "file": "app.nim", "line": 10},
{"t": 0, "id": 1, "state": "Running"})";
    for (int i = 0; i < n; ++i) {
        const QByteArray id = QByteArray::number(i + 2);
        const QByteArray t = QByteArray::number(2 * i + 1);
        text += ",\n{\"t\": " + t + ", \"id\": " + id + R"(, "state": "Pending", "proc": "child", "file": "app.nim", "line": 20})";
        text += ",\n{\"t\": " + t + ", \"id\": " + id + R"(, "state": "Running"})";
        text += ",\n{\"t\": " + QByteArray::number(2 * i + 2) + ", \"id\": " + id + R"(, "state": "Completed"})";
    }
    text += ",\n{\"t\": " + QByteArray::number(2 * n) + R"(, "id": 1, "state": "Completed"}]})";
    return text;
}

// One lane per label, 10 px high from y = 10 × label: every child on one.
QRectF laneOfLabel(const Profile& p, MeasurementId m, double width)
{
    return QRectF(0, 10.0 * p.measurement(m).label, width, 10);
}

// Marks as "label left-right" (the lane's label, x to 2 places) in order.
QStringList describe(const Profile& p, const std::vector<QRectF>& rects)
{
    QStringList out;
    for (const QRectF& r : rects) {
        const LabelId label = LabelId(std::lround((r.top() - 1) / 10));
        out << QStringLiteral("%1 %2-%3").arg(qstr(p.labelName(label))).arg(r.left(), 0, 'f', 2).arg(r.right(), 0, 'f', 2);
    }
    return out;
}

// The pixels of a region, counted over its rects (which do not overlap).
qint64 pixels(const QRegion& region)
{
    qint64 n = 0;
    for (const QRect& r : region)
        n += qint64(r.width()) * r.height();
    return n;
}

} // namespace

class TestCriticalPathPainter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        m_loaded = loadedFile(dataPath(QStringLiteral("profiles/chronos-critical-path.json")));
        QVERIFY(!m_loaded.isNull());
    }

    // handler's running segments (0–5, 8–10, 50–52) and query's (5–8,
    // 40–46, named query: its own lane) are outlined on the lanes: the
    // segment's first columns in the outline colour, its middle left as it
    // was drawn.
    void outlinesRunningSegmentsOnTheLanes_data()
    {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<Time>("start");
        QTest::addColumn<Time>("end");
        QTest::newRow("handler 0-5") << QByteArray("handler") << Time(0) << Time(5);
        QTest::newRow("query 5-8") << QByteArray("query") << Time(5) << Time(8);
        QTest::newRow("handler 8-10") << QByteArray("handler") << Time(8) << Time(10);
        QTest::newRow("query 40-46") << QByteArray("query") << Time(40) << Time(46);
        QTest::newRow("handler 50-52") << QByteArray("handler") << Time(50) << Time(52);
    }
    void outlinesRunningSegmentsOnTheLanes()
    {
        QFETCH(QByteArray, name);
        QFETCH(Time, start);
        QFETCH(Time, end);
        Fixture f(m_loaded);
        const QImage before = f.lanesImage();
        QVERIFY(f.path().show(f.task("handler")));
        const QImage after = f.lanesImage();
        const QRect lane = f.lane(name.constData());
        QVERIFY(!lane.isEmpty());
        const QColor outline = CriticalPathPainter::outline();
        // Above the middle, where a wake's arrow head (at the resume, on
        // the middle) does not reach.
        const double edge = lane.top() + 4.2;
        QCOMPARE(pixelAt(after, QPointF(f.xOf(start) + 0.8, edge)), rgb(outline.rgb()));
        QCOMPARE(pixelAt(after, QPointF(f.xOf(end) - 0.8, edge)), rgb(outline.rgb()));
        QCOMPARE(pixelAt(after, QPointF((f.xOf(start) + f.xOf(end)) / 2, lane.top() + 1.8)), rgb(outline.rgb()));
        const QPointF inside((f.xOf(start) + f.xOf(end)) / 2, lane.center().y());
        QCOMPARE(pixelAt(after, inside), pixelAt(before, inside));
        // Cleared, the lanes are as before, to the pixel.
        f.path().clear();
        QCOMPARE(f.lanesImage(), before);
    }

    // Queued and idle spans are hatched on the lane of the task that was
    // ready: query 11–40 (idle, then behind other), handler 46–50 (behind
    // flush). The hatch's period is 8 px: one pixel in 8 of a row.
    void hatchesQueuedSpans_data()
    {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<Time>("start");
        QTest::addColumn<int>("columns");
        QTest::addColumn<int>("hatched");
        QTest::newRow("query behind other") << QByteArray("query") << Time(14) << 320 << 40;
        QTest::newRow("handler behind flush") << QByteArray("handler") << Time(46) << 56 << 7;
    }
    void hatchesQueuedSpans()
    {
        QFETCH(QByteArray, name);
        QFETCH(Time, start);
        QFETCH(int, columns);
        QFETCH(int, hatched);
        Fixture f(m_loaded);
        const QRect lane = f.lane(name.constData());
        const double y = lane.top() + 5.2;
        QCOMPARE(count(f.lanesImage(), f.xOf(start) + 2, y, columns, CriticalPathPainter::queuedHatch()), 0);
        QVERIFY(f.path().show(f.task("handler")));
        QCOMPARE(count(f.lanesImage(), f.xOf(start) + 2, y, columns, CriticalPathPainter::queuedHatch()), hatched);
        f.path().clear();
        QCOMPARE(count(f.lanesImage(), f.xOf(start) + 2, y, columns, CriticalPathPainter::queuedHatch()), 0);
    }

    // The blockers (other 12–40, flush 46–50) are tinted where they ran
    // while the path waited, on their lanes and their icicle boxes; what
    // is off the path is veiled: sleepAsync's lane before it waited on the
    // path, and on the icicle handler's box under query's (5–8: query was
    // the innermost running, handler's box is not what ran).
    void tintsBlockersAndVeilsTheRest()
    {
        Fixture f(m_loaded);
        const QImage lanesBefore = f.lanesImage();
        const QImage icicleBefore = f.icicleImage();
        QVERIFY(f.path().show(f.task("handler")));
        const QImage lanes = f.lanesImage();
        const QImage icicle = f.icicleImage();
        const QColor tint = CriticalPathPainter::blockerTint();
        const QColor veil = CriticalPathPainter::veil();
        auto expect = [](const QImage& before, const QImage& after, QPointF at, const QColor& over) {
            const QRgb want = blended(pixelAt(before, at), over, after.format());
            QVERIFY2(want != pixelAt(before, at), "the overlay changes the pixel");
            QCOMPARE(pixelAt(after, at), want);
        };
        expect(lanesBefore, lanes, QPointF(f.xOf(26), f.lane("other").center().y()), tint);
        expect(lanesBefore, lanes, QPointF(f.xOf(48), f.lane("flush").center().y()), tint);
        expect(icicleBefore, icicle, f.box("other", 26).center(), tint);
        expect(icicleBefore, icicle, f.box("flush", 48).center(), tint);
        // Off the path: sleepAsync's pending hatch before 10 (it waited on
        // the path 10–11 only), handler's box under query's.
        expect(lanesBefore, lanes, QPointF(f.xOf(8) + 0.2, f.lane("sleepAsync").center().y()), veil);
        const QRectF handler = f.box("handler", 6);
        expect(icicleBefore, icicle, QPointF(f.xOf(6) + 0.2, handler.center().y()), veil);
        // The running boxes on the icicle: outlined over the segment, the
        // rest of the box as it was.
        const QRectF query = f.box("query", 41);
        QCOMPARE(pixelAt(icicle, QPointF(query.left() + 0.8, query.center().y())),
                 rgb(CriticalPathPainter::outline().rgb()));
        QCOMPARE(pixelAt(icicle, query.center()), pixelAt(icicleBefore, query.center()));
        f.path().clear();
        QCOMPARE(f.lanesImage(), lanesBefore);
        QCOMPARE(f.icicleImage(), icicleBefore);
    }

    // A segment of part of a box outlines that part only: handler's box
    // 0–10 ran on the path 0–5 and 8–10, query's box inside it 5–8.
    void outlinesOnlyTheSegmentOfABox()
    {
        Fixture f(m_loaded);
        QVERIFY(f.path().show(f.task("handler")));
        const QImage icicle = f.icicleImage();
        const double y = f.box("handler", 1).center().y();
        const QRgb outline = rgb(CriticalPathPainter::outline().rgb());
        QCOMPARE(pixelAt(icicle, QPointF(f.xOf(0) + 0.8, y)), outline);
        QCOMPARE(pixelAt(icicle, QPointF(f.xOf(5) - 0.8, y)), outline);
        QCOMPARE(pixelAt(icicle, QPointF(f.xOf(8) + 0.8, y)), outline);
        QVERIFY(pixelAt(icicle, QPointF((f.xOf(6) + f.xOf(7)) / 2, y)) != outline);
    }

    // The wakes: sleepAsync's end (11) to query's resume (40), query's end
    // (46) to handler's resume (50), each an arrow from the waker's lane to
    // the woken task's, drawn in the wake colour along its length.
    void drawsWakeArrows_data()
    {
        QTest::addColumn<QByteArray>("waker");
        QTest::addColumn<QByteArray>("woken");
        QTest::addColumn<Time>("at");
        QTest::addColumn<Time>("resume");
        QTest::newRow("sleepAsync wakes query") << QByteArray("sleepAsync") << QByteArray("query") << Time(11) << Time(40);
        QTest::newRow("query wakes handler") << QByteArray("query") << QByteArray("handler") << Time(46) << Time(50);
    }
    void drawsWakeArrows()
    {
        QFETCH(QByteArray, waker);
        QFETCH(QByteArray, woken);
        QFETCH(Time, at);
        QFETCH(Time, resume);
        Fixture f(m_loaded);
        QVERIFY(f.path().show(f.task("handler")));
        const CriticalPathState::WakeEdge edge{f.task(waker.constData()), f.task(woken.constData()), at, resume};
        QVERIFY(std::find(f.path().wakes().begin(), f.path().wakes().end(), edge) != f.path().wakes().end());
        const QLineF line(f.xOf(at), f.lane(waker.constData()).center().y(), f.xOf(resume),
                          f.lane(woken.constData()).center().y());
        const QImage shown = f.lanesImage();
        f.path().clear();
        const QImage cleared = f.lanesImage();
        const QColor arrow = CriticalPathPainter::wakeArrow();
        for (const double t : {0.3, 0.5, 0.7}) {
            QVERIFY2(nearest(shown, line.pointAt(t), arrow) < 0.02, qPrintable(QString::number(t)));
            QVERIFY(nearest(cleared, line.pointAt(t), arrow) > 0.1);
        }
    }

    // Zoomed in to 30–44, the paint asks for the segments there only and
    // still draws the path: query's run from 40 outlined, other tinted.
    void drawsTheVisiblePartWhenZoomedIn()
    {
        Fixture f(m_loaded);
        f.axis.setVisibleRange(30, 44);
        QVERIFY(f.path().show(f.task("handler")));
        QCOMPARE(f.path().segmentsIn(30, 44).size(), std::size_t(2));
        const QImage lanes = f.lanesImage();
        QCOMPARE(pixelAt(lanes, QPointF(f.xOf(40) + 0.8, f.lane("query").center().y())),
                 rgb(CriticalPathPainter::outline().rgb()));
        f.path().clear();
        QVERIFY(pixelAt(f.lanesImage(), QPointF(f.xOf(40) + 0.8, f.lane("query").center().y()))
                != rgb(CriticalPathPainter::outline().rgb()));
    }

    // What a paint of the lanes marks, over §9's example (0–52 in `width`
    // px, a lane per label): wide, each running segment is outlined and
    // what meets on a row is one mark (query's idle 11–12 and queued
    // 12–40); at 1 px a tick the runs of at most two outlines' width are
    // solid; at 4 px for the whole life, handler's runs 0–5 and 8–10 meet
    // in one solid mark, as query's 5–8 and 40–46 do not.
    void lanesMarksOfTheExample_data()
    {
        QTest::addColumn<double>("width");
        QTest::addColumn<QStringList>("outlined");
        QTest::addColumn<QStringList>("solid");
        QTest::addColumn<QStringList>("hatched");
        QTest::addColumn<QStringList>("tinted");
        QTest::addColumn<QStringList>("plain");
        QTest::newRow("10 px a tick")
            << 520.0
            << QStringList{"handler 0.00-50.00", "query 50.00-80.00", "handler 80.00-100.00", "query 400.00-460.00",
                           "handler 500.00-520.00"}
            << QStringList{} << QStringList{"query 110.00-400.00", "handler 460.00-500.00"}
            << QStringList{"other 120.00-400.00", "flush 460.00-500.00"} << QStringList{"sleepAsync 100.00-110.00"};
        QTest::newRow("1 px a tick")
            << 52.0 << QStringList{"handler 0.00-5.00", "query 40.00-46.00"}
            << QStringList{"query 5.00-8.00", "handler 8.00-10.00", "handler 50.00-52.00"}
            << QStringList{"query 11.00-40.00", "handler 46.00-50.00"}
            << QStringList{"other 12.00-40.00", "flush 46.00-50.00"} << QStringList{"sleepAsync 10.00-11.00"};
        QTest::newRow("4 px in all")
            << 4.0 << QStringList{}
            << QStringList{"handler 0.00-1.62", "query 0.38-1.38", "query 3.08-4.08", "handler 3.85-4.85"}
            << QStringList{"query 0.85-3.08", "handler 3.54-4.54"} << QStringList{"other 0.92-3.08", "flush 3.54-4.54"}
            << QStringList{"sleepAsync 0.77-1.77"};
    }
    void lanesMarksOfTheExample()
    {
        QFETCH(double, width);
        QFETCH(QStringList, outlined);
        QFETCH(QStringList, solid);
        QFETCH(QStringList, hatched);
        QFETCH(QStringList, tinted);
        QFETCH(QStringList, plain);
        Fixture f(m_loaded);
        f.axis.setVisibleRange(0, 52);
        QVERIFY(f.path().show(f.task("handler")));
        const Profile& p = f.profile();
        const CriticalPathPainter painter(p, f.path(), f.axis, 0, width);
        const auto marks = painter.lanesMarks([&](MeasurementId m) { return laneOfLabel(p, m, width); });
        QCOMPARE(describe(p, marks.outlined), outlined);
        QCOMPARE(describe(p, marks.solid), solid);
        QCOMPARE(describe(p, marks.hatched), hatched);
        QCOMPARE(describe(p, marks.tinted), tinted);
        QCOMPARE(describe(p, marks.plain), plain);
    }

    // A path of 1,000 one-tick running segments (handler and 500 calls of
    // child, in turn) over 1,000 ticks: as many outlines as segments while
    // each is wider than two outlines (10 px a tick), as many solid marks
    // while they do not meet (2 and 1 px a tick), and once they are under
    // a pixel a solid run per lane, whatever the path's length.
    void lanesMarksMergeSubPixelRuns_data()
    {
        QTest::addColumn<double>("width");
        QTest::addColumn<int>("outlined");
        QTest::addColumn<int>("solid");
        QTest::addColumn<QStringList>("merged"); // the solid marks, if 2
        QTest::newRow("10 px a tick") << 10000.0 << 1000 << 0 << QStringList{};
        QTest::newRow("2 px a tick") << 2000.0 << 0 << 1000 << QStringList{};
        QTest::newRow("1 px a tick") << 1000.0 << 0 << 1000 << QStringList{};
        QTest::newRow("half a px a tick") << 500.0 << 0 << 2 << QStringList{"handler 0.00-500.00", "child 0.50-500.50"};
        QTest::newRow("a tenth of a px a tick") << 100.0 << 0 << 2 << QStringList{"handler 0.00-100.80", "child 0.10-100.90"};
    }
    void lanesMarksMergeSubPixelRuns()
    {
        QFETCH(double, width);
        QFETCH(int, outlined);
        QFETCH(int, solid);
        QFETCH(QStringList, merged);
        Fixture f(loadedText(childCalls(500), QStringLiteral("calls.json")));
        const Profile& p = f.profile();
        f.axis.setVisibleRange(0, 1000);
        QVERIFY(f.path().show(f.task("handler")));
        QCOMPARE(f.path().segments().size(), std::size_t(1000));
        const CriticalPathPainter painter(p, f.path(), f.axis, 0, width);
        const auto marks = painter.lanesMarks([&](MeasurementId m) { return laneOfLabel(p, m, width); });
        QCOMPARE(int(marks.outlined.size()), outlined);
        QCOMPARE(int(marks.solid.size()), solid);
        if (!merged.isEmpty())
            QCOMPARE(describe(p, marks.solid), merged);
    }

    // The icicle's marks, over the same calls: handler's box (depth 0) and
    // the children's (depth 1), rows of 20 px. The whole life in 100 px is
    // a solid run on each row (handler's cut at its box's end); zoomed in
    // to 100–120 the paint asks for those 20 segments only.
    void icicleMarksMergeSubPixelRuns_data()
    {
        QTest::addColumn<Time>("from");
        QTest::addColumn<Time>("to");
        QTest::addColumn<double>("width");
        QTest::addColumn<QStringList>("outlined");
        QTest::addColumn<QStringList>("solid");
        QTest::newRow("the whole life in 100 px")
            << Time(0) << Time(1000) << 100.0 << QStringList{} << QStringList{"0 0.00-100.00", "1 0.10-100.90"};
        // 5 px a tick: handler's run of 100–101 (depth 0), child's of
        // 101–102 (depth 1), and so on to 120, each outlined.
        QStringList outlined;
        for (int k = 0; k < 20; ++k)
            outlined << QStringLiteral("%1 %2-%3").arg(k % 2).arg(5.0 * k, 0, 'f', 2).arg(5.0 * k + 5, 0, 'f', 2);
        QTest::newRow("100-120 in 100 px") << Time(100) << Time(120) << 100.0 << outlined << QStringList{};
    }
    void icicleMarksMergeSubPixelRuns()
    {
        QFETCH(Time, from);
        QFETCH(Time, to);
        QFETCH(double, width);
        QFETCH(QStringList, outlined);
        QFETCH(QStringList, solid);
        Fixture f(loadedText(childCalls(500), QStringLiteral("calls.json")));
        const Profile& p = f.profile();
        f.axis.setVisibleRange(from, to);
        QVERIFY(f.path().show(f.task("handler")));
        const CriticalPathPainter painter(p, f.path(), f.axis, 0, width);
        auto boxOf = [&](IntervalId id) {
            const double x0 = f.axis.xFor(p.interval(id).start, width);
            const double x1 = std::max(x0 + 1, f.axis.xFor(p.interval(id).end, width));
            return QRectF(x0, 20.0 * p.depthOf(id), x1 - x0, 19);
        };
        auto rows = [](const std::vector<QRectF>& rects) {
            QStringList out;
            for (const QRectF& r : rects)
                out << QStringLiteral("%1 %2-%3").arg(r.top() / 20).arg(r.left(), 0, 'f', 2).arg(r.right(), 0, 'f', 2);
            return out;
        };
        const auto marks = painter.icicleMarks(boxOf);
        QCOMPARE(rows(marks.outlined), outlined);
        QCOMPARE(rows(marks.solid), solid);
    }

    // The veil is the area's pixels outside every mark (each widened to
    // whole pixels), in disjoint rects: band by band, the gaps between the
    // marks across it, and bands with the same gaps joined.
    void veilIsTheAreaBetweenTheMarks_data()
    {
        QTest::addColumn<QVector<QRectF>>("outlined");
        QTest::addColumn<QVector<QRectF>>("tinted");
        QTest::addColumn<QVector<QRect>>("veil");
        QTest::newRow("nothing marked") << QVector<QRectF>{} << QVector<QRectF>{} << QVector<QRect>{QRect(0, 0, 40, 20)};
        QTest::newRow("two marks on a row")
            << QVector<QRectF>{QRectF(10.5, 0, 20, 10)} << QVector<QRectF>{QRectF(35, 0, 2, 10)}
            << QVector<QRect>{QRect(0, 0, 10, 10), QRect(31, 0, 4, 10), QRect(37, 0, 3, 10), QRect(0, 10, 40, 10)};
        QTest::newRow("overlapping rows")
            << QVector<QRectF>{QRectF(0, 0, 10, 10)} << QVector<QRectF>{QRectF(5, 5, 10, 10)}
            << QVector<QRect>{QRect(10, 0, 30, 5), QRect(15, 5, 25, 5), QRect(0, 10, 5, 5), QRect(15, 10, 25, 5),
                              QRect(0, 15, 40, 5)};
        QTest::newRow("the same gaps on two rows, joined")
            << QVector<QRectF>{QRectF(10, 0, 10, 10)} << QVector<QRectF>{QRectF(10, 10, 10, 10)}
            << QVector<QRect>{QRect(0, 0, 10, 20), QRect(20, 0, 20, 20)};
        QTest::newRow("marks outside the area")
            << QVector<QRectF>{QRectF(-30, 0, 20, 10)} << QVector<QRectF>{QRectF(30, 15, 40, 100)}
            << QVector<QRect>{QRect(0, 0, 40, 15), QRect(0, 15, 30, 5)};
    }
    void veilIsTheAreaBetweenTheMarks()
    {
        QFETCH(QVector<QRectF>, outlined);
        QFETCH(QVector<QRectF>, tinted);
        QFETCH(QVector<QRect>, veil);
        const QRect area(0, 0, 40, 20);
        CriticalPathPainter::Marks marks;
        marks.outlined.assign(outlined.begin(), outlined.end());
        marks.tinted.assign(tinted.begin(), tinted.end());
        const std::vector<QRect> rects = CriticalPathPainter::veilRects(area, marks);
        QCOMPARE(QVector<QRect>(rects.begin(), rects.end()), veil);
        // The same pixels as the area less the marks' region, each once.
        QRegion expected(area);
        for (const QRectF& r : outlined + tinted)
            expected -= r.toAlignedRect();
        QRegion got;
        qint64 covered = 0;
        for (const QRect& r : rects) {
            got += r;
            covered += qint64(r.width()) * r.height();
        }
        QCOMPARE(got, expected);
        QCOMPARE(covered, pixels(expected));
    }

private:
    LoadedProfile m_loaded;
};

QTEST_MAIN(TestCriticalPathPainter)
#include "tst_criticalpathpainter.moc"
