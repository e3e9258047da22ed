#pragma once

#include "loaderror.h"

#include <QObject>
#include <QStringList>

#include <functional>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;
class QProgressBar;
class QPushButton;

namespace runlane {

class CompareUsageChart;
class ProfileDocument;
class RankPanel;
class RemovedPathsPanel;

// The viewer's compare mode around the document's CompareSession: File ▸
// Compare with… and Stop comparing, the Markdown report export, the base's
// loading in the status bar (progress and Cancel), the error of a base that
// cannot be read (the comparison stays as it was), the "Removed paths"
// dock beside the differential flame graph and the usage overlay's dock. Kept out of MainWindow, which
// only places it.
class CompareController : public QObject
{
    Q_OBJECT

public:
    CompareController(QMainWindow* window, ProfileDocument* document, RankPanel* rank);

    void addFileActions(QMenu* file);
    void addExportActions(QMenu* exports);
    // Loads `paths` as the base runs of the open profile.
    void compareWith(const QStringList& paths);
    // "new.json (new) vs base.json (base)", or "" when not comparing.
    QString title(const QString& openName) const;
    const QString& lastError() const { return m_lastError; }
    RemovedPathsPanel* removedPaths() const { return m_removed; }
    QDockWidget* removedDock() const { return m_removedDock; }
    CompareUsageChart* usageChart() const { return m_usage; }
    QDockWidget* usageDock() const { return m_usageDock; }

    // Replace the file dialogs (tests, automation): return none / "" to cancel.
    void setOpenFilesChooser(std::function<QStringList()> chooser) { m_chooseOpen = std::move(chooser); }
    void setSaveFileChooser(std::function<QString(const QString&)> chooser) { m_chooseSave = std::move(chooser); }

Q_SIGNALS:
    // A line for the status bar.
    void status(const QString& text);
    void titleChanged();

private:
    void chooseAndCompare();
    void exportMarkdown();
    void baseFailed(const LoadError& error);
    void update();
    QString summary() const;

    QMainWindow* m_window;
    ProfileDocument* m_document;
    RankPanel* m_rank;
    RemovedPathsPanel* m_removed;
    QDockWidget* m_removedDock;
    CompareUsageChart* m_usage;
    QDockWidget* m_usageDock;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QAction* m_compareAction = nullptr;
    QAction* m_stopAction = nullptr;
    QAction* m_markdownAction = nullptr;
    QString m_lastError;
    std::function<QStringList()> m_chooseOpen;
    std::function<QString(const QString&)> m_chooseSave;
};

} // namespace runlane
