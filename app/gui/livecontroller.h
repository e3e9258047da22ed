#pragma once

#include "liverecording.h"
#include "livesession.h"
#include "livesource.h"
#include "loadedprofile.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QUrl>

#include <functional>
#include <optional>
#include <memory>

class QAction;
class QLabel;
class QMenu;
class QToolButton;

namespace runlane {

class MainWindow;

// Live mode in the window (File ▸ Attach…, runlane --attach URL): a
// LiveSession's source, recording and recovery file, shown. Each version of
// the recording is prepared on a worker and replaces the open profile in
// place (ProfileDocument::continueProfile: the usage chart grows to the
// right, the rank keeps its sort, selection and scroll). While following,
// the visible range slides with the data; any zoom or pan stops following
// until Follow is pressed again. The status bar says the connection state,
// the data's last refresh and errors. Everything received is autosaved to a
// recovery file (LiveRecovery: offered on the next start if it was never
// saved) and can be saved with File ▸ Save recording….
class LiveController : public QObject
{
    Q_OBJECT

public:
    using SourceFactory = LiveSession::SourceFactory;
    struct AttachChoice {
        QUrl url;
        LiveOptions options;
        int topK = 10;
    };

    LiveController(QMenu* file, MainWindow* window);
    ~LiveController() override;

    // Starts following `url`; false (the error shown in the status bar and
    // returned) when no source can be made for it.
    bool attach(const QUrl& url, const LiveOptions& options, QString* error = nullptr);
    void detach();
    bool isAttached() const { return m_session.isAttached(); }
    bool isFollowing() const { return m_session.isFollowing(); }
    void setFollowing(bool following);
    const LiveRecording* recording() const { return m_session.recording(); }
    LiveSource* source() const { return m_session.source(); }
    QString statusText() const;
    // File ▸ Reload of `path`: true (and said in the status bar) when it is
    // this recording's source, which is no file to read again.
    bool refusesReload(const QString& path) const;
    // File ▸ Save recording… without the dialog.
    bool saveRecording(const QString& path, QString* error = nullptr);
    // Where unsaved recordings are kept: LiveRecovery::defaultFolder().
    static QString recoveryFolder() { return LiveRecovery::defaultFolder(); }
    QString recoveryPath() const { return m_session.recovery().path(); }
    // The recordings a previous run left unsaved, newest first.
    QStringList recoverableFiles() const { return m_session.recovery().recoverableFiles(); }
    // Offers them (at start-up): Save As…, Discard or Later.
    void offerRecovery();
    // Blocks until the profile version being prepared is shown and the
    // recovery file written (tests).
    void finishPendingWork();

    // Tests: another source than LiveSource::create, and the dialogs' answers.
    void setSourceFactory(SourceFactory factory) { m_session.setSourceFactory(std::move(factory)); }
    // Where Save Recording… writes: a file dialog, or the tests' answer;
    // `suggestion` is the file name offered. Empty: cancelled.
    using SavePathChooser = std::function<QString(const QString& suggestion)>;
    void setSavePathChooser(SavePathChooser chooser) { m_chooseSavePath = std::move(chooser); }
    void setAttachChooser(std::function<std::optional<AttachChoice>()> chooser) { m_chooseAttach = std::move(chooser); }

Q_SIGNALS:
    // A version of the recording is shown (its snapshot count).
    void versionShown(std::size_t snapshots);

private:
    std::optional<AttachChoice> askAttach();
    void recorded();
    void prepareNext();
    void prepared();
    void updateStatus();
    void visibleRangeChanged();
    void chooseAndSave();

    MainWindow* m_window;
    // Declared before the watcher: destroyed after it, its source stopped
    // and its recovery file closed once no version is being prepared.
    LiveSession m_session;
    SavePathChooser m_chooseSavePath;
    std::function<std::optional<AttachChoice>()> m_chooseAttach;
    bool m_adjusting = false; // the axis moves because of us, not the user
    QFutureWatcher<LoadedProfile> m_watcher;
    int m_topK = 10;
    QString m_lastAttach = QStringLiteral("http://127.0.0.1:8008/metrics");
    QAction* m_attachAction = nullptr;
    QAction* m_detachAction = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_followAction = nullptr;
    QLabel* m_status = nullptr;
    QToolButton* m_followButton = nullptr;
};

} // namespace runlane
