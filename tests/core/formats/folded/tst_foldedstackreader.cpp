#include "chrometracewriter.h"
#include "measurementmetrics.h"
#include "rankformatter.h"
#include "ranktable.h"
#include "testsupport.h"
#include "valueformat.h"

#include <QtTest>

using namespace runlane;
using runlane::test::dataPath;
using runlane::test::loadText;
using runlane::test::qstr;

namespace {

// "name exec/total" in samples (to three decimals), by exec then name.
QStringList rank(const Profile& p)
{
    RankTable t = RankTable::compute(MeasurementMetrics(p));
    QStringList out;
    for (const RankRow& r : t.rows())
        out << QStringLiteral("%1 %2/%3")
                   .arg(qstr(p.labelName(r.label)))
                   .arg(QString::fromStdString(ValueFormat::plain(r.exec, p.unit())))
                   .arg(QString::fromStdString(ValueFormat::plain(r.total, p.unit())));
    return out;
}

} // namespace

class TestFoldedStackReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // a;b;c 1 / a;b;c 1 / a;b;d 4 / a;b;c 3 / a;b 5, in every encoding.
    void simple_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("warnings");
        QTest::addColumn<int>("comments");
        QTest::newRow("utf-8") << "samples/folded/simple.txt" << 0 << 0;
        QTest::newRow("crlf") << "samples/folded/simple-crlf.txt" << 0 << 0;
        QTest::newRow("utf-16 le") << "samples/folded/simple-utf16-le.txt" << 0 << 0;
        QTest::newRow("utf-16 be") << "samples/folded/simple-utf16-be.txt" << 0 << 0;
        QTest::newRow("comments and a bad line") << "samples/folded/simple-with-invalids.txt" << 1 << 2;
    }

    void simple()
    {
        QFETCH(QString, file);
        QFETCH(int, warnings);
        QFETCH(int, comments);
        const LoadResult r = ProfileLoader::load(dataPath(file));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.formatName(), std::string_view("folded stacks"));
        QCOMPARE(p.unit(), ValueUnit::Samples);
        QVERIFY(p.prefersAggregatedView());
        QCOMPARE(rank(p), (QStringList{"b 5/14", "c 5/5", "d 4/4", "a 0/14"}));
        QCOMPARE(int(p.diagnostics().warningCount()), warnings);
        QCOMPARE(int(p.diagnostics().skippedCount()), comments);
    }

    void fractionalCounts()
    {
        const LoadResult r = ProfileLoader::load(dataPath("samples/folded/inferno/fractional-samples_fractional.txt"));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(rank(*r.profile).mid(0, 4), (QStringList{"main 274.321/324.551", "cksum 56.33/57.73",
                                                          "[unknown] 2.567/2.567", "ext4_file_read_iter_[k] 1.4/1.4"}));
        QCOMPARE(r.profile->duration(), Time(334618));
    }

    // An empty frame is a frame with an empty name, shown as "(empty)",
    // never a dropped level (flamegraph.pl, inferno and speedscope agree).
    void emptyFrames_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QStringList>("expected");
        QTest::addColumn<int>("depths");
        QTest::newRow("trailing blank frame") << QByteArray("a;b 1\na;b;  3\n")
                                              << QStringList{"(empty) 3/3", "b 1/4", "a 0/4"} << 3;
        QTest::newRow("blank frame in the middle") << QByteArray("a;;b 2\n")
                                                   << QStringList{"b 2/2", "a 0/2", "(empty) 0/2"} << 3;
        QTest::newRow("blank root") << QByteArray(";a 1\n") << QStringList{"a 1/1", "(empty) 0/1"} << 2;
        QTest::newRow("blank frames only, recursion counted once")
            << QByteArray("; 2\n;;x 1\n") << QStringList{"(empty) 2/3", "x 1/1"} << 3;
    }

    void emptyFrames()
    {
        QFETCH(QByteArray, text);
        QFETCH(QStringList, expected);
        QFETCH(int, depths);
        const LoadResult r = loadText(text);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(p.formatName(), std::string_view("folded stacks"));
        QCOMPARE(rank(p), expected);
        QCOMPARE(p.track(0).depthCount(), depths);
        QCOMPARE(int(p.diagnostics().warningCount()), 0);
    }

    // perf-vertx line 15 ends in a blank frame: write0_[j] keeps 1 self
    // sample there and its blank child has the 3 of that line.
    void emptyFrameOfPerfVertx()
    {
        const LoadResult r = ProfileLoader::load(dataPath("samples/folded/perf-vertx-stacks-01-collapsed-all.txt"));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const QStringList rows = rank(*r.profile);
        QVERIFY(rows.contains(QStringLiteral("sun/nio/ch/FileDispatcherImpl:.write0_[j] 1/87")));
        QVERIFY(rows.contains(QStringLiteral("(empty) 3/3")));
        QCOMPARE(rows.filter(QStringLiteral("(empty)")).size(), 1);
    }

    // The label's name is empty; everything that shows it says "(empty)":
    // the rank as a table, CSV and JSON alike, and the views (labelName).
    // Converting writes the name itself, empty.
    void emptyNameIsShownAsEmptyEverywhere()
    {
        const LoadResult r = loadText("a;b 1\na;b; 3\n");
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        const LabelId blank = runlane::test::labelNamed(p, Profile::kEmptyName);
        QVERIFY(blank != kNone);
        QCOMPARE(p.label(blank).name, kEmptyString);
        QCOMPARE(p.labelText(blank), std::string("(empty)"));
        const RankTable t = RankTable::compute(MeasurementMetrics(p));
        QVERIFY(RankFormatter::table(p, t).find("  (empty)\n") != std::string::npos);
        QVERIFY(RankFormatter::csv(p, t).find("\n(empty),,,1,") != std::string::npos);
        QVERIFY(RankFormatter::json(p, t).find("\"name\": \"(empty)\"") != std::string::npos);
        const std::string chrome = ChromeTraceWriter::toString(p);
        QVERIFY(chrome.find("\"name\":\"\"") != std::string::npos);
        QVERIFY(chrome.find("(empty)") == std::string::npos);
    }

    // Counts are exact to a thousandth of a sample; more decimals are
    // rounded half away from zero, with a warning that names the line.
    void countsBeyondThreeDecimals()
    {
        const LoadResult r = loadText("a 1.2345\nb 2.5000\nc 0.0004\nd 0.001\n");
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(rank(p), (QStringList{"b 2.5/2.5", "a 1.235/1.235", "d 0.001/0.001", "c 0/0"}));
        const auto& d = p.diagnostics();
        QCOMPARE(d.warningKinds().at("count rounded"), std::uint64_t(2));
        QCOMPARE(int(d.warningCount()), 2);
        QCOMPARE(QString::fromStdString(d.examples()[0]),
                 QStringLiteral("line 1: count 1.2345 has more than 3 decimals; rounded to 1.235"));
        QCOMPARE(QString::fromStdString(d.examples()[1]),
                 QStringLiteral("line 3: count 0.0004 has more than 3 decimals; rounded to 0"));
    }

    void framesWithSpaces()
    {
        // Frames split at ';' only: spaces stay, even a ';' inside brackets
        // splits (as in flamegraph.pl and inferno).
        const LoadResult r = ProfileLoader::load(dataPath("samples/folded/inferno/fractional-samples_with-space.txt"));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QStringList names;
        for (LabelId l = 0; l < r.profile->labelCount(); ++l)
            names << qstr(r.profile->labelName(l));
        QVERIFY(names.contains(QStringLiteral("core::array::<impl core::default::Default for [T")));
        QVERIFY(names.contains(QStringLiteral(" _]>::default::h67c9877e6f2a615c")));
    }

    void recursionCountedOnce()
    {
        const LoadResult r = ProfileLoader::load(dataPath("samples/folded/recursion.txt"));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        // 10 lines of 1 sample. Leaves: a once, b 5 times, c 4 times; a is in
        // 9 lines (all but "b;b"), b in 9 (all but "a;a"), however deep.
        QCOMPARE(rank(*r.profile), (QStringList{"b 5/9", "c 4/4", "a 1/9"}));
    }

    void differentialUsesTheSecondCount()
    {
        const LoadResult r = loadText("a;b 3 5\na;c 1 2\n");
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(rank(*r.profile), (QStringList{"b 5/5", "c 2/2", "a 0/7"}));
        QCOMPARE(r.profile->diagnostics().warningKinds().at("differential counts"), std::uint64_t(1));
    }

    void badLines()
    {
        const LoadResult r = ProfileLoader::load(dataPath("samples/folded/inferno/bad-lines_bad-lines.txt"));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const auto& d = r.profile->diagnostics();
        QCOMPARE(d.warningKinds().at("bad line"), std::uint64_t(2));
        QCOMPARE(QString::fromStdString(d.examples()[0]),
                 QStringLiteral("line 3 is not \"frame;frame;... count\": THIS IS A BAD LINE"));
        QCOMPARE(QString::fromStdString(d.examples()[1]),
                 QStringLiteral("line 6 is not \"frame;frame;... count\": THIS IS A BAD FRACTIONAL LINE 12V.43"));
    }

    void valueFormat()
    {
        QCOMPARE(ValueFormat::text(5000, ValueUnit::Samples), std::string("5 samples"));
        QCOMPARE(ValueFormat::text(1000, ValueUnit::Samples), std::string("1 sample"));
        QCOMPARE(ValueFormat::text(2500, ValueUnit::Samples), std::string("2.50 samples"));
        QCOMPARE(ValueFormat::text(1234567000, ValueUnit::Samples), std::string("1.23 M samples"));
        QCOMPARE(ValueFormat::text(4096000, ValueUnit::Bytes), std::string("4.10 kB"));
        QCOMPARE(ValueFormat::plain(56330, ValueUnit::Samples), std::string("56.33"));
        QCOMPARE(ValueFormat::plain(-1500, ValueUnit::None), std::string("-1.5"));
        QCOMPARE(ValueFormat::plain(1500, ValueUnit::Nanoseconds), std::string("1500"));
        QCOMPARE(ValueFormat::key(ValueUnit::Samples), std::string_view("samples"));
    }
};

QTEST_GUILESS_MAIN(TestFoldedStackReader)
#include "tst_foldedstackreader.moc"
