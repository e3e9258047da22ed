#pragma once

#include <QObject>
#include <QString>

#include <functional>

class QMenu;
class QWidget;

namespace runlane {

class HistoryWindow;

// File ▸ Open History…: asks for an SQLite file or a PostgreSQL URL (a
// small dialog), then opens a HistoryWindow on it. Kept out of MainWindow,
// which only hands it the File menu and a way to open a run's profile.
class HistoryController : public QObject
{
    Q_OBJECT

public:
    using Open = std::function<void(const QString& path)>;

    HistoryController(QMenu* file, Open open, QWidget* window);

    // Opens the history at `location` (as --db takes it); null, the error
    // shown, if it cannot be opened.
    HistoryWindow* openHistory(const QString& location);
    // The dialog: the location, or "" if cancelled.
    QString askLocation();
    // Tests: what the dialog would answer, without it.
    void setLocationChooser(std::function<QString()> chooser) { m_chooseLocation = std::move(chooser); }

private:
    QWidget* m_window;
    Open m_open;
    QString m_last;
    std::function<QString()> m_chooseLocation;
};

} // namespace runlane
