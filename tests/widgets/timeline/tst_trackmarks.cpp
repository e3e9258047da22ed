#include "detailspane.h"
#include "ensomessages.h"
#include "icicleview.h"
#include "profiledocument.h"
#include "timeaxis.h"
#include "widgettestsupport.h"

#include <QPainter>
#include <QStyle>
#include <QtTest>

using namespace runlane;
using namespace runlane::test;

namespace {

constexpr int kTimeWidth = 600;

// A call over [0, 1000) µs on one thread and `count` thread instants
// spread evenly over [0, 1000) µs (ts in hundredths of a µs, as written).
QByteArray evenMarks(int count)
{
    QByteArray text = R"({"traceEvents":[{"ph":"X","pid":1,"tid":1,"name":"call","ts":0,"dur":1000})";
    const qint64 step = 100000 / count; // hundredths of a µs
    for (int k = 0; k < count; ++k) {
        const qint64 at = step * k;
        text += R"(,{"ph":"i","s":"t","pid":1,"tid":1,"name":"m","ts":)" + QByteArray::number(at / 100) + '.'
            + QByteArray::number(at % 100).rightJustified(2, '0') + '}';
    }
    return text + "]}";
}


// The icicle in a window, with a time area kTimeWidth px wide.
struct Fixture {
    TimeAxis axis;
    ProfileDocument document{&axis};
    IcicleView view{&document};

    explicit Fixture(const LoadedProfile& loaded)
    {
        view.resize(TimeAxis::kGutter + kTimeWidth + view.style()->pixelMetric(QStyle::PM_ScrollBarExtent), 300);
        document.setProfile(loaded);
        view.show();
    }
    const TrackMarks& marks() const { return view.trackMarks(); }
    void paint() const
    {
        QImage image(TimeAxis::kGutter + kTimeWidth, 300, QImage::Format_RGB32);
        QPainter painter(&image);
        marks().resetCounts();
        view.paintContent(painter, image.size(), 0);
    }
    // The middle of a track's header band at time t.
    QPoint pointOf(Time t, TrackId track) const
    {
        return QPoint(TimeAxis::kGutter + int(axis.xFor(t, kTimeWidth)), view.trackHeaderY(track) + IcicleView::kHeaderHeight / 2);
    }
};

} // namespace

class TestTrackMarks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Marks closer than kGlyphSpacing (6 px) share a diamond: painting
    // draws at most one per 6 px, however many marks are visible.
    void mergesMarksPerPixels_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<qint64>("fromUs"); // the visible range, µs
        QTest::addColumn<qint64>("toUs");
        QTest::addColumn<int>("glyphs");
        QTest::addColumn<int>("merged");
        QTest::addColumn<int>("marks");
        // 60 px apart: each its own.
        QTest::newRow("10 marks") << 10 << qint64(0) << qint64(1000) << 10 << 0 << 10;
        // 0.6 px apart: ten to a diamond.
        QTest::newRow("1000 marks") << 1000 << qint64(0) << qint64(1000) << 100 << 100 << 1000;
        // 0.006 px apart: a thousand to a diamond, still 100 diamonds.
        QTest::newRow("100000 marks") << 100000 << qint64(0) << qint64(1000) << 100 << 100 << 100000;
        // Zoomed in to [100, 200) µs: the 100 marks there, 6 px apart, each its own.
        QTest::newRow("1000 marks zoomed") << 1000 << qint64(100) << qint64(200) << 100 << 0 << 100;
        // [100, 400) µs: 2 px apart, three to a diamond.
        QTest::newRow("1000 marks 300 us") << 1000 << qint64(100) << qint64(400) << 100 << 100 << 300;
    }
    void mergesMarksPerPixels()
    {
        QFETCH(int, count);
        QFETCH(qint64, fromUs);
        QFETCH(qint64, toUs);
        Fixture f(loadedText(evenMarks(count)));
        QCOMPARE(f.marks().markCount(0), std::size_t(count));
        f.axis.setVisibleRange(fromUs * 1000, toUs * 1000);
        f.paint();
        QTEST(int(f.marks().paintedGlyphs()), "glyphs");
        QTEST(int(f.marks().mergedGlyphs()), "merged");
        QTEST(int(f.marks().paintedMarks()), "marks");
    }

    // A profile without marks paints none; the aggregated view has none.
    void noMarks()
    {
        Fixture f(loadedText(requestReply()));
        QCOMPARE(f.marks().empty(), true);
        f.paint();
        QCOMPARE(f.marks().paintedGlyphs(), std::size_t(0));
        Fixture g(loadedText(evenMarks(3)));
        g.paint();
        QCOMPARE(g.marks().paintedGlyphs(), std::size_t(3));
        g.document.setAggregated(true);
        QCOMPARE(g.marks().empty(), true);
    }

    // tests/ensomessages.h's two processes: marks on each one's track; a hover names the
    // mark, a click selects it and the details pane shows it with its JSON (a table's
    // cells are lines of the pane's plain text).
    void ensoMarksSelectAndShowDetails_data()
    {
        QTest::addColumn<int>("track");
        QTest::addColumn<qint64>("atUs"); // since the profile's start
        QTest::addColumn<uint>("mark");
        QTest::addColumn<QString>("tip");
        QTest::addColumn<QString>("details");
        QTest::newRow("RpcRequest") << 0 << qint64(100) << 0u << "RpcRequest (mark)\nat 100.000 µs"
                                    << "RpcRequest\nmark at\n100.000 µs\nprocess\nIde\ntrack\nIde\n\n"
                                       "details\n\"executionContext/push\"";
        QTest::newRow("RpcEvent") << 0 << qint64(500) << 6u << "RpcEvent (mark)\nat 500.000 µs"
                                  << "RpcEvent\nmark at\n500.000 µs\nprocess\nIde\ntrack\nIde\n\n"
                                     "details\n\"ExpressionUpdates\"";
        QTest::newRow("Response") << 1 << qint64(400) << 3u << "BackendMessage (mark)\nat 400.000 µs"
                                  << "BackendMessage\nmark at\n400.000 µs\nprocess\nLanguageServer\n"
                                     "track\nLanguageServer\n\ndetails\n{\n    \"direction\": \"Response\",\n"
                                     "    \"endpoint\": \"executionContext/push\",\n    \"request_id\": \"7\"\n}";
    }
    void ensoMarksSelectAndShowDetails()
    {
        QFETCH(int, track);
        QFETCH(qint64, atUs);
        QFETCH(uint, mark);
        Fixture f(loadedText(ensoMessages()));
        DetailsPane pane(&f.document);
        const Profile& p = *f.document.profile();
        QCOMPARE(p.marks().size(), std::size_t(8));
        QCOMPARE(p.string(p.track(0).name), std::string_view("Ide"));
        QCOMPARE(p.string(p.track(1).name), std::string_view("LanguageServer"));
        QCOMPARE(f.marks().markCount(0), std::size_t(3));
        QCOMPARE(f.marks().markCount(1), std::size_t(5));
        f.axis.setVisibleRange(p.startTime(), p.startTime() + 1'000'000);
        const QPoint at = f.pointOf(p.startTime() + atUs * 1000, TrackId(track));
        QTEST(f.marks().describe(TrackId(track), f.axis, kTimeWidth, at.x() - TimeAxis::kGutter), "tip");
        QCOMPARE(f.marks().describe(TrackId(track), f.axis, kTimeWidth, at.x() + 20 - TimeAxis::kGutter), QString());
        QTest::mouseClick(&f.view, Qt::LeftButton, {}, at);
        QCOMPARE(f.axis.selectedMark(), std::uint32_t(mark));
        QCOMPARE(f.axis.selectedInterval(), kNone);
        QTEST(pane.toPlainText().trimmed(), "details");
        QCOMPARE(pane.isEmpty(), false);
        QCOMPARE(f.view.isTrackCollapsed(TrackId(track)), false);
        // Elsewhere on the band a click folds the track, as before.
        QTest::mouseClick(&f.view, Qt::LeftButton, {}, at + QPoint(20, 0));
        QCOMPARE(f.view.isTrackCollapsed(TrackId(track)), true);
        QCOMPARE(f.axis.selectedMark(), std::uint32_t(mark));
        // Selecting a box replaces the mark.
        f.axis.selectItem(0, p.interval(0).measurement);
        QCOMPARE(f.axis.selectedMark(), kNone);
        QCOMPARE(pane.toPlainText().startsWith(QStringLiteral("task")), true);
    }
};

QTEST_MAIN(TestTrackMarks)
#include "tst_trackmarks.moc"
