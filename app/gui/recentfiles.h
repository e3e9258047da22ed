#pragma once

#include <QObject>
#include <QStringList>

#include <functional>

class QMenu;

namespace runlane {

// File ▸ Open Recent and where File ▸ Open starts, kept in QSettings so
// that every window and the next start see them: the ten files opened
// last, newest first, and the folder opened from last.
class RecentFiles : public QObject
{
    Q_OBJECT

public:
    // Fills `menu` (owned by the caller); choosing an entry calls `open`.
    RecentFiles(QMenu* menu, std::function<void(const QString&)> open, QObject* parent = nullptr);

    QStringList files() const;
    // The folder last opened from, else `currentPath`'s folder (unless it
    // is a resource, such as the bundled demo's ":/"), else home.
    QString lastFolder(const QString& currentPath) const;
    void add(const QString& path);

    static constexpr int kMax = 10;

private:
    void rebuildMenu();

    QMenu* m_menu;
    std::function<void(const QString&)> m_open;
};

} // namespace runlane
