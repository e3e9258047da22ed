#include "overviewstrip.h"
#include "profiledocument.h"
#include "theme.h"
#include "timeaxis.h"
#include "widgettestsupport.h"

#include <QPainter>
#include <QtTest>

using namespace runlane;
using namespace runlane::test;

// The overview strip: dragging its window pans the shared axis; its rows
// are drawn once and kept until what they show changes.
class TestOverviewStrip : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The strip keeps its heat rows between paints. After each change, what
    // it shows must be what a strip made afresh shows: kept rows that
    // should have been redrawn (another profile, colours, size) fail this.
    void afterAChangeItShowsWhatAFreshStripShows_data()
    {
        QTest::addColumn<QString>("change");
        QTest::newRow("zoom") << QStringLiteral("zoom");
        QTest::newRow("another profile") << QStringLiteral("profile");
        QTest::newRow("resized") << QStringLiteral("resize");
        QTest::newRow("dark theme") << QStringLiteral("theme");
        QTest::newRow("no profile") << QStringLiteral("none");
    }
    void afterAChangeItShowsWhatAFreshStripShows()
    {
        QFETCH(QString, change);
        TimeAxis axis;
        ProfileDocument document(&axis);
        document.setProfile(loadedFile(dataPath(QStringLiteral("profiles/fgh-chrome.json"))));
        OverviewStrip kept(&document);
        kept.resize(TimeAxis::kGutter + 600, 40);
        const QImage before = kept.grab().toImage();
        if (change == QLatin1String("zoom"))
            axis.setVisibleRange(axis.boundsStart() + (axis.boundsEnd() - axis.boundsStart()) / 3, axis.boundsEnd());
        else if (change == QLatin1String("profile"))
            document.setProfile(loadedFile(dataPath(QStringLiteral("profiles/enso-async.json"))));
        else if (change == QLatin1String("resize"))
            kept.resize(TimeAxis::kGutter + 300, 40);
        else if (change == QLatin1String("theme")) {
            Theme::apply(Theme::Mode::Dark);
            // What QApplication sends each widget then, once its event loop
            // runs (a test's does not: it sends nothing).
            QEvent paletteChange(QEvent::PaletteChange);
            QCoreApplication::sendEvent(&kept, &paletteChange);
        }
        else if (change == QLatin1String("none"))
            document.setProfile(LoadedProfile());
        OverviewStrip fresh(&document);
        fresh.resize(kept.size());
        const QImage after = kept.grab().toImage();
        const QImage expected = fresh.grab().toImage();
        Theme::apply(Theme::Mode::Light);
        QVERIFY(after != before); // each change shows
        QCOMPARE(after, expected);
    }


    // A window exported at another scale (ImageExporter::widget renders the
    // widgets): the strip's rows are drawn at that scale, as the content
    // painted straight into such an image is, not the screen's rows
    // stretched.
    void aRenderAtAnotherScaleDrawsItsRowsAtThatScale_data()
    {
        QTest::addColumn<qreal>("scale");
        QTest::newRow("2x") << qreal(2);
        QTest::newRow("1.5x") << qreal(1.5);
        QTest::newRow("1x") << qreal(1);
    }
    void aRenderAtAnotherScaleDrawsItsRowsAtThatScale()
    {
        QFETCH(qreal, scale);
        TimeAxis axis;
        ProfileDocument document(&axis);
        document.setProfile(loadedFile(dataPath(QStringLiteral("profiles/enso-async.json"))));
        OverviewStrip strip(&document);
        strip.resize(TimeAxis::kGutter + 600, 40);
        strip.grab(); // the rows kept at the screen's scale
        auto canvas = [&] {
            QImage image((QSizeF(strip.size()) * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
            image.setDevicePixelRatio(scale);
            image.fill(Qt::white);
            return image;
        };
        QImage rendered = canvas();
        strip.render(&rendered);
        QImage expected = canvas();
        {
            QPainter painter(&expected);
            strip.paintContent(painter, strip.size());
        }
        QCOMPARE(rendered, expected);
    }

    // Found by tst_monkey under UBSan: dragging the window on a profile of
    // 158 years computed `from + span` past 2^63. It stops at the end.
    void draggingTheWindowPastTheEndStopsThere_data()
    {
        QTest::addColumn<int>("toX");
        QTest::addColumn<bool>("atEnd");
        QTest::newRow("far right") << 5000 << true;
        QTest::newRow("far left") << -5000 << false;
    }
    void draggingTheWindowPastTheEndStopsThere()
    {
        QFETCH(int, toX);
        QFETCH(bool, atEnd);
        TimeAxis axis;
        ProfileDocument document(&axis);
        OverviewStrip strip(&document);
        strip.resize(TimeAxis::kGutter + 800, 40);
        document.setProfile(loadedFile(dataPath(QStringLiteral("profiles/chrome-158-years.json"))));
        strip.show();
        const Time bounds = axis.boundsEnd() - axis.boundsStart();
        QVERIFY(bounds > 4'000'000'000'000'000'000LL);
        // The window: the middle 60 % of the profile.
        const Time span = bounds / 10 * 6;
        axis.setVisibleRange(axis.boundsStart() + bounds / 5, axis.boundsStart() + bounds / 5 + span);
        const QPoint grab = strip.windowRect().center().toPoint();
        QTest::mousePress(&strip, Qt::LeftButton, {}, grab);
        QTest::mouseMove(&strip, QPoint(grab.x() + toX / 2, grab.y()));
        QTest::mouseMove(&strip, QPoint(grab.x() + toX, grab.y()));
        QTest::mouseRelease(&strip, Qt::LeftButton, {}, QPoint(grab.x() + toX, grab.y()));
        QCOMPARE(axis.visibleSpan(), span);
        QCOMPARE(atEnd ? axis.visibleEnd() : axis.visibleStart(), atEnd ? axis.boundsEnd() : axis.boundsStart());
    }
};

QTEST_MAIN(TestOverviewStrip)
#include "tst_overviewstrip.moc"
