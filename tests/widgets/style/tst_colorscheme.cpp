#include "colorscheme.h"
#include "icicleview.h"
#include "profiledocument.h"
#include "theme.h"
#include "timeaxis.h"
#include "widgettestsupport.h"

#include <QApplication>
#include <QStyle>
#include <QtTest>

#include <algorithm>
#include <numeric>
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

// The most palette colours pairwise at least `apart` apart, by an
// exhaustive search of its own.
int mostApart(const std::vector<QRgb>& palette, double apart, std::vector<int> chosen = {}, int from = 0)
{
    int most = int(chosen.size());
    for (int i = from; i < int(palette.size()); ++i) {
        const bool fits = std::all_of(chosen.begin(), chosen.end(), [&](int c) {
            return ColorScheme::distance(QColor::fromRgb(palette[std::size_t(i)]), QColor::fromRgb(palette[std::size_t(c)])) >= apart;
        });
        if (fits) {
            chosen.push_back(i);
            most = std::max(most, mostApart(palette, apart, chosen, i + 1));
            chosen.pop_back();
        }
    }
    return most;
}

// Rows for both themes: "<theme>: <name>".
QList<std::pair<QByteArray, int>> themes()
{
    return {{"light", int(Theme::Mode::Light)}, {"dark", int(Theme::Mode::Dark)}};
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

    // At most 8 palette colours are pairwise kDistinct apart: more labels
    // cannot all be, whatever the rule.
    void paletteHoldsEightLabelsApart()
    {
        const std::vector<QRgb> palette(ColorScheme::palette().begin(), ColorScheme::palette().end());
        QCOMPARE(mostApart(palette, ColorScheme::kDistinct), 8);
        QCOMPARE(ColorScheme::apartCapacity(), std::size_t(8));
    }

    // Issue 39, item 16: taskHandler and late_proc were painted 0.087
    // apart (rgb(254,203,248) and rgb(251,168,252)) where the rule says
    // kDistinct (0.12). The rule must hold for the colours the views paint,
    // in both themes: every pair of labels at least kDistinct apart while
    // the palette can hold them all so (`apart`: up to apartCapacity()),
    // else distinct palette colours, its spacing apart. `first`: a live
    // recording's first version, continued by `names` (its labels, then
    // new ones): `keeps`, its labels keep their colours.
    void separationHoldsInThePaintedColours_data()
    {
        QTest::addColumn<int>("theme");
        QTest::addColumn<QStringList>("first");
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<bool>("apart");
        QTest::addColumn<bool>("keeps");
        const QStringList handlers{"taskHandler", "handleManifest", "handleDataset"};
        // Placed in order, the first labels' slots left late_proc and
        // taskHandler 0.107 apart (each set).
        const QStringList five{"encodePresence", "late_proc", "pruneProof", "sendDataset", "taskHandler"};
        const QStringList eight{"announceContract", "handlePresence", "late_proc", "queryPurchase",
                                "requestIndex", "resolveProof", "taskHandler", "updateBlock"};
        // The colours of the report: these 7 give taskHandler
        // rgb(254,203,248); late_proc joining took rgb(251,168,252).
        const QStringList seven{"decodeCid", "fetchPresence", "requestManifest", "resolveWantList",
                                "storeManifest", "taskHandler", "updateDataset"};
        const QStringList three{"main", "parse", "render"};
        const QStringList twelve{"announceCid", "announceSale", "late_proc", "pruneRequest", "requestSlot", "sendBatch",
                                 "sendIndex", "taskHandler", "updateBatch", "updateChunk", "updateWantList", "verifyChunk"};
        for (const auto& theme : themes()) {
            // (Not a structured binding: clang 14 does not capture those.)
            auto row = [&theme](const char* name) -> QTestData& {
                return QTest::newRow((theme.first + ": " + name).constData()) << theme.second;
            };
            row("Chronos handlers") << QStringList{} << handlers << true << true;
            row("five with late_proc") << QStringList{} << five << true << true;
            row("eight with late_proc") << QStringList{} << eight << true << true;
            row("twelve") << QStringList{} << twelve << false << true;
            // Live: new labels are placed apart from the colours kept...
            row("live, one joins three") << three << (three + QStringList{"late_proc"}) << true << true;
            // ... and when the kept colours leave no room, all are placed afresh.
            row("live, late_proc joins seven") << seven << (seven + QStringList{"late_proc"}) << true << false;
            row("live, twelve from eight") << eight.mid(0, 8) << (eight + QStringList{"zeta", "eta", "theta", "iota"}) << false << true;
        }
    }
    void separationHoldsInThePaintedColours()
    {
        QFETCH(int, theme);
        QFETCH(QStringList, first);
        QFETCH(QStringList, names);
        QFETCH(bool, apart);
        QFETCH(bool, keeps);
        Theme::apply(Theme::Mode(theme));
        TimeAxis axis;
        ProfileDocument document(&axis);
        IcicleView view(&document);
        view.resize(TimeAxis::kGutter + 100 * int(names.size()) + view.style()->pixelMetric(QStyle::PM_ScrollBarExtent), 200);
        view.show();
        std::vector<QRgb> before; // the first version's colours
        if (!first.isEmpty()) {
            const LoadedProfile start = loadedText(profileOf(first));
            QVERIFY(!start.isNull());
            document.setProfile(start);
            for (LabelId l = 0; l < start.profile->labelCount(); ++l)
                before.push_back(document.labelColor(l));
        }
        const LoadedProfile loaded = loadedText(profileOf(names));
        QVERIFY(!loaded.isNull());
        const Profile& p = *loaded.profile;
        QCOMPARE(p.labelCount(), std::size_t(names.size()));
        if (first.isEmpty()) {
            document.setProfile(loaded);
        } else {
            // Label ids kept, as in a live recording's next version.
            for (LabelId l = 0; l < LabelId(first.size()); ++l)
                QCOMPARE(qstr(p.labelName(l)), qstr(document.profile()->labelName(l)));
            document.continueProfile(loaded);
            QVERIFY(document.isCurrent(loaded.profile));
            axis.zoomToAll(); // a continuation keeps the range shown
        }
        QCoreApplication::processEvents();
        const QImage image = view.grab().toImage();
        // Each label's box as painted, at the top of its box, half-way along it.
        std::vector<QRgb> painted;
        for (const QString& name : names) {
            const QByteArray utf8 = name.toUtf8();
            const QRectF box = view.spanRect(intervalNamed(p, std::string_view(utf8.constData(), std::size_t(utf8.size()))));
            QVERIFY2(box.width() > 20, qPrintable(name));
            const QRgb pixel = pixelAt(image, QPointF(box.center().x(), box.top() + 2));
            QCOMPARE(pixel, rgb(document.colorOf(labelNamed(p, utf8.constData()), 0)));
            painted.push_back(pixel);
        }
        QCOMPARE(int(painted.size()) <= int(ColorScheme::apartCapacity()), apart);
        const double bound = apart ? ColorScheme::kDistinct : kPaletteSpacing;
        for (std::size_t i = 0; i < painted.size(); ++i) {
            for (std::size_t j = i + 1; j < painted.size(); ++j) {
                const double d = ColorScheme::distance(QColor::fromRgb(painted[i]), QColor::fromRgb(painted[j]));
                QVERIFY2(d >= bound, qPrintable(QStringLiteral("%1 %2 and %3 %4: %5")
                                                     .arg(names[int(i)], QColor::fromRgb(painted[i]).name(), names[int(j)],
                                                          QColor::fromRgb(painted[j]).name())
                                                     .arg(d, 0, 'f', 4)));
            }
        }
        bool kept = true;
        for (LabelId l = 0; l < LabelId(before.size()); ++l)
            kept = kept && document.labelColor(l) == before[l];
        QCOMPARE(kept, keeps);
    }

    // The demo profile (287 procs): its 24 busiest, which the rule spreads,
    // take the 24 palette colours, its spacing apart, in both themes.
    void demoBusiestLabelsDiffer_data()
    {
        QTest::addColumn<int>("theme");
        for (const auto& [theme, mode] : themes())
            QTest::newRow(theme.constData()) << mode;
    }
    void demoBusiestLabelsDiffer()
    {
        QFETCH(int, theme);
        Theme::apply(Theme::Mode(theme));
        TimeAxis axis;
        ProfileDocument document(&axis);
        const LoadedProfile loaded = loadedFile(QStringLiteral(RUNLANE_DEMO_PROFILE));
        QVERIFY(!loaded.isNull());
        document.setProfile(loaded);
        const Profile& p = *loaded.profile;
        QCOMPARE(p.labelCount(), std::size_t(287));
        std::vector<Time> exec(p.labelCount(), 0);
        for (MeasurementId id = 0; id < p.measurementCount(); ++id)
            exec[p.measurement(id).label] += loaded.metrics->exec(id);
        std::vector<LabelId> busiest(p.labelCount());
        std::iota(busiest.begin(), busiest.end(), LabelId(0));
        std::stable_sort(busiest.begin(), busiest.end(), [&](LabelId a, LabelId b) { return exec[a] > exec[b]; });
        // Not a tie at the edge of the 24.
        QVERIFY(exec[busiest[23]] > exec[busiest[24]]);
        QCOMPARE(qstr(p.labelName(busiest[0])), QStringLiteral("taskHandler"));
        std::vector<QRgb> colors;
        for (std::size_t i = 0; i < ColorScheme::kProbedKeys; ++i)
            colors.push_back(document.colorOf(busiest[i], 0));
        QCOMPARE(std::set<QRgb>(colors.begin(), colors.end()).size(), ColorScheme::kProbedKeys);
        const double smallest = smallestDistance(colors);
        QVERIFY2(smallest >= kPaletteSpacing, qPrintable(QString::number(smallest, 'f', 4)));
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

    // The exec the colours rank labels by is found with the profile, off
    // the GUI thread (LoadedProfile::labelExec), and labelColors() ranks by
    // what it is given: reversed, the other labels are the busiest.
    void labelExecFoundWithTheProfile_data()
    {
        QTest::addColumn<int>("labels");
        QTest::addRow("40 labels") << 40;
        QTest::addRow("24 labels: none ranked, none found") << int(ColorScheme::kProbedKeys);
    }
    void labelExecFoundWithTheProfile()
    {
        QFETCH(int, labels);
        QStringList names;
        QList<int> durations;
        for (int i = 0; i < labels; ++i) {
            names << QStringLiteral("label%1").arg(i);
            durations << 1000 - 10 * i; // µs; label0 busiest
        }
        const LoadedProfile loaded = loadedText(profileOf(names, durations));
        QVERIFY(!loaded.isNull());
        const Profile& profile = *loaded.profile;
        if (labels <= int(ColorScheme::kProbedKeys)) {
            QCOMPARE(loaded.labelExec.size(), std::size_t(0));
            return;
        }
        QCOMPARE(loaded.labelExec.size(), std::size_t(labels));
        std::vector<double> reversed(loaded.labelExec.size());
        for (LabelId l = 0; l < profile.labelCount(); ++l) {
            const int i = names.indexOf(qstr(profile.labelName(l)));
            QCOMPARE(loaded.labelExec[l], 1000.0 * durations[i]);
            reversed[l] = 1000.0 * (1000 - 10 * (labels - 1 - i));
        }
        QVERIFY(ColorScheme::labelColors(profile, ColorMode::ByLabel, {}, loaded.labelExec)
                == ColorScheme::labelColors(profile, ColorMode::ByLabel));
        const std::vector<QRgb> colors = ColorScheme::labelColors(profile, ColorMode::ByLabel, {}, reversed);
        std::set<QRgb> busiest;
        for (LabelId l = 0; l < profile.labelCount(); ++l) {
            const int i = names.indexOf(qstr(profile.labelName(l)));
            if (i >= labels - int(ColorScheme::kProbedKeys))
                busiest.insert(colors[l]);
            else
                QCOMPARE(colors[l], ColorScheme::forText(names[i].toStdString()).rgb());
        }
        QCOMPARE(busiest.size(), ColorScheme::kProbedKeys);
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
