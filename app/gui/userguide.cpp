#include "userguide.h"

#include <QCoreApplication>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QUrl>

namespace runlane {

QString UserGuide::indexName()
{
    return QStringLiteral("viewer.md");
}

QString UserGuide::installedFolder(const QString& programDir)
{
    // RUNLANE_GUIDE_FROM_BIN is the install tree's bin → doc path
    // (app/CMakeLists.txt), so the same program finds its guide under
    // /usr, /usr/local or a dpkg -x root.
    return QDir::cleanPath(programDir + QLatin1Char('/') + QStringLiteral(RUNLANE_GUIDE_FROM_BIN));
}

QStringList UserGuide::folders()
{
    // The installed copy first: it matches the installed program, where the
    // source tree the program was built from may be newer, or gone.
    return {installedFolder(QCoreApplication::applicationDirPath()), QStringLiteral(RUNLANE_SOURCE_DOCS)};
}

QString UserGuide::indexIn(const QStringList& folders)
{
    for (const QString& folder : folders) {
        const QFileInfo index(QDir(folder).filePath(indexName()));
        if (index.isFile())
            return index.absoluteFilePath();
    }
    return {};
}

QString UserGuide::open(const QStringList& where)
{
    const QString index = indexIn(where);
    if (index.isEmpty())
        return QCoreApplication::translate("UserGuide", "The user guide (%1) is in none of these folders:\n%2")
            .arg(indexName(), where.join(QLatin1Char('\n')));
    if (!QDesktopServices::openUrl(QUrl::fromLocalFile(index)))
        return QCoreApplication::translate("UserGuide", "No program opened the user guide, %1.").arg(index);
    return {};
}

void UserGuide::show(QWidget* parent)
{
    const QString error = open();
    if (!error.isEmpty())
        QMessageBox::warning(parent, QCoreApplication::translate("UserGuide", "User guide"), error);
}

} // namespace runlane
