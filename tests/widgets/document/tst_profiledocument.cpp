#include "criticalpathstate.h"
#include "loaderror.h"
#include "messagesstate.h"
#include "profiledocument.h"
#include "timeaxis.h"
#include "widgettestsupport.h"

#include <QSignalSpy>
#include <QtTest>

using namespace runlane;
using namespace runlane::test;

namespace {

constexpr qint64 us = 1000;

// µs: main [0, 1000) > load [100, 200), load [300, 310), parse [500, 600)
//     and on a second thread loader [50, 950) > load [400, 420)
QByteArray profileText()
{
    return JSON([{"ph" : "X", "pid" : 1, "tid" : 1, "name" : "main", "ts" : 0, "dur" : 1000},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "load", "ts" : 100, "dur" : 100},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "load", "ts" : 300, "dur" : 10},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "parse", "ts" : 500, "dur" : 100},
                 {"ph" : "X", "pid" : 1, "tid" : 2, "name" : "loader", "ts" : 50, "dur" : 900},
                 {"ph" : "X", "pid" : 1, "tid" : 2, "name" : "load", "ts" : 400, "dur" : 20}]);
}

} // namespace

class TestProfileDocument : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        m_loaded = loadedText(profileText());
        QVERIFY(!m_loaded.isNull());
    }

    void searchMatchesLabels_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QStringList>("labels");
        QTest::addColumn<int>("intervals");
        QTest::newRow("substring") << "load" << true << QStringList{"load", "loader"} << 4;
        QTest::newRow("any case") << "LOAD" << true << QStringList{"load", "loader"} << 4;
        QTest::newRow("regex") << "/^load$/" << true << QStringList{"load"} << 3;
        QTest::newRow("regex, any case") << "/^P/" << true << QStringList{"parse"} << 1;
        QTest::newRow("no match") << "zzz" << true << QStringList{} << 0;
        QTest::newRow("invalid regex") << "/(load/" << false << QStringList{} << 0;
        QTest::newRow("a lone slash is text") << "/" << true << QStringList{} << 0;
    }
    void searchMatchesLabels()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(QStringList, labels);
        QFETCH(int, intervals);
        TimeAxis axis;
        ProfileDocument document(&axis);
        document.setProfile(m_loaded);
        QSignalSpy spy(&document, &ProfileDocument::emphasisChanged);
        document.setSearch(text);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(document.searchIsValid(), valid);
        QStringList names;
        for (const LabelId l : document.searchMatches())
            names << qstr(m_loaded.profile->labelName(l));
        QCOMPARE(names, labels);
        QCOMPARE(document.searchIntervalCount(), std::size_t(intervals));
        QVERIFY(document.isEmphasisActive());
        // Colours: matches keep theirs, the rest are dimmed.
        const LabelId main = labelNamed(*m_loaded.profile, "main");
        QCOMPARE(document.colorOf(main, 0), ColorScheme::dimmed(document.labelColor(main)));
        document.setSearch(QString());
        QVERIFY(!document.isEmphasisActive());
        QCOMPARE(document.colorOf(main, 0), document.labelColor(main));
    }

    // F3 / Enter: every occurrence in time order across threads, zooming to
    // each with a quarter of its length around it.
    void stepsThroughOccurrences()
    {
        TimeAxis axis;
        ProfileDocument document(&axis);
        document.setProfile(m_loaded);
        document.setFocusLabel(labelNamed(*m_loaded.profile, "load"));
        // Each one found is revealed, for the icicle to bring its row on
        // screen; none when there is no next one.
        QSignalSpy revealed(&document, &ProfileDocument::intervalRevealed);
        QList<qint64> starts;
        for (int i = 0; i < 4; ++i) {
            const IntervalId id = document.stepOccurrence(true);
            if (id == kNone)
                break;
            starts << m_loaded.profile->interval(id).start / us;
            QCOMPARE(axis.selectedInterval(), id);
            QCOMPARE(revealed.count(), i + 1);
            QCOMPARE(revealed.last().at(0).value<IntervalId>(), id);
        }
        QCOMPARE(starts, (QList<qint64>{100, 300, 400}));
        QCOMPARE(revealed.count(), 3);
        // The last one, [400, 420) µs, with 5 µs on either side.
        QCOMPARE(axis.visibleStart(), 395 * us);
        QCOMPARE(axis.visibleEnd(), 425 * us);
        QCOMPARE(document.stepOccurrence(false), intervalNamedAt(300));
        QCOMPARE(document.stepOccurrence(false), intervalNamedAt(100));
        QCOMPARE(document.stepOccurrence(false), kNone);
        // Without a focus, the search's matches are stepped through.
        document.setFocusLabel(kNone);
        document.setSearch(QStringLiteral("parse"));
        axis.zoomToAll();
        axis.clearSelectedItem();
        const IntervalId parse = document.stepOccurrence(true);
        QCOMPARE(m_loaded.profile->interval(parse).start, 500 * us);
    }

    void aNewProfileKeepsTheSearchText()
    {
        TimeAxis axis;
        ProfileDocument document(&axis);
        document.setProfile(m_loaded);
        document.setFocusLabel(labelNamed(*m_loaded.profile, "main"));
        document.setSearch(QStringLiteral("handle"));
        QVERIFY(document.searchMatches().empty());
        document.setProfile(loadedFile(QStringLiteral(RUNLANE_DEMO_PROFILE)));
        QCOMPARE(document.focusLabel(), kNone);
        QCOMPARE(document.searchText(), QStringLiteral("handle"));
        // The demo's handle* procs and taskHandler, matched against its own labels.
        QCOMPARE(document.searchMatches().size(), std::size_t(21));
        for (const LabelId l : document.searchMatches())
            QVERIFY(qstr(document.profile()->labelName(l)).contains(QStringLiteral("handle"), Qt::CaseInsensitive));
    }

    // The same file's next version (a load's preview, then its whole
    // profile) numbers its labels anew: the focus is found again by name,
    // the views are told it is a refinement while they rebuild, and a
    // label the new version lacks leaves no focus.
    void aRefinementKeepsTheFocusByName_data()
    {
        QTest::addColumn<QString>("focus");
        QTest::addColumn<bool>("kept");
        QTest::newRow("a label in both") << "parse" << true;
        QTest::newRow("a label the new version lacks") << "loader" << false;
    }
    void aRefinementKeepsTheFocusByName()
    {
        QFETCH(QString, focus);
        QFETCH(bool, kept);
        TimeAxis axis;
        ProfileDocument document(&axis);
        document.setProfile(m_loaded);
        document.setFocusLabel(labelNamed(*m_loaded.profile, focus.toStdString()));
        // Labels in another order, and no "loader".
        const LoadedProfile next = loadedText(JSON([
            {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "parse", "ts" : 500, "dur" : 100},
            {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "main", "ts" : 0, "dur" : 1000}
        ]));
        QVERIFY(labelNamed(*next.profile, "parse") != labelNamed(*m_loaded.profile, "parse"));
        std::vector<bool> told;
        connect(&document, &ProfileDocument::profileChanged, this, [&] { told.push_back(document.isRefinement()); });
        document.refineProfile(next);
        QCOMPARE(told, std::vector<bool>{true});
        QVERIFY(!document.isRefinement());
        QCOMPARE(document.focusLabel(), kept ? labelNamed(*next.profile, "parse") : kNone);
        document.setProfile(m_loaded);
        QCOMPARE(told, (std::vector<bool>{true, false}));
        QCOMPARE(document.focusLabel(), kNone);
    }

    // The critical path shown (P) is walked again in the next version, for
    // its task found by its first interval; gone if the version lacks it.
    void aRefinementKeepsTheCriticalPath_data()
    {
        QTest::addColumn<QString>("of");
        QTest::addColumn<bool>("kept");
        QTest::newRow("a call in both") << "parse" << true;
        QTest::newRow("a call the new version lacks") << "loader" << false;
    }
    void aRefinementKeepsTheCriticalPath()
    {
        QFETCH(QString, of);
        QFETCH(bool, kept);
        TimeAxis axis;
        ProfileDocument document(&axis);
        document.setProfile(m_loaded);
        const Profile& before = *m_loaded.profile;
        QVERIFY(document.criticalPath()->show(before.interval(intervalNamed(before, of.toStdString())).measurement));
        const LoadedProfile next = loadedText(JSON([
            {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "main", "ts" : 0, "dur" : 1000},
            {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "parse", "ts" : 500, "dur" : 100},
            {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "load", "ts" : 100, "dur" : 100}
        ]));
        const MeasurementId parse = next.profile->interval(intervalNamed(*next.profile, "parse")).measurement;
        QVERIFY(parse != before.interval(intervalNamed(before, "parse")).measurement);
        document.refineProfile(next);
        QCOMPARE(document.criticalPath()->isActive(), kept);
        QCOMPARE(document.criticalPath()->measurement(), kept ? parse : kNone);
        // Another profile: no path.
        document.setProfile(m_loaded);
        QVERIFY(!document.criticalPath()->isActive());
    }

    // The box selected in the last version, found again by what it is
    // (IntervalMatch), as is the aggregated view the user chose; another
    // profile starts with neither.
    void aRefinementKeepsTheSelectedBox_data()
    {
        QTest::addColumn<QString>("selected");
        QTest::addColumn<bool>("aggregated");
        QTest::addColumn<bool>("kept");
        QTest::newRow("a call in both") << "parse" << false << true;
        QTest::newRow("a call the new version lacks") << "loader" << false << false;
        QTest::newRow("the aggregated view") << "" << true << false;
    }
    void aRefinementKeepsTheSelectedBox()
    {
        QFETCH(QString, selected);
        QFETCH(bool, aggregated);
        QFETCH(bool, kept);
        TimeAxis axis;
        ProfileDocument document(&axis);
        document.setProfile(m_loaded);
        const Profile& before = *m_loaded.profile;
        if (!selected.isEmpty()) {
            const IntervalId box = intervalNamed(before, selected.toStdString());
            axis.selectItem(box, before.interval(box).measurement);
        }
        document.setAggregated(aggregated);
        const LoadedProfile next = loadedText(JSON([
            {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "main", "ts" : 0, "dur" : 1000},
            {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "load", "ts" : 100, "dur" : 100},
            {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "parse", "ts" : 500, "dur" : 100}
        ]));
        const IntervalId parse = intervalNamed(*next.profile, "parse");
        QVERIFY(parse != intervalNamed(before, "parse"));
        document.refineProfile(next);
        QCOMPARE(document.isAggregated(), aggregated);
        QCOMPARE(axis.selectedInterval(), kept ? parse : kNone);
        QCOMPARE(axis.selectedMeasurement(), kept ? next.profile->interval(parse).measurement : kNone);
        // Another profile: the timeline, nothing selected.
        document.setProfile(m_loaded);
        QVERIFY(!document.isAggregated());
        QCOMPARE(axis.selectedInterval(), kNone);
    }

    // A load's next preview leaves out a box under its higher threshold
    // (and a label all of whose calls are): the box selected, the path
    // shown and the label focused come back in the version that has them
    // again, unless the user chose another meanwhile; the whole profile
    // is the last chance.
    void aPreviewKeepsWhatItLeftOut_data()
    {
        QTest::addColumn<bool>("chooseAgain"); // the user picks `main` in the preview without `parse`
        QTest::addColumn<bool>("wholeHasIt"); // the whole profile has `parse`
        QTest::addColumn<QString>("expected"); // selected, path and focus at the end; "": none
        QTest::newRow("found in the whole profile") << false << true << "parse";
        QTest::newRow("the user chose another meanwhile") << true << true << "main";
        QTest::newRow("missing from the whole profile too") << false << false << "";
    }
    void aPreviewKeepsWhatItLeftOut()
    {
        QFETCH(bool, chooseAgain);
        QFETCH(bool, wholeHasIt);
        QFETCH(QString, expected);
        TimeAxis axis;
        ProfileDocument document(&axis);
        document.setProfile(loadVersion({"main", "parse"}, true));
        const auto choose = [&](const char* name) {
            const Profile& p = *document.profile();
            const IntervalId box = intervalNamed(p, name);
            axis.selectItem(box, p.interval(box).measurement);
            QVERIFY(document.criticalPath()->show(p.interval(box).measurement));
            document.setFocusLabel(p.labelOf(p.interval(box).measurement));
        };
        choose("parse");

        document.refineProfile(loadVersion({"main"}, true));
        QCOMPARE(axis.selectedInterval(), kNone);
        QVERIFY(!document.criticalPath()->isActive());
        QCOMPARE(document.focusLabel(), kNone);
        QCOMPARE(document.leftOutSelection(), QStringLiteral("parse"));
        QCOMPARE(document.leftOutPath(), QStringLiteral("parse"));
        if (chooseAgain) {
            choose("main");
            QCOMPARE(document.leftOutSelection(), QString());
            QCOMPARE(document.leftOutPath(), QString());
        }

        document.refineProfile(loadVersion(wholeHasIt ? QStringList{"main", "load", "parse"} : QStringList{"main", "load"}, false));
        const Profile& whole = *document.profile();
        QCOMPARE(document.leftOutSelection(), QString());
        QCOMPARE(document.leftOutPath(), QString());
        if (expected.isEmpty()) {
            QCOMPARE(axis.selectedInterval(), kNone);
            QVERIFY(!document.criticalPath()->isActive());
            QCOMPARE(document.focusLabel(), kNone);
            // Dropped with the whole profile: nothing comes back later.
            document.refineProfile(loadVersion({"main", "load", "parse"}, false));
            QCOMPARE(axis.selectedInterval(), kNone);
            QVERIFY(!document.criticalPath()->isActive());
            QCOMPARE(document.focusLabel(), kNone);
            return;
        }
        const IntervalId box = intervalNamed(whole, expected.toStdString());
        QCOMPARE(axis.selectedInterval(), box);
        QCOMPARE(axis.selectedMeasurement(), whole.interval(box).measurement);
        QCOMPARE(document.criticalPath()->measurement(), whole.interval(box).measurement);
        QCOMPARE(document.focusLabel(), whole.labelOf(whole.interval(box).measurement));
    }

    // Cancel pressed after the file was read: preparing stops too, and
    // nothing half-made comes out.
    void prepareStopsWhenCancelled()
    {
        std::atomic<bool> cancel{true};
        QVERIFY_THROWS_EXCEPTION(LoadCancelled, LoadedProfile::prepare(m_loaded.profile, QString(), &cancel));
        cancel = false;
        const LoadedProfile again = LoadedProfile::prepare(m_loaded.profile, QString(), &cancel);
        QCOMPARE(again.metrics->exec(0), m_loaded.metrics->exec(0));
        QCOMPARE(again.overview, m_loaded.overview);
    }

    // Messages and frames are found on the loading thread (prepare), and
    // the document shows those, not a second pairing on the GUI thread.
    void prepareFindsMessagesAndFrames_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("messages");
        QTest::addColumn<int>("frames");
        QTest::newRow("enso ide + ls") << "profiles/enso-ide-ls.json" << 48 << 0;
        QTest::newRow("chrome frames") << "samples/chrome-trace/devtools-samples/chrome85-esbuild.json" << 0 << 10;
        QTest::newRow("neither") << "profiles/chronos-states.json" << 0 << 0;
    }
    void prepareFindsMessagesAndFrames()
    {
        QFETCH(QString, file);
        QFETCH(int, messages);
        QFETCH(int, frames);
        const LoadedProfile loaded = loadedFile(dataPath(file));
        QVERIFY(!loaded.isNull());
        QVERIFY(loaded.messages);
        QVERIFY(loaded.frames);
        QCOMPARE(int(loaded.messages->messages().size()), messages);
        QCOMPARE(int(loaded.frames->frames().size()), frames);
        TimeAxis axis;
        ProfileDocument document(&axis);
        document.setProfile(loaded);
        QCOMPARE(&document.messages()->messages(), loaded.messages.get());
    }

private:
    IntervalId intervalNamedAt(qint64 startUs) const
    {
        const Profile& p = *m_loaded.profile;
        for (IntervalId id = 0; id < p.intervalCount(); ++id) {
            if (p.interval(id).start == startUs * us && p.labelName(p.measurement(p.interval(id).measurement).label) == "load")
                return id;
        }
        return kNone;
    }

    LoadedProfile m_loaded;
};

QTEST_MAIN(TestProfileDocument)
#include "tst_profiledocument.moc"
