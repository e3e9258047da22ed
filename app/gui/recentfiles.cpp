#include "recentfiles.h"

#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace runlane {

namespace {

const QString kFilesKey = QStringLiteral("recentFiles");
const QString kFolderKey = QStringLiteral("lastFolder");

} // namespace

RecentFiles::RecentFiles(QMenu* menu, std::function<void(const QString&)> open, QObject* parent)
    : QObject(parent)
    , m_menu(menu)
    , m_open(std::move(open))
{
    rebuildMenu();
}

QStringList RecentFiles::files() const
{
    return QSettings().value(kFilesKey).toStringList();
}

QString RecentFiles::lastFolder(const QString& currentPath) const
{
    const QString saved = QSettings().value(kFolderKey).toString();
    if (!saved.isEmpty() && QFileInfo(saved).isDir())
        return saved;
    if (!currentPath.isEmpty() && !currentPath.startsWith(QLatin1Char(':')))
        return QFileInfo(currentPath).absolutePath();
    return QDir::homePath();
}

void RecentFiles::add(const QString& path)
{
    QSettings().setValue(kFolderKey, QFileInfo(path).absolutePath());
    QStringList recent = files();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMax)
        recent.removeLast();
    QSettings().setValue(kFilesKey, recent);
    rebuildMenu();
}

void RecentFiles::rebuildMenu()
{
    m_menu->clear();
    const QStringList recent = files();
    for (const QString& path : recent)
        m_menu->addAction(path, this, [this, path] { m_open(path); });
    if (recent.isEmpty()) {
        m_menu->addAction(tr("(none yet)"))->setEnabled(false);
        return;
    }
    m_menu->addSeparator();
    m_menu->addAction(tr("Clear"), this, [this] {
        QSettings().remove(kFilesKey);
        rebuildMenu();
    });
}

} // namespace runlane
