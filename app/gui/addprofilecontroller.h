#pragma once

#include "profileloader.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

class QAction;
class QMenu;
class QWidget;

namespace runlane {

class ProfileDocument;

// File ▸ Add to this profile…: a V8 CPU profile recorded in the same run as
// the open trace is read into it (docs/formats.md, "Adding a CPU profile to a trace"),
// or an Enso Language Server message log into an IDE profile, as a process
// of its own on the same clock (no thread to ask for).
// The file, then the thread its samples belong to when the trace has more
// than one (the trace's main thread preselected), then the trace is loaded
// again with every file added so far and this one, in the background as any
// load; a failure leaves the open profile as it was. Kept out of
// MainWindow, which only places it and hands it a way to load.
class AddProfileController : public QObject
{
    Q_OBJECT

public:
    // Loads `path` with `additions` (MainWindow::openFile).
    using Open = std::function<void(const QString& path, std::vector<ProfileAddition> additions)>;

    AddProfileController(QWidget* window, ProfileDocument* document, Open open);

    void addFileActions(QMenu* file);
    QAction* action() const { return m_action; }
    // Adds `path` to the open profile: asks for the thread if there is a
    // choice, then starts the load. False if none started (no profile, or
    // the choice was cancelled).
    bool add(const QString& path);

    // What a drop of an addable file on an open profile does (askDrop).
    enum class DropChoice { Add, Open, Cancel };
    // Whether `path` can be added to the open profile: the file is a V8
    // CPU profile by its content (detected as a load does, gzip or not,
    // whatever its name) and the profile has threads, or it is a
    // Language Server message log.
    bool canAdd(const QString& path) const;
    // A file dropped on the window, alone: true if it is taken here
    // (canAdd), then, once the drop is over (a dialog inside it would keep
    // the dragging program waiting), the user is asked whether to add it
    // to the open trace (the default), open it instead, or do nothing.
    // False: the window opens it as any drop.
    bool takeDrop(const QString& path);
    // The question of takeDrop().
    DropChoice askDrop(const QString& path);

    // The files added to `profile`, each on the thread it went to: what
    // loads it again as it is (Reload). Empty for null.
    static std::vector<ProfileAddition> additionsOf(const Profile* profile);
    // " + B.cpuprofile" for each added file, for the window's title.
    static QString titleSuffix(const Profile* profile);

    // Replace the dialogs (tests, automation). The file chooser returns ""
    // to cancel; the thread chooser gets the threads as shown and the
    // preselected row, and returns the row chosen or -1 to cancel.
    void setOpenFileChooser(std::function<QString()> chooser) { m_chooseFile = std::move(chooser); }
    void setThreadChooser(std::function<int(const QStringList& threads, int preselected)> chooser)
    {
        m_chooseThread = std::move(chooser);
    }
    // Replaces askDrop()'s dialog; gets the dropped file.
    void setDropChooser(std::function<DropChoice(const QString& path)> chooser) { m_chooseDrop = std::move(chooser); }

private:
    void chooseAndAdd();

    QWidget* m_window;
    ProfileDocument* m_document;
    Open m_open;
    QAction* m_action = nullptr;
    std::function<QString()> m_chooseFile;
    std::function<int(const QStringList&, int)> m_chooseThread;
    std::function<DropChoice(const QString&)> m_chooseDrop;
};

} // namespace runlane
