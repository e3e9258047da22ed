#include "icicleview.h"
#include "imageexporter.h"
#include "mainwindow.h"
#include "mainwindowdriver.h"
#include "messagesstate.h"
#include "messagesview.h"
#include "profiledocument.h"
#include "roundtripmodel.h"
#include "tasklaneview.h"
#include "timeruler.h"
#include "widgettestsupport.h"

#include <QAction>
#include <QDockWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlane;
using namespace runlane::test;

// The Messages view and the Round trips dock in the real window: there for
// a profile with messages between processes, gone for one without.
class TestMessagesController : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_settings.isValid());
        useTemporarySettings(m_settings.path(), QStringLiteral("tst_messagescontroller"));
    }

    void shownWithMessagesInTheWindow()
    {
        MainWindow window;
        window.resize(1400, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* view = window.findChild<MessagesView*>();
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("roundTrips"));
        auto* rank = window.findChild<QDockWidget*>(QStringLiteral("rank"));
        QVERIFY(view && dock && rank);
        QVERIFY(dock->isHidden());

        window.openFile(dataPath(QStringLiteral("profiles/enso-ide-ls.json")));
        QVERIFY(waitShown(window));
        // Under the icicle, above the lanes, every pole (Ide, LanguageServer, Engine) in view.
        QVERIFY(view->isVisible());
        QCOMPARE(view->poleCount(), std::size_t(3));
        QCOMPARE(view->height(), view->contentHeight());
        const int icicleBottom = window.icicle()->mapTo(&window, QPoint(0, window.icicle()->height())).y();
        const int viewTop = view->mapTo(&window, QPoint(0, 0)).y();
        QVERIFY(icicleBottom <= viewTop);
        QVERIFY(viewTop + view->height() <= window.lanes()->mapTo(&window, QPoint(0, 0)).y());
        // The Round trips tab beside the rank, the rank still in front; a row per endpoint.
        QVERIFY(!dock->isHidden());
        QVERIFY(!rank->visibleRegion().isEmpty());
        auto* table = dock->findChild<QTableView*>(QStringLiteral("roundTripTable"));
        QVERIFY(table);
        const ProfileDocument& document = *window.document();
        QCOMPARE(table->model()->rowCount(), int(document.messages()->messages().roundTrips().size()));
        QVERIFY(table->model()->rowCount() >= 3);
        // File ▸ Export ▸ Messages: the view under the ruler.
        QVERIFY(window.action(QStringLiteral("exportMessages"))->isEnabled());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("messages.png"));
        window.setSaveFileChooser([&](const QString&) { return path; });
        window.action(QStringLiteral("exportMessages"))->trigger();
        QCOMPARE(QImage(path).size(), (view->size() + QSize(0, window.ruler()->height())) * window.devicePixelRatioF());

        window.openFile(dataPath(QStringLiteral("profiles/fgh-chrome.json")));
        QVERIFY(waitShown(window));
        QVERIFY(view->isHidden());
        QVERIFY(dock->isHidden());
        QVERIFY(!window.action(QStringLiteral("exportMessages"))->isEnabled());
    }

private:
    QTemporaryDir m_settings;
};

QTEST_MAIN(TestMessagesController)
#include "tst_messagescontroller.moc"
