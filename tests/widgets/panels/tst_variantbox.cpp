// VariantBox and a profile without timestamps, on the user's path: a pprof
// file opened in the main window offers its sample types beside the status
// text, choosing one loads the file again with it, and the window says the
// file has no timeline instead of offering one.
#include "icicleview.h"
#include "mainwindow.h"
#include "mainwindowdriver.h"
#include "noticebar.h"
#include "profiledocument.h"
#include "tasklaneview.h"
#include "testsupport.h"
#include "variantbox.h"

#include <QAction>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlane;
using namespace runlane::test;

namespace {

QStringList items(const QComboBox* box)
{
    QStringList texts;
    for (int i = 0; i < box->count(); ++i)
        texts << box->itemText(i);
    return texts;
}

} // namespace

class TestVariantBox : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_settings.isValid());
        useTemporarySettings(m_settings.path(), QStringLiteral("tst_variantbox"));
    }

    // The box lists the loaded file's variants, the loaded one current;
    // a file with one variant or none hides it.
    void listsTheVariantsOfTheFile_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("variants");
        QTest::addColumn<int>("current");
        QTest::newRow("pprof") << "samples/pprof/pprof-report-sample.cpu"
                               << QStringList{"samples (count)", "cpu (nanoseconds)"} << 1;
        QTest::newRow("perf, one event") << "samples/linux-perf/forks.linux-perf.txt" << QStringList() << -1;
        QTest::newRow("chrome, none") << "profiles/fgh-chrome.json" << QStringList() << -1;
    }
    void listsTheVariantsOfTheFile()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, variants);
        QFETCH(int, current);
        MainWindow window;
        window.show();
        window.openFile(dataPath(file));
        QVERIFY(waitShown(window));
        auto* box = window.findChild<VariantBox*>(QStringLiteral("variants"));
        QVERIFY(box);
        QCOMPARE(box->isVisible(), !variants.isEmpty());
        QCOMPARE(items(box), variants);
        QCOMPARE(box->currentIndex(), current);
    }

    // Choosing another sample type loads the file again with it; Reload
    // keeps the choice; the choice of one file does not stick to the next.
    void choosingAVariantLoadsTheFileWithIt()
    {
        MainWindow window;
        window.show();
        const QString file = dataPath(QStringLiteral("samples/pprof/pprof-report-sample.cpu"));
        window.openFile(file);
        QVERIFY(waitShown(window));
        const Profile* first = window.document()->profile();
        QCOMPARE(first->variant(), std::size_t(1));
        QCOMPARE(first->unit(), ValueUnit::Nanoseconds);
        auto* box = window.findChild<VariantBox*>(QStringLiteral("variants"));
        QSignalSpy shown(&window, &MainWindow::profileShown);
        QTest::keyClick(box, Qt::Key_Up); // activates the item above: "samples (count)"
        QVERIFY(shown.wait(20000));
        const Profile* second = window.document()->profile();
        QVERIFY(second != first);
        QCOMPARE(second->variant(), std::size_t(0));
        QCOMPARE(second->unit(), ValueUnit::Samples);
        QCOMPARE(window.currentPath(), file);
        QCOMPARE(box->currentIndex(), 0);

        // The samples variant's whole weight: 176 samples, in sample ticks.
        QCOMPARE(second->duration(), Time(176 * kTicksPerUnit));
        window.findChild<QAction*>(QStringLiteral("reload"))->trigger();
        QVERIFY(waitShown(window));
        QCOMPARE(window.document()->profile()->variant(), std::size_t(0));

        // Another file opens with its own default.
        window.openFile(dataPath(QStringLiteral("samples/pprof/speedscope-simple.prof")));
        QVERIFY(waitShown(window));
        QCOMPARE(window.document()->profile()->variant(), std::size_t(1));
    }

    // pprof has no timestamps: the flame graph is shown, the window says
    // why, and the timeline cannot be asked for (the action is disabled
    // and the document refuses it); a file with timestamps gives it back.
    void aProfileWithoutTimestampsHasNoTimeline()
    {
        MainWindow window;
        window.show();
        window.openFile(dataPath(QStringLiteral("samples/pprof/speedscope-simple.prof.pb")));
        QVERIFY(waitShown(window));
        QVERIFY(!window.document()->profile()->hasTimestamps());
        QVERIFY(window.document()->isAggregated());
        auto* aggregated = window.findChild<QAction*>(QStringLiteral("aggregated"));
        QVERIFY(aggregated->isChecked());
        QVERIFY(!aggregated->isEnabled());
        window.document()->setAggregated(false);
        QVERIFY(window.document()->isAggregated());
        QVERIFY(aggregated->isChecked());
        QCOMPARE(window.notices()->notices(),
                 QStringList{"speedscope-simple.prof.pb has no timestamps, only totals per call stack: it is shown "
                             "as an aggregated flame graph and rank, and there is no timeline."});

        QVERIFY(!window.lanes()->isVisible());

        // A trace: its timeline, with the task lanes, is back.
        window.openFile(dataPath(QStringLiteral("profiles/fgh-chrome.json")));
        QVERIFY(waitShown(window));
        QVERIFY(window.document()->profile()->hasTimestamps());
        QVERIFY(!window.document()->isAggregated());
        QVERIFY(aggregated->isEnabled());
        QVERIFY(!aggregated->isChecked());
        QVERIFY(window.lanes()->isVisible());
        QCOMPARE(window.notices()->notices(), QStringList());
    }

private:
    QTemporaryDir m_settings;
};

QTEST_MAIN(TestVariantBox)
#include "tst_variantbox.moc"
