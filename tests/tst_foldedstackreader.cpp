#include "measurementmetrics.h"
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
