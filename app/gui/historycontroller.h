#pragma once

#include <QObject>
#include <QString>

#include <functional>

class QMenu;

namespace runlane {

class HistoryWindow;
class MainWindow;

// File ▸ Open History…: asks for an SQLite file or a PostgreSQL URL (a
// small dialog, the data folder's history offered), asks before making a
// new file (a mistyped name would make one), then opens a HistoryWindow on
// it, placed on the main window's screen, whose runs open in the main
// window (a run's profile, or compare mode of a run against the one before
// it). Kept out of MainWindow, which only hands it the File menu.
class HistoryController : public QObject
{
    Q_OBJECT

public:
    HistoryController(QMenu* file, MainWindow* window);

    // Opens the history at `location` (as --db takes it; an SQLite file
    // that is not there only if the user agrees to make it); null, the
    // error shown, if it cannot be opened or the user declined.
    HistoryWindow* openHistory(const QString& location);
    // The dialog: the location, or "" if cancelled.
    QString askLocation();
    // What the dialog offers: the last location opened, at first the data
    // folder's history (HistoryDatabase::defaultLocation).
    const QString& lastLocation() const { return m_last; }
    // Opens `path` in the main window and, once it is shown, compares it
    // with `base` (compare mode).
    void compare(const QString& path, const QString& base);
    // Opens `path` in the main window, alone (compare mode ends).
    void open(const QString& path);
    // Whether the main window compares, or will once a compare() shows.
    bool isComparing() const;
    // Tests: what the dialogs would answer, without them; the question
    // gets the absolute path of the file it would make.
    void setLocationChooser(std::function<QString()> chooser) { m_chooseLocation = std::move(chooser); }
    void setCreateAsker(std::function<bool(const QString& path)> asker) { m_askCreate = std::move(asker); }

private:
    bool askCreate(const QString& path);
    // Forgets a compare() whose profile has not shown yet.
    void dropPending();

    MainWindow* m_window;
    QString m_last;
    std::function<QString()> m_chooseLocation;
    std::function<bool(const QString&)> m_askCreate;
    QMetaObject::Connection m_pendingShown;
    QMetaObject::Connection m_pendingFailed;
};

} // namespace runlane
