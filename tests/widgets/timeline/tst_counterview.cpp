#include "counterview.h"
#include "profiledocument.h"
#include "timeaxis.h"
#include "widgettestsupport.h"

#include <QPainter>
#include <QStyle>
#include <QtTest>

#include <optional>

using namespace runlane;
using namespace runlane::test;

namespace {

constexpr int kTimeWidth = 800;
constexpr int kHeight = 400;

// profiles/chrome-counters.json (ts in µs, so times in ns below):
//   heap limit                 40 at 0 and 20000
//   heap used                  10 at 0, 30 at 20000, 5 at 50000, 25 at 80000
//   temperature delta celsius  -2.25 at 10000, 1.5 at 60000
// and a call from 0 to 100000: the profile spans [0, 100000).
const char* const kCounters = "profiles/chrome-counters.json";

enum : int { kLimit, kUsed, kDelta };

// The view as a panel of a window (it shows itself only when it has
// something to show), with a time area kTimeWidth px wide.
struct Fixture {
    TimeAxis axis;
    ProfileDocument document{&axis};
    QWidget window;
    CounterView* view = new CounterView(&document, &window);

    explicit Fixture(const LoadedProfile& loaded)
    {
        const int width = TimeAxis::kGutter + kTimeWidth + view->style()->pixelMetric(QStyle::PM_ScrollBarExtent);
        window.resize(width, kHeight);
        view->setGeometry(0, 0, width, kHeight);
        document.setProfile(loaded);
        window.show();
    }
    double xOf(Time t) const { return TimeAxis::kGutter + axis.xFor(t, kTimeWidth); }
    // Paints as the widget does into an image of the view's content size.
    QImage paint() const
    {
        QImage image(TimeAxis::kGutter + kTimeWidth, kHeight, QImage::Format_RGB32);
        QPainter painter(&image);
        view->paintContent(painter, image.size(), 0);
        return image;
    }
};

// A counter with `count` samples, one per µs (value i % 7), and a call over
// all of them: the profile spans [0, (count - 1) µs).
QString writeDenseCounter(const QTemporaryDir& dir, int count)
{
    const QString path = dir.filePath(QStringLiteral("dense.json"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    QByteArray text = "{\"traceEvents\": [\n";
    text += "{\"ph\": \"X\", \"pid\": 1, \"tid\": 1, \"name\": \"all\", \"ts\": 0, \"dur\": " + QByteArray::number(count - 1) + "}";
    for (int i = 0; i < count; ++i)
        text += ",\n{\"ph\": \"C\", \"pid\": 1, \"name\": \"load\", \"ts\": " + QByteArray::number(i)
            + ", \"args\": {\"value\": " + QByteArray::number(i % 7) + "}}";
    text += "\n]}\n";
    file.write(text);
    return path;
}

} // namespace

class TestCounterView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        m_loaded = loadedFile(dataPath(QString::fromLatin1(kCounters)));
        QVERIFY(!m_loaded.isNull());
        QCOMPARE(m_loaded.profile->startTime(), Time(0));
        QCOMPARE(m_loaded.profile->endTime(), Time(100000));
    }

    void oneTrackPerSeries()
    {
        Fixture f(m_loaded);
        QCOMPARE(f.view->trackCount(), std::size_t(3));
        QCOMPARE(f.view->trackName(kLimit), QStringLiteral("heap limit"));
        QCOMPARE(f.view->trackName(kUsed), QStringLiteral("heap used"));
        QCOMPARE(f.view->trackName(kDelta), QStringLiteral("temperature delta celsius"));
        QVERIFY(f.view->hasContent());
        QVERIFY(!f.view->isHidden());
        QCOMPARE(f.view->contentHeight(), 3 * CounterView::kTrackHeight);
        // Scaled from 0 (or a negative minimum) to the maximum.
        QCOMPARE(f.view->trackScale(kLimit), std::pair(0.0, 40.0));
        QCOMPARE(f.view->trackScale(kUsed), std::pair(0.0, 30.0));
        QCOMPARE(f.view->trackScale(kDelta), std::pair(-2.25, 1.5));
    }

    // Issue 46: more than three tracks start compact (each its header line)
    // but the first two, so that they leave the task lanes their room; three
    // or fewer start expanded.
    void manyTracksStartCompact_data()
    {
        QTest::addColumn<int>("series");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("expanded");
        QTest::newRow("3") << 3 << 3 * CounterView::kTrackHeight << 3;
        QTest::newRow("4") << 4 << 2 * CounterView::kTrackHeight + 2 * CounterView::kHeaderHeight << 2;
        QTest::newRow("6") << 6 << 2 * CounterView::kTrackHeight + 4 * CounterView::kHeaderHeight << 2;
    }

    void manyTracksStartCompact()
    {
        QFETCH(int, series);
        QFETCH(int, height);
        QFETCH(int, expanded);
        QByteArray text = "[";
        for (int i = 0; i < series; ++i)
            text += QByteArray(i ? "," : "") + "{\"ph\": \"C\", \"pid\": 1, \"name\": \"c" + QByteArray::number(i)
                + "\", \"ts\": 0, \"args\": {\"v\": 1}}";
        Fixture f(loadedText(text + "]"));
        QCOMPARE(f.view->trackCount(), std::size_t(series));
        QCOMPARE(f.view->contentHeight(), height);
        int shown = 0;
        for (std::size_t t = 0; t < f.view->trackCount(); ++t)
            shown += f.view->isTrackCollapsed(t) ? 0 : 1;
        QCOMPARE(shown, expanded);
        QVERIFY(!f.view->isTrackCollapsed(0) && !f.view->isTrackCollapsed(1));
    }

    // One counter in two processes: the process tells the tracks apart;
    // a name used once keeps its plain name.
    void theProcessTellsSameNamedSeriesApart()
    {
        Fixture f(loadedText(JSON({"traceEvents" : [
            {"ph" : "C", "pid" : 7, "name" : "heap", "ts" : 0, "args" : {"used" : 1}},
            {"ph" : "C", "pid" : 9, "name" : "heap", "ts" : 5, "args" : {"used" : 2}},
            {"ph" : "C", "pid" : 9, "name" : "queue", "ts" : 5, "args" : {"depth" : 3}}
        ]})));
        QStringList names;
        for (std::size_t t = 0; t < f.view->trackCount(); ++t)
            names << f.view->trackName(t);
        names.sort();
        QCOMPARE(names, (QStringList{"heap used (process 7)", "heap used (process 9)", "queue depth"}));
    }

    void valueHeldUntilTheNextSample_data()
    {
        QTest::addColumn<int>("track");
        QTest::addColumn<qint64>("time");
        QTest::addColumn<bool>("has");
        QTest::addColumn<double>("value");
        QTest::newRow("used at its first sample") << int(kUsed) << qint64(0) << true << 10.0;
        QTest::newRow("used just before 20 µs") << int(kUsed) << qint64(19999) << true << 10.0;
        QTest::newRow("used at 20 µs") << int(kUsed) << qint64(20000) << true << 30.0;
        QTest::newRow("used at 49.999 µs") << int(kUsed) << qint64(49999) << true << 30.0;
        QTest::newRow("used at 50 µs") << int(kUsed) << qint64(50000) << true << 5.0;
        QTest::newRow("used held to the end") << int(kUsed) << qint64(100000) << true << 25.0;
        QTest::newRow("limit at 70 µs") << int(kLimit) << qint64(70000) << true << 40.0;
        QTest::newRow("delta before its first sample") << int(kDelta) << qint64(9999) << false << 0.0;
        QTest::newRow("delta at 10 µs") << int(kDelta) << qint64(10000) << true << -2.25;
        QTest::newRow("delta at 59.999 µs") << int(kDelta) << qint64(59999) << true << -2.25;
        QTest::newRow("delta at 60 µs (sorted though written last)") << int(kDelta) << qint64(60000) << true << 1.5;
    }
    void valueHeldUntilTheNextSample()
    {
        QFETCH(int, track);
        QFETCH(qint64, time);
        QFETCH(bool, has);
        QFETCH(double, value);
        Fixture f(m_loaded);
        const std::optional<double> got = f.view->valueAt(std::size_t(track), time);
        QCOMPARE(got.has_value(), has);
        if (has)
            QCOMPARE(*got, value);
    }

    void tooltipSaysTheValueAndTime_data()
    {
        QTest::addColumn<int>("track");
        QTest::addColumn<qint64>("time");
        QTest::addColumn<QString>("text");
        QTest::newRow("used at 30 µs") << int(kUsed) << qint64(30000) << QStringLiteral("heap used = 30\nat 30.000 µs");
        QTest::newRow("delta at 5 µs") << int(kDelta) << qint64(5000)
                                       << QStringLiteral("temperature delta celsius: no sample yet at 5.000 µs");
        QTest::newRow("delta at 70 µs") << int(kDelta) << qint64(70000)
                                        << QStringLiteral("temperature delta celsius = 1.5\nat 70.000 µs");
    }
    void tooltipSaysTheValueAndTime()
    {
        QFETCH(int, track);
        QFETCH(qint64, time);
        QFETCH(QString, text);
        Fixture f(m_loaded);
        const int y = f.view->trackTop(std::size_t(track)) + CounterView::kTrackHeight / 2;
        QCOMPARE(f.view->trackAt(QPoint(300, y)), track);
        QCOMPARE(f.view->describeAt(QPoint(int(f.xOf(time)), y)), text);
    }

    void gutterTooltipSaysTheSeries()
    {
        Fixture f(m_loaded);
        QCOMPARE(f.view->describeAt(QPoint(10, f.view->trackTop(kDelta) + 5)),
                 QStringLiteral("temperature delta celsius (process 1)\n2 samples, from -2.25 to 1.5"));
        QCOMPARE(f.view->describeAt(QPoint(10, 3 * CounterView::kTrackHeight + 5)), QString()); // below the tracks
    }

    void collapsingTakesTheTrackToItsHeaderLine()
    {
        Fixture f(m_loaded);
        const int full = 3 * CounterView::kTrackHeight;
        const int saved = CounterView::kTrackHeight - CounterView::kHeaderHeight;
        f.view->setTrackCollapsed(kUsed, true);
        QVERIFY(f.view->isTrackCollapsed(kUsed));
        QCOMPARE(f.view->contentHeight(), full - saved);
        QCOMPARE(f.view->trackHeight(kUsed), CounterView::kHeaderHeight);
        QCOMPARE(f.view->trackTop(kDelta), CounterView::kTrackHeight + CounterView::kHeaderHeight);
        // A click on a header line in the gutter toggles it; one below it does not.
        QSignalSpy heights(f.view, &CounterView::contentHeightChanged);
        QTest::mouseClick(f.view, Qt::LeftButton, {}, QPoint(20, f.view->trackTop(kLimit) + 10));
        QVERIFY(f.view->isTrackCollapsed(kLimit));
        QCOMPARE(f.view->contentHeight(), full - 2 * saved);
        QCOMPARE(heights.size(), 1);
        QTest::mouseClick(f.view, Qt::LeftButton, {}, QPoint(20, f.view->trackTop(kDelta) + CounterView::kHeaderHeight + 10));
        QVERIFY(!f.view->isTrackCollapsed(kDelta));
        QTest::mouseClick(f.view, Qt::LeftButton, {}, QPoint(20, f.view->trackTop(kUsed) + 10));
        QVERIFY(!f.view->isTrackCollapsed(kUsed));
        QCOMPARE(f.view->contentHeight(), full - saved);
    }

    void profileWithoutCountersHidesIt()
    {
        Fixture f(m_loaded);
        const std::shared_ptr<const Profile> first = f.document.sharedProfile();
        QSignalSpy heights(f.view, &CounterView::contentHeightChanged);
        f.document.setProfile(loadedFile(dataPath(QStringLiteral("profiles/fgh-chrome.json"))));
        QVERIFY(f.document.sharedProfile() != first);
        QCOMPARE(f.view->trackCount(), std::size_t(0));
        QCOMPARE(f.view->contentHeight(), 0);
        QVERIFY(!f.view->hasContent());
        QVERIFY(f.view->isHidden());
        QVERIFY(!heights.isEmpty());
        QCOMPARE(f.view->valueAt(kUsed, 30000), std::nullopt);
        QCOMPARE(f.view->describeAt(QPoint(300, 10)), QString());
        f.paint();
        QCOMPARE(f.view->lastPaintedPoints(), std::size_t(0));
        // Back to counters: shown again, every track expanded.
        f.document.setProfile(m_loaded);
        QCOMPARE(f.view->trackCount(), std::size_t(3));
        QVERIFY(!f.view->isHidden());
        f.document.clear();
        QCOMPARE(f.view->trackCount(), std::size_t(0));
        QVERIFY(f.view->isHidden());
    }

    void hiddenInTheAggregatedView()
    {
        Fixture f(m_loaded);
        f.document.setAggregated(true);
        QVERIFY(f.view->isHidden());
        QCOMPARE(f.view->trackCount(), std::size_t(3));
        f.document.setAggregated(false);
        QVERIFY(!f.view->isHidden());
    }

    // Painting reads the visible slice of each expanded track only: from
    // the sample in force at the left edge to the last before the right.
    void paintReadsTheVisibleSlice_data()
    {
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        QTest::addColumn<bool>("collapseUsed");
        QTest::addColumn<int>("points");
        // limit 2, used 4, delta 2.
        QTest::newRow("whole profile") << qint64(0) << qint64(100000) << false << 8;
        // limit: 20000; used: 20000, 50000; delta: 10000.
        QTest::newRow("25-55 µs") << qint64(25000) << qint64(55000) << false << 4;
        QTest::newRow("25-55 µs, used collapsed") << qint64(25000) << qint64(55000) << true << 2;
        // Each the last sample: 20000, 80000, 60000.
        QTest::newRow("85-100 µs") << qint64(85000) << qint64(100000) << false << 3;
        // limit: 0; used: 0; delta: none before 10000.
        QTest::newRow("1-9 µs") << qint64(1000) << qint64(9000) << false << 2;
    }
    void paintReadsTheVisibleSlice()
    {
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        QFETCH(bool, collapseUsed);
        QFETCH(int, points);
        Fixture f(m_loaded);
        f.axis.setVisibleRange(from, to);
        f.view->setTrackCollapsed(kUsed, collapseUsed);
        f.paint();
        QCOMPARE(f.view->lastPaintedPoints(), std::size_t(points));
        QCOMPARE(f.view->lastMergedColumns(), std::size_t(0));
    }

    // The area is step-shaped: a value holds until the next sample.
    void paintsSteps()
    {
        Fixture f(m_loaded);
        const QImage image = f.paint();
        const QRgb base = rgb(f.view->palette().color(QPalette::Base).rgb());
        const int top = f.view->trackTop(kUsed);
        // 30 µs: used is 30, its maximum: filled from the plot's top (4 px
        // below the track's) down. 60 µs: used is 5, a sixth of the way up.
        QVERIFY(pixelAt(image, QPointF(f.xOf(30000), top + 10)) != base);
        QCOMPARE(pixelAt(image, QPointF(f.xOf(60000), top + 10)), base);
        QVERIFY(pixelAt(image, QPointF(f.xOf(60000), top + CounterView::kTrackHeight - 8)) != base);
    }

    // Past one sample per pixel column, each column is one min..max bar:
    // what a frame costs depends on the columns, not on the samples.
    void manySamplesAreMergedPerColumn_data()
    {
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        QTest::addColumn<int>("points");
        QTest::addColumn<int>("columns");
        // Samples at every µs, 0 to 49,999; the profile ends at the last.
        QTest::newRow("all") << qint64(0) << qint64(49999000) << 49999 << kTimeWidth;
        QTest::newRow("10-12 ms") << qint64(10000000) << qint64(12000000) << 2000 << kTimeWidth;
        // 10,000 (in force at the left edge) to 10,100: few enough for steps.
        QTest::newRow("100 µs") << qint64(10000500) << qint64(10100500) << 101 << 0;
    }
    void manySamplesAreMergedPerColumn()
    {
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        QFETCH(int, points);
        QFETCH(int, columns);
        QTemporaryDir dir;
        const LoadedProfile dense = loadedFile(writeDenseCounter(dir, 50000));
        QVERIFY(!dense.isNull());
        QCOMPARE(dense.profile->endTime(), Time(49999000));
        Fixture f(dense);
        QCOMPARE(f.view->trackCount(), std::size_t(1));
        QCOMPARE(f.view->trackName(0), QStringLiteral("load value"));
        QCOMPARE(f.view->trackScale(0), std::pair(0.0, 6.0));
        f.axis.setVisibleRange(from, to);
        const QImage image = f.paint();
        QCOMPARE(f.view->lastPaintedPoints(), std::size_t(points));
        QCOMPARE(f.view->lastMergedColumns(), std::size_t(columns));
        if (points >= 7 * columns && columns > 0) {
            // Every column holds values 0 to 6: the line covers the plot
            // from top to bottom (4 px margins) in the series' line colour.
            const int y0 = CounterView::kTrackHeight - 5;
            const QRgb line = pixelAt(image, QPointF(TimeAxis::kGutter + 400, 4));
            QVERIFY(line != rgb(f.view->palette().color(QPalette::Base).rgb()));
            QCOMPARE(pixelAt(image, QPointF(TimeAxis::kGutter + 400, y0)), line);
        }
    }

    void valueTextIsPlain_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("integer") << 123456789.0 << QStringLiteral("123456789");
        QTest::newRow("negative") << -2.25 << QStringLiteral("-2.25");
        QTest::newRow("fraction") << 0.0015 << QStringLiteral("0.0015");
        QTest::newRow("six digits") << 3.14159265 << QStringLiteral("3.14159");
        QTest::newRow("huge") << 1.5e20 << QStringLiteral("1.5e+20");
    }
    void valueTextIsPlain()
    {
        QFETCH(double, value);
        QFETCH(QString, text);
        QCOMPARE(CounterView::valueText(value), text);
    }

private:
    LoadedProfile m_loaded;
};

QTEST_MAIN(TestCounterView)
#include "tst_counterview.moc"
