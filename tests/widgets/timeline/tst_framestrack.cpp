#include "framestrack.h"
#include "profiledocument.h"
#include "timeaxis.h"
#include "widgettestsupport.h"

#include <QPainter>
#include <QStyle>
#include <QtTest>

using namespace runlane;
using namespace runlane::test;

namespace {

constexpr int kTimeWidth = 800;
constexpr Time ms = 1'000'000;

using Quality = FrameSeries::Quality;
using Blocks = QList<std::tuple<double, double, int>>;

// DrawFrames at 0, 10, 30 and 70 ms, then 2000 and 2016 ms: frames of 10,
// 20 and 40 ms (100, 50 and 25 fps: good, medium, bad), an idle gap, and
// one of 16 ms (62.5 fps, good).
const QByteArray kFrames = R"({"traceEvents":[
{"name":"DrawFrame","ph":"I","s":"t","pid":1,"tid":1,"ts":0},
{"name":"DrawFrame","ph":"I","s":"t","pid":1,"tid":1,"ts":10000},
{"name":"DrawFrame","ph":"I","s":"t","pid":1,"tid":1,"ts":30000},
{"name":"DrawFrame","ph":"I","s":"t","pid":1,"tid":1,"ts":70000},
{"name":"DrawFrame","ph":"I","s":"t","pid":1,"tid":1,"ts":2000000},
{"name":"DrawFrame","ph":"X","pid":1,"tid":1,"ts":2016000,"dur":100000}]})";

// Frames of 1 ms from 0 to 199 ms, one of 40 ms (25 fps: bad), 1 ms ones
// again from 239 to 400 ms, and a slice at 100 s: at 125 ms a pixel, the
// bad frame is a third of one.
QByteArray denseFrames()
{
    QByteArray json = R"({"traceEvents":[{"name":"end","ph":"X","pid":1,"tid":1,"ts":100000000,"dur":1})";
    auto add = [&](int at) {
        json += R"(,{"name":"DrawFrame","ph":"I","s":"t","pid":1,"tid":1,"ts":)" + QByteArray::number(at * 1000) + "}";
    };
    for (int t = 0; t < 200; ++t)
        add(t);
    for (int t = 239; t <= 400; ++t)
        add(t);
    return json + "]}";
}

struct Fixture {
    TimeAxis axis;
    ProfileDocument document{&axis};
    QWidget window;
    FramesTrack* track = new FramesTrack(&document, &window);

    explicit Fixture(const LoadedProfile& loaded)
    {
        const int width = TimeAxis::kGutter + kTimeWidth + track->style()->pixelMetric(QStyle::PM_ScrollBarExtent);
        window.resize(width, 100);
        track->setGeometry(0, 0, width, FramesTrack::kHeight);
        document.setProfile(loaded);
        window.show();
    }
    Blocks blocks() const
    {
        Blocks out;
        for (const FramesTrack::Block& b : track->blocks(kTimeWidth))
            out.push_back({b.x0, b.x1, int(b.quality)});
        return out;
    }
};

} // namespace

class TestFramesTrack : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Shown only for a profile with frames: otherwise it takes no room.
    void shownOnlyWithFrames()
    {
        Fixture f(loadedText(R"({"traceEvents":[{"name":"a","ph":"X","pid":1,"tid":1,"ts":0,"dur":5}]})"));
        QVERIFY(f.track->isHidden());
        f.document.setProfile(loadedText(kFrames));
        QVERIFY(!f.track->isHidden());
        QCOMPARE(f.track->sizeHint().height(), FramesTrack::kHeight);
        QCOMPARE(f.track->series().frames().size(), std::size_t(4));
    }

    // A block per visible frame at 10 px per ms, coloured by its fps; the
    // frames out of view are not looked at.
    void blocksOfTheVisibleRange_data()
    {
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        QTest::addColumn<Blocks>("expected");
        QTest::newRow("0 to 80 ms") << qint64(0) << qint64(80 * ms)
                                    << Blocks{{0, 100, int(Quality::Good)},
                                              {100, 300, int(Quality::Medium)},
                                              {300, 700, int(Quality::Bad)}};
        QTest::newRow("20 to 100 ms") << qint64(20 * ms) << qint64(100 * ms)
                                      << Blocks{{-1, 100, int(Quality::Medium)}, {100, 500, int(Quality::Bad)}};
        QTest::newRow("idle") << qint64(100 * ms) << qint64(1900 * ms) << Blocks{};
        QTest::newRow("the last") << qint64(1990 * ms) << qint64(2070 * ms) << Blocks{{100, 260, int(Quality::Good)}};
    }
    void blocksOfTheVisibleRange()
    {
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        QFETCH(Blocks, expected);
        Fixture f(loadedText(kFrames));
        f.axis.setVisibleRange(from, to);
        QCOMPARE(f.blocks(), expected);
    }

    // Frames narrower than a pixel share it, the worst colour winning: the
    // bad frame at 199 ms makes its pixel bad.
    void subPixelFramesMerged()
    {
        Fixture f(loadedText(denseFrames()));
        QCOMPARE(f.track->series().frames().size(), std::size_t(199 + 1 + 161));
        f.axis.setVisibleRange(0, 100'000 * ms);
        QCOMPARE(f.blocks(), (Blocks{{0, 1, int(Quality::Good)},
                                     {1, 2, int(Quality::Bad)},
                                     {2, 3, int(Quality::Good)},
                                     {3, 4, int(Quality::Good)}}));
        // Drawn so: the second pixel red, the first green.
        QImage image(TimeAxis::kGutter + kTimeWidth, FramesTrack::kHeight, QImage::Format_RGB32);
        QPainter painter(&image);
        f.track->paintContent(painter, image.size());
        painter.end();
        const int y = FramesTrack::kHeight / 2;
        QCOMPARE(rgb(image.pixel(TimeAxis::kGutter, y)), rgb(FramesTrack::colorOf(Quality::Good).rgb()));
        QCOMPARE(rgb(image.pixel(TimeAxis::kGutter + 1, y)), rgb(FramesTrack::colorOf(Quality::Bad).rgb()));
        QVERIFY(rgb(image.pixel(TimeAxis::kGutter + 5, y)) != rgb(FramesTrack::colorOf(Quality::Good).rgb()));
    }

    // A click on a frame selects its time range.
    void clickSelectsTheFrame()
    {
        Fixture f(loadedText(kFrames));
        f.axis.setVisibleRange(0, 80 * ms);
        QCOMPARE(f.track->frameAt(TimeAxis::kGutter + 200), std::size_t(1));
        QCOMPARE(f.track->frameAt(TimeAxis::kGutter - 5), std::size_t(4));
        QTest::mouseClick(f.track, Qt::LeftButton, {}, QPoint(TimeAxis::kGutter + 200, FramesTrack::kHeight / 2));
        QVERIFY(f.axis.selection());
        QCOMPARE(*f.axis.selection(), (std::pair<Time, Time>(10 * ms, 30 * ms)));
    }
};

QTEST_MAIN(TestFramesTrack)
#include "tst_framestrack.moc"
