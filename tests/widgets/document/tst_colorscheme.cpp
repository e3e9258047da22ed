#include "colorscheme.h"
#include "theme.h"
#include "widgettestsupport.h"

#include <QApplication>
#include <QtTest>

#include <algorithm>
#include <set>

using namespace runlane;
using namespace runlane::test;

namespace {

// The smallest OKLab distance between two palette colours (computed once
// from the palette; the palette's comment gives it too).
constexpr double kPaletteSpacing = 0.0840;
// ... and from each of the greys of merged runs and of "other".
constexpr double kGreySpacing = 0.0837;

// A Chrome trace with one interval per name, in the order given, the i-th
// lasting durations[i] µs (1 µs when none is given).
QByteArray profileOf(const QStringList& names, const QList<int>& durations = {})
{
    QByteArray text = "[";
    int at = 0;
    for (int i = 0; i < names.size(); ++i) {
        const int length = i < durations.size() ? durations[i] : 1;
        text += QStringLiteral("%1{\"ph\": \"X\", \"pid\": 1, \"tid\": 1, \"name\": \"%2\", \"ts\": %3, \"dur\": %4}")
                    .arg(i == 0 ? QString() : QStringLiteral(","), names[i])
                    .arg(at)
                    .arg(length)
                    .toUtf8();
        at += length;
    }
    return text + "]";
}

// Colour of every label, by name.
std::map<QString, QRgb> colorsByName(const Profile& profile, ColorMode mode = ColorMode::ByLabel)
{
    const std::vector<QRgb> colors = ColorScheme::labelColors(profile, mode);
    std::map<QString, QRgb> byName;
    for (LabelId l = 0; l < profile.labelCount(); ++l)
        byName[qstr(profile.labelName(l))] = colors[l];
    return byName;
}

double smallestDistance(const std::vector<QRgb>& colors)
{
    double smallest = 1e9;
    for (std::size_t i = 0; i < colors.size(); ++i) {
        for (std::size_t j = i + 1; j < colors.size(); ++j)
            smallest = std::min(smallest, ColorScheme::distance(QColor::fromRgb(colors[i]), QColor::fromRgb(colors[j])));
    }
    return smallest;
}

} // namespace

class TestColorScheme : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { Theme::apply(Theme::Mode::System); }

    // Björn Ottosson's reference values for the sRGB primaries.
    void oklabOfReferenceColours_data()
    {
        QTest::addColumn<QColor>("color");
        QTest::addColumn<double>("L");
        QTest::addColumn<double>("a");
        QTest::addColumn<double>("b");
        QTest::newRow("white") << QColor(255, 255, 255) << 1.0 << 0.0 << 0.0;
        QTest::newRow("black") << QColor(0, 0, 0) << 0.0 << 0.0 << 0.0;
        QTest::newRow("red") << QColor(255, 0, 0) << 0.627955 << 0.224863 << 0.125846;
        QTest::newRow("green") << QColor(0, 255, 0) << 0.866440 << -0.233888 << 0.179498;
        QTest::newRow("blue") << QColor(0, 0, 255) << 0.452014 << -0.032457 << -0.311528;
    }
    void oklabOfReferenceColours()
    {
        QFETCH(QColor, color);
        QFETCH(double, L);
        QFETCH(double, a);
        QFETCH(double, b);
        const auto lab = ColorScheme::oklab(color);
        QVERIFY2(std::abs(lab[0] - L) < 1e-5, qPrintable(QString::number(lab[0], 'f', 7)));
        QVERIFY2(std::abs(lab[1] - a) < 1e-5, qPrintable(QString::number(lab[1], 'f', 7)));
        QVERIFY2(std::abs(lab[2] - b) < 1e-5, qPrintable(QString::number(lab[2], 'f', 7)));
    }

    void wcagContrastOfReferencePairs_data()
    {
        QTest::addColumn<QColor>("a");
        QTest::addColumn<QColor>("b");
        QTest::addColumn<double>("ratio");
        QTest::newRow("black on white") << QColor(0, 0, 0) << QColor(255, 255, 255) << 21.0;
        QTest::newRow("same colour") << QColor(120, 30, 200) << QColor(120, 30, 200) << 1.0;
        // #777 on white: the grey usually quoted as just failing AA (4.48).
        QTest::newRow("#777 on white") << QColor(0x77, 0x77, 0x77) << QColor(255, 255, 255) << 4.4781;
    }
    void wcagContrastOfReferencePairs()
    {
        QFETCH(QColor, a);
        QFETCH(QColor, b);
        QFETCH(double, ratio);
        QVERIFY2(std::abs(ColorScheme::contrast(a, b) - ratio) < 1e-4, qPrintable(QString::number(ColorScheme::contrast(a, b), 'f', 5)));
        QCOMPARE(ColorScheme::contrast(a, b), ColorScheme::contrast(b, a));
    }

    void paletteColoursArePairwiseFarApart()
    {
        const auto palette = ColorScheme::palette();
        QCOMPARE(palette.size(), std::size_t(24));
        const std::vector<QRgb> colors(palette.begin(), palette.end());
        QCOMPARE(std::set<QRgb>(colors.begin(), colors.end()).size(), colors.size());
        // Every pair at least kPaletteSpacing apart, and some pair less than
        // 0.0001 more: the bound is the palette's own.
        const double smallest = smallestDistance(colors);
        QVERIFY2(smallest >= kPaletteSpacing, qPrintable(QString::number(smallest, 'f', 6)));
        QVERIFY2(smallest < kPaletteSpacing + 0.0001, qPrintable(QString::number(smallest, 'f', 6)));
        // Far from the greys of merged runs and of the usage chart's
        // "other" band too, in both themes.
        for (const Theme::Mode mode : {Theme::Mode::Light, Theme::Mode::Dark}) {
            Theme::apply(mode);
            for (const QRgb c : colors) {
                QVERIFY(ColorScheme::distance(QColor::fromRgb(c), ColorScheme::merged()) >= kGreySpacing);
                QVERIFY(ColorScheme::distance(QColor::fromRgb(c), ColorScheme::other()) >= kGreySpacing);
            }
        }
    }

    // WCAG AA for normal text: 4.5. On every palette colour, and on every
    // one dimmed in either theme (what is not emphasised).
    void textOnEveryPaletteColourReads()
    {
        for (const Theme::Mode mode : {Theme::Mode::Light, Theme::Mode::Dark}) {
            Theme::apply(mode);
            for (const QRgb c : ColorScheme::palette()) {
                const QColor fill = QColor::fromRgb(c);
                QVERIFY2(ColorScheme::contrast(fill, ColorScheme::textOn(fill)) >= 4.5, qPrintable(fill.name()));
                // Pastels in both themes: dark text.
                QCOMPARE(ColorScheme::textOn(fill), QColor(20, 20, 24));
                const QColor dim = QColor::fromRgb(ColorScheme::dimmed(c));
                QVERIFY2(ColorScheme::contrast(dim, ColorScheme::textOn(dim)) >= 4.5, qPrintable(dim.name()));
            }
        }
    }

    // Labels seen together get colours at least kDistinct apart, though
    // some of them hash to nearby slots (`clash`: the hashed colours alone
    // would not be).
    void labelsSeenTogetherDiffer_data()
    {
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<bool>("clash");
        QTest::newRow("Chronos handlers") << QStringList{"taskHandler", "handleManifest", "handleDataset"} << true;
        QTest::newRow("speedscope a-e") << QStringList{"a", "b", "c", "d", "e"} << true;
        QTest::newRow("two") << QStringList{"main", "parse"} << false;
    }
    void labelsSeenTogetherDiffer()
    {
        QFETCH(QStringList, names);
        QFETCH(bool, clash);
        const LoadedProfile loaded = loadedText(profileOf(names));
        QVERIFY(!loaded.isNull());
        QCOMPARE(loaded.profile->labelCount(), std::size_t(names.size()));
        const std::vector<QRgb> colors = ColorScheme::labelColors(*loaded.profile, ColorMode::ByLabel);
        QVERIFY2(smallestDistance(colors) >= ColorScheme::kDistinct, qPrintable(QString::number(smallestDistance(colors))));
        std::vector<QRgb> hashed;
        for (const QString& name : names)
            hashed.push_back(ColorScheme::forText(name.toStdString()).rgb());
        QCOMPARE(smallestDistance(hashed) < ColorScheme::kDistinct, clash);
        // Every colour is one of the palette's.
        for (const QRgb c : colors)
            QVERIFY(std::find(ColorScheme::palette().begin(), ColorScheme::palette().end(), c) != ColorScheme::palette().end());
    }

    // A label alone has its hashed colour; the same set of labels has the
    // same colours whatever their order in the file and their times.
    void sameLabelsSameColours()
    {
        const QStringList names{"a", "b", "c", "d", "e"};
        const LoadedProfile first = loadedText(profileOf(names, {1, 2, 3, 4, 5}));
        const LoadedProfile again = loadedText(profileOf(names, {1, 2, 3, 4, 5}));
        QStringList reversed = names;
        std::reverse(reversed.begin(), reversed.end());
        const LoadedProfile other = loadedText(profileOf(reversed, {50, 7, 1, 300, 2}));
        QVERIFY(!first.isNull() && !again.isNull() && !other.isNull());
        const auto colors = colorsByName(*first.profile);
        QCOMPARE(colorsByName(*again.profile), colors);
        QCOMPARE(colorsByName(*other.profile), colors);
        for (const QString& name : names) {
            const LoadedProfile alone = loadedText(profileOf({name}));
            QCOMPARE(colorsByName(*alone.profile).at(name), ColorScheme::forText(name.toStdString()).rgb());
        }
        // The first in text order keeps its hashed colour.
        QCOMPARE(colors.at(QStringLiteral("a")), ColorScheme::forText("a").rgb());
    }

    // Past kProbedKeys labels, the busiest kProbedKeys take every palette
    // colour once; the others keep their hashed colours.
    void busiestLabelsSpreadOverThePalette()
    {
        QStringList names;
        QList<int> durations;
        for (int i = 0; i < 40; ++i) {
            names << QStringLiteral("label%1").arg(i);
            durations << 1000 - 10 * i; // label0 busiest
        }
        const LoadedProfile loaded = loadedText(profileOf(names, durations));
        QVERIFY(!loaded.isNull());
        const auto colors = colorsByName(*loaded.profile);
        std::set<QRgb> busiest;
        for (int i = 0; i < int(ColorScheme::kProbedKeys); ++i)
            busiest.insert(colors.at(names[i]));
        QCOMPARE(busiest.size(), ColorScheme::kProbedKeys);
        for (int i = int(ColorScheme::kProbedKeys); i < names.size(); ++i)
            QCOMPARE(colors.at(names[i]), ColorScheme::forText(names[i].toStdString()).rgb());
    }

    void byFileLabelsOfAFileShareItsColour()
    {
        const LoadedProfile loaded = loadedFile(dataPath(QStringLiteral("profiles/chronos-states.json")));
        QVERIFY(!loaded.isNull());
        const Profile& p = *loaded.profile;
        const std::vector<QRgb> colors = ColorScheme::labelColors(p, ColorMode::ByFile);
        std::map<std::string, std::set<QRgb>> byFile;
        for (LabelId l = 0; l < p.labelCount(); ++l)
            byFile[std::string(p.string(p.label(l).file))].insert(colors[l]);
        QCOMPARE(byFile.size(), std::size_t(2)); // states.nim, timer.nim
        for (const auto& [file, set] : byFile)
            QCOMPARE(set.size(), std::size_t(1));
        QVERIFY(ColorScheme::distance(QColor::fromRgb(*byFile["states.nim"].begin()), QColor::fromRgb(*byFile["timer.nim"].begin()))
                >= ColorScheme::kDistinct);
    }

    // The views' own colours: text reads on every background of its theme.
    void uiColoursReadInBothThemes_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << int(Theme::Mode::Light) << false;
        QTest::newRow("dark") << int(Theme::Mode::Dark) << true;
    }
    void uiColoursReadInBothThemes()
    {
        QFETCH(int, mode);
        QFETCH(bool, dark);
        Theme::apply(Theme::Mode(mode));
        QCOMPARE(ColorScheme::isDark(), dark);
        const QColor back = ColorScheme::background();
        // Relative luminance of the plots' background: under 0.02 in dark,
        // over 0.95 in light.
        const double lightness = ColorScheme::contrast(back, Qt::black) * 0.05 - 0.05;
        QVERIFY2(dark ? lightness < 0.02 : lightness > 0.95, qPrintable(QString::number(lightness)));
        for (const QColor& under : {back, ColorScheme::gutter(), ColorScheme::header(), ColorScheme::selectedRow(),
                                    ColorScheme::relatedRow(), ColorScheme::pending()})
            QVERIFY2(ColorScheme::contrast(ColorScheme::text(), under) >= 7.0, qPrintable(under.name()));
        for (const QColor& under : {back, ColorScheme::gutter(), ColorScheme::header()})
            QVERIFY2(ColorScheme::contrast(ColorScheme::mutedText(), under) >= 4.5, qPrintable(under.name()));
        const QColor window = QApplication::palette().color(QPalette::Window);
        QVERIFY(ColorScheme::contrast(ColorScheme::errorText(), window) >= 4.5);
        QVERIFY(ColorScheme::contrast(ColorScheme::errorText(), QApplication::palette().color(QPalette::Base)) >= 4.5);
        QVERIFY(ColorScheme::contrast(ColorScheme::mutedText(), window) >= 4.5);
        QVERIFY(ColorScheme::contrast(ColorScheme::text(), ColorScheme::matchRow()) >= 7.0);
        QVERIFY(ColorScheme::contrast(QApplication::palette().color(QPalette::Text), ColorScheme::matchRow()) >= 7.0);
        // Marks and the selection: 3, WCAG's bound for graphics.
        QVERIFY(ColorScheme::contrast(ColorScheme::mark(), back) >= 3.0);
        QVERIFY(ColorScheme::contrast(ColorScheme::selection(), back) >= 3.0);
        QVERIFY(ColorScheme::contrast(ColorScheme::hatch(), ColorScheme::pending()) >= 1.9);
        const QColor onSelection = ColorScheme::textOn(ColorScheme::selection());
        QVERIFY(ColorScheme::contrast(onSelection, ColorScheme::selection()) >= 4.5);
        // Dimmed text is dimmer than text, but still there.
        QVERIFY(ColorScheme::contrast(ColorScheme::faintText(), back) >= 2.0);
        QVERIFY(ColorScheme::contrast(ColorScheme::faintText(), back) < ColorScheme::contrast(ColorScheme::mutedText(), back));
    }
};

QTEST_MAIN(TestColorScheme)
#include "tst_colorscheme.moc"
