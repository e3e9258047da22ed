#include "colorscheme.h"
#include "detailspane.h"
#include "imageexporter.h"
#include "mainwindowdriver.h"
#include "noticebar.h"
#include "theme.h"
#include "timeruler.h"
#include "usagechartview.h"
#include "widgettestsupport.h"

#include <QAction>
#include <QChart>
#include <QSettings>
#include <QStyle>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QtTest>

using namespace runlane;
using namespace runlane::test;

namespace {

// WCAG relative luminance of a pixel, 0 (black) to 1 (white).
double luminance(QRgb pixel)
{
    return ColorScheme::contrast(QColor::fromRgb(pixel), Qt::black) * 0.05 - 0.05;
}

// The largest contrast of any pixel of `rect` with `background`: where the
// text or the ticks are drawn at full strength.
double strongestContrast(const QImage& image, const QRect& rect, QRgb background)
{
    double strongest = 1;
    const QRect device(rect.topLeft() * image.devicePixelRatio(), rect.size() * image.devicePixelRatio());
    for (int y = std::max(0, device.top()); y <= std::min(image.height() - 1, device.bottom()); ++y) {
        for (int x = std::max(0, device.left()); x <= std::min(image.width() - 1, device.right()); ++x)
            strongest = std::max(strongest, ColorScheme::contrast(QColor::fromRgb(image.pixel(x, y)), QColor::fromRgb(background)));
    }
    return strongest;
}

struct Shots {
    QRgb icicle = 0; // a background pixel of each view
    QRgb lanes = 0;
    QRgb ruler = 0;
    QRgb usage = 0;
    double rulerText = 0; // the ruler's labels against its background
    double usageText = 0; // the usage chart's legend and axis labels
    double laneText = 0; // the task names
};

Shots shoot(MainWindow& window)
{
    QCoreApplication::processEvents();
    Shots s;
    const QImage icicle = window.icicle()->grab().toImage();
    const QImage lanes = window.lanes()->grab().toImage();
    auto* ruler = window.findChild<TimeRuler*>(QStringLiteral("ruler"));
    const QImage rulerImage = ruler->grab().toImage();
    QWidget* plot = window.usage()->view()->viewport();
    const QImage usage = plot->grab().toImage();
    // Below the last row of the icicle and of the lanes; the top margin of
    // the usage plot; the ruler's right margin (where a scroll bar is below).
    s.icicle = pixelAt(icicle, QPointF(window.icicle()->width() / 2, window.icicle()->height() - 3));
    s.lanes = pixelAt(lanes, QPointF(window.lanes()->width() / 2, window.lanes()->height() - 3));
    s.ruler = pixelAt(rulerImage, QPointF(ruler->width() - 3, 2));
    s.usage = pixelAt(usage, QPointF(TimeAxis::kGutter + 20, 2));
    s.rulerText = strongestContrast(rulerImage, QRect(TimeAxis::kGutter, 0, ruler->width() - TimeAxis::kGutter, ruler->height() - 1), s.ruler);
    s.usageText = strongestContrast(usage, QRect(0, 0, TimeAxis::kGutter - 2, plot->height()), s.usage);
    s.laneText = strongestContrast(lanes, QRect(14, TaskLaneView::kLegendHeight + 1, TimeAxis::kGutter - 30, 60), s.lanes);
    return s;
}

} // namespace

class TestTheme : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_settings.isValid());
        useTemporarySettings(m_settings.path(), QStringLiteral("tst_theme"));
        m_systemPalette = QApplication::palette();
        m_systemStyle = QApplication::style()->name();
    }

    void init() { QSettings().clear(); }

    void namesRoundTrip_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("mode");
        QTest::addColumn<QString>("written");
        QTest::newRow("system") << "system" << int(Theme::Mode::System) << "system";
        QTest::newRow("light") << "light" << int(Theme::Mode::Light) << "light";
        QTest::newRow("dark") << "dark" << int(Theme::Mode::Dark) << "dark";
        QTest::newRow("unset") << "" << int(Theme::Mode::System) << "system";
        QTest::newRow("unknown") << "solarized" << int(Theme::Mode::System) << "system";
    }
    void namesRoundTrip()
    {
        QFETCH(QString, name);
        QFETCH(int, mode);
        QFETCH(QString, written);
        QCOMPARE(int(Theme::fromName(name)), mode);
        QCOMPARE(Theme::name(Theme::fromName(name)), written);
    }

    // View ▸ Theme: every view's background turns dark and its text
    // light, and back; the choice is kept.
    void switchesThroughTheMenu()
    {
        MainWindow window;
        window.resize(1400, 1000);
        window.show();
        window.openFile(dataPath(QStringLiteral("profiles/chronos-states.json")));
        QVERIFY(settle(window));
        QVERIFY(window.document()->hasProfile());
        QVERIFY(window.action(QStringLiteral("themeSystem"))->isChecked());

        window.action(QStringLiteral("themeDark"))->trigger();
        QVERIFY(window.action(QStringLiteral("themeDark"))->isChecked());
        QVERIFY(!window.action(QStringLiteral("themeSystem"))->isChecked());
        QCOMPARE(QSettings().value(Theme::settingsKey()).toString(), QStringLiteral("dark"));
        QCOMPARE(QApplication::style()->name().toLower(), QStringLiteral("fusion"));
        QVERIFY(ColorScheme::isDark());
        Shots dark = shoot(window);
        for (const QRgb background : {dark.icicle, dark.lanes, dark.ruler, dark.usage}) {
            QCOMPARE(background, rgb(ColorScheme::background().rgb()));
            QVERIFY2(luminance(background) < 0.02, qPrintable(QString::number(luminance(background))));
        }
        QVERIFY2(dark.rulerText >= 7.0, qPrintable(QString::number(dark.rulerText)));
        QVERIFY2(dark.usageText >= 7.0, qPrintable(QString::number(dark.usageText)));
        QVERIFY2(dark.laneText >= 7.0, qPrintable(QString::number(dark.laneText)));
        // What is not painted by the views takes the theme as well.
        auto* chart = window.usage()->view()->chart();
        QCOMPARE(static_cast<QValueAxis*>(chart->axes(Qt::Vertical).first())->labelsBrush().color(), ColorScheme::mutedText());
        QVERIFY(window.details()->palette().color(QPalette::Base).lightness() < 60);
        const QString darkMuted = ColorScheme::mutedText().name();
        QVERIFY(window.details()->html().contains(darkMuted));
        window.notices()->addNotice(QStringLiteral("a notice"));
        QVERIFY(window.notices()->palette().color(QPalette::Window).lightness() < 80);

        window.action(QStringLiteral("themeLight"))->trigger();
        QCOMPARE(QSettings().value(Theme::settingsKey()).toString(), QStringLiteral("light"));
        QVERIFY(!ColorScheme::isDark());
        const Shots light = shoot(window);
        for (const QRgb background : {light.icicle, light.lanes, light.ruler, light.usage}) {
            QCOMPARE(background, rgb(qRgb(252, 252, 253)));
            QVERIFY(luminance(background) > 0.95);
        }
        QVERIFY2(light.rulerText >= 7.0, qPrintable(QString::number(light.rulerText)));
        QVERIFY2(light.usageText >= 7.0, qPrintable(QString::number(light.usageText)));
        QVERIFY(window.notices()->palette().color(QPalette::Window).lightness() > 180);
        QVERIFY(window.details()->html().contains(ColorScheme::mutedText().name()));
        QVERIFY(!window.details()->html().contains(darkMuted));

        // System: the style and palette the platform gave at startup.
        window.action(QStringLiteral("themeSystem"))->trigger();
        QCOMPARE(QSettings().value(Theme::settingsKey()).toString(), QStringLiteral("system"));
        QCOMPARE(QApplication::style()->name(), m_systemStyle);
        QCOMPARE(QApplication::palette().color(QPalette::Window), m_systemPalette.color(QPalette::Window));
        QCOMPARE(QApplication::palette().color(QPalette::Base), m_systemPalette.color(QPalette::Base));
    }

    // The setting is read by the next window, as at the next start.
    void theChoiceIsKept_data()
    {
        QTest::addColumn<QString>("saved");
        QTest::addColumn<QString>("checked");
        QTest::addColumn<bool>("dark");
        QTest::newRow("dark") << "dark" << "themeDark" << true;
        QTest::newRow("light") << "light" << "themeLight" << false;
        QTest::newRow("dark again") << "dark" << "themeDark" << true;
        QTest::newRow("system") << "system" << "themeSystem" << false;
    }
    void theChoiceIsKept()
    {
        QFETCH(QString, saved);
        QFETCH(QString, checked);
        QFETCH(bool, dark);
        QSettings().setValue(Theme::settingsKey(), saved);
        MainWindow window;
        QVERIFY(window.action(checked)->isChecked());
        QCOMPARE(ColorScheme::isDark(), dark);
    }

    // File ▸ Export paints with the theme shown.
    void exportsUseTheTheme_data()
    {
        QTest::addColumn<QString>("action");
        QTest::newRow("icicle") << "exportIcicle";
        QTest::newRow("lanes") << "exportLanes";
        QTest::newRow("window") << "exportWindow";
    }
    void exportsUseTheTheme()
    {
        QFETCH(QString, action);
        MainWindow window;
        window.resize(1400, 1000);
        window.show();
        window.openFile(dataPath(QStringLiteral("profiles/chronos-states.json")));
        QVERIFY(settle(window));
        window.action(QStringLiteral("themeDark"))->trigger();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("shot.png"));
        window.setSaveFileChooser([&](const QString&) { return path; });
        window.action(action)->trigger();
        const QImage image(path);
        QVERIFY(!image.isNull());
        // Below the content of the view exported (of the icicle, for the window).
        const QPoint below = action == QLatin1String("exportWindow")
            ? window.icicle()->mapTo(&window, QPoint(window.icicle()->width() / 2, window.icicle()->height() - 3))
            : QPoint(window.icicle()->width() / 2, (action == QLatin1String("exportIcicle") ? window.icicle() : static_cast<QWidget*>(window.lanes()))->height() - 3);
        const QRgb pixel = pixelAt(image, below);
        QCOMPARE(pixel, rgb(ColorScheme::background().rgb()));
        QVERIFY(luminance(pixel) < 0.02);
        window.action(QStringLiteral("themeSystem"))->trigger();
    }

private:
    QTemporaryDir m_settings;
    QPalette m_systemPalette;
    QString m_systemStyle;
};

QTEST_MAIN(TestTheme)
#include "tst_theme.moc"
