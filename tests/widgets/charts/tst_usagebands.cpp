#include "usagebands.h"

#include <QImage>
#include <QPainter>
#include <QtTest>

using namespace runlane;

namespace {

// A 100 × 50 px plot at (10, 5) in a 120 × 60 image: y is 0.5 px per %.
const QRectF kArea(10, 5, 100, 50);
const QColor kEmpty(Qt::white);
const QColor kRed(200, 0, 0);
const QColor kGreen(0, 200, 0);
const QColor kBlue(0, 0, 200);

QImage paint(UsageBands& bands)
{
    QImage image(120, 60, QImage::Format_RGB32);
    image.fill(kEmpty);
    QPainter painter(&image);
    bands.paint(&painter, nullptr, nullptr);
    return image;
}

// Ten bins of 1 x unit over the whole area (10 px each): red at the bottom,
// green on it, blue on top.
void setTenBins(UsageBands& bands)
{
    bands.setPlotArea(kArea);
    bands.setBands({{QStringLiteral("red"), kRed, true, {50, 100, 0, 10, 0, 0, 0, 0, 0, 30}},
                    {QStringLiteral("green"), kGreen, true, {80, 100, 0, 10, 40, 0, 0, 0, 0, 30}},
                    {QStringLiteral("blue"), kBlue, true, {90, 100, 0, 60, 40, 0, 0, 0, 0, 30}}},
                   0.0, 1.0);
    bands.setRange(0, 10, 100);
}

} // namespace

class TestUsageBands : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Each pixel shows the band that holds its height in its bin; edges
    // fall on whole pixels: bin b spans x 10 + 10b .. 19 + 10b, and a top
    // of t % is at y = 55 - t / 2.
    void pixelsShowTheStack_data()
    {
        QTest::addColumn<int>("x");
        QTest::addColumn<int>("y");
        QTest::addColumn<QColor>("color");
        QTest::newRow("bin 0, bottom row") << 10 << 54 << kRed;
        QTest::newRow("bin 0, red's top row (50 %)") << 15 << 30 << kRed;
        QTest::newRow("bin 0, green's first row") << 15 << 29 << kGreen;
        QTest::newRow("bin 0, green's top row (80 %)") << 19 << 15 << kGreen;
        QTest::newRow("bin 0, blue's top row (90 %)") << 12 << 10 << kBlue;
        QTest::newRow("bin 0, above the stack") << 12 << 9 << kEmpty;
        QTest::newRow("bin 1, full: the top row") << 20 << 5 << kRed;
        QTest::newRow("bin 2, empty") << 35 << 54 << kEmpty;
        QTest::newRow("bin 3, red 10 %") << 45 << 50 << kRed;
        QTest::newRow("bin 3, green adds nothing: blue on red") << 45 << 49 << kBlue;
        QTest::newRow("bin 4, no red: green from the floor") << 55 << 54 << kGreen;
        QTest::newRow("bin 9, last column") << 109 << 54 << kRed;
        QTest::newRow("left of the plot") << 9 << 54 << kEmpty;
        QTest::newRow("right of the plot") << 110 << 54 << kEmpty;
        QTest::newRow("below the plot") << 15 << 55 << kEmpty;
        QTest::newRow("above the plot") << 20 << 4 << kEmpty;
    }
    void pixelsShowTheStack()
    {
        QFETCH(int, x);
        QFETCH(int, y);
        QFETCH(QColor, color);
        UsageBands bands;
        setTenBins(bands);
        QCOMPARE(paint(bands).pixelColor(x, y).name(), color.name());
    }

    // Issue 39: a bin is drawn only over what it counts. The profile ends
    // at x 9.5 (its last bin's share is of that half) and starts at 0.5:
    // nothing is drawn outside, in bins 0 and 9 or past them.
    void binsStopWhereThePartCountedEnds_data()
    {
        QTest::addColumn<int>("x");
        QTest::addColumn<QColor>("color");
        QTest::newRow("bin 0, before the start") << 14 << kEmpty;
        QTest::newRow("bin 0, after the start") << 15 << kRed;
        QTest::newRow("bin 9, before the end") << 104 << kRed;
        QTest::newRow("bin 9, after the end") << 105 << kEmpty;
        QTest::newRow("bin 9, its last column") << 109 << kEmpty;
    }
    void binsStopWhereThePartCountedEnds()
    {
        QFETCH(int, x);
        QFETCH(QColor, color);
        UsageBands bands;
        setTenBins(bands);
        bands.setBands(bands.bands(), 0.0, 1.0, 0.5, 9.5);
        QCOMPARE(bands.from(), 0.5);
        QCOMPARE(bands.to(), 9.5);
        QCOMPARE(paint(bands).pixelColor(x, 54).name(), color.name());
    }

    // A hidden band is not painted: the one above it starts where the last
    // one painted ends (its tops already leave the hidden one's share out).
    void aHiddenBandIsNotPainted()
    {
        UsageBands bands;
        setTenBins(bands);
        auto copy = bands.bands();
        copy[0].visible = false;
        bands.setBands(copy, 0.0, 1.0);
        const QImage image = paint(bands);
        QCOMPARE(image.pixelColor(15, 54).name(), kGreen.name()); // bin 0: green from the floor
        QCOMPARE(image.pixelColor(45, 50).name(), kGreen.name()); // bin 3: green's 10 %
        QCOMPARE(image.pixelColor(45, 49).name(), kBlue.name());
    }

    // The range moves the bins, not the numbers: x from 5 to 10 puts bin 5
    // at the plot's left, 20 px a bin; what is left of the range is not drawn.
    void theRangeMapsTheBins()
    {
        UsageBands bands;
        setTenBins(bands);
        bands.setRange(5, 10, 200); // and y up to 200 %: 0.25 px per %
        const QImage image = paint(bands);
        QCOMPARE(image.pixelColor(10, 54).name(), kEmpty.name()); // bin 5: empty
        QCOMPARE(image.pixelColor(89, 54).name(), kEmpty.name()); // bin 8
        QCOMPARE(image.pixelColor(90, 54).name(), kRed.name()); // bin 9 from x 90
        QCOMPARE(image.pixelColor(90, 48).name(), kRed.name()); // 30 % of 200 % is 7.5 px: rows 48..54
        QCOMPARE(image.pixelColor(90, 47).name(), kEmpty.name());
    }

    // Bins narrower than a pixel (old bins while a zoom out waits for new
    // ones): one bin per column, the first in it; every column of the bins
    // is painted, none past them.
    void subPixelBinsPaintOneColumnEach()
    {
        UsageBands bands;
        bands.setPlotArea(kArea);
        // 400 bins in 100 px, four a column: bin 4c (the first of column c)
        // is red, 100 % for even c and 50 % for odd c; the other three are
        // green, 100 %, and must not show.
        std::vector<double> red(400, 0.0);
        std::vector<double> green(400, 100.0);
        for (std::size_t c = 0; c < 100; ++c) {
            red[4 * c] = c % 2 == 0 ? 100 : 50;
            green[4 * c] = red[4 * c];
        }
        bands.setBands({{QStringLiteral("red"), kRed, true, red}, {QStringLiteral("green"), kGreen, true, green}}, 0.0, 1.0);
        bands.setRange(0, 400, 100);
        const QImage image = paint(bands);
        for (int c = 0; c < 100; ++c) {
            QCOMPARE(image.pixelColor(10 + c, 54).name(), kRed.name());
            QCOMPARE(image.pixelColor(10 + c, 5).name(), (c % 2 == 0 ? kRed : kEmpty).name());
        }
        QCOMPARE(image.pixelColor(110, 54).name(), kEmpty.name());
    }

    // The x axis's line: the row under the plot, across it.
    void theBaselineIsUnderThePlot()
    {
        UsageBands bands;
        setTenBins(bands);
        bands.setBaselineColor(kBlue);
        const QImage image = paint(bands);
        QCOMPARE(image.pixelColor(10, 55).name(), kBlue.name());
        QCOMPARE(image.pixelColor(35, 55).name(), kBlue.name()); // under an empty bin too
        QCOMPARE(image.pixelColor(109, 55).name(), kBlue.name());
        QCOMPARE(image.pixelColor(9, 55).name(), kEmpty.name());
        QCOMPARE(image.pixelColor(110, 55).name(), kEmpty.name());
        QCOMPARE(image.pixelColor(10, 54).name(), kRed.name());
    }

    void nothingWithoutBands()
    {
        UsageBands bands;
        setTenBins(bands);
        bands.clear();
        QVERIFY(bands.bands().empty());
        const QImage image = paint(bands);
        QCOMPARE(image.pixelColor(15, 54).name(), kEmpty.name());
        QCOMPARE(bands.boundingRect(), kArea.adjusted(0, 0, 0, 1));
    }
};

QTEST_MAIN(TestUsageBands)
#include "tst_usagebands.moc"
