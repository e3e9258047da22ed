#pragma once

#include <QObject>
#include <QString>

#include <functional>

class QMenu;

namespace runlane {

class HistoryWindow;
class MainWindow;

// File ▸ Open History…: asks for an SQLite file or a PostgreSQL URL (a
// small dialog), then opens a HistoryWindow on it, whose runs open in the
// main window (a run's profile, or compare mode of a run against the one
// before it). Kept out of MainWindow, which only hands it the File menu.
class HistoryController : public QObject
{
    Q_OBJECT

public:
    HistoryController(QMenu* file, MainWindow* window);

    // Opens the history at `location` (as --db takes it); null, the error
    // shown, if it cannot be opened.
    HistoryWindow* openHistory(const QString& location);
    // The dialog: the location, or "" if cancelled.
    QString askLocation();
    // Opens `path` in the main window and, once it is shown, compares it
    // with `base` (compare mode).
    void compare(const QString& path, const QString& base);
    // Tests: what the dialog would answer, without it.
    void setLocationChooser(std::function<QString()> chooser) { m_chooseLocation = std::move(chooser); }

private:
    MainWindow* m_window;
    QString m_last;
    std::function<QString()> m_chooseLocation;
};

} // namespace runlane
