#include "colorscheme.h"
#include "flowpainter.h"
#include "icicleview.h"
#include "imageexporter.h"
#include "profiledocument.h"
#include "timeaxis.h"
#include "widgettestsupport.h"

#include <QStyle>
#include <QtTest>

using namespace runlane;
using namespace runlane::test;

namespace {

// requestReply() (widgettestsupport.h) spans 900 µs over these 800 px.
constexpr int kTimeWidth = 800;

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
    // The index of the flow from `from` to `to`.
    std::uint32_t flow(const char* from, const char* to) const
    {
        for (std::uint32_t k = 0; k < profile().flows().size(); ++k) {
            if (profile().flows()[k].from == id(from) && profile().flows()[k].to == id(to))
                return k;
        }
        return kNone;
    }
    QImage image() const
    {
        return ImageExporter::icicle(view, view.size() - QSize(view.style()->pixelMetric(QStyle::PM_ScrollBarExtent), 0));
    }
};

// Whether, near each of three points along the line, a pixel is closer to
// `color` than to `other` and to what lies under the arrow there (the
// plot's background, a track's header band): the line is drawn in it.
bool lineHasColor(const QImage& image, const QLineF& line, QColor color, QColor other)
{
    for (const double t : {0.25, 0.5, 0.75}) {
        const QPointF at = line.pointAt(t);
        bool found = false;
        for (int dx = -1; dx <= 1 && !found; ++dx) {
            for (int dy = -1; dy <= 1 && !found; ++dy) {
                const QColor pixel = QColor::fromRgb(pixelAt(image, at + QPointF(dx, dy)));
                const double d = ColorScheme::distance(pixel, color);
                found = d < ColorScheme::distance(pixel, other) && d < ColorScheme::distance(pixel, ColorScheme::background())
                    && d < ColorScheme::distance(pixel, ColorScheme::header());
            }
        }
        if (!found)
            return false;
    }
    return true;
}

} // namespace

class TestFlowPainter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        m_loaded = loadedText(requestReply());
        QVERIFY(!m_loaded.isNull());
        QCOMPARE(m_loaded.profile->flows().size(), std::size_t(2));
    }

    void arrowLine_data()
    {
        QTest::addColumn<QRectF>("from");
        QTest::addColumn<QRectF>("to");
        QTest::addColumn<QLineF>("line");
        QTest::newRow("source spans the target's start: straight down")
            << QRectF(0, 0, 100, 20) << QRectF(40, 60, 50, 20) << QLineF(40, 10, 40, 70);
        QTest::newRow("target later: from the source's end")
            << QRectF(0, 0, 100, 20) << QRectF(300, 60, 50, 20) << QLineF(100, 10, 300, 70);
        QTest::newRow("target earlier: from the source's start")
            << QRectF(200, 60, 100, 20) << QRectF(50, 0, 50, 20) << QLineF(200, 70, 50, 10);
    }
    void arrowLine()
    {
        QFETCH(QRectF, from);
        QFETCH(QRectF, to);
        QFETCH(QLineF, line);
        QCOMPARE(FlowPainter::arrowLine(from, to), line);
    }

    // Only flows with an end in a visible row within the visible range are
    // looked at; the selected interval's always.
    void flowsInView_data()
    {
        QTest::addColumn<qint64>("fromUs");
        QTest::addColumn<qint64>("toUs");
        QTest::addColumn<QString>("selected");
        QTest::addColumn<int>("limit");
        QTest::addColumn<int>("count");
        QTest::newRow("all") << qint64(0) << qint64(900) << QString() << 100 << 2;
        QTest::newRow("all, at the limit") << qint64(0) << qint64(900) << QString() << 2 << 2;
        QTest::newRow("over the limit: none") << qint64(0) << qint64(900) << QString() << 1 << 0;
        QTest::newRow("over the limit: the selected's")
            << qint64(0) << qint64(900) << QStringLiteral("reply") << 1 << 1;
        QTest::newRow("only post") << qint64(0) << qint64(100) << QString() << 100 << 1;
        QTest::newRow("only handle") << qint64(300) << qint64(310) << QString() << 100 << 2;
        QTest::newRow("nothing") << qint64(550) << qint64(650) << QString() << 100 << 0;
        QTest::newRow("nothing, handle selected") << qint64(550) << qint64(650) << QStringLiteral("handle") << 100 << 2;
        QTest::newRow("nothing, reply selected") << qint64(550) << qint64(650) << QStringLiteral("reply") << 100 << 1;
    }
    void flowsInView()
    {
        QFETCH(qint64, fromUs);
        QFETCH(qint64, toUs);
        QFETCH(QString, selected);
        QFETCH(int, limit);
        QFETCH(int, count);
        const Profile& p = *m_loaded.profile;
        const IntervalId chosen = selected.isEmpty() ? kNone : intervalNamed(p, selected.toStdString());
        const FlowPainter painter(p, [](IntervalId) { return QRectF(); });
        const std::vector<FlowPainter::Row> rows{{0, 0}, {1, 0}};
        QCOMPARE(int(painter.flowsInView(rows, p.startTime() + fromUs * 1000, p.startTime() + toUs * 1000, chosen,
                                         std::size_t(limit))
                         .size()),
                 count);
    }

    // An arrow with both ends out of the visible range is looked at when
    // it crosses the whole range, both ends are laid out and it passes over
    // the rows' area; the density limit counts it as any other. Boxes here
    // are placed 1 px per µs, track t's row at y = 40 t - scroll, 20 high,
    // in an area 100 high; post → handle spans 100-300 µs, handle → reply
    // 500-700 µs.
    void crossingFlowsInView_data()
    {
        QTest::addColumn<qint64>("fromUs");
        QTest::addColumn<qint64>("toUs");
        QTest::addColumn<bool>("laidOut");
        QTest::addColumn<int>("scroll");
        QTest::addColumn<int>("limit");
        QTest::addColumn<QStringList>("flows");
        const QStringList none;
        const QStringList postHandle{QStringLiteral("post>handle")};
        const QStringList handleReply{QStringLiteral("handle>reply")};
        QTest::newRow("between post and handle") << qint64(150) << qint64(250) << true << 0 << 100 << postHandle;
        QTest::newRow("between handle and reply") << qint64(550) << qint64(650) << true << 0 << 100 << handleReply;
        QTest::newRow("the arrow's whole span") << qint64(101) << qint64(300) << true << 0 << 100 << postHandle;
        QTest::newRow("post in view: met by its row") << qint64(99) << qint64(250) << false << 0 << 100 << postHandle;
        QTest::newRow("to handle's start: the arrow's end is at the edge")
            << qint64(150) << qint64(300) << true << 0 << 100 << postHandle;
        QTest::newRow("in handle: both, met by its row")
            << qint64(320) << qint64(480) << false << 0 << 100 << postHandle + handleReply;
        QTest::newRow("past the last arrow") << qint64(950) << qint64(990) << true << 0 << 100 << none;
        QTest::newRow("ends not laid out") << qint64(150) << qint64(250) << false << 0 << 100 << none;
        QTest::newRow("the arrow's rows scrolled above the area")
            << qint64(150) << qint64(250) << true << 100 << 100 << none;
        QTest::newRow("the arrow's rows below the area") << qint64(150) << qint64(250) << true << -200 << 100 << none;
        QTest::newRow("only its end row above the area: it still passes over")
            << qint64(150) << qint64(250) << true << 30 << 100 << postHandle;
        QTest::newRow("over the limit") << qint64(150) << qint64(250) << true << 0 << 0 << none;
    }
    void crossingFlowsInView()
    {
        QFETCH(qint64, fromUs);
        QFETCH(qint64, toUs);
        QFETCH(bool, laidOut);
        QFETCH(int, scroll);
        QFETCH(int, limit);
        QFETCH(QStringList, flows);
        const Profile& p = *m_loaded.profile;
        auto locate = [&](IntervalId id) {
            if (!laidOut)
                return QRectF();
            const Interval& iv = p.interval(id);
            return QRectF(double(iv.start - p.startTime()) / 1000, 40.0 * p.trackOf(id) - scroll,
                          double(iv.end - iv.start) / 1000, 20);
        };
        const FlowPainter painter(p, locate, m_loaded.flowSpans.get(), 100);
        const std::vector<FlowPainter::Row> rows{{0, 0}, {1, 0}};
        QStringList found;
        for (const std::uint32_t k : painter.flowsInView(rows, p.startTime() + fromUs * 1000,
                                                         p.startTime() + toUs * 1000, kNone, std::size_t(limit))) {
            auto name = [&p](IntervalId id) {
                return QString::fromUtf8(p.labelName(p.measurement(p.interval(id).measurement).label));
            };
            found << name(p.flows()[k].from) + QLatin1Char('>') + name(p.flows()[k].to);
        }
        QCOMPARE(found, flows);
    }

    // On the real view: which arrows are drawn (flowLine) for a visible
    // range between two ends, and that the one crossing it is on screen in
    // the flow colour.
    void drawsArrowsCrossingTheView_data()
    {
        QTest::addColumn<qint64>("fromUs");
        QTest::addColumn<qint64>("toUs");
        QTest::addColumn<bool>("collapseWorker");
        QTest::addColumn<bool>("postHandle");
        QTest::addColumn<bool>("handleReply");
        QTest::addColumn<bool>("crossing"); // the arrows drawn have both ends out of view
        QTest::newRow("between post and handle") << qint64(150) << qint64(250) << false << true << false << true;
        QTest::newRow("between handle and reply") << qint64(550) << qint64(650) << false << false << true << true;
        QTest::newRow("between post and handle, worker collapsed")
            << qint64(150) << qint64(250) << true << false << false << true;
        QTest::newRow("in handle: both its arrows") << qint64(320) << qint64(480) << false << true << true << false;
        QTest::newRow("whole profile") << qint64(0) << qint64(900) << false << true << true << false;
        QTest::newRow("past reply's start") << qint64(750) << qint64(850) << false << false << true << false;
    }
    void drawsArrowsCrossingTheView()
    {
        QFETCH(qint64, fromUs);
        QFETCH(qint64, toUs);
        QFETCH(bool, collapseWorker);
        QFETCH(bool, postHandle);
        QFETCH(bool, handleReply);
        QFETCH(bool, crossing);
        Fixture f(m_loaded);
        const Time start = f.profile().startTime();
        f.axis.setVisibleRange(start + fromUs * 1000, start + toUs * 1000);
        QCOMPARE(f.axis.visibleStart(), start + fromUs * 1000);
        QCOMPARE(f.axis.visibleEnd(), start + toUs * 1000);
        if (collapseWorker)
            f.view.setTrackCollapsed(1, true);
        const QLineF first = f.view.flowLine(f.flow("post", "handle"));
        const QLineF second = f.view.flowLine(f.flow("handle", "reply"));
        QCOMPARE(!first.isNull(), postHandle);
        QCOMPARE(!second.isNull(), handleReply);
        // An arrow crossing the view runs from left of the plot to right of it.
        for (const QLineF& line : {first, second}) {
            if (line.isNull() || !crossing)
                continue;
            QVERIFY(line.x1() < TimeAxis::kGutter);
            QVERIFY(line.x2() > TimeAxis::kGutter + kTimeWidth);
            // Its part over the plot, from x = 10 px to 90 % of the width.
            const double t0 = (TimeAxis::kGutter + 10 - line.x1()) / line.dx();
            const double t1 = (TimeAxis::kGutter + 0.9 * kTimeWidth - line.x1()) / line.dx();
            QVERIFY(lineHasColor(f.image(), QLineF(line.pointAt(t0), line.pointAt(t1)), ColorScheme::flow(),
                                 ColorScheme::selection()));
        }
    }

    // The arrow runs from post's row to handle's start, drawn in the flow
    // colour, and in the selection's once one of its ends is selected.
    void paintsTheArrowBetweenTheBoxes()
    {
        Fixture f(m_loaded);
        const std::uint32_t k = f.flow("post", "handle");
        QVERIFY(k != kNone);
        const QLineF line = f.view.flowLine(k);
        QVERIFY(!line.isNull());
        const QRectF post = f.view.spanRect(f.id("post"));
        const QRectF handle = f.view.spanRect(f.id("handle"));
        QCOMPARE(line.p1(), QPointF(post.right(), post.center().y()));
        QCOMPARE(line.p2(), QPointF(handle.left(), handle.center().y()));
        QCOMPARE(handle.left(), TimeAxis::kGutter + 300.0 * kTimeWidth / 900.0); // 300 µs of 900
        QVERIFY(lineHasColor(f.image(), line, ColorScheme::flow(), ColorScheme::selection()));
        f.axis.selectItem(f.id("handle"), f.profile().interval(f.id("handle")).measurement);
        QVERIFY(lineHasColor(f.image(), line, ColorScheme::selection(), ColorScheme::flow()));
    }

    // An end whose row is not laid out (a collapsed track) draws nothing.
    void noArrowIntoACollapsedTrack()
    {
        Fixture f(m_loaded);
        const std::uint32_t k = f.flow("post", "handle");
        QVERIFY(!f.view.flowLine(k).isNull());
        f.view.setTrackCollapsed(1, true);
        QVERIFY(f.view.flowLine(k).isNull());
        // Revealing handle expands its track again.
        f.document.revealInterval(f.id("handle"));
        QVERIFY(!f.view.isTrackCollapsed(1));
        QCOMPARE(f.axis.selectedInterval(), f.id("handle"));
        QVERIFY(!f.view.flowLine(k).isNull());
    }

private:
    LoadedProfile m_loaded;
};

QTEST_MAIN(TestFlowPainter)
#include "tst_flowpainter.moc"
