#pragma once

#include "loadedprofile.h"
#include "loaderror.h"
#include "profileloader.h"
#include "profileview.h"

#include <QMainWindow>
#include <QString>

#include <functional>
#include <optional>
#include <vector>

class QMenu;
class QProgressBar;
class QPushButton;
class QAction;

namespace runlane {

class AddProfileController;
class LiveController;
class LoadController;
class BackgroundLoader;
class CompareController;
class DropTargets;
class LineLabel;
class DetailsPane;
class FindBar;
class NoticeBar;
class RankPanel;
class RecentFiles;
class ProfileDocument;
class TimeAxis;
class WarningsPanel;

// The viewer's window: the ProfileView (the views on the time axis) under
// the notices and the find bar; rank, details and warnings in docks; the
// menus; loading in the background with progress and cancel in the status
// bar. A failed or cancelled load leaves the open profile as it was.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    static QString demoPath() { return QStringLiteral(":/demo/chronos-demo.json"); }
    // A file as the window names it: its name ("demo profile" for the demo).
    static QString displayName(const QString& path);

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Loads in the background; profileShown() or loadFailed() follows.
    // `additions`: CPU profiles read into the trace (File ▸ Add to this
    // profile…); `variant`: which of the file's variants to load (empty:
    // the default).
    void openFile(const QString& path, std::vector<ProfileAddition> additions = {}, const QString& variant = {});
    void openDemo() { openFile(demoPath()); }
    // Shows an already loaded profile at once (scripts, `runlane-cli render`).
    // `refines`: it is the fuller version of what is shown (a load's whole
    // profile after its previews; ProfileDocument::refineProfile).
    void showProfile(const LoadedProfile& loaded, bool refines = false);
    // A new file opens on its rank, not on the last file's warnings or
    // critical path (its first preview too, LoadController).
    void bringRankToFront();

    ProfileDocument* document() const { return m_document; }
    TimeAxis* axis() const { return m_axis; }
    ProfileView* profileView() const { return m_view; }
    // The profile view's views, for short.
    IcicleView* icicle() const { return m_view->icicle(); }
    TimeRuler* ruler() const { return m_view->ruler(); }
    CounterView* counters() const { return m_view->counters(); }
    TaskLaneView* lanes() const { return m_view->lanes(); }
    UsageChart* usage() const { return m_view->usage(); }
    RankPanel* rank() const { return m_rank; }
    FindBar* findBar() const { return m_findBar; }
    DetailsPane* details() const { return m_details; }
    WarningsPanel* warnings() const { return m_warnings; }
    NoticeBar* notices() const { return m_notices; }
    BackgroundLoader* loader() const { return m_loader; }
    const QString& currentPath() const { return m_currentPath; }
    const QString& lastError() const { return m_lastError; }
    QString statusText() const;
    // The status line's text, until the next event replaces it.
    void setStatusText(const QString& text);
    QStringList recentFiles() const;
    // Where File ▸ Open starts: the folder last opened from.
    QString lastFolder() const;

    // Replace the file dialogs (tests, automation): return "" for cancel.
    void setOpenFileChooser(std::function<QString()> chooser) { m_chooseOpen = std::move(chooser); }
    void setSaveFileChooser(std::function<QString(const QString& suggestion)> chooser);
    // Compare mode: File ▸ Compare with…, its exports and its dock.
    CompareController* compareController() const { return m_compare; }
    AddProfileController* addProfileController() const { return m_addProfile; }
    // Live mode: File ▸ Attach…, Save recording…, Follow.
    LiveController* liveController() const { return m_live; }
    // Previews while a file loads, their banner, Stop and Cancel.
    LoadController* loadController() const { return m_load; }
    // The title from the open file (and its additions, comparison, cut).
    void updateTitle();
    // A menu action by object name: open, reload, close, exportIcicle,
    // exportLanes, exportWindow, exportScale, aggregated, themeSystem,
    // themeLight, themeDark, …
    QAction* action(const QString& name) const;

Q_SIGNALS:
    void profileShown();
    void loadFailed(const QString& message);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dragLeaveEvent(QDragLeaveEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    void buildMenus();
    void fitToScreen();
    void buildStatusBar();
    void loaded(const LoadedProfile& profile);
    void failed(const LoadError& error);
    void fitDetails();
    // The Rank dock's rows (ViewSizing::rankHeight), unless the docks' sizes are the user's.
    void fitRank();
    void progress(qint64 done, qint64 total);
    void chooseAndOpen();
    void closeProfile();
    // A part of the profile view, or the whole window (no part), as PNG.
    void exportImage(std::optional<ProfileView::Part> part);
    void exportRankCsv();
    void stepOccurrence(bool forward);
    void showSpan();
    void setLoading(bool loading);
    void showWarnings();
    void noticeDiagnostics(const LoadedProfile& profile);

    TimeAxis* m_axis;
    ProfileDocument* m_document;
    BackgroundLoader* m_loader;
    ProfileView* m_view;
    FindBar* m_findBar;
    RankPanel* m_rank;
    DetailsPane* m_details;
    WarningsPanel* m_warnings;
    QDockWidget* m_warningsDock = nullptr;
    QDockWidget* m_rankDock = nullptr;
    QDockWidget* m_detailsDock = nullptr;
    NoticeBar* m_notices;
    DropTargets* m_drop;
    CompareController* m_compare;
    AddProfileController* m_addProfile;
    LiveController* m_live = nullptr;
    LoadController* m_load = nullptr;
    LineLabel* m_statusText; // changes on every zoom: never re-lays out the window
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QPushButton* m_warningsButton;
    RecentFiles* m_recent = nullptr;
    QAction* m_exportScale = nullptr;
    QAction* m_aggregatedAction = nullptr;
    QString m_currentPath;
    bool m_docksByUser = false; // restored from the settings, or a dock dragged: fitRank leaves them
    bool m_rankFitted = false; // for the first profile shown; again as the window is resized
    QString m_loadingPath;
    QString m_lastError;
    QString m_loadNote; // said in the status line once the load ends
    QString m_spanText; // showSpan's last "Showing … of …"
    std::function<QString()> m_chooseOpen;
    std::function<QString(const QString&)> m_chooseSave;
};

} // namespace runlane
