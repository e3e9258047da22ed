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

private:
    LoadedProfile m_loaded;
};

QTEST_MAIN(TestCriticalPathPainter)
#include "tst_criticalpathpainter.moc"
