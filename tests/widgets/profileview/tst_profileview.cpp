#include "profiledocument.h"
#include "profileview.h"
#include "tasklaneview.h"
#include "timeaxis.h"
#include "viewsizing.h"
#include "widgettestsupport.h"

#include <QSignalSpy>
#include <QSplitter>
#include <QtTest>

using namespace runlane;
using namespace runlane::test;

Q_DECLARE_METATYPE(ProfileView::Part)

// The views on one time axis, alone (as `runlane-cli render` draws them):
// their parts' names, which parts export, and the heights they get from
// what the profile holds.
class TestProfileView : public QObject
{
    Q_OBJECT

private:
    // A ProfileView of its own, shown at `size`, with `path` in it.
    struct Shown {
        TimeAxis axis;
        ProfileDocument document{&axis};
        ProfileView view{&document};
    };
    static void show(Shown& shown, const QString& path, QSize size)
    {
        shown.view.resize(size);
        shown.view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&shown.view));
        const LoadedProfile loaded = loadedFile(path);
        QVERIFY(loaded.profile);
        shown.document.setProfile(loaded);
        shown.view.fitToProfile();
    }
    static QList<int> sizes(const ProfileView& view) { return view.findChild<QSplitter*>()->sizes(); }

private Q_SLOTS:
    void partName_data()
    {
        QTest::addColumn<ProfileView::Part>("part");
        QTest::addColumn<QString>("name");
        QTest::newRow("icicle") << ProfileView::Part::Icicle << "icicle";
        QTest::newRow("lanes") << ProfileView::Part::Lanes << "lanes";
        QTest::newRow("usage") << ProfileView::Part::Usage << "usage";
        QTest::newRow("counters") << ProfileView::Part::Counters << "counters";
        QTest::newRow("messages") << ProfileView::Part::Messages << "messages";
    }

    void partName()
    {
        QFETCH(ProfileView::Part, part);
        QFETCH(QString, name);
        QCOMPARE(QString::fromLatin1(ProfileView::partName(part)), name);
    }

    // Lanes and usage need the timeline, the counters a profile with counters,
    // the messages a profile with messages between processes.
    void canExport_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("aggregated");
        QTest::addColumn<QList<bool>>("expected"); // icicle, lanes, usage, counters, messages
        const QString demo = QStringLiteral(RUNLANE_DEMO_PROFILE);
        const QString counters = dataPath(QStringLiteral("profiles/chrome-counters.json"));
        const QString messages = dataPath(QStringLiteral("profiles/enso-ide-ls.json"));
        QTest::newRow("demo") << demo << false << QList<bool>{true, true, true, false, false};
        QTest::newRow("demo aggregated") << demo << true << QList<bool>{true, false, false, false, false};
        QTest::newRow("counters") << counters << false << QList<bool>{true, true, true, true, false};
        QTest::newRow("counters aggregated") << counters << true << QList<bool>{true, false, false, false, false};
        QTest::newRow("messages") << messages << false << QList<bool>{true, true, true, false, true};
        QTest::newRow("messages aggregated") << messages << true << QList<bool>{true, false, false, false, false};
    }

    void canExport()
    {
        QFETCH(QString, file);
        QFETCH(bool, aggregated);
        QFETCH(QList<bool>, expected);
        Shown shown;
        // Before any profile: nothing to show as counters.
        QVERIFY(!shown.view.canExport(ProfileView::Part::Counters));
        QSignalSpy changed(&shown.view, &ProfileView::exportsChanged);
        show(shown, file, QSize(1200, 800));
        QVERIFY(changed.count() > 0); // fitted
        const qsizetype fitted = changed.count();
        shown.document.setAggregated(aggregated);
        QCOMPARE(changed.count(), aggregated ? fitted + 1 : fitted);
        const ProfileView::Part parts[] = {ProfileView::Part::Icicle, ProfileView::Part::Lanes, ProfileView::Part::Usage,
                                           ProfileView::Part::Counters, ProfileView::Part::Messages};
        QList<bool> can;
        for (const ProfileView::Part part : parts)
            can << shown.view.canExport(part);
        QCOMPARE(can, expected);
    }

    // ViewSizing's sizes on the laid-out view: without tasks the lanes keep 90 px and the usage
    // chart a quarter up to 170 px; metrics over time (Chroprof) leave the timeline panel 100 px;
    // with tasks the lanes show six rows under their first header before the rest is shared.
    void fitToProfile_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("timeline"); // -1: not a fixed number
        QTest::addColumn<int>("lanes"); // -1: six rows at least
        QTest::addColumn<int>("usage");
        QTest::newRow("no tasks") << dataPath(QStringLiteral("profiles/chrome-counters.json")) << -1 << 90 << 170;
        QTest::newRow("chart only") << dataPath(QStringLiteral("profiles/chroprof-snapshots.json")) << 100 << 90 << -1;
        QTest::newRow("tasks") << QStringLiteral(RUNLANE_DEMO_PROFILE) << -1 << -1 << 170;
    }

    void fitToProfile()
    {
        QFETCH(QString, file);
        QFETCH(int, timeline);
        QFETCH(int, lanes);
        QFETCH(int, usage);
        Shown shown;
        show(shown, file, QSize(1200, 900));
        const QList<int> fitted = sizes(shown.view);
        QCOMPARE(fitted.size(), 3);
        if (timeline >= 0)
            QCOMPARE(fitted[0], timeline);
        if (lanes >= 0) {
            QCOMPARE(fitted[1], lanes);
        } else {
            const TaskLaneView& view = *shown.view.lanes();
            // Six rows under the first header at least; the demo has more than fit.
            QVERIFY(fitted[1] >= TaskLaneView::kLegendHeight + (ViewSizing::kMinLaneRows + 1) * view.rowHeight() + 4);
            QVERIFY(fitted[1] < TaskLaneView::kLegendHeight + view.contentHeight() + 4);
        }
        if (usage >= 0)
            QCOMPARE(fitted[2], usage);
        const QSplitter* splitter = shown.view.findChild<QSplitter*>();
        QCOMPARE(fitted[0] + fitted[1] + fitted[2], splitter->height() - 2 * splitter->handleWidth());
    }

    // A move of the splitter is the user's for this kind of profile: the next fit keeps it.
    void userMoveKept()
    {
        Shown shown;
        show(shown, QStringLiteral(RUNLANE_DEMO_PROFILE), QSize(1200, 900));
        QVERIFY(!shown.view.splitterMoved());
        auto* splitter = shown.view.findChild<QSplitter*>();
        QList<int> moved = splitter->sizes();
        moved[0] += 40;
        moved[1] -= 40;
        splitter->setSizes(moved);
        QMetaObject::invokeMethod(splitter, "splitterMoved", Q_ARG(int, moved[0]), Q_ARG(int, 1));
        QVERIFY(shown.view.splitterMoved());
        shown.document.setProfile(loadedFile(QStringLiteral(RUNLANE_DEMO_PROFILE)));
        shown.view.fitToProfile();
        QCOMPARE(sizes(shown.view), moved);
    }
};

QTEST_MAIN(TestProfileView)
#include "tst_profileview.moc"
