// Help ▸ User Guide (app/gui/userguide.cpp): which copy of the guide is
// opened given which exist (the installed one beside the program first,
// then the source tree's docs/), and what is handed to the desktop.
#include "userguide.h"

#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QUrl>
#include <QtTest>

using namespace runlane;

// Stands in for the desktop: records the URLs QDesktopServices hands it.
class UrlRecorder : public QObject
{
    Q_OBJECT

public:
    QList<QUrl> urls;

public Q_SLOTS:
    void openUrl(const QUrl& url) { urls.append(url); }
};

class TestUserGuide : public QObject
{
    Q_OBJECT

private:
    static bool writeIndex(const QString& folder)
    {
        QFile index(QDir(folder).filePath(QStringLiteral("viewer.md")));
        return QDir().mkpath(folder) && index.open(QIODevice::WriteOnly) && index.write("# The viewer\n") > 0;
    }

private Q_SLOTS:
    // The package's layout (packaging/CMakeLists.txt: share/doc/runlane/guide
    // beside bin), wherever the tree is rooted.
    void installedFolder_data()
    {
        QTest::addColumn<QString>("programDir");
        QTest::addColumn<QString>("folder");
        QTest::newRow("/usr") << "/usr/bin" << "/usr/share/doc/runlane/guide";
        QTest::newRow("/usr/local") << "/usr/local/bin" << "/usr/local/share/doc/runlane/guide";
        QTest::newRow("dpkg -x root") << "/tmp/root/usr/bin" << "/tmp/root/usr/share/doc/runlane/guide";
        QTest::newRow("trailing slash") << "/opt/runlane/bin/" << "/opt/runlane/share/doc/runlane/guide";
    }

    void installedFolder()
    {
        QFETCH(QString, programDir);
        QFETCH(QString, folder);
        QCOMPARE(UserGuide::installedFolder(programDir), folder);
    }

    // Which folder's index is chosen, given which folders hold one.
    void indexIn_data()
    {
        QTest::addColumn<bool>("installed");
        QTest::addColumn<bool>("source");
        QTest::addColumn<QString>("chosen"); // "installed", "source" or "" for none
        QTest::newRow("both") << true << true << "installed";
        QTest::newRow("installed only") << true << false << "installed";
        QTest::newRow("source only (a build tree)") << false << true << "source";
        QTest::newRow("neither") << false << false << "";
    }

    void indexIn()
    {
        QFETCH(bool, installed);
        QFETCH(bool, source);
        QFETCH(QString, chosen);
        QTemporaryDir root;
        QVERIFY(root.isValid());
        const QString installedDir = root.filePath(QStringLiteral("usr/share/doc/runlane/guide"));
        const QString sourceDir = root.filePath(QStringLiteral("src/docs"));
        if (installed)
            QVERIFY(writeIndex(installedDir));
        if (source)
            QVERIFY(writeIndex(sourceDir));
        const QString expected = chosen.isEmpty() ? QString()
                                 : QDir(chosen == QLatin1String("installed") ? installedDir : sourceDir).filePath(QStringLiteral("viewer.md"));
        QCOMPARE(UserGuide::indexIn({installedDir, sourceDir}), expected);
    }

    // A folder named like the index, or an empty list, is no index.
    void indexInSkipsWhatIsNoFile()
    {
        QTemporaryDir root;
        QVERIFY(root.isValid());
        QVERIFY(QDir().mkpath(root.filePath(QStringLiteral("odd/viewer.md"))));
        QVERIFY(writeIndex(root.filePath(QStringLiteral("docs"))));
        QCOMPARE(UserGuide::indexIn({root.filePath(QStringLiteral("odd")), root.filePath(QStringLiteral("docs"))}),
                 root.filePath(QStringLiteral("docs/viewer.md")));
        QCOMPARE(UserGuide::indexIn({}), QString());
    }

    // This program's folders: the installed guide beside it, then the
    // source tree's docs/, which a test run from the build tree finds.
    void foldersOfThisProgram()
    {
        const QString sourceDocs = QDir::cleanPath(QStringLiteral(RUNLANE_TEST_DATA "/../../docs"));
        QCOMPARE(UserGuide::folders(),
                 QStringList({UserGuide::installedFolder(QCoreApplication::applicationDirPath()), sourceDocs}));
        QCOMPARE(UserGuide::indexIn(UserGuide::folders()), sourceDocs + QStringLiteral("/viewer.md"));
    }

    void openHandsTheIndexToTheDesktop()
    {
        UrlRecorder desktop;
        QDesktopServices::setUrlHandler(QStringLiteral("file"), &desktop, "openUrl");
        QTemporaryDir root;
        QVERIFY(root.isValid());
        QVERIFY(writeIndex(root.filePath(QStringLiteral("guide"))));
        const QString error = UserGuide::open({root.filePath(QStringLiteral("none")), root.filePath(QStringLiteral("guide"))});
        QDesktopServices::unsetUrlHandler(QStringLiteral("file"));
        QCOMPARE(error, QString());
        QCOMPARE(desktop.urls, QList<QUrl>({QUrl::fromLocalFile(root.filePath(QStringLiteral("guide/viewer.md")))}));
    }

    // Nothing found: the error names every folder looked in, and nothing is opened.
    void openNamesTheFoldersWhenNoneHoldsTheGuide()
    {
        UrlRecorder desktop;
        QDesktopServices::setUrlHandler(QStringLiteral("file"), &desktop, "openUrl");
        const QString error = UserGuide::open({QStringLiteral("/nonexistent/a"), QStringLiteral("/nonexistent/b")});
        QDesktopServices::unsetUrlHandler(QStringLiteral("file"));
        QCOMPARE(error, QStringLiteral("The user guide (viewer.md) is in none of these folders:\n/nonexistent/a\n/nonexistent/b"));
        QCOMPARE(desktop.urls, QList<QUrl>());
    }
};

QTEST_MAIN(TestUserGuide)
#include "tst_userguide.moc"
