#include "findbar.h"
#include "profilebuilder.h"
#include "profiledocument.h"
#include "timeaxis.h"
#include "widgettestsupport.h"

#include <QLineEdit>
#include <QtTest>

using namespace runlane;
using namespace runlane::test;

// The find bar's count says which occurrence is selected, of how many, in
// how many labels; while a file loads, that the count is of what was read so
// far (a preview holds the boxes of a length or more only).
class TestFindBar : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void countsWhatTheProfileHolds_data()
    {
        QTest::addColumn<int>("partial"); // -1: the whole file; else a PartialLoad::Kind
        QTest::addColumn<qlonglong>("shortestKept"); // ns
        QTest::addColumn<QString>("before"); // nothing selected
        QTest::addColumn<QString>("after"); // after Enter
        QTest::newRow("the whole file") << -1 << 0LL << "3 intervals · 2 labels" << "1 of 3 · 2 labels";
        QTest::newRow("a preview with every box") << int(PartialLoad::Kind::Preview) << 0LL
                                                  << "3 intervals · 2 labels · so far" << "1 of 3 · 2 labels · so far";
        QTest::newRow("a preview of the longer boxes")
            << int(PartialLoad::Kind::Preview) << 1'050'000LL << "3 intervals · 2 labels · so far, boxes of 1.05 ms or more"
            << "1 of 3 · 2 labels · so far, boxes of 1.05 ms or more";
        // Cut: what was kept is the profile, counted exactly (its title
        // and rank say it is cut).
        QTest::newRow("a load stopped and kept") << int(PartialLoad::Kind::Cut) << 0LL << "3 intervals · 2 labels"
                                                 << "1 of 3 · 2 labels";
    }

    void countsWhatTheProfileHolds()
    {
        QFETCH(int, partial);
        QFETCH(qlonglong, shortestKept);
        QFETCH(QString, before);
        QFETCH(QString, after);
        ProfileBuilder builder("test");
        const TrackId track = builder.addTrack(TrackInfo{});
        builder.addCall(track, builder.label("parse"), 0, 2'000'000, 0);
        builder.addCall(track, builder.label("parse_args"), 3'000'000, 5'000'000, 1);
        builder.addCall(track, builder.label("parse"), 6'000'000, 8'000'000, 2);
        builder.addCall(track, builder.label("render"), 9'000'000, 10'000'000, 3);
        if (partial >= 0)
            markPartial(builder, PartialLoad::Kind(partial), shortestKept);
        TimeAxis axis;
        ProfileDocument document(&axis);
        document.setProfile(LoadedProfile::prepare(builder.build(), QStringLiteral("t.json")));
        FindBar bar(&document);
        bar.activate();
        QTest::keyClicks(bar.field(), QStringLiteral("parse"));
        QTRY_COMPARE(bar.matchSummary(), before); // after the typing pause
        QTest::keyClick(bar.field(), Qt::Key_Return);
        QCOMPARE(bar.matchSummary(), after);
    }
};

QTEST_MAIN(TestFindBar)
#include "tst_findbar.moc"
